"""Count coloured cubes (Invincible's bag cubes) by colour in a region of the frame.

Cubes are found as blobs that differ from the tray (vision/tray.py), then each
blob's median colour is matched to the nearest reference colour in Lab. The reference
colours are defaults for ordinary plastic cubes; calibrate them from a photo of the real
cubes with ``calibrate``.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.tray import foreground

# BGR references (assumed, typical plastic cubes)
DEFAULT_COLOURS: dict[str, tuple[int, int, int]] = {
    "yellow": (30, 215, 235),
    "orange": (20, 120, 240),
    "blue": (190, 90, 20),
    "purple": (140, 40, 110),
    "black": (30, 30, 30),
    "red": (35, 35, 200),
}


def _lab(bgr) -> np.ndarray:
    px = np.uint8([[bgr]])
    return cv2.cvtColor(px, cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)


class CubeCounter:
    def __init__(self, colours: dict[str, tuple[int, int, int]] | None = None,
                 min_side: float = 8.0):
        self.colours = dict(colours or DEFAULT_COLOURS)
        self.min_side = min_side
        self._refs = {k: _lab(v) for k, v in self.colours.items()}

    def calibrate(self, name: str, bgr_sample: np.ndarray) -> None:
        """Set colour ``name`` from a patch of a real cube."""
        med = np.median(bgr_sample.reshape(-1, 3), axis=0)
        self.colours[name] = tuple(int(v) for v in med)
        self._refs[name] = _lab(self.colours[name])

    def classify(self, bgr) -> str:
        return self.judge(bgr)[0]

    def judge(self, bgr) -> tuple[str, float]:
        """The nearest reference colour and how sure: 1 on a reference, 0.5 halfway between the
        two nearest (a read below the table's threshold waits for a tap)."""
        lab = _lab(bgr)
        w = np.array([0.6, 1.0, 1.0], np.float32)  # lightness counts less than hue
        far = sorted((float(np.sqrt((((lab - ref) * w) ** 2).sum())), k)
                     for k, ref in self._refs.items())
        (d1, best), d2 = far[0], far[1][0] if len(far) > 1 else far[0][0] + 1.0
        return best, 1.0 - d1 / (d1 + d2) if d1 + d2 > 0 else 1.0

    def count(self, frame: np.ndarray, region: tuple[int, int, int, int] | None = None
              ) -> dict[str, int]:
        """Cubes per colour inside ``region`` (x, y, w, h; whole frame when None)."""
        counts = {k: 0 for k in self.colours}
        for cube in self.cubes(frame, region):
            counts[cube["face"]] += 1
        return counts

    def cubes(self, frame: np.ndarray, region: tuple[int, int, int, int] | None = None
              ) -> list[dict]:
        """Each cube inside ``region``: its colour, how sure, its box in the frame. Touching
        cubes of one blob are counted by area, and marked unsure (the count is a guess)."""
        x0 = y0 = 0
        if region is not None:
            x0, y0, w, h = region
            frame = frame[y0:y0 + h, x0:x0 + w]
        mask = foreground(frame)
        if cv2.countNonZero(mask):
            # Once more against the mat with the cubes painted out: in a small area, cubes near
            # its edge can outvote the mat in the tray's coarse median and hide a cube.
            near = cv2.dilate(mask, np.ones((9, 9), np.uint8)) > 0
            if not near.all():
                empty = frame.copy()
                empty[near] = np.median(frame[~near], axis=0)
                mask = foreground(frame, empty_bgr=empty)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        areas = [stats[i][4] for i in range(1, n) if stats[i][4] >= self.min_side ** 2]
        if not areas:
            return []
        unit = float(np.median(areas))
        out = []
        for i in sorted(range(1, n), key=lambda i: (stats[i][0], stats[i][1])):
            bx, by, bw, bh, area = (int(v) for v in stats[i])
            if area < self.min_side ** 2 or area < 0.35 * unit:
                continue
            k = max(1, int(round(area / unit)))  # touching cubes of one colour
            core = cv2.erode((labels == i).astype(np.uint8), np.ones((3, 3), np.uint8))
            px = frame[core > 0] if cv2.countNonZero(core) > 4 else frame[labels == i]
            colour, sure = self.judge(np.median(px, axis=0))
            box = [bx + x0, by + y0, bw, bh]
            sure = round(sure if k == 1 else min(sure, 0.5), 3)
            out += [{"face": colour, "confidence": sure, "box": list(box)} for _ in range(k)]
        return out
