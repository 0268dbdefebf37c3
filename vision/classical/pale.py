"""Pale dice on a pale tray, found by their pips.

A white die on a white table differs from it by little more than its soft shadow and a
faint outline, so the colour difference the finder relies on misses it; its dark pips do
not. Dark, round, pip-sized spots that no found die holds are grouped by distance (the pips
of one face lie within 0.85 of a die's side of each other); the centre of any standard face's pips
is the face's centre, so each group stands for a die of the expected side centred there,
kept only when a die's outline rings it (a speck on the table has no such edge around it).
"""

from __future__ import annotations

import cv2
import numpy as np

PIP_DARK = 40  # a pip is at least this much darker than its surroundings (0-255 grey)
PIP_AREA = (0.02, 0.12)  # a pip's area as a fraction of the die's
EDGE_RATIO = 1.4
PALE_FG = 0.8  # a pale die differs from the tray over at most this share of its square  # the die's outline is this much stronger than the table just beyond it


def _pip_spots(gray: np.ndarray, side: float) -> list[tuple[float, float, float]]:
    """Dark, round spots of a pip's size: (x, y, area) at working scale. (Light pips were
    tried too, for dark dice on dark trays: they found highlights, not dice.)"""
    k = max(3, int(side * 0.4) | 1)
    hat = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT,
                           cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    spots = (hat > PIP_DARK).astype(np.uint8)
    n, _, st, cents = cv2.connectedComponentsWithStats(spots, connectivity=8)
    die_area = side * side
    out = []
    for j in range(1, n):
        x, y, w, h, a = st[j]
        if not PIP_AREA[0] * die_area <= a <= PIP_AREA[1] * die_area:
            continue
        if max(w, h) > 2.0 * min(w, h) or a < 0.5 * w * h:  # round and solid
            continue
        out.append((float(cents[j][0]), float(cents[j][1]), float(a)))
    return out


def _groups(spots: list[tuple[float, float, float]], side: float) -> list[list[int]]:
    """Single-linkage groups of spots closer than 0.85 of a die's side (the corner pips of a
    two are 0.75 of a side apart)."""
    n = len(spots)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            if np.hypot(spots[i][0] - spots[j][0], spots[i][1] - spots[j][1]) < 0.85 * side:
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _ringed(gray: np.ndarray, cx: float, cy: float, side: float) -> bool:
    """Whether a die's outline rings (cx, cy): edges at about half a side out, stronger
    than the table a little further out."""
    h, w = gray.shape
    r_out = int(np.ceil(1.2 * side))
    x0, x1 = int(cx) - r_out, int(cx) + r_out + 1
    y0, y1 = int(cy) - r_out, int(cy) + r_out + 1
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return False
    patch = cv2.morphologyEx(gray[y0:y1, x0:x1], cv2.MORPH_GRADIENT,
                             np.ones((3, 3), np.uint8)).astype(np.float32)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    r = np.hypot(xx - cx, yy - cy) / side
    outline = patch[(r > 0.45) & (r < 0.8)]
    beyond = patch[(r > 0.9) & (r < 1.2)]
    return float(outline.mean()) > EDGE_RATIO * (float(beyond.mean()) + 1.0)


def _windows(seeds: list[tuple[float, float]], reach: float, w: int, h: int):
    """Boxes around the seeds, merged where they overlap (each pixel filtered once)."""
    boxes = sorted((max(0, int(x - reach)), max(0, int(y - reach)),
                    min(w, int(x + reach) + 1), min(h, int(y + reach) + 1)) for x, y in seeds)
    merged: list[list[int]] = []
    for b in boxes:
        for m in merged:
            if b[0] < m[2] and m[0] < b[2] and b[1] < m[3] and m[1] < b[3]:
                m[:] = [min(m[0], b[0]), min(m[1], b[1]), max(m[2], b[2]), max(m[3], b[3])]
                break
        else:
            merged.append(list(b))
    return merged


def pale_dice(small_bgr: np.ndarray, fg: np.ndarray, taken: np.ndarray, pieces: np.ndarray,
              side: float, seeds: list[tuple[float, float]]) -> list[tuple[np.ndarray, set[int]]]:
    """Pale dice no other die covers: (pixel set (x, y) at working scale, the ids in
    ``pieces`` it replaces).

    ``fg`` is the finder's 0/255 mask of what differs from the tray; ``taken`` a 0/255
    mask of what the finder already holds (dice and large blobs);
    ``pieces`` labels (1, 2, ...) the dice it found too small to be whole, which a pale die
    found here replaces; ``side`` is the expected die side at working scale. Only the
    surroundings of ``seeds`` are searched (small blobs and those pieces: a pale die shows
    at least its pips there), so a frame without any costs nothing."""
    if side < 8 or not seeds:
        return []
    gray = cv2.cvtColor(small_bgr, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    taken = taken.copy()
    found = {}
    for x0, y0, x1, y1 in _windows(seeds, 1.2 * side, w, h):
        for x, y, a in _pip_spots(gray[y0:y1, x0:x1], side):
            found[(round(x + x0), round(y + y0))] = (x + x0, y + y0, a)
    spots = [s for s in found.values() if not taken[int(s[1]), int(s[0])]]
    return _dice_from_spots(spots, gray, fg, taken, pieces, side)


def _dice_from_spots(spots, gray, fg, taken, pieces, side):
    """Dice from groups of pip spots of one polarity; each die found is marked in ``taken``."""
    h, w = gray.shape
    out = []
    for g in _groups(spots, side):
        if len(g) > 6:
            continue
        # the pips of a face are alike; smaller dark bits are the die's shaded edge
        biggest = max(spots[i][2] for i in g)
        pts = np.array([spots[i][:2] for i in g if spots[i][2] >= 0.5 * biggest])
        cx, cy = pts.mean(0)
        if np.max(np.hypot(pts[:, 0] - cx, pts[:, 1] - cy)) > 0.6 * side:
            continue  # spread wider than a face
        if not _ringed(gray, cx, cy, side):
            continue
        square = cv2.boxPoints(((cx, cy), (side, side), _face_angle(pts)))
        if square.min() < 0 or square[:, 0].max() >= w or square[:, 1].max() >= h:
            continue
        m = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(m, np.round(square).astype(np.int32), 1)
        ys, xs = np.nonzero(m)
        if len(xs) == 0 or taken[ys, xs].mean() > 0.3 * 255:
            continue
        if fg[ys, xs].mean() > PALE_FG * 255:
            continue  # mostly unlike the tray: pieces of other dice, not a pale die
        ids = set(pieces[ys, xs].tolist()) - {0}
        if len(ids) > 1:
            continue  # straddles pieces of two dice: the dark gap between them, not pips
        out.append((np.stack([xs, ys], axis=1), ids))
        taken[ys, xs] = 255
    return out


def _face_angle(pts: np.ndarray) -> float:
    """The face's turn in degrees: the two farthest pips of any standard face with two or
    more lie on a diagonal of it, so its edges are 45 degrees off that line."""
    if len(pts) < 2:
        return 0.0
    d = np.hypot(pts[:, None, 0] - pts[None, :, 0], pts[:, None, 1] - pts[None, :, 1])
    i, j = np.unravel_index(int(np.argmax(d)), d.shape)
    return float(np.degrees(np.arctan2(pts[j, 1] - pts[i, 1], pts[j, 0] - pts[i, 0]))) + 45.0
