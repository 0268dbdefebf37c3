"""A hand reaching into the tray: a skin-coloured patch, several dice large, that comes in
from the frame's edge and differs in colour from the table (so a wooden or skin-toned
table is not a hand). The learned detector's obstruction map did not learn the rendered
hand (docs/benchmarks.md), so the reader asks this too (about 1 ms a frame).

The skin range is the usual YCrCb box (Chai and Ngan, 1999). The table's colour is the
frame's median chroma, which dice, too small and too few, do not move; ``CHROMA`` was chosen
on rendered scenes from the tuning seeds, ten per condition with a hand and the same without
(16: 78 of 90 hands found, none of the 90 plain scenes called obstructed; 12: 82 and 3), and
the 350 real training and tuning photos (none holds a hand; none is called obstructed).
"""

from __future__ import annotations

import cv2
import numpy as np

SIDE = 160  # the frame's long side for this test, px (a hand is large)
SKIN_LO, SKIN_HI = (50, 135, 80), (255, 180, 130)  # Y, Cr, Cb
CHROMA = 16  # least |Cr - table| + |Cb - table| of a hand's pixel
HAND_DICE = 3.0  # a hand covers at least this many dice' area (the classical finder's rule)
LEAST_SHARE = 0.02  # ... and at least this share of the frame


def reaches_in(frame_bgr: np.ndarray, die_side: float | None = None) -> bool:
    """Whether a hand reaches into the frame. ``die_side``: a die's side in frame pixels
    (the detector's), if any die was seen."""
    h, w = frame_bgr.shape[:2]
    s = SIDE / max(h, w)
    small = cv2.resize(frame_bgr, (max(1, round(w * s)), max(1, round(h * s))),
                       interpolation=cv2.INTER_AREA)
    ycc = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
    skin = cv2.inRange(ycc, SKIN_LO, SKIN_HI)
    mask = cv2.morphologyEx(cv2.bitwise_and(skin, far_from_table(ycc)), cv2.MORPH_OPEN,
                            np.ones((3, 3), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    sh, sw = mask.shape
    least = max(HAND_DICE * (die_side * s) ** 2 if die_side else 0.0, LEAST_SHARE * sh * sw)
    for x, y, bw, bh, area in stats[1:]:
        if area >= least and (x <= 0 or y <= 0 or x + bw >= sw or y + bh >= sh):
            return True
    return False


def far_from_table(ycc: np.ndarray) -> np.ndarray:
    """0/255: pixels whose chroma differs from the table's (the frame's median) by more than
    ``CHROMA``, |Cr - table| + |Cb - table|, in OpenCV's saturating uint8 arithmetic (exact:
    a sum saturates at 255, far above CHROMA; numpy's int16 route cost 0.5 ms a frame)."""
    table = np.median(ycc[::3, ::3, 1:].reshape(-1, 2), axis=0).astype(np.int16)
    _, cr, cb = cv2.split(ycc)
    far = cv2.add(cv2.absdiff(cr, int(table[0])), cv2.absdiff(cb, int(table[1])))
    return cv2.threshold(far, CHROMA, 255, cv2.THRESH_BINARY)[1]
