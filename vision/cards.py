"""Cards taught by camera: each card of the box shown once, then named when held up or laid down.

Each taught card keeps ORB keypoints and descriptors of its one picture. A frame's descriptors are
matched against every taught card at once (Hamming distance, Lowe's ratio test), the few cards
with the most matches are checked with a RANSAC homography (the card is a flat picture seen
under perspective, so its true matches agree on one), and the card with the most inliers is
named. A card is named only when its inliers are enough and clearly ahead of the runner-up;
otherwise the read asks the players for a tap (``ask``), never a guess presented as a read.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

FEATURES = 300           # keypoints kept per taught picture (and per synthetic view of it)
FRAME_FEATURES = 800     # per frame: the table around the card takes its share
VIEWS = ((0.0, 0.0), (0.35, 0.0), (0.0, 0.35), (-0.35, 0.0), (0.0, -0.35))   # tilts taught
RATIO = 0.8              # Lowe's ratio test
CANDIDATES = 3           # cards checked with a homography, by match count
MIN_INLIERS = 14         # tuned on the tuning draws of tests/bench/bench_cards.py
MARGIN = 2.0             # the named card's inliers over the runner-up's


@dataclass(frozen=True)
class CardRead:
    name: str | None      # None: not sure, ask the players
    inliers: int
    runner_up: int
    ask: bool

    def to_json(self) -> dict:
        return {"card": self.name, "inliers": self.inliers, "runner_up": self.runner_up,
                "ask": self.ask}


def _gray(image: np.ndarray) -> np.ndarray:
    if image is None or not isinstance(image, np.ndarray) or image.ndim not in (2, 3) \
            or min(image.shape[:2]) < 32:
        raise ValueError("a card picture is a grey or colour image at least 32 pixels a side")
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image


class CardBook:
    """The box's cards as the camera knows them."""

    def __init__(self, features: int = FEATURES, min_inliers: int = MIN_INLIERS,
                 margin: float = MARGIN):
        self.orb = cv2.ORB_create(nfeatures=features)
        self.frame_orb = cv2.ORB_create(nfeatures=FRAME_FEATURES)
        self.min_inliers, self.margin = min_inliers, margin
        self.names: list[str] = []
        self._points: list[np.ndarray] = []
        self._owner = np.zeros(0, dtype=np.int32)    # descriptor row -> card index
        self._rows = np.zeros((0, 32), dtype=np.uint8)
        self._matcher = None      # an LSH index over every taught descriptor, built on first read

    def teach(self, name: str, image: np.ndarray) -> int:
        """Learn one card from one picture; returns how many features it gave. The picture is
        also seen tilted (as in ASIFT): features of each tilted view, mapped back onto the
        picture, let a card held at an angle be matched."""
        if name in self.names:
            raise ValueError(f"card {name!r} is taught already")
        gray = _gray(image)
        h, w = gray.shape
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        all_points, all_rows = [], []
        for tx, ty in VIEWS:
            dst = src.copy()
            if tx:     # one side pushed away: that side shrinks
                side = [1, 2] if tx > 0 else [0, 3]
                dst[side, 1] = h / 2 + (dst[side, 1] - h / 2) * (1 - abs(tx))
            if ty:
                side = [2, 3] if ty > 0 else [0, 1]
                dst[side, 0] = w / 2 + (dst[side, 0] - w / 2) * (1 - abs(ty))
            warp = cv2.getPerspectiveTransform(src, dst)
            view = cv2.warpPerspective(gray, warp, (w, h), borderValue=255)
            points, rows = self.orb.detectAndCompute(view, None)
            if rows is None:
                continue
            back = cv2.perspectiveTransform(np.float32([p.pt for p in points])[None],
                                            np.linalg.inv(warp))[0]
            all_points.append(back)
            all_rows.append(rows)
        if not all_rows or sum(len(r) for r in all_rows) < self.min_inliers:
            raise ValueError(f"card {name!r}: too little detail in its picture to know it again")
        rows = np.vstack(all_rows)
        self.names.append(name)
        self._points.append(np.vstack(all_points))
        self._rows = np.vstack([self._rows, rows])
        self._owner = np.concatenate([self._owner, np.full(len(rows), len(self.names) - 1,
                                                           dtype=np.int32)])
        self._matcher = None
        return len(rows)

    def read(self, frame: np.ndarray) -> CardRead:
        if not self.names:
            raise ValueError("no card is taught yet")
        points, rows = self.frame_orb.detectAndCompute(_gray(frame), None)
        if rows is None or len(points) < 2:
            return CardRead(None, 0, 0, True)
        first = np.cumsum([0] + [len(p) for p in self._points])
        by_card: dict[int, list[tuple[int, int]]] = {}
        if self._matcher is None:
            # locality-sensitive hashing: sublinear in the taught descriptors (a brute-force
            # match of every frame against a whole deck's is too slow for a Pi)
            self._matcher = cv2.FlannBasedMatcher(
                {"algorithm": 6, "table_number": 6, "key_size": 12, "multi_probe_level": 1}, {})
            self._matcher.add([self._rows])
            self._matcher.train()
        for pair in self._matcher.knnMatch(rows, k=2):
            if len(pair) == 2 and pair[0].distance < RATIO * pair[1].distance:
                card = int(self._owner[pair[0].trainIdx])
                by_card.setdefault(card, []).append((pair[0].queryIdx,
                                                     pair[0].trainIdx - int(first[card])))
        ranked = sorted(by_card, key=lambda c: len(by_card[c]), reverse=True)[:CANDIDATES]
        scores = sorted(((self._inliers(points, c, by_card[c]), c) for c in ranked), reverse=True)
        best, card = scores[0] if scores else (0, -1)
        second = scores[1][0] if len(scores) > 1 else 0
        sure = best >= self.min_inliers and best >= self.margin * max(second, 1)
        return CardRead(self.names[card] if sure else None, best, second, not sure)

    def _inliers(self, points, card: int, pairs: list[tuple[int, int]]) -> int:
        if len(pairs) < 4:
            return 0
        src = np.float32([self._points[card][t] for _, t in pairs])
        dst = np.float32([points[q].pt for q, _ in pairs])
        found, mask = cv2.findHomography(src, dst, cv2.RANSAC, 6.0)
        return int(mask.sum()) if found is not None else 0
