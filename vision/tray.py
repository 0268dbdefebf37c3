"""What differs from the empty tray: a colour and edge difference from the tray's own colour,
estimated at every pixel with a coarse median (light gradients and uneven trays do not
matter). The coloured-cube counter finds its cubes in this mask; dice are found by the
learned detector (vision/detector.py).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.order_stats import median
from vision.shrink import Shrunk

FG_FLOOR = 22.0  # least colour difference from the tray that counts as something on it


def _background(lab: np.ndarray) -> np.ndarray:
    """The empty-tray colour at every pixel: a coarse median that dice are too small to move."""
    h, w = lab.shape[:2]
    small = cv2.resize(lab, (max(8, w // 8), max(8, h // 8)), interpolation=cv2.INTER_AREA)
    small = cv2.medianBlur(small, 7)
    small = cv2.medianBlur(small, 5)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _difference(lab: np.ndarray, bg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The difference from the tray's colour, and the lightness plane (split out here, so the
    edges need not take OpenCV's copy of the Lab image's strided view). The difference:
    |lightening| + |darkening| / 2 + 2 * chroma change, saturating at 255 (OpenCV's saturating
    uint8 arithmetic: numpy's int16 route cost 0.45 ms a frame).
    Shadows are darker but not more coloured: darkening counts at half weight. A function of
    its own so that its eight planes are gone before the masks are made (1.5-2 MB of the peak
    RSS reading the 1024x1024 tray photos)."""
    L, a, b = cv2.split(lab)
    Lb, ab, bb = cv2.split(bg)
    dl = cv2.add(cv2.subtract(L, Lb), cv2.add(cv2.subtract(Lb, L), 1) >> 1)
    chroma = cv2.add(cv2.absdiff(a, ab), cv2.absdiff(b, bb))
    return cv2.add(dl, cv2.add(chroma, chroma)), L


def above(img: np.ndarray, thr: float) -> np.ndarray:
    """0/255 where a uint8 image is over ``thr``: OpenCV's threshold, which compares with
    floor(thr), the same for whole pixel values (numpy's compare and scale: 0.15 ms a plane)."""
    return cv2.threshold(img, thr, 255, cv2.THRESH_BINARY)[1]


def working_foreground(small: np.ndarray, small_region: np.ndarray | None,
                       shrunk: Shrunk | None, region: np.ndarray | None) -> np.ndarray:
    """``foreground(small, small_region)`` of a frame's reduction, made once a read where the
    frame's reductions are shared (``shrunk``; ``region``: the frame-sized mask that
    ``small_region`` reduces): the classical finder and the fused reader's look for dice left
    out of a group (vision/leftover.py) both need it at the working size, about 1 ms."""
    if shrunk is None:
        return foreground(small, small_region)
    return shrunk.kept(("foreground", small.shape[:2], id(region)),
                       lambda: foreground(small, small_region))


def foreground(frame_bgr: np.ndarray, region: np.ndarray | None = None,
               empty_bgr: np.ndarray | None = None) -> np.ndarray:
    """A 0/255 mask of pixels that differ from the tray (dice, pips, hands), working scale;
    the tray's colour is estimated from ``empty_bgr`` (the frame with what lies on it painted
    out, same size) where given, else from the frame itself."""
    lab = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2LAB)
    diff, lightness = _difference(lab, _background(
        lab if empty_bgr is None else cv2.cvtColor(empty_bgr, cv2.COLOR_BGR2LAB)))
    # Edges help pale dice on pale trays: their outline and pips are sharp.
    grad = cv2.morphologyEx(lightness, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    noise = median(diff[::4, ::4]) + 1.0
    mask = above(diff, max(FG_FLOOR, 4.0 * noise))
    edges = above(grad, max(40.0, 4.0 * (median(grad[::4, ::4]) + 1)))
    edges = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    mask = cv2.bitwise_or(mask, edges)
    if region is not None:
        mask = cv2.bitwise_and(mask, region)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    # Fill small holes (pips of the same colour as the tray), never a whole tray inside a rim.
    contours, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hier is not None:
        max_hole = mask.shape[0] * mask.shape[1] * 0.01
        holes = [c for c, hh in zip(contours, hier[0])
                 if hh[3] >= 0 and cv2.contourArea(c) < max_hole]
        cv2.drawContours(mask, holes, -1, 255, thickness=cv2.FILLED)
    return mask
