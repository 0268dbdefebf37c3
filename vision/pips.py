"""Read a standard pip d6 by counting the pips on its top face.

The die's crop is brought to a fixed size; the die body colour is estimated locally with a
large median (pips are too small to survive it), pips are the compact blobs that differ from
the body, whichever their colour. Their count is the face; the agreement of the pips with
each other (size, roundness) and with the standard layouts gives the confidence.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.finder import Candidate

NORM = 64  # a die's side in the normalised crop


@dataclass
class PipRead:
    count: int
    confidence: float
    pips: list  # (x, y, area) in normalised crop


def die_crop(frame: np.ndarray, cand: Candidate, norm: int = NORM, pad: float = 0.12):
    """The die cut out, scaled so its side is ``norm`` px, with its mask (0/255)."""
    x, y, w, h = cand.box
    side = max(4.0, float(np.sqrt(cand.rect[1][0] * cand.rect[1][1])))
    f = norm / side
    px, py = int(w * pad) + 2, int(h * pad) + 2
    H, W = frame.shape[:2]
    x0, y0 = max(0, x - px), max(0, y - py)
    x1, y1 = min(W, x + w + px), min(H, y + h + py)
    crop = frame[y0:y1, x0:x1]
    size = (max(8, round((x1 - x0) * f)), max(8, round((y1 - y0) * f)))
    interp = cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR
    crop = cv2.resize(crop, size, interpolation=interp)
    mask = np.zeros(crop.shape[:2], np.uint8)
    pts = ((cand.contour.reshape(-1, 2).astype(np.float32) - (x0, y0)) * f).astype(np.int32)
    cv2.fillPoly(mask, [pts], 255)
    return crop, mask, f


def find_pips(crop: np.ndarray, mask: np.ndarray) -> list:
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
    core = cv2.erode(mask, np.ones((9, 9), np.uint8))
    if cv2.countNonZero(core) < 50:
        core = mask
    # Outside the die, pretend the die goes on, so the local median sees body, not tray.
    colour = np.median(lab[core > 0], axis=0).astype(np.uint8)
    filled = lab.copy()
    filled[core == 0] = colour
    k = NORM // 2 | 1
    body = cv2.medianBlur(filled, k)
    d = np.abs(lab.astype(np.int16) - body.astype(np.int16))
    dist = d[..., 0] + 2 * (d[..., 1] + d[..., 2])
    dist = np.clip(dist, 0, 255).astype(np.uint8)
    inner = cv2.erode(mask, np.ones((5, 5), np.uint8), iterations=1)
    edge_dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    vals = dist[inner > 0]
    if vals.size < 50:
        return []
    otsu, _ = cv2.threshold(vals.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    thr = max(30.0, min(otsu, 70.0))
    bin_ = ((dist > thr) & (inner > 0)).astype(np.uint8) * 255
    bin_ = cv2.morphologyEx(bin_, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    n, labels, stats, cents = cv2.connectedComponentsWithStats(bin_, connectivity=8)
    a_norm = NORM * NORM
    pips = []
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if not (0.004 * a_norm <= area <= 0.09 * a_norm):
            continue
        if max(w, h) > 1.9 * min(w, h):
            continue
        if area < 0.55 * w * h:
            continue
        cx, cy = float(cents[i][0]), float(cents[i][1])
        if edge_dist[min(int(cy), edge_dist.shape[0] - 1), min(int(cx), edge_dist.shape[1] - 1)] < 0.12 * NORM:
            continue
        strength = float(dist[labels == i].mean())
        pips.append((cx, cy, float(area), strength))
    if pips:
        top = max(p[3] for p in pips)
        pips = [p for p in pips if p[3] >= 0.55 * top]
    if len(pips) >= 2:
        med = float(np.median([p[2] for p in pips]))
        pips = [p for p in pips if 0.35 * med <= p[2] <= 2.8 * med]
    return pips


def read_pips(frame: np.ndarray, cand: Candidate) -> PipRead:
    crop, mask, _ = die_crop(frame, cand)
    pips = find_pips(crop, mask)
    n = len(pips)
    if n == 0:
        return PipRead(0, 0.0, pips)
    conf = 0.95
    if n > 6:
        conf = 0.2
    elif n >= 2:
        areas = np.array([p[2] for p in pips])
        cv = float(areas.std() / areas.mean())
        conf -= max(0.0, cv - 0.25)
    return PipRead(min(n, 6), max(0.0, min(1.0, conf)), pips)
