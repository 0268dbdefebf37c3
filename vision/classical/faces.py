"""Taught faces: a nearest-neighbour classifier over normalised patches of the die's top.

Teaching takes a few photos per face (each one die). In every photo the die's top face is
found inside the finder's outline (which also holds the sides in view and some shadow) and
cut out upright along its own edges, so only a quarter-turn ambiguity is left; the four
quarter turns, small tilts, scales and shifts of each photo are all kept as templates.
Reading cuts the top face out the same way and finds the nearest template. The confidence
compares the nearest template of the best face with the nearest of any other face (a ratio
test) and with how far reads of the teaching photos themselves fell.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.errors import StaleSet
from vision.order_stats import median
from vision.classical.finder import Candidate

PATCH = 20  # feature patch side
MODEL_VERSION = 2  # 2: templates cut around the top face (top_face), not the whole outline
CONTRAST_FLOOR = 12.0  # below this grey-level spread a face is flat (a blank face)
MARGIN_FULL = 0.7  # nearest other face this much farther (relatively) = full confidence


def upright_crop(frame: np.ndarray, rect: tuple, out: int = 48, angle_jitter: float = 0.0,
                 scale: float = 1.0, shift: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """The square ``rect`` (a rotated rect), rotated to sit upright, ``out`` px, grayscale."""
    (cx, cy), (rw, rh), ang = rect
    side = float(np.sqrt(max(rw * rh, 1.0))) * scale
    cx += shift[0] * side
    cy += shift[1] * side
    f = out / side
    M = cv2.getRotationMatrix2D((cx, cy), ang + angle_jitter, f)
    M[0, 2] += out / 2 - cx
    M[1, 2] += out / 2 - cy
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    return cv2.warpAffine(gray, M, (out, out), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


TOP_WINDOW = 64  # px side of the window the top face is looked for in
TOP_REACH = 1.6  # that window spans this many outline sides
TOP_SIDES = (0.62, 0.98)  # the top face's side, in outline sides (sides and shadow widen it)
EDGE_CLIP = 0.4  # gradients are clipped at this fraction of the window's strongest
RIM = 0.1  # width of the top face's rim, in its sides
RIM_WEIGHT = 0.3 / 30.0  # score lost per grey level of spread in the rim
SMALL = 0.7  # an outline under this share of the scene's typical one is a partial die
_ONES3 = np.ones((1, 3), np.float32)


ANGLE_CLIP = 0.2  # orientation: gradients clipped at this fraction of the strongest
ANGLE_SIGMA = 0.5  # ... and weighted by a Gaussian this wide (in window sides)
_GAUSS = {}


def _residual_angle(sx: np.ndarray, sy: np.ndarray) -> float:
    """How far (degrees) the die's edges in a window lie from upright, modulo a quarter
    turn: the mean of the gradients' orientations taken four times over (so edges a quarter
    turn apart agree), magnitudes clipped low so that every edge pixel counts about alike
    and a face's long border outweighs a symbol's strokes, nearer pixels weighted more."""
    n = sx.shape[0]
    if n not in _GAUSS:
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) - n / 2
        _GAUSS[n] = np.exp(-(xx ** 2 + yy ** 2) / (2 * (ANGLE_SIGMA * n) ** 2))[..., None]
    xx2, yy2, xy = sx * sx, sy * sy, sx * sy
    m2 = xx2 + yy2 + 1e-6
    c2 = (xx2 - yy2) / m2
    s2 = 2 * xy / m2
    mag = np.sqrt(m2)
    w = np.minimum(mag, ANGLE_CLIP * float(mag.max())) * _GAUSS[n]
    c4 = float((w * (c2 * c2 - s2 * s2)).sum())
    s4 = float((w * (2 * c2 * s2)).sum())
    return float(np.degrees(np.arctan2(s4, c4)) / 4)


_SQUARES: list = []  # the layout of every square size in the top face's window (_squares)


def _squares(smin: int) -> tuple:
    """The square sizes from ``smin`` to the largest that fit the top face's window and where
    each may lie: (sizes, each size's first offset, the positions' side (the largest of any
    size; a size with fewer has the rest not valid), which positions are valid, the eight
    corners' flat indices into the window's two integrals), each size's positions in the
    row-major order the size alone had. Views of one layout of every size from 0, made once
    (int16 indices: 400 kB; a layout per smallest size asked would grow with every one)."""
    if not _SQUARES:
        n = TOP_WINDOW
        on = n / TOP_REACH
        reach = 0.3 * on
        sizes, los, ms = [], [], []
        for s in range(0, int(on * TOP_SIDES[1]) + 1):
            lo = int(max(1, n / 2 - s / 2 - reach))
            hi = int(min(n - s - 1, n / 2 - s / 2 + reach))
            if hi >= lo:
                sizes.append(s)
                los.append(lo)
                ms.append(hi + 1 - lo)
        size, lo = np.array(sizes, np.int64), np.array(los, np.int64)
        big = max(ms, default=0)
        k = np.arange(big)
        m = np.array(ms, np.int64)[:, None, None]
        valid = (k[None, :, None] < m) & (k[None, None, :] < m)
        y = lo[:, None, None] + k[None, :, None]  # a square's top row, its left column below
        x = lo[:, None, None] + k[None, None, :]
        s = size[:, None, None]

        def at(rows, cols, width):
            return np.where(valid, rows * width + cols, 0).astype(np.int16)

        # the column integral cx_ is (n + 1) x n, the row integral cy_ n x (n + 1)
        corners = (at(y + s, x, n), at(y, x, n), at(y + s, x + s, n), at(y, x + s, n),
                   at(y, x + s, n + 1), at(y, x, n + 1), at(y + s, x + s, n + 1),
                   at(y + s, x, n + 1))
        _SQUARES.append((size, lo, big, valid, corners))
    size, lo, big, valid, corners = _SQUARES[0]
    j = int(np.searchsorted(size, smin))
    return size[j:], lo[j:], big, valid[j:], tuple(c[j:] for c in corners)


def _best_squares(cx_: np.ndarray, cy_: np.ndarray, smin: int):
    """For each square size from ``smin`` up, the position whose four edges are strongest
    (the first of the strongest in row-major order) and its edge score, among those scoring
    at least 0.6 of the best: (scores, x, y, sizes), or None where no size fits. All sizes at
    once: each score is the same four float32 differences summed in the same order as the
    size's own slices gave (tests/vision/test_read_work.py keeps that loop)."""
    size, lo, big, valid, (a1, a0, b1, b0, c1, c0, d1, d0) = _squares(smin)
    if not len(size):
        return None
    fx, fy = cx_.ravel(), cy_.ravel()
    # cols[y, x] + cols[y, x + s] + rows[y, x] + rows[y + s, x], as each size's slices had it
    e = (fx.take(a1) - fx.take(a0)) + (fx.take(b1) - fx.take(b0))
    e += fy.take(c1) - fy.take(c0)
    e += fy.take(d1) - fy.take(d0)
    e[~valid] = -np.inf
    flat = e.reshape(len(size), -1)
    best = flat.argmax(1)
    E = flat[np.arange(len(size)), best].astype(np.float64)
    yy, xx = np.divmod(best, big)
    keep = E >= 0.6 * E.max()
    return E[keep], (lo + xx)[keep], (lo + yy)[keep], size[keep]


def top_face(frame_bgr: np.ndarray, cand: Candidate, side_hint: float | None = None) -> tuple:
    """The die's top face as a rotated square (cv2 rect) in frame pixels.

    The finder's outline holds the top face and whatever sides and shadow are in view, so
    the top face is neither centred in it nor as large. Looked for as the square, about
    upright in the outline, whose four edges are the strongest: gradients clipped so that
    long edges (a face's border) beat short, contrasted ones (a symbol's); among squares
    with strong edges, the one whose rim is the most uniform wins, because a face has a
    plain margin around its symbol while a square that takes in a side has a dark band on
    two edges.
    """
    n = TOP_WINDOW
    (cx, cy), (rw, rh), ang = cand.rect
    outline = float(np.sqrt(max(rw * rh, 1.0)))
    # An outline much smaller than the scene's dice is a die the finder saw only in part
    # (a body close to the tray's colour leaves its symbol): look around it at die size.
    small = bool(side_hint and outline < SMALL * side_hint)
    ref = side_hint if small else outline
    f = n / (ref * TOP_REACH)
    if frame_bgr.ndim == 2:
        frame_bgr = cv2.cvtColor(frame_bgr, cv2.COLOR_GRAY2BGR)

    def window(a):
        M = cv2.getRotationMatrix2D((cx, cy), a, f)
        M[0, 2] += n / 2 - cx
        M[1, 2] += n / 2 - cy
        # uint8 into the Sobels and the integrals: exact integers either way, as float32 was
        w = cv2.warpAffine(frame_bgr, M, (n, n), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
        return (M, w, cv2.Sobel(w, cv2.CV_32F, 1, 0, ksize=3),
                cv2.Sobel(w, cv2.CV_32F, 0, 1, ksize=3))

    M, win, sx, sy = window(ang)
    turn = _residual_angle(sx, sy)
    if abs(turn) > 1.0:  # a degree is well within what the templates' tilts cover
        ang += turn
        M, win, sx, sy = window(ang)
    gx = cv2.transform(np.abs(sx), _ONES3)
    gy = cv2.transform(np.abs(sy), _ONES3)
    t = EDGE_CLIP * float(max(gx.max(), gy.max()))
    np.minimum(gx, t, out=gx)
    np.minimum(gy, t, out=gy)
    # an edge a pixel off (a slight tilt, perspective) still counts
    gx = cv2.dilate(gx, np.ones((1, 3), np.uint8))
    gy = cv2.dilate(gy, np.ones((3, 1), np.uint8))
    cx_ = np.zeros((n + 1, n), np.float32)
    np.cumsum(gx, 0, out=cx_[1:])
    cy_ = np.zeros((n, n + 1), np.float32)
    np.cumsum(gy, 1, out=cy_[:, 1:])
    on = n / TOP_REACH
    smin = int(on * TOP_SIDES[0] * (outline / ref if small else 1.0))
    found = _best_squares(cx_, cy_, smin)
    if found is None:
        return cand.rect
    E, X, Y, S = found
    sm, sq = cv2.integral2(win, sdepth=cv2.CV_64F)
    w = np.maximum(1, np.round(RIM * S)).astype(int)

    def box(a, x0, y0, x1, y1):
        return a[y1, x1] - a[y0, x1] - a[y1, x0] + a[y0, x0]

    area = (S ** 2 - (S - 2 * w) ** 2)[:, None]
    inner = (X + w, Y + w, X + S - w, Y + S - w)
    mean = (box(sm, X, Y, X + S, Y + S) - box(sm, *inner)) / area
    var = (box(sq, X, Y, X + S, Y + S) - box(sq, *inner)) / area - mean ** 2
    spread = np.sqrt(np.maximum(var.sum(1), 0))
    i = int(np.argmax(E / E.max() - RIM_WEIGHT * spread))
    Mi = cv2.invertAffineTransform(M)
    c = Mi @ np.array([X[i] + S[i] / 2, Y[i] + S[i] / 2, 1.0])

    side = S[i] / f
    return ((float(c[0]), float(c[1])), (side, side), ang)


FEATURE = "hog"
HOG_BINS = 8
HOG_CELL = 8
HOG_SIDE = 32
_CELL_INDEX = (np.arange(HOG_SIDE)[:, None] // HOG_CELL) * (HOG_SIDE // HOG_CELL) + \
    (np.arange(HOG_SIDE)[None, :] // HOG_CELL)


def _sobels(imgs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each uint8 image's 3x3 Sobels (x, y; float32) as OpenCV gives them one image at a
    time, in two calls for all: each image framed by its own reflected border (OpenCV's
    default, BORDER_REFLECT_101), stacked, so that no image's pixel reaches into another's."""
    k, h, w = imgs.shape
    framed = np.empty((k, h + 2, w + 2), np.uint8)
    framed[:, 1:-1, 1:-1] = imgs
    framed[:, 0, 1:-1] = imgs[:, 1]
    framed[:, -1, 1:-1] = imgs[:, -2]
    framed[:, :, 0] = framed[:, :, 2]
    framed[:, :, -1] = framed[:, :, -3]
    tall = framed.reshape(k * (h + 2), w + 2)
    return tuple(cv2.Sobel(tall, cv2.CV_32F, dx, dy, ksize=3).reshape(k, h + 2, w + 2)[:, 1:-1, 1:-1]
                 for dx, dy in ((1, 0), (0, 1)))


_PI = np.float32(np.pi)


def _unsigned(a: np.ndarray) -> np.ndarray:
    """``a % np.pi`` for float32 angles from arctan2 (-pi..pi), as numpy's remainder gives
    it: fmod leaves |a| < pi as it is, a negative one has pi added (float32), and a zero
    result (0, -0, +-pi) is +0 (numpy's float remainder takes a slower path)."""
    r = np.where(a < 0, a + _PI, a)
    r[(r == 0) | (np.abs(a) == _PI)] = 0.0
    return r


def _hogs(imgs: np.ndarray) -> np.ndarray:
    """Histograms of unsigned gradient orientation in 8x8 cells (a small HOG of our own), one
    row per image of ``imgs`` (K x HOG_SIDE x HOG_SIDE): the gradients per image, the rest
    for all at once (each image's cells are bins of their own, filled in the same order, so
    every row is what the image alone gives, to the last bit)."""
    f = imgs  # uint8: the Sobels' float32 sums of integers are exact, as from float32 ones
    gx, gy = _sobels(f)
    mag = np.sqrt(gx * gx + gy * gy)
    ang = _unsigned(np.arctan2(gy, gx)) / np.pi * HOG_BINS  # 0..8, unsigned
    b0 = np.floor(ang).astype(np.int64) & (HOG_BINS - 1)  # % HOG_BINS (a power of two)
    w1 = ang - np.floor(ang)
    b1 = (b0 + 1) & (HOG_BINS - 1)
    size = (HOG_SIDE // HOG_CELL) ** 2 * HOG_BINS
    first = (np.arange(len(f)) * size)[:, None, None] + _CELL_INDEX * HOG_BINS
    idx0 = (first + b0).ravel()
    idx1 = (first + b1).ravel()
    h = np.bincount(idx0, (mag * (1 - w1)).ravel(), len(f) * size)
    h += np.bincount(idx1, (mag * w1).ravel(), len(f) * size)
    out = h.reshape(len(f), size)
    for row in out:  # a norm per row as np.linalg.norm takes it (a dot product)
        row /= np.sqrt(row.dot(row)) + 1e-6
        np.minimum(row, 0.2, out=row)
        row /= np.sqrt(row.dot(row)) + 1e-6
    return out


def feature(crop: np.ndarray) -> np.ndarray:
    return features([crop])[0]


def features(crops: list[np.ndarray]) -> np.ndarray:
    """``feature`` of each crop, one row each (the histograms made for all at once)."""
    if FEATURE == "hog":
        return hog_features(crops)
    return np.stack([patch_feature(c) for c in crops])


def hog_features(crops: list[np.ndarray]) -> np.ndarray:
    """Gradient-orientation histograms of the inner face (unsigned: polarity-free), plus a
    flatness term so a blank face stays apart from faint symbols; one row per crop."""
    inners = []
    for crop in crops:
        n = crop.shape[0]
        m = int(n * 0.12)
        inners.append(cv2.resize(crop[m:n - m, m:n - m], (HOG_SIDE, HOG_SIDE),
                                 interpolation=cv2.INTER_AREA))
    stack = np.stack(inners)
    h = _hogs(stack)
    h *= np.minimum(1.0, _spreads(stack) / CONTRAST_FLOOR)[:, None]  # flat faces: gradients are noise
    return (h * 4.0).astype(np.float32)


def _spreads(imgs: np.ndarray) -> np.ndarray:
    """Each uint8 image's ``std()`` as numpy takes it (the mean, the squared differences'
    mean, its root; float64), for all images at once: with whole pixel values and 32 x 32
    pixels every sum is exact, so no order of summing changes a bit (0.03 ms an image
    one by one)."""
    flat = imgs.reshape(len(imgs), -1)
    n = flat.shape[1]
    mean = flat.sum(1, dtype=np.float64) / n
    d = flat - mean[:, None]
    d *= d
    return np.sqrt(d.sum(1) / n)


def patch_feature(crop: np.ndarray) -> np.ndarray:
    """A normalised patch of the inner face: contrast-normalised, flat faces stay near zero."""
    n = crop.shape[0]
    m = int(n * 0.12)
    inner = crop[m:n - m, m:n - m]
    p = cv2.resize(inner, (PATCH, PATCH), interpolation=cv2.INTER_AREA).astype(np.float32)
    p = cv2.GaussianBlur(p, (3, 3), 0)
    # The body is the majority of the face (the median); the symbol is what departs from it.
    # Make the symbol positive whatever the colours, so light-on-dark and dark-on-light dice
    # of the same face look alike.
    p -= median(p)
    if p.mean() < 0:
        p = -p
    p /= max(float(p.std()), CONTRAST_FLOOR)
    return p.ravel()


CROP = 1.05  # the crop around the top face, in its sides (the feature uses its inner 76 %)
# Teaching keeps every photo at the four quarter turns and small tilts, scales and shifts: what
# is left of the top face's alignment error after top_face()
TEACH_TILTS = (-7.0, 0.0, 7.0)
TEACH_SCALES = (0.95, 1.05)
TEACH_SHIFTS = ((0.0, 0.0), (0.04, -0.04), (-0.04, 0.04))
READ_VIEWS = [(1.0, (0.0, 0.0)), (0.93, (0.0, 0.0)), (1.07, (0.0, 0.0))]  # (scale, shift)


def _grown(rect: tuple, k: float) -> tuple:
    (cx, cy), (w, h), a = rect
    return ((cx, cy), (w * k, h * k), a)


def augmented_features(frame: np.ndarray, cand: Candidate) -> list[np.ndarray]:
    rect = _grown(top_face(frame, cand), CROP)
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    return list(features([upright_crop(gray, rect, angle_jitter=rot + jit, scale=scale, shift=shift)
                          for rot in (0, 90, 180, 270) for jit in TEACH_TILTS
                          for scale in TEACH_SCALES for shift in TEACH_SHIFTS]))


def plain_feature(frame: np.ndarray, cand: Candidate) -> np.ndarray:
    """The feature of a teaching photo's die as it is, without augmentation."""
    return feature(upright_crop(frame, _grown(top_face(frame, cand), CROP)))


def read_crops(frame: np.ndarray, cand: Candidate, gray: np.ndarray | None = None,
               side_hint: float | None = None) -> list[np.ndarray]:
    """A die's top face cut out upright, one crop per view in READ_VIEWS (the reader keeps
    the best-matching view). ``frame`` is in colour (the top face is found by colour edges),
    ``gray`` its grey version when the caller has it; ``side_hint`` is the scene's typical
    outline side."""
    rect = _grown(top_face(frame, cand, side_hint), CROP)
    if gray is None:
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    return [upright_crop(gray, rect, shift=sh, scale=sc) for sc, sh in READ_VIEWS]


def read_features(frame: np.ndarray, cand: Candidate, gray: np.ndarray | None = None,
                  side_hint: float | None = None) -> np.ndarray:
    """Features of a die's top face, one row per view in READ_VIEWS (``read_crops``)."""
    return features(read_crops(frame, cand, gray, side_hint))


@dataclass
class FaceModel:
    """The templates of a taught set."""
    name: str
    faces: list[str]
    feats: np.ndarray  # (n, PATCH*PATCH) float32
    labels: np.ndarray  # (n,) int index into faces
    reject: float  # a nearest distance beyond this is not a die of this set

    def classify(self, feats: np.ndarray) -> list[tuple[str, float, float]]:
        """(face, confidence, distance) for each row of ``feats``."""
        if len(feats) == 0:
            return []
        if not hasattr(self, "_order"):
            self._prepare()
        f2 = (feats ** 2).sum(1)[:, None]
        d2all = np.maximum(f2 + self._t2 - 2 * feats @ self._sorted.T, 0)
        # nearest template of every face at once (templates sorted by face)
        per_face = np.sqrt(np.minimum.reduceat(d2all, self._starts, axis=1))
        out = []
        for best in per_face:
            order = np.argsort(best)
            d1 = float(best[order[0]])
            d2 = float(best[order[1]]) if len(order) > 1 else d1 * 3 + 1
            margin = (d2 - d1) / max(d2, 1e-6)  # 0 when tied, towards 1 when clear
            conf = min(1.0, margin / MARGIN_FULL)
            if d1 > self.reject:
                conf *= max(0.0, 1.0 - (d1 - self.reject) / self.reject)
            out.append((self.faces[order[0]], conf, d1))
        return out

    def _prepare(self) -> None:
        self._order = np.argsort(self.labels, kind="stable")
        self._sorted = np.ascontiguousarray(self.feats[self._order])
        self._t2 = (self._sorted ** 2).sum(1)[None, :]
        lab = self.labels[self._order]
        self._starts = np.flatnonzero(np.r_[True, lab[1:] != lab[:-1]])
        present = lab[self._starts]
        if len(present) != len(self.faces):  # a face without templates: never chosen
            raise ValueError(f"taught set {self.name!r} has faces without photos")

    def classify_dice(self, per_die: list[np.ndarray]) -> list[tuple[str, float, float]]:
        """Like ``classify`` for dice given as stacks of shifted features: each die takes
        the shift whose nearest template is nearest."""
        if not per_die:
            return []
        k = len(per_die[0])
        flat = self.classify(np.concatenate(per_die))
        out = []
        for i in range(len(per_die)):
            group = flat[i * k:(i + 1) * k]
            out.append(min(group, key=lambda r: r[2]))
        return out

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(folder / "model.npz", feats=self.feats, labels=self.labels)
        (folder / "model.json").write_text(json.dumps(
            {"name": self.name, "faces": self.faces, "reject": self.reject,
             "patch": PATCH, "version": MODEL_VERSION}, indent=1))

    @classmethod
    def load(cls, folder: Path) -> "FaceModel":
        meta = json.loads((folder / "model.json").read_text())
        if meta.get("patch") != PATCH or meta.get("version", 1) != MODEL_VERSION:
            raise StaleSet(f"taught set {folder.name!r} was made by another version of the "
                           "recognizer; teach it again")
        z = np.load(folder / "model.npz")
        return cls(meta["name"], meta["faces"], z["feats"].astype(np.float32),
                   z["labels"].astype(np.int64), float(meta["reject"]))


def build_model(name: str, examples: list[tuple[str, np.ndarray, Candidate]]) -> FaceModel:
    """A model from (face, frame, candidate) teaching examples."""
    faces = sorted({f for f, _, _ in examples})
    feats, labels, plain, plain_lab, owner = [], [], [], [], []
    for k, (face, frame, cand) in enumerate(examples):
        aug = augmented_features(frame, cand)
        feats.extend(aug)
        labels.extend([faces.index(face)] * len(aug))
        owner.extend([k] * len(aug))
        plain.append(plain_feature(frame, cand))
        plain_lab.append(faces.index(face))
    F = np.array(feats, np.float32)
    L = np.array(labels, np.int64)
    O = np.array(owner)
    # How far does a teaching photo fall from the others of its face (leave that photo out)?
    near = []
    for k, p in enumerate(plain):
        sel = (L == plain_lab[k]) & (O != k)
        if sel.any():
            near.append(float(np.sqrt(((F[sel] - p) ** 2).sum(1)).min()))
    reject = 2.0 * float(np.percentile(near, 90)) if near else 1e9
    reject = max(reject, 4.0)
    return FaceModel(name, faces, F, L, reject)
