"""Read a standard pip d6 by counting the pips on its top face.

The die's crop is brought to a fixed size; the die body colour is estimated locally with a
large median (pips are too small to survive it), and pips are the compact, round blobs that
differ from the body, whichever their colour, and are ringed by body colour. Several
thresholds and two guesses of the face colour give several candidate pip sets (also with
one stray blob left out, or those that stand little out of their surroundings); the set that
best fits a standard layout of its count (1 to 6, any rotation) wins, less any doubts (a two
or three off the face's diagonal, a small set with a pip that is only a bevel's highlight or
dark corner). The fit's error gives the confidence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.classical.finder import Candidate
from vision.order_stats import median

NORM = 64  # a die's side in the normalised crop
_K_CORE = np.ones((NORM // 7, NORM // 7), np.uint8)
_K_INNER = np.ones((NORM // 13, NORM // 13), np.uint8)
# openings cut the thin necks joining a pip to a shaded side or to its neighbour
_K_OPEN = {n: cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (n, n)) for n in (3, 5, 6, 7)}


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
    cv2.fillPoly(mask, [cv2.convexHull(pts)], 255)
    return crop, mask, f


# Tuning, in units of the normalised crop (NORM px per die side) where lengths are involved.
RING_MIN = 8  # of 16 points around a pip that must be body-coloured
SPLIT_MIN = 2  # least cores for a non-round blob to count as touching pips
SPLIT_PEAK = 0.7  # ... else cores this far from the threshold to the blob's peak difference
STRENGTH_MIN = 0.55  # a pip's contrast against the strongest pip's
THR_K = 0.8  # default threshold, times Otsu's, on the distance from the body colour
THR_MAX = 110.0
RING_GAP = 0.02  # the ring's distance outside the pip
ROI_MARGIN = 9  # px around the inner face where pip rings are looked at
EDGE_MIN = 0.1  # least distance of a pip's centre from the die's outline


def face_colour(lab: np.ndarray, core: np.ndarray, band=(40, 85)) -> np.ndarray:
    """The top face's colour: the lit top sits between the shaded sides/shadow (darker) and
    the brightest pixels (white pips, highlights), so take the middle-upper band of brightness."""
    hist = cv2.calcHist([lab], [0], core, [256], [0, 256]).ravel()
    cdf = np.cumsum(hist) / max(1.0, float(hist.sum()))
    lo, hi = np.searchsorted(cdf, (band[0] / 100.0, band[1] / 100.0)).tolist()
    sel = cv2.bitwise_and(cv2.inRange(lab, (lo, 0, 0), (hi, 255, 255)), core)
    if cv2.countNonZero(sel) < 10:
        sel = core
    # the median of each channel over the band, from its histogram: the first level whose
    # cumulative count reaches half
    cum = np.cumsum(np.column_stack([cv2.calcHist([lab], [ch], sel, [256], [0, 256]).ravel()
                                     for ch in range(3)]), axis=0)
    return (cum < 0.5 * cum[-1]).sum(0).astype(np.uint8)


def find_pips_local(crop: np.ndarray, mask: np.ndarray, thr_k: float | None = None,
                    prep=None, opening: int = 6, thr_abs: float | None = None,
                    info: dict | None = None) -> list:
    """Pips: compact blobs differing from the die's local body colour, enclosed by body."""
    if prep is None:
        prep = prepare(crop, mask)
    if prep is None:
        return []
    dist, inner, otsu, edge_dist, mask_r, (ox, oy) = prep
    thr = min(max(otsu * (THR_K if thr_k is None else thr_k), 25.0), THR_MAX)
    if thr_abs is not None:
        thr = thr_abs
    pips = _pips_at(dist, mask_r, inner, thr, edge_dist, opening, info)
    return [(x + ox, y + oy, a, s) for x, y, a, s in pips]


_DIST_W = np.array([[1.0, 2.0, 2.0]], np.float32)  # Lab distance: hue counts double


def prepare_base(crop: np.ndarray, mask: np.ndarray):
    """What every hypothesis shares: Lab pixels, the die's core and inner masks, and each
    pixel's distance from the die's edge. None when the die is too small to read."""
    core = cv2.erode(mask, _K_CORE)
    if cv2.countNonZero(core) < 50:
        core = mask
    if cv2.countNonZero(core) < 20:
        return None
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
    inner = cv2.erode(mask, _K_INNER)
    edge_dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    # pips lie in the inner face; their rings reach a little beyond it
    x, y, w, h = cv2.boundingRect(inner)
    m = ROI_MARGIN
    H, W = mask.shape
    roi = (slice(max(0, y - m), min(H, y + h + m)), slice(max(0, x - m), min(W, x + w + m)))
    return lab, core, inner, edge_dist, roi


def prepare(crop: np.ndarray, mask: np.ndarray, band=(40, 85), base=None):
    """(dist, inner, otsu, edge_dist, mask, offset), cut to the face's surroundings: each pixel's colour distance from the die's local
    body colour, for one guess (``band``) of the face colour."""
    base = base or prepare_base(crop, mask)
    if base is None:
        return None
    lab, core, inner, edge_dist, roi = base
    colour = face_colour(lab, core, band)
    # (per-channel planes: numpy's broadcast of a 3-byte colour is slow on small crops)
    filled = cv2.merge([np.full(core.shape, int(v), np.uint8) for v in colour])
    cv2.copyTo(lab, core, filled)
    # the local body colour: a wide median (pips vanish in it), taken at quarter size
    h, w = filled.shape[:2]
    small = cv2.resize(filled, (max(4, w // 4), max(4, h // 4)), interpolation=cv2.INTER_AREA)
    body = cv2.resize(cv2.medianBlur(small, NORM // 8 | 1), (w, h), interpolation=cv2.INTER_LINEAR)
    dist = cv2.transform(cv2.absdiff(lab, body), _DIST_W)  # uint8, saturates at 255
    vals = dist[inner > 0]
    if vals.size < 50:
        return None
    otsu, _ = cv2.threshold(vals.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    off = (roi[1].start, roi[0].start)
    return dist[roi], inner[roi], float(otsu), edge_dist[roi], mask[roi], off


_RING_COS = np.cos(np.linspace(0, 2 * np.pi, 16, endpoint=False)).astype(np.float32)
_RING_SIN = np.sin(np.linspace(0, 2 * np.pi, 16, endpoint=False)).astype(np.float32)


def _pips_at(dist: np.ndarray, mask: np.ndarray, inner: np.ndarray, thr: float,
             edge_dist: np.ndarray, opening: int = 6, info: dict | None = None) -> list:
    """Pip candidates at one threshold: (x, y, area, strength) in the crop."""
    _, above = cv2.threshold(dist, thr, 255, cv2.THRESH_BINARY)
    src = cv2.bitwise_and(above, inner)
    # Blobs are only labelled where there is any: the labelling's cost grows with its
    # image. The margin keeps the opening exact (outside it everything is 0 either way).
    bx, by, bw, bh = cv2.boundingRect(src)
    if bw == 0:
        return []
    H, W = mask.shape
    m = max(_K_OPEN[opening].shape) // 2 + 1
    x0, y0 = max(0, bx - m), max(0, by - m)
    x1, y1 = min(W, bx + bw + m), min(H, by + bh + m)
    bin_ = cv2.morphologyEx(src[y0:y1, x0:x1], cv2.MORPH_OPEN, _K_OPEN[opening])
    n, labels, stats, cents = cv2.connectedComponentsWithStats(bin_, connectivity=8)
    if n <= 1:
        return []
    # The blobs are few: plain Python over their stats costs less than numpy calls.
    a_norm = NORM * NORM
    st, ce = stats.tolist(), cents.tolist()
    cand, split = [], []  # (size, area, cx, cy, label), cx and cy in the crop
    lost = hidden = 0
    for i in range(1, n):
        x, y, w, h, a = st[i]
        if a < 0.004 * a_norm:
            continue
        big, small = max(w, h), min(w, h)
        if big <= 1.9 * small and 0.55 * w * h <= a <= 0.09 * a_norm:
            cand.append((big, a, ce[i][0] + x0, ce[i][1] + y0, i))
            continue
        lost += 1  # too big or too irregular to be a pip (pips may hide in it)
        if a > 0.3 * a_norm:
            continue
        # Pips that touch (a big six): split the blob at its narrow waists.
        comp = (labels[y:y + h, x:x + w] == i).view(np.uint8)
        dt = cv2.distanceTransform(comp, cv2.DIST_L2, 3)
        dmax = float(dt.max())
        if dmax < 2:
            hidden += 1  # pip-sized, yet not split into pips
            continue
        k, sub, _, sce = cv2.connectedComponentsWithStats(
            (dt > 0.55 * dmax).view(np.uint8), connectivity=4)
        least = SPLIT_MIN
        if k - 1 < SPLIT_MIN:
            # pips joined to a lit side face or bevel as thick as they are, which has no
            # waist: the pips are the blob's peaks of colour difference, well above the side
            d = dist[y0 + y:y0 + y + h, x0 + x:x0 + x + w]
            level = thr + SPLIT_PEAK * (cv2.minMaxLoc(d, comp)[1] - thr)
            peaks = cv2.bitwise_and(cv2.threshold(d, level, 1, cv2.THRESH_BINARY)[1], comp)
            k, sub, sst, sce = cv2.connectedComponentsWithStats(peaks, connectivity=8)
            least = 1
            if k == 2 and max(sst[1, 2:4]) > 2 * min(sst[1, 2:4]) + 1:
                k = 1  # a lone core must be compact: else it is the side's own ridge
        if least <= k - 1 <= 4:
            # each thick core is a pip (a pip touching a thin edge line keeps one core);
            # its radius is the distance to the blob's edge there
            for j in range(1, k):
                r = float(dt[sub == j].max()) + 0.5
                split.append((2 * r, np.pi * r * r, x0 + x + sce[j][0], y0 + y + sce[j][1], i))
        else:
            hidden += 1
    if info is not None:
        info["lost"], info["hidden"] = lost, hidden
    if not cand and not split:
        return []
    # the centre not too near the die's outline (centroids lie inside their blob), and
    # ringed by body colour: most of 16 points just outside the blob are of the body
    bodylike = cv2.bitwise_and(cv2.bitwise_not(above), mask) >> 7  # 0/1
    c = np.array(cand + split)
    cx, cy = c[:, 2], c[:, 3]
    keep = edge_dist[cy.astype(int), cx.astype(int)] >= EDGE_MIN * NORM
    rr = 0.5 * c[:, 0] + RING_GAP * NORM
    rx = np.minimum(np.maximum((cx[:, None] + rr[:, None] * _RING_COS).astype(int), 0), W - 1)
    ry = np.minimum(np.maximum((cy[:, None] + rr[:, None] * _RING_SIN).astype(int), 0), H - 1)
    keep &= bodylike[ry, rx].sum(1) >= RING_MIN
    kept = [row for row, k in zip(cand + split, keep.tolist()) if k]
    if not kept:
        return []
    # each kept blob's mean distance from the body colour
    d = dist[y0:y1, x0:x1]
    means = {}
    for i in {c[4] for c in kept}:
        x, y, w, h, _ = st[i]
        means[i] = cv2.mean(d[y:y + h, x:x + w], (labels[y:y + h, x:x + w] == i).view(np.uint8))[0]
    strength = [means[c[4]] for c in kept]
    top = max(strength)
    kept = [(c, s) for c, s in zip(kept, strength) if s >= STRENGTH_MIN * top]
    if len(kept) >= 2:
        med = median([c[1] for c, _ in kept])
        kept = [(c, s) for c, s in kept if 0.35 * med <= c[1] <= 2.8 * med]
    return [(float(c[2]), float(c[3]), float(c[1]), float(s)) for c, s in kept]


# Standard pip layouts in units of the centre-to-corner-pip offset, axis-aligned.
LAYOUTS: dict[int, list[np.ndarray]] = {
    1: [np.array([[0, 0]], np.float32)],
    2: [np.array([[-1, -1], [1, 1]], np.float32), np.array([[-1, 1], [1, -1]], np.float32)],
    3: [np.array([[-1, -1], [0, 0], [1, 1]], np.float32),
        np.array([[-1, 1], [0, 0], [1, -1]], np.float32)],
    4: [np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)],
    5: [np.array([[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], np.float32)],
    6: [np.array([[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 0], [1, 1]], np.float32),
        np.array([[-1, -1], [0, -1], [1, -1], [-1, 1], [0, 1], [1, 1]], np.float32)],
}


# each count's layouts as complex points, centred, (L, n), and their common mean distance
# from the centre
_LAYOUTS_C = {}
for _n, _lays in LAYOUTS.items():
    _z = np.array([lay[:, 0] + 1j * lay[:, 1] for lay in _lays], np.complex128)
    _z -= _z.mean(1, keepdims=True)
    _r = np.abs(_z).mean(1)
    assert np.allclose(_r, _r[0])
    _LAYOUTS_C[_n] = (_z, float(_r[0]))
_EIGHTH = np.exp(0.25j * np.pi)  # an eighth turn
# added to a set's pairwise distances so that a pip is not its own nearest neighbour
_NOT_SELF = {n: np.where(np.eye(n, dtype=bool), np.inf, 0.0) for n in range(2, 7)}


def layout_errors(z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(errors, scales) of O pip sets of one count n, given as complex points (O, n): how
    far each set's centres are from the standard layout of the count, as a fraction of the
    layout's scale (0 = perfect), and that scale in pixels. All sets at once: a die's
    candidate sets are many and small, and numpy's cost is per call."""
    O, n = z.shape
    if n == 1:
        return np.full(O, 0.08), np.zeros(O)  # one pip fits trivially: a small fixed doubt
    if n == 0 or n > 6:
        return np.full(O, 9.0), np.zeros(O)
    q = z - z.sum(1, keepdims=True) * (1.0 / n)
    # candidate directions: each pip's direction to its nearest pip, and the diagonal to it
    # (perspective bends the die's outline, the pips' own rows are truer); the layouts of
    # a count cover the quarter turns
    dq = q[:, None, :] - q[:, :, None]  # (O, n, n): [o, i, j] = q[o, j] - q[o, i]
    dd = np.abs(dq)
    k = (dd + _NOT_SELF[n]).argmin(2).ravel()
    rows = np.arange(O * n)
    near = dq.reshape(O * n, n)[rows, k]
    # the unit turns that bring each such direction to angle 0 (or to an eighth turn)
    back = (near.conj() / np.maximum(dd.reshape(O * n, n)[rows, k], 1e-12)).reshape(O, n)
    turn = np.concatenate([back, back * _EIGHTH], 1)  # (O, T)
    lay_c, lay_r = _LAYOUTS_C[n]
    s = np.abs(q).sum(1) * (1.0 / (n * lay_r))
    # the sets turned and brought to the layouts' scale (O, T, n), against every layout
    # spot: (O, L, T, n pips, n spots)
    rot = q[:, None, :] * (turn / np.maximum(s, 1e-3)[:, None])[:, :, None]
    d2 = np.abs(rot[:, None, :, :, None] - lay_c[None, :, None, None, :]) ** 2
    # a symmetric nearest-point distance: every pip near a layout spot and vice versa
    e = (d2.min(4).sum(3) + d2.min(3).sum(3)).reshape(O, -1).min(1) * (0.5 / n)
    err = np.sqrt(e)
    if (s < 1e-3).any():  # all pips in one point: no layout
        err = np.where(s < 1e-3, 9.0, err)
        s = np.where(s < 1e-3, 0.0, s)
    return err, s


def layout_error(pts: np.ndarray) -> tuple[float, float]:
    """(error, scale) of one set of pip centres (n, 2): see ``layout_errors``."""
    pts = np.asarray(pts, np.float64).reshape(-1, 2)
    e, s = layout_errors((pts[:, 0] + 1j * pts[:, 1])[None])
    return float(e[0]), float(s[0])


BANDS = ((40, 85), (10, 60))  # brightness percentiles guessed to be the face colour
HYPOTHESES = [(BANDS[0], 1.0, 5), (BANDS[0], 0.8, 5), (BANDS[0], 1.3, 6),
              (BANDS[1], 1.0, 5), (BANDS[1], 0.8, 5), (BANDS[1], 1.3, 6)]
STRONG_K = (0.7, 0.85)  # thresholds at these fractions of the found pips' contrast are also tried
LOST_W = 0.03  # doubt about a set whose threshold left a blob that may hide pips
EARLY_MIN = 5
EARLY_ERR = 0.15  # a layout error this small is a clean fit (the search may stop)
LOO_ERR = 0.15  # leave one blob out only when the whole set fits worse than this
MARGIN_FULL = 0.2  # score margin over any other count that gives full confidence
AGREE = 2  # stop when this many first hypotheses agree on a clean fit
SCALE_MIN, SCALE_MAX = 0.10, 0.42  # plausible layout scale, per die side
CENTRE_W, CENTRE_FREE = 4.0, 0.2  # penalty for pips off the die's centre beyond FREE
SPREAD_W = 1.0  # penalty for unequal pip sizes
ODD_FREE, ODD_W = 0.68, 4.0  # penalty for a two whose smaller pip is below this share of the other
ONE_R = 0.17  # ... when its larger pip is this near the die's centre (of its side), as a one's is
DIAG_FREE, DIAG_W = 25.0, 0.02  # penalty per degree beyond FREE that a two's or
# three's line is off the die's diagonal
FLAT_FREE, FLAT_W = 3.0, 0.25  # penalty for a pip standing less than FLAT_FREE times its
# ring's unevenness out of its ring (a bevel highlight or a dark corner, not a pip)
FLAT_MAX = 3  # ... judged in sets of two to this many pips (where one stray pip decides)
STRONG_RC = 2.0  # pips standing this far out of their rings are also tried without the others

# sample points, per pip: 16 on a ring just outside it, then its centre and four points
# halfway to its edge; each at (radius * _RC_K + _RC_GAP) in direction _RC_DIR
_RC_ANG = np.linspace(0, 2 * np.pi, 16, endpoint=False)
_RC_DIR = np.array([np.r_[np.cos(_RC_ANG), 0, 1, -1, 0, 0],
                    np.r_[np.sin(_RC_ANG), 0, 0, 0, 1, -1]], np.float32)
_RC_K = (np.r_[np.ones(16), np.full(5, 0.5)] / np.sqrt(np.pi)).astype(np.float32)  # of sqrt(area)
_RC_GAP = np.r_[np.full(16, 0.05 * NORM), np.zeros(5)].astype(np.float32)
_LAB_W = np.array([1.0, 2.0, 2.0], np.float32)  # as _DIST_W: hue counts double
_LAB_W16 = _LAB_W / 16  # ... and the mean over a ring's 16 points


def ring_contrast(lab: np.ndarray, pips: list) -> np.ndarray:
    """Each pip's colour contrast with the ring just outside it, over the ring's own spread.

    A pip is an even spot on an even face: its ring is alike all round and the pip stands
    far out of it. A highlight or a dark corner on the bevel, where the top face, the bevel
    and a side meet, has an uneven ring and stands out of it little."""
    H, W = lab.shape[:2]
    p = np.array([(x, y, a) for x, y, a, *_ in pips], np.float32)
    rad = np.sqrt(p[:, 2:3]) * _RC_K + _RC_GAP  # (n, 21)
    xy = (p[:, :2, None] + rad[:, None, :] * _RC_DIR).astype(np.int32)  # (n, 2, 21)
    np.maximum(xy, 0, out=xy)
    np.minimum(xy, ((W - 1,), (H - 1,)), out=xy)
    px = lab[xy[:, 1], xy[:, 0]].astype(np.float32)  # (n, 21, 3)
    ring = px[:, :16]
    spot = np.sort(px[:, 16:], axis=1)[:, 2]  # the median of the five
    # the ring's median colour and its mean distance from it; points off the die count too
    # (sorting 16 points costs less than numpy's partition of them)
    med = 0.5 * np.sort(ring, axis=1)[:, 7:9].sum(1)
    spread = np.abs(ring - med[:, None]).sum(1) @ _LAB_W16
    return (np.abs(spot - med) @ _LAB_W) / np.maximum(spread, 4.0)


def _diag_dev(pts: np.ndarray, edge: float) -> np.ndarray | float:
    """Degrees (0-45) by which the line through each set of two or three points (..., m, 2)
    misses the die's diagonal, the die's edges being at ``edge`` degrees."""
    pts = np.asarray(pts, np.float64)
    # plain floats: a handful of sets of two or three points each
    dev = []
    for q in pts.reshape(-1, pts.shape[-2], 2).tolist():
        # the line through the two points farthest apart (a three's end pips)
        dx, dy = max(((b[0] - a[0], b[1] - a[1]) for i, a in enumerate(q) for b in q[i + 1:]),
                     key=lambda d: d[0] * d[0] + d[1] * d[1])
        dev.append(abs((math.degrees(math.atan2(dy, dx)) - edge) % 90.0 - 45.0))
    return dev[0] if pts.ndim == 2 else np.array(dev).reshape(pts.shape[:-2])


def _score_sets(sets: np.ndarray, centre: np.ndarray, n_all: int, lost: bool,
                edge_angle: float | None = None, flat: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(layout error with penalties, score, doubt penalties) of O candidate pip sets of one
    size, (O, m, 4) rows of (x, y, area, strength), out of the ``n_all`` pips a threshold
    found; ``flat``: each set's least ring contrast (see ``ring_contrast``), for sets of
    two or three. Lower is better."""
    O, m = sets.shape[:2]
    err, scale = layout_errors(sets[:, :, 0] + 1j * sets[:, :, 1])
    if m >= 2:  # a layout far too small or too large for the die
        err = err + ((scale < SCALE_MIN * NORM) | (scale > SCALE_MAX * NORM))
    # a face's pips centre on the face
    mid = sets[:, :, :2].sum(1) * (1.0 / m) - centre
    off = np.sqrt(mid[:, 0] ** 2 + mid[:, 1] ** 2) * (1.0 / NORM)
    err = err + CENTRE_W * np.maximum(0.0, off - CENTRE_FREE)
    areas = sets[:, :, 2]
    odd = np.zeros(O)
    spread = np.zeros(O)
    if m > 1:
        mean = areas.sum(1) * (1.0 / m)
        spread = np.sqrt(((areas - mean[:, None]) ** 2).sum(1) * (1.0 / m)) / np.maximum(mean, 1e-6)
    if m == 2:
        # a one with a pip of a side face in view: the larger pip sits at the centre
        # (where a two has none) and the other is smaller (a side face is seen
        # obliquely); the two pips of a two are alike
        big = np.take_along_axis(sets, areas.argmax(1)[:, None, None], 1)[:, 0]
        central = np.hypot(big[:, 0] - centre[0], big[:, 1] - centre[1]) < ONE_R * NORM
        ratio = areas.min(1) / np.maximum(areas.max(1), 1e-6)
        odd = np.where(central, ODD_W * np.maximum(0.0, ODD_FREE - ratio), 0.0)
    if m in (2, 3) and edge_angle is not None:
        # a two's or a three's pips lie on a diagonal of the face; a line along an edge is
        # two or three pips of a four, five or six whose other pips were lost.
        # ``edge_angle`` is the die outline's turn in degrees; perspective bends it, hence
        # the wide tolerance.
        odd = odd + DIAG_W * np.maximum(0.0, _diag_dev(sets[:, :, :2], edge_angle) - DIAG_FREE)
    if flat is not None:
        odd = odd + FLAT_W * np.maximum(0.0, FLAT_FREE - flat)  # as doubtful as its flattest pip
    # prefer more pips when fits are alike: missing pips can form a layout too; a stray
    # blob left out costs a little (flat pips left out together do not)
    score = err + SPREAD_W * np.maximum(0.0, spread - 0.25) + odd - 0.04 * m + \
        (0.15 if m == n_all - 1 else 0.0) + (LOST_W if lost else 0.0)
    return err, score, odd


# for n pips, the index sets that leave one out
_LEAVE_ONE = {n: np.array([[j for j in range(n) if j != i] for i in range(n)], np.intp)
              for n in range(2, 8)}


def best_pips(crop: np.ndarray, mask: np.ndarray,
              edge_angle: float | None = None) -> tuple[list, float, float]:
    """The pip set that best fits a standard layout, over several thresholds and with one
    stray blob left out; returns (pips, layout error, margin over the best other count)."""
    seen = set()
    best, best_err, best_score = [], 9.0, 9.0
    preps: dict = {}
    base = None
    m = cv2.moments(mask, binaryImage=True)
    centre = np.array([m["m10"] / max(m["m00"], 1), m["m01"] / max(m["m00"], 1)])
    counts = []
    by_count: dict[int, float] = {}
    rcs: dict = {}  # each pip's contrast with its ring, by position

    def ring_of(ps: list) -> np.ndarray:
        # (the same pips recur at most thresholds)
        new = [p for p in ps if (round(p[0]), round(p[1])) not in rcs]
        if new:
            for p, v in zip(new, ring_contrast(base[0], new).tolist()):
                rcs[round(p[0]), round(p[1])] = v
        return np.array([rcs[round(p[0]), round(p[1])] for p in ps])

    hyps = list(HYPOTHESES)
    h = -1
    hidden_before = False
    while h + 1 < len(hyps):
        h += 1
        band, k, opening = hyps[h][:3]
        thr_abs = hyps[h][3] if len(hyps[h]) > 3 else None
        prep = preps.get(band)
        if prep is None and band not in preps:
            if base is None:
                base = prepare_base(crop, mask)
                if base is None:
                    return [], 9.0, 0.0
            prep = preps[band] = prepare(crop, mask, band, base)
        if prep is None:
            continue
        info: dict = {}
        pips = find_pips_local(crop, mask, thr_k=k, prep=prep, opening=opening, thr_abs=thr_abs,
                               info=info)
        n = len(pips)
        lost = bool(info.get("lost"))
        if h == 0 and pips and lost:
            # the pips' own contrast: a threshold well above a shaded side or a lit bevel
            # that the first threshold joined to some pips (they are then lost as non-round)
            contrast = median([p[3] for p in pips])
            for sk in reversed(STRONG_K):
                strong = sk * contrast
                if strong > prep[2] * k * 1.15:
                    hyps.insert(1, (band, k, opening, strong))
        counts.append(n)
        if not n:
            continue
        arr = np.array(pips)
        # the whole set, then (unless it fits cleanly) each set with one stray blob left
        # out, and the set without the pips that stand little out of their rings
        batches = [[list(range(n))]]
        if 2 <= n <= 7:
            batches.append(_LEAVE_ONE[n])
        if n >= 3:
            batches.append(None)  # found only if reached
        whole_odd = False  # the whole set looks like a one and a side face's pip, or doubtful
        rc = None  # the ring contrast of each of the threshold's pips, when needed
        for b, sel in enumerate(batches):
            if b == 1 and n <= 6 and best_err < LOO_ERR and len(best) == n and not whole_odd:
                break  # the whole set fits cleanly: no stray blob to leave out
            if sel is None:
                rc = ring_of(pips) if rc is None else rc
                strong = np.flatnonzero(rc >= STRONG_RC).tolist()
                if not strong or len(strong) >= n - 1:
                    continue  # none or one left out: tried above
                sel = [strong]
            # a set is scored once per context: found whole by a threshold that left no
            # doubtful blob is better evidence than the same pips reached by leaving a
            # stray blob out, or next to a blob that may hide pips
            keys = [(tuple(sorted((round(pips[i][0]), round(pips[i][1])) for i in s)), b, lost)
                    for s in sel]
            new = [j for j, key in enumerate(keys) if key not in seen]
            if not new:
                continue
            seen.update(keys)
            idx = np.asarray(sel)[new]
            flat = None
            if 2 <= idx.shape[1] <= FLAT_MAX:
                # one stray pip decides a small set: it is as doubtful as its flattest pip
                rc = ring_of(pips) if rc is None else rc
                flat = rc[idx].min(1)
            errs, scores, odd = _score_sets(arr[idx], centre, n, lost, edge_angle, flat)
            if b == 0:
                whole_odd = bool(odd[0] > 0)
            size = len(sel[0])
            for j, err, score in zip(new, errs.tolist(), scores.tolist()):
                if score < by_count.get(size, 9.0):
                    by_count[size] = score
                if score < best_score:
                    best, best_err, best_score = [pips[i] for i in sel[j]], err, score
        full = best_err < EARLY_ERR and len(best) == n  # a clean layout of every blob
        hidden = bool(info.get("hidden"))
        if full and n >= EARLY_MIN and (h == 0 or not hidden):
            # no other face shows a clean five or six by losing pips or gaining a stray
            # blob; later thresholds must also have left no blob that may hide pips
            break
        if full and h == 0 and not hidden and not (lost and n == 2):
            # the first threshold already gives a clean layout: its count stands. Not so
            # for a two next to a blob too large for a pip, which may have swallowed the
            # third pip of a three (the other two then form a two's diagonal).
            break
        if h + 1 == AGREE and full and len(set(counts)) == 1:
            break  # the first thresholds agree on a clean layout
        if h > 0 and full and counts[-2] == n and not (hidden and hidden_before):
            break  # two thresholds in a row agree on it, one with no blob that may hide pips
        hidden_before = hidden
    others = [v for c, v in by_count.items() if c != len(best)]
    margin = (min(others) - best_score) if others else 1.0
    return best, best_err, margin


def read_pips(frame: np.ndarray, cand: Candidate) -> PipRead:
    crop, mask, _ = die_crop(frame, cand)
    pips, err, margin = best_pips(crop, mask, cand.rect[2])
    n = len(pips)
    if n == 0:
        return PipRead(0, 0.0, pips)
    if n > 6:
        return PipRead(6, 0.1, pips)
    fit = min(max(1.0 - (err - 0.1) * 2.0, 0.0), 1.0)
    # another count that fits almost as well makes the read doubtful
    sure = min(max(margin / MARGIN_FULL, 0.0), 1.0)
    conf = min(0.99, fit * (0.5 + 0.5 * sure))
    return PipRead(n, conf, pips)
