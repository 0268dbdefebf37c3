"""The classical recognizer's finder (kept beside the learned detector until that one reads
better on every held-out set: docs/benchmarks.md). Find every die in a frame: a colour/brightness difference from the tray's background,
cleaned up, with touching dice split apart by their expected size.

The finder knows nothing about faces. It returns `Candidate`s: an axis-aligned box and a
rotated rectangle in frame pixels, plus the die's mask, for the face readers.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.classical.pale import pale_dice
from vision.order_stats import median, percentile
from vision.shrink import Shrunk
from vision.tray import FG_FLOOR, working_foreground  # noqa: F401 (FG_FLOOR: pale.py's floor)

WORK_SIDE = 512  # the frame is reduced by an integer factor to at most this (speed)
SPLIT_SOLIDITY = 0.86  # a blob less solid than this is several dice
SPLIT_ELONG = 1.55  # ... and so is one whose box is longer than this
PEAK_HALF, PEAK_MAX = 0.55, 0.8  # watershed markers for touching dice
WALL_SPLIT_MAX = 5.0  # a piece left by the wall opening may hold this many touching dice
GROUP_MAX = 8.0  # ... when the whole blob is no larger than this many dice (a tray rim is)
HAND_DICE = 3.0  # a blob this many dice large reaching in from the frame's edge is a hand
COLOUR_WEIGHT = 1.0  # in a k-means cut of touching dice, 40 in Lab weighs half a die's side
SPLIT_MIN = 1.1  # a blob over this many dice may be several (dice differ in size)
PAIR_SOLIDITY, PAIR_ELONG = 0.8, 1.7  # ... below 1.4 dice only when this dented and long
GROUP_SIDES = 4.5  # a blob wider than this many dice may be a wall, not a group of dice
OPEN_KEEP = 0.65  # an opening that keeps this much of a group has only cut bridges
PALE_PIECE = 0.7  # a die found with less than this of a die's area may be a pale die's piece


@dataclass
class Candidate:
    box: tuple[int, int, int, int]  # x, y, w, h in frame pixels
    rect: tuple  # cv2 rotated rect ((cx, cy), (w, h), angle) in frame pixels
    contour: np.ndarray  # int32 points in frame pixels
    area: float  # in frame pixels

    @property
    def side(self) -> float:
        return float(np.sqrt(max(self.area, 1.0)))


@dataclass
class Scene:
    dice: list[Candidate]
    obstructed: bool  # something large (a hand) reaches into the tray
    scale: float  # working scale used


def _hull(points: np.ndarray) -> np.ndarray:
    """Convex hull of a pixel set, from its outline (far fewer points than pixels)."""
    x0, y0 = points.min(0)
    x1, y1 = points.max(0)
    m = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
    m[points[:, 1] - y0, points[:, 0] - x0] = 1
    return _mask_hull(m, (x0, y0))


def _mask_hull(mask: np.ndarray, offset: tuple[int, int]) -> np.ndarray:
    """Convex hull of a 0/1 mask's outline, shifted by ``offset``."""
    cs, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return cv2.convexHull(np.vstack(cs)) + np.array(offset, np.int32)


def _split(points: np.ndarray, k: int, feats: np.ndarray | None = None) -> list[np.ndarray]:
    data = points.astype(np.float32) if feats is None else feats
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(7)
    _, labels, _ = cv2.kmeans(data, k, None, crit, 3, cv2.KMEANS_PP_CENTERS)
    labels = labels.ravel()
    parts = [points[labels == i] for i in range(k)]
    return parts if feats is None else [_largest_piece(p) for p in parts if len(p)]


def _largest_piece(points: np.ndarray) -> np.ndarray:
    """The largest 8-connected piece of a pixel set (a colour cluster also takes the other
    die's pips and specks of its edge; they are not part of this die)."""
    x0, y0 = points.min(0)
    m = np.zeros((points[:, 1].max() - y0 + 1, points[:, 0].max() - x0 + 1), np.uint8)
    m[points[:, 1] - y0, points[:, 0] - x0] = 1
    n, lab, st, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
    if n <= 2:
        return points
    keep = 1 + int(np.argmax(st[1:, cv2.CC_STAT_AREA]))
    return points[lab[points[:, 1] - y0, points[:, 0] - x0] == keep]


def _split_touching(bgr: np.ndarray, blob: np.ndarray, die_area: float, k: int,
                    offset: tuple[int, int]) -> list[np.ndarray]:
    """Touching dice: one marker per die from the distance transform, then a watershed."""
    ox, oy = offset
    pad = 2
    blob = cv2.copyMakeBorder(blob, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    bgr = cv2.copyMakeBorder(bgr, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    dist = cv2.distanceTransform(blob, cv2.DIST_L2, 5)
    half = np.sqrt(die_area) / 2
    # a die's core: far from the blob's edge both in die units and relative to the deepest
    # point (dice of unequal size keep a core each; a neck between two dice does not)
    level = max(PEAK_HALF * half, PEAK_MAX * float(dist.max()))
    peaks = (dist > level).astype(np.uint8)
    n, markers = cv2.connectedComponents(peaks)
    if n - 1 < 2:
        ys, xs = np.nonzero(blob)
        pts = np.stack([xs + ox - pad, ys + oy - pad], axis=1)
        # no separate cores: cut by position and colour (touching dice often differ in
        # colour; a colour step of 40 in Lab weighs as much as half a die's side)
        lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)[ys, xs].astype(np.float32)
        w = np.float32(COLOUR_WEIGHT * half / 40.0)
        feats = np.hstack([pts.astype(np.float32), lab * w])
        return _split(pts, k, feats)
    markers = markers.astype(np.int32) + 1
    markers[(blob > 0) & (peaks == 0)] = 0
    cv2.watershed(bgr, markers)
    parts = []
    for m in range(2, n + 1):
        ys, xs = np.nonzero((markers == m) & (blob > 0))
        if len(xs):
            parts.append(np.stack([xs + ox - pad, ys + oy - pad], axis=1))
    return parts


def _candidates(parts, scale: float, min_area: float) -> list[Candidate]:
    """Candidates (in frame pixels) from pixel sets found at working scale."""
    out = []
    for p in parts:
        if len(p) < min_area * 0.5:
            continue
        c = _candidate(_hull(p), float(len(p)), scale)
        if c is not None:
            out.append(c)
    return out


def _candidate(hull: np.ndarray, parea: float, scale: float) -> Candidate | None:
    """A candidate (in frame pixels) from a hull and pixel count at working scale, unless
    it is too small, too long or too hollow to be a die."""
    rect = cv2.minAreaRect(hull)
    (rw, rh) = rect[1]
    if min(rw, rh) < 4 or max(rw, rh) / max(1e-3, min(rw, rh)) > 2.2:
        return None
    # Long thin things and loose rings are not dice.
    if parea / max(1.0, rw * rh) < 0.5:
        return None
    inv = 1.0 / scale
    hull_f = (hull.astype(np.float32) * inv).astype(np.int32)
    bx, by, bw2, bh2 = cv2.boundingRect(hull_f)
    r = ((rect[0][0] * inv, rect[0][1] * inv), (rw * inv, rh * inv), rect[2])
    return Candidate((bx, by, bw2, bh2), r, hull_f, parea * inv * inv)


def _dice_off_wall(small, labels, i, bbox, die_area, scale, min_area,
                   groups: bool = True) -> list[Candidate]:
    """Die-sized, die-thick pieces of a large blob (a tray wall with dice against it, or a
    chain of dice joined by their shadows): an opening by a disk of most of a die's width
    removes the thinner wall or bridges. With ``groups`` (a blob that does not reach the
    frame's edge, so not a wall or a hand), a piece that still holds a few dice is split."""
    x, y, bw, bh = bbox
    side = float(np.sqrt(die_area))
    k = max(3, int(side * 0.7) | 1)
    blob = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
    opened = cv2.morphologyEx(blob, cv2.MORPH_OPEN,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, lab2, st2, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    out = []
    for j in range(1, n):
        jx, jy, jw, jh, ja = st2[j]
        if 0.5 * die_area <= ja <= 1.6 * die_area:
            ys, xs = np.nonzero(lab2 == j)
            out.extend(_candidates([np.stack([xs + x, ys + y], axis=1)], scale, min_area))
        elif groups and 1.6 * die_area < ja <= WALL_SPLIT_MAX * die_area \
                and max(jw, jh) <= 0.25 * max(small.shape[:2]):
            # a compact group of touching dice left after the opening (not a wall's length)
            piece = (lab2[jy:jy + jh, jx:jx + jw] == j).astype(np.uint8)
            parts = _split_touching(small[y + jy:y + jy + jh, x + jx:x + jx + jw], piece,
                                    die_area, int(round(ja / die_area)), (x + jx, y + jy))
            out.extend(_candidates(parts, scale, min_area))
    return out


def _with_pale_dice(small, dice, labels, stats, die_area, scale, min_area, region=None,
                    mask=None):
    """Add dice the colour of the tray, found by their pips (vision.pale), where no die was
    found or only a piece of one (a pale die's shaded edge and pips make a small blob).
    ``mask``: the 0/255 foreground ``labels`` were made from, where the caller has it."""
    h, w = small.shape[:2]
    big = np.zeros(len(stats), np.uint8)
    big[1:][stats[1:, cv2.CC_STAT_AREA] > 3 * die_area] = 255  # walls, hands, groups
    taken = big.take(labels)  # big[labels], a third of the time
    if region is not None:
        taken[region == 0] = 255  # outside the tray
    pieces = np.zeros((h, w), np.int32)  # 1 + index of a die found only in part
    seeds = []  # where a pale die's pips may be: dice found in part, and blobs no die holds
    for n, c in enumerate(dice):
        hull = np.round(c.contour * scale).astype(np.int32)
        if c.area * scale * scale < PALE_PIECE * die_area:
            cv2.fillConvexPoly(pieces, hull, n + 1)
            seeds.append((c.rect[0][0] * scale, c.rect[0][1] * scale))
        else:
            cv2.fillConvexPoly(taken, hull, 255)
    areas = stats[1:, cv2.CC_STAT_AREA]
    for j in np.nonzero((areas >= 4) & (areas <= 3 * die_area))[0] + 1:
        cx, cy = stats[j, 0] + stats[j, 2] // 2, stats[j, 1] + stats[j, 3] // 2
        if not taken[cy, cx]:
            seeds.append((float(cx), float(cy)))
    if not seeds:
        return dice
    # every foreground pixel has a label: the mask itself, where given
    fg = (labels > 0).astype(np.uint8) * 255 if mask is None else mask
    found = pale_dice(small, fg, taken, pieces, float(np.sqrt(die_area)), seeds)
    if not found:
        return dice
    drop = {i - 1 for _, ids in found for i in ids}
    kept = [c for n, c in enumerate(dice) if n not in drop]
    return kept + _candidates([p for p, _ in found], scale, min_area)


def find_dice(frame_bgr: np.ndarray, region: np.ndarray | None = None,
              die_side: float | None = None, shrunk: Shrunk | None = None) -> Scene:
    """Every die-like blob in the frame.

    ``region`` is an optional 0/255 mask (frame size) of the tray from calibration.
    ``die_side`` is the expected die side in frame pixels when known (calibration); otherwise
    it is estimated from the blobs themselves. ``shrunk``: the frame's reductions, where
    another reader of the frame makes them too.
    """
    h, w = frame_bgr.shape[:2]
    # an integer reduction: fast, and plenty for finding dice (pips are read at full size)
    scale = 1.0 / max(1, int(np.ceil(max(h, w) / WORK_SIDE)))
    shrunk = shrunk or Shrunk(frame_bgr)
    small = frame_bgr if scale == 1.0 else shrunk.to(round(w * scale), round(h * scale))
    sh, sw = small.shape[:2]
    reg = None
    if region is not None:
        reg = cv2.resize(region, (sw, sh), interpolation=cv2.INTER_NEAREST)
    mask = working_foreground(small, reg, shrunk, region)
    # 16-bit labels (the opened mask holds far fewer than 65536 blobs): 2.5x faster
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8,
                                                               ltype=cv2.CV_16U)
    frame_area = sh * sw
    min_area = max(30.0, frame_area * 0.0003)
    blobs = []
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if area < min_area:
            continue
        blobs.append((i, x, y, bw, bh, area))
    obstructed = False
    # Expected die area: the median of compact, square-ish blobs.
    squares = []
    for i, x, y, bw, bh, area in blobs:
        fill = area / float(bw * bh)
        if 0.6 < bw / bh < 1.6 and fill > 0.55 and area < frame_area * 0.05:
            squares.append(area)
    guessed = False
    if die_side:
        die_area = (die_side * scale) ** 2
    elif squares:
        # specks of texture are squarish too: judge the die size among the larger blobs
        big = percentile(squares, 90)
        die_area = median([a for a in squares if a >= 0.25 * big])
    elif blobs:
        # no die lies alone (all touch a neighbour or a shadow joins them): a die's half
        # side is still the depth of the distance transform inside any blob of dice
        dt = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
        depths = [float(dt[y:y + bh, x:x + bw][labels[y:y + bh, x:x + bw] == i].max())
                  for i, x, y, bw, bh, area in blobs if area < frame_area * 0.05]
        die_area = (2.0 * median(depths)) ** 2 if depths else None
        guessed = True  # a weaker estimate (a long die's depth is its short side): split
        # only blobs that clearly hold several dice
    else:
        die_area = None
    dice: list[Candidate] = []
    for i, x, y, bw, bh, area in blobs:
        # a tray wall, a hand or a long chain of dice; a compact group of dice at close
        # range is wide too, but not many dice wide
        wide = max(bw, bh) > 0.3 * max(sw, sh) and (
            not die_area or max(bw, bh) > GROUP_SIDES * np.sqrt(die_area))
        if wide or area > frame_area * 0.08:
            touches = x <= 1 or y <= 1 or x + bw >= sw - 1 or y + bh >= sh - 1
            if touches or area > frame_area * 0.2:
                obstructed = obstructed or touches
            if die_area:  # dice against a tray wall join it: keep the die-thick parts
                dice.extend(_dice_off_wall(small, labels, i, (x, y, bw, bh), die_area, scale,
                                           min_area, groups=not touches and area <= GROUP_MAX * die_area))
            continue
        k = 1
        if die_area:
            if area < die_area * 0.35:
                continue
            if area > HAND_DICE * die_area and (x <= 1 or y <= 1 or x + bw >= sw - 1
                                                 or y + bh >= sh - 1):
                # several dice' worth reaching in from the frame's edge: a hand, perhaps
                # holding dice; what it holds is not a roll
                obstructed = True
                continue
            if area > (2.2 if guessed else SPLIT_MIN) * die_area:
                # One die is a convex, squarish blob; touching dice make a dented or long one.
                cs, _ = cv2.findContours((labels[y:y + bh, x:x + bw] == i).astype(np.uint8),
                                         cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
                hull = cv2.convexHull(np.vstack(cs))
                solidity = area / max(1.0, cv2.contourArea(hull))
                (rw, rh) = cv2.minAreaRect(hull)[1]
                elong = max(rw, rh) / max(1.0, min(rw, rh))
                # dice differ in size (perspective, mixed dice): a small blob that is both
                # dented and long is still two dice
                small_pair = area < 1.4 * die_area and not (
                    solidity < PAIR_SOLIDITY and elong > PAIR_ELONG)
                if not small_pair and (solidity < SPLIT_SOLIDITY or elong > SPLIT_ELONG
                                       or area > 3.2 * die_area):
                    k = max(2, min(int(round(area / die_area)), 12))
        blob = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
        if k == 1:  # the blob's own outline (no pixel list needed)
            c = _candidate(_mask_hull(blob, (x, y)), float(area), scale)
            if c is not None and area >= min_area * 0.5:
                dice.append(c)
            continue
        # dice joined by thin bridges (a shadow, a corner) fall apart when opened
        pieces = _dice_off_wall(small, labels, i, (x, y, bw, bh), die_area, scale, min_area)
        kept = sum(c.area for c in pieces) * scale * scale
        if len(pieces) >= 2 and kept >= OPEN_KEEP * area:
            dice.extend(pieces)
            continue
        parts = _split_touching(small[y:y + bh, x:x + bw], blob, die_area, k, (x, y))
        dice.extend(_candidates(parts, scale, min_area))
    if die_area:
        dice = _with_pale_dice(small, dice, labels, stats, die_area, scale, min_area, reg, mask)
    dice.sort(key=lambda c: (c.box[1] // 20, c.box[0]))
    return Scene(dice, obstructed, scale)
