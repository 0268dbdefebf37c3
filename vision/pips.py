"""Read a standard pip d6 by counting the pips on its top face.

The die's crop is brought to a fixed size; the die body colour is estimated locally with a
large median (pips are too small to survive it), and pips are the compact, round blobs that
differ from the body, whichever their colour, and are ringed by body colour. Several
thresholds and two guesses of the face colour give several candidate pip sets (also with
one stray blob left out); the set that best fits a standard layout of its count (1 to 6, any
rotation) wins. The fit's error gives the confidence.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.finder import Candidate

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
STRENGTH_MIN = 0.55  # a pip's contrast against the strongest pip's
THR_K = 0.8  # default threshold, times Otsu's, on the distance from the body colour
THR_MAX = 110.0
RING_GAP = 0.02  # the ring's distance outside the pip
ROI_MARGIN = 9  # px around the inner face where pip rings are looked at
EDGE_MIN = 0.1  # least distance of a pip's centre from the die's outline


def _hist_median(hist: np.ndarray) -> int:
    c = np.cumsum(hist)
    return int(np.searchsorted(c, 0.5 * c[-1]))


def face_colour(lab: np.ndarray, core: np.ndarray, band=(40, 85)) -> np.ndarray:
    """The top face's colour: the lit top sits between the shaded sides/shadow (darker) and
    the brightest pixels (white pips, highlights), so take the middle-upper band of brightness."""
    L = lab[..., 0]
    hist = cv2.calcHist([L], [0], core, [256], [0, 256]).ravel()
    cdf = np.cumsum(hist) / max(1.0, float(hist.sum()))
    lo, hi = np.searchsorted(cdf, band[0] / 100.0), np.searchsorted(cdf, band[1] / 100.0)
    sel = cv2.bitwise_and(cv2.inRange(L, int(lo), int(hi)), core)
    if cv2.countNonZero(sel) < 10:
        sel = core
    # the median of each channel over the band, from its histogram
    return np.array([_hist_median(cv2.calcHist([lab], [ch], sel, [256], [0, 256]).ravel())
                     for ch in range(3)], np.uint8)


def find_pips_local(crop: np.ndarray, mask: np.ndarray, thr_k: float | None = None,
                    prep=None, opening: int = 6, thr_abs: float | None = None,
                    info: dict | None = None) -> list:
    """Pips: compact blobs differing from the die's local body colour, enclosed by body."""
    if prep is None:
        prep = prepare(crop, mask)
    if prep is None:
        return []
    dist, inner, otsu, edge_dist, mask_r, (ox, oy) = prep
    thr = float(np.clip(otsu * (THR_K if thr_k is None else thr_k), 25.0, THR_MAX))
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
    filled = np.empty_like(lab)
    filled[:] = colour
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
    bin_ = cv2.morphologyEx(cv2.bitwise_and(above, inner), cv2.MORPH_OPEN, _K_OPEN[opening])
    n, labels, stats, cents = cv2.connectedComponentsWithStats(bin_, connectivity=8)
    if n <= 1:
        return []
    bodylike = cv2.bitwise_and(cv2.bitwise_not(above), mask)
    # mean distance of each blob from the body colour, all blobs at once
    strengths = np.bincount(labels.ravel(), dist.ravel(), n) / np.maximum(stats[:, 4], 1)
    a_norm = NORM * NORM
    H, W = mask.shape
    st = stats[1:].astype(np.float32)
    w, h, area = st[:, 2], st[:, 3], st[:, 4]
    big, small = np.maximum(w, h), np.minimum(w, h)
    ok = area >= 0.004 * a_norm
    round_ = ok & (big <= 1.9 * small) & (area >= 0.55 * w * h) & (area <= 0.09 * a_norm)
    idx = np.flatnonzero(round_) + 1
    # candidates: (size, area, cx, cy, label)
    cand = [np.stack([big[idx - 1], area[idx - 1], cents[idx, 0], cents[idx, 1], idx], 1)]
    if info is not None:  # blobs too big or too irregular to be pips (pips may hide in them)
        info["lost"] = int(np.count_nonzero(ok & ~round_))
        info["hidden"] = 0  # of them, pip-sized ones that did not split into pips
    for i in np.flatnonzero(ok & ~round_ & (area <= 0.3 * a_norm)) + 1:
        # Pips that touch (a big six): split the blob at its narrow waists.
        x, y, bw, bh, ar = stats[i]
        comp = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
        dt = cv2.distanceTransform(comp, cv2.DIST_L2, 3)
        if dt.max() < 2:
            if info is not None:
                info["hidden"] += 1
            continue
        k, sub, _, sce = cv2.connectedComponentsWithStats(
            (dt > 0.55 * dt.max()).astype(np.uint8), connectivity=4)
        if SPLIT_MIN <= k - 1 <= 4:
            # each thick core is a pip (a pip touching a thin edge line keeps one core);
            # its radius is the distance to the blob's edge there
            rows = []
            for j in range(1, k):
                r = float(dt[sub == j].max()) + 0.5
                rows.append([2 * r, np.pi * r * r, x + sce[j][0], y + sce[j][1], i])
            cand.append(np.array(rows, np.float64))
        elif info is not None:
            info["hidden"] += 1
    c = np.concatenate(cand) if len(cand) > 1 else cand[0]
    if len(c) == 0:
        return []
    cx, cy = c[:, 2], c[:, 3]
    ix = np.clip(cx.astype(int), 0, W - 1)
    iy = np.clip(cy.astype(int), 0, H - 1)
    keep = edge_dist[iy, ix] >= EDGE_MIN * NORM
    # ringed by body colour: most of 16 points just outside the blob are of the body
    rr = 0.5 * c[:, 0] + RING_GAP * NORM
    rx = np.clip((cx[:, None] + rr[:, None] * _RING_COS).astype(int), 0, W - 1)
    ry = np.clip((cy[:, None] + rr[:, None] * _RING_SIN).astype(int), 0, H - 1)
    keep &= np.count_nonzero(bodylike[ry, rx], axis=1) >= RING_MIN
    c = c[keep]
    if len(c) == 0:
        return []
    strength = strengths[c[:, 4].astype(int)]
    sel = strength >= STRENGTH_MIN * strength.max()
    c, strength = c[sel], strength[sel]
    if len(c) >= 2:
        med = float(np.median(c[:, 1]))
        sel = (c[:, 1] >= 0.35 * med) & (c[:, 1] <= 2.8 * med)
        c, strength = c[sel], strength[sel]
    return [(float(a), float(b), float(ar), float(s)) for (_, ar, a, b, _), s in zip(c, strength)]


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


# each layout as complex points, centred, with its mean distance from the centre
_LAYOUTS_C = {n: [(c, float(np.abs(c).mean())) for c in
                  ((lay[:, 0] + 1j * lay[:, 1]) - (lay[:, 0] + 1j * lay[:, 1]).mean()
                   for lay in lays)]
              for n, lays in LAYOUTS.items()}


def layout_error(pts: np.ndarray, angle: float | None = None) -> tuple[float, float]:
    """(error, scale): how far pip centres are from the standard layout of their count, as
    a fraction of the layout's scale (0 = perfect), and that scale in pixels.

    ``angle`` (radians) is the die's edge direction when known; the fit also tries the
    directions between pips, since perspective bends the die's outline a little."""
    n = len(pts)
    if n == 1:
        return 0.08, 0.0  # one pip fits trivially: a small fixed doubt
    if n == 0 or n > 6:
        return 9.0, 0.0
    # points as complex numbers: a rotation is one multiplication
    z = pts[:, 0].astype(np.float64) + 1j * pts[:, 1]
    q = z - z.mean()
    # candidate directions: the die's edges, and each pip's direction to its nearest pip
    # (and the diagonal to it); the layouts of a count cover the quarter turns
    dq = q[None, :] - q[:, None]
    dd = np.abs(dq)
    np.fill_diagonal(dd, np.inf)
    ang = np.angle(dq[np.arange(n), dd.argmin(1)])
    thetas = np.concatenate([ang, ang - np.pi / 4] + ([np.array([angle])] if angle is not None else []))
    rq = float(np.abs(q).mean())
    rot = q[None, :] * np.exp(-1j * thetas)[:, None]  # (T, n)
    best, best_s = 9.0, 0.0
    for lay_c, lay_r in _LAYOUTS_C[n]:
        s = rq / lay_r
        if s < 1e-3:
            continue
        d2 = np.abs(rot[:, :, None] * (1.0 / s) - lay_c[None, None, :]) ** 2  # (T, n, n)
        # a symmetric nearest-point distance: every pip near a layout spot and vice versa
        e = 0.5 * (d2.min(2).mean(1) + d2.min(1).mean(1))
        k = int(e.argmin())
        if e[k] < best * best:
            best, best_s = float(np.sqrt(e[k])), s
    return best, best_s


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


def best_pips(crop: np.ndarray, mask: np.ndarray) -> tuple[list, float, float]:
    """The pip set that best fits a standard layout, over several thresholds and with one
    stray blob left out; returns (pips, layout error, margin over the best other count)."""
    seen = set()
    best, best_err, best_score = [], 9.0, 9.0
    preps: dict = {}
    base = None
    m = cv2.moments(mask, binaryImage=True)
    centre = np.array([m["m10"] / max(m["m00"], 1), m["m01"] / max(m["m00"], 1)], np.float32)
    counts = []
    by_count: dict[int, float] = {}
    hyps = list(HYPOTHESES)
    h = -1
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
        if h == 0 and pips and info.get("lost"):
            # the pips' own contrast: a threshold well above a shaded side or a lit bevel
            # that the first threshold joined to some pips (they are then lost as non-round)
            for sk in reversed(STRONG_K):
                strong = sk * float(np.median([p[3] for p in pips]))
                if strong > prep[2] * k * 1.15:
                    hyps.insert(1, (band, k, opening, strong))
        options = [pips]
        if 2 <= len(pips) <= 7:
            options += [pips[:i] + pips[i + 1:] for i in range(len(pips))]
        whole_odd = False  # the whole set looks like a one and a side face's pip
        for j, opt in enumerate(options):
            if j == 1 and len(pips) <= 6 and best_err < LOO_ERR and len(best) == len(pips) \
                    and not whole_odd:
                break  # the whole set fits cleanly: no stray blob to leave out
            key = tuple(sorted((round(p[0]), round(p[1])) for p in opt))
            if not opt or key in seen:
                continue
            seen.add(key)
            pts = np.array([[p[0], p[1]] for p in opt], np.float32)
            err, scale = layout_error(pts)
            if len(opt) >= 2 and not (SCALE_MIN * NORM <= scale <= SCALE_MAX * NORM):
                err += 1.0  # a layout far too small or too large for the die
            off = float(np.linalg.norm(pts.mean(0) - centre)) / NORM
            err += CENTRE_W * max(0.0, off - CENTRE_FREE)  # a face's pips centre on the face
            areas = np.array([p[2] for p in opt])
            spread = float(areas.std() / max(areas.mean(), 1e-6)) if len(opt) > 1 else 0.0
            odd = 0.0
            if len(opt) == 2:
                # a one with a pip of a side face in view: the larger pip sits at the centre
                # (where a two has none) and the other is smaller (a side face is seen
                # obliquely); the two pips of a two are alike
                big = opt[int(areas.argmax())]
                if np.hypot(big[0] - centre[0], big[1] - centre[1]) < ONE_R * NORM:
                    odd = ODD_W * max(0.0, ODD_FREE - float(areas.min() / max(areas.max(), 1e-6)))
            # prefer more pips when fits are alike: missing pips can form a layout too
            score = err + SPREAD_W * max(0.0, spread - 0.25) + odd - 0.04 * len(opt) + \
                (0.15 if len(opt) < len(pips) else 0.0) + (LOST_W if info.get("lost") else 0.0)
            if j == 0:
                whole_odd = odd > 0
            if score < by_count.get(len(opt), 9.0):
                by_count[len(opt)] = score
            if score < best_score:
                best, best_err, best_score = opt, err, score
        counts.append(len(pips))
        if best_err < EARLY_ERR and len(best) == len(pips) >= EARLY_MIN \
                and not info.get("hidden"):
            break  # a clean fit with every blob used: no need to look further
        if h + 1 == AGREE and best_err < EARLY_ERR and len(best) == len(pips) \
                and len(set(counts)) == 1:
            break  # the first thresholds agree on a clean layout
    others = [v for n, v in by_count.items() if n != len(best)]
    margin = (min(others) - best_score) if others else 1.0
    return best, best_err, margin


def read_pips(frame: np.ndarray, cand: Candidate) -> PipRead:
    crop, mask, _ = die_crop(frame, cand)
    pips, err, margin = best_pips(crop, mask)
    n = len(pips)
    if n == 0:
        return PipRead(0, 0.0, pips)
    if n > 6:
        return PipRead(6, 0.1, pips)
    fit = float(np.clip(1.0 - (err - 0.1) * 2.0, 0.0, 1.0))
    # another count that fits almost as well makes the read doubtful
    sure = float(np.clip(margin / MARGIN_FULL, 0.0, 1.0))
    conf = min(0.99, fit * (0.5 + 0.5 * sure))
    return PipRead(n, conf, pips)
