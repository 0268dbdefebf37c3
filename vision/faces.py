"""Taught faces: a nearest-neighbour classifier over normalised patches of the die's top.

Teaching takes a few photos per face (each one die). Every photo's die is cut out upright
along its own edges, so only a quarter-turn ambiguity is left; the four quarter turns, small
tilts, scales and shifts of each photo are all kept as templates. Reading cuts the die out
the same way and finds the nearest template. The confidence compares the nearest template
of the best face with the nearest of any other face (a ratio test) and with how far reads
of the teaching photos themselves fell.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.finder import Candidate

PATCH = 20  # feature patch side
CONTRAST_FLOOR = 12.0  # below this grey-level spread a face is flat (a blank face)
MARGIN_FULL = 0.5  # nearest other face this much farther (relatively) = full confidence


def upright_crop(frame: np.ndarray, cand: Candidate, out: int = 48, angle_jitter: float = 0.0,
                 scale: float = 1.0, shift: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """The die's square, rotated to sit upright, ``out`` px, grayscale."""
    (cx, cy), (rw, rh), ang = cand.rect
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


FEATURE = "hog"
HOG_BINS = 8
HOG_CELL = 8
HOG_SIDE = 32
_CELL_INDEX = (np.arange(HOG_SIDE)[:, None] // HOG_CELL) * (HOG_SIDE // HOG_CELL) + \
    (np.arange(HOG_SIDE)[None, :] // HOG_CELL)


def _hog(img: np.ndarray) -> np.ndarray:
    """Histograms of unsigned gradient orientation in 8x8 cells (a small HOG of our own)."""
    f = img.astype(np.float32)
    gx = cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.sqrt(gx * gx + gy * gy)
    ang = (np.arctan2(gy, gx) % np.pi) / np.pi * HOG_BINS  # 0..8, unsigned
    b0 = np.floor(ang).astype(np.int64) % HOG_BINS
    w1 = ang - np.floor(ang)
    b1 = (b0 + 1) % HOG_BINS
    ncell = (HOG_SIDE // HOG_CELL) ** 2
    idx0 = (_CELL_INDEX * HOG_BINS + b0).ravel()
    idx1 = (_CELL_INDEX * HOG_BINS + b1).ravel()
    h = np.bincount(idx0, (mag * (1 - w1)).ravel(), ncell * HOG_BINS)
    h += np.bincount(idx1, (mag * w1).ravel(), ncell * HOG_BINS)
    h = h / (np.linalg.norm(h) + 1e-6)
    h = np.minimum(h, 0.2)
    return h / (np.linalg.norm(h) + 1e-6)


def feature(crop: np.ndarray) -> np.ndarray:
    if FEATURE == "hog":
        return hog_feature(crop)
    return patch_feature(crop)


def hog_feature(crop: np.ndarray) -> np.ndarray:
    """Gradient-orientation histograms of the inner face (unsigned: polarity-free), plus a
    flatness term so a blank face stays apart from faint symbols."""
    n = crop.shape[0]
    m = int(n * 0.12)
    inner = cv2.resize(crop[m:n - m, m:n - m], (HOG_SIDE, HOG_SIDE), interpolation=cv2.INTER_AREA)
    h = _hog(inner)
    contrast = float(inner.std())
    scale = min(1.0, contrast / CONTRAST_FLOOR)  # flat faces: gradients are noise
    return (h * scale * 4.0).astype(np.float32)


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
    p -= float(np.median(p))
    if p.mean() < 0:
        p = -p
    p /= max(float(p.std()), CONTRAST_FLOOR)
    return p.ravel()


def augmented_features(frame: np.ndarray, cand: Candidate) -> list[np.ndarray]:
    feats = []
    for rot in (0, 90, 180, 270):
        for jit in (-7.0, 0.0, 7.0):
            for scale in (0.92, 1.05):
                for shift in ((0.0, 0.0), (0.05, -0.05), (-0.05, 0.05)):
                    feats.append(feature(upright_crop(frame, cand, angle_jitter=rot + jit,
                                                      scale=scale, shift=shift)))
    return feats


READ_SHIFTS = [(0.0, 0.0), (0.07, 0.0), (-0.07, 0.0), (0.0, 0.07), (0.0, -0.07)]
# (scale, shift): the outline often holds visible sides and shadow, so the top face fills
# less of it than in the teaching photos: closer views are tried too
READ_VIEWS = [(0.95, sh) for sh in READ_SHIFTS] + [(0.85, (0.0, 0.0)), (0.75, (0.0, 0.0))]


def read_features(frame: np.ndarray, cand: Candidate) -> np.ndarray:
    """Features of a die at a few small shifts and two closer views: the top face is not
    always centred in the die's outline, nor as large in it as when taught (visible sides,
    shadow), so the reader keeps the best-matching view."""
    return np.stack([feature(upright_crop(frame, cand, shift=sh, scale=sc))
                     for sc, sh in READ_VIEWS])


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
             "patch": PATCH}, indent=1))

    @classmethod
    def load(cls, folder: Path) -> "FaceModel":
        meta = json.loads((folder / "model.json").read_text())
        if meta.get("patch") != PATCH:
            raise ValueError(f"taught set {folder.name!r} was made by another version; teach it again")
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
        plain.append(feature(upright_crop(frame, cand)))
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
