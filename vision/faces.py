"""Taught faces: the nearest taught photos in the face network's embedding, whitened per set.

Teaching keeps, for every photo, the embedding of its die's top face at twelve turns and
three scales, and at twelve turns under each of ``LOOKS`` (the photo as a small, blurred,
dim, noisy or JPEG-worn die: the tray's camera sees all of them). Those views of one face
differ only in what a reading must not care about, so the set's *within-face* scatter over
them says which directions of the embedding are nuisance for this set: the embeddings are
whitened by it (``whiten``, regularised by ``RIDGE``) before the comparison, so that two
faces of one set are told apart by what they differ in. Reading whitens the die's crop the
same way and compares it with every taught view (cosine similarity). The face is that of
the nearest taught view; the probability of each face is a softmax over each face's best
similarity (temperature `TAU`), and a die whose best similarity falls below what the set's
own photos reach (`reject`) is not a die of this set. Each face also keeps how near its own
photos come to each other (`near`): a crop the face network calls "not a die" is still one of
this face's dice only near that (`FaceModel.like`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.errors import StaleSet

MODEL_VERSION = 4  # 4: whitened per set, more views (3: learned embeddings; 2: gradients)
TAU = 0.05  # softmax temperature over faces' best cosine similarities
TURNS = tuple(float(a) for a in range(0, 360, 30))
# (dx, dy (sides), scale): a die's box is up to 1.41 times its side (a die turned 45 degrees),
# and its crop scales with the box, so a turned view of a photo needs both scales near it
JITTER = ((0.0, 0.0, 1.0), (0.0, 0.0, 0.82), (0.0, 0.0, 1.2))
LOOKS = ("small", "blur", "dim", "noise", "jpeg")  # each at TURNS, scale 1 (vision/sets.py)
RIDGE = 0.1  # of the mean within-face variance, added to every direction before whitening


def whiten(embs: np.ndarray, labels: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """D x D: the inverse square root of the within-face scatter of ``embs`` (plus ``ridge``
    of its mean variance in every direction, so a direction no view varies in is not blown
    up)."""
    centred = embs.astype(np.float64).copy()
    for k in np.unique(labels):
        m = labels == k
        centred[m] -= centred[m].mean(0)
    scatter = centred.T @ centred / max(len(centred), 1)
    scatter += ridge * max(float(np.trace(scatter)) / len(scatter), 1e-12) * np.eye(len(scatter))
    w, v = np.linalg.eigh(scatter)
    return ((v / np.sqrt(w)) @ v.T).astype(np.float32)


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-6)


@dataclass
class FaceModel:
    name: str
    faces: list[str]
    embeddings: np.ndarray  # T x D, whitened unit rows, ordered by label
    labels: np.ndarray  # T, index into faces, ascending
    reject: float  # a best similarity below this is not a die of this set
    net_digest: str = ""  # which face network made the embeddings
    # per face, how much the face network takes its taught photos for a pip face (0..1; a
    # set taught before this was kept has none)
    pips: dict = field(default_factory=dict)
    whitening: np.ndarray | None = None  # D x D (None: the embedding as it is)
    # per face, the least best similarity of one of its photos to its other photos (leave
    # one photo out; a face taught from one photo has none; None: a set taught before this
    # was kept)
    near: dict | None = None

    def __post_init__(self):
        order = np.argsort(self.labels, kind="stable")
        self.embeddings, self.labels = self.embeddings[order], self.labels[order]
        # the labels are sorted: each face's first row starts a run (np.unique would import
        # np.ma for every process that loads a set, vision/order_stats.py)
        first = np.ones(len(self.labels), bool)
        first[1:] = self.labels[1:] != self.labels[:-1]
        self._faces = self.labels[first]
        self._starts = np.searchsorted(self.labels, self._faces)

    def project(self, emb: np.ndarray) -> np.ndarray:
        """Read embeddings in the set's whitened space (unit rows)."""
        return _unit(emb @ self.whitening) if self.whitening is not None else emb

    def classify(self, emb: np.ndarray) -> list[tuple[str, float, float]]:
        """(face, probability, best similarity) per embedding row."""
        return self.nearest(self.best(emb))

    def best(self, emb: np.ndarray) -> np.ndarray:
        """N x faces: each row's best similarity to each face's taught views (-1 for a face
        with none)."""
        best = np.full((len(emb), len(self.faces)), -1.0, np.float32)
        if len(emb):
            sims = self.project(emb) @ self.embeddings.T
            best[:, self._faces] = np.maximum.reduceat(sims, self._starts, axis=1)
        return best

    def nearest(self, best: np.ndarray) -> list[tuple[str, float, float]]:
        """(face, probability, best similarity) per row of ``best`` similarities."""
        if len(best) == 0:
            return []
        z = (best - best.max(1, keepdims=True)) / TAU
        p = np.exp(z)
        p /= p.sum(1, keepdims=True)
        k = best.argmax(1)
        return [(self.faces[i], float(p[j, i]), float(best[j, i])) for j, i in enumerate(k)]

    def like(self, face: str, margin: float) -> float:
        """The best similarity from which a crop is ``face`` whatever the face network says:
        ``margin`` under what the face's own photos reach, never under ``reject`` (a face
        with nothing kept: ``reject``). A blank face's photos come near each other; a patch
        of lighter cloth comes near a blank face too, but not that near."""
        own = (self.near or {}).get(face)
        return self.reject if own is None else max(self.reject, own - margin)

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        arrays = {"embeddings": self.embeddings.astype(np.float32),
                  "labels": self.labels.astype(np.int16)}
        if self.whitening is not None:
            arrays["whitening"] = self.whitening.astype(np.float32)
        np.savez_compressed(folder / "model.npz", **arrays)
        (folder / "model.json").write_text(json.dumps(
            {"name": self.name, "faces": self.faces, "reject": self.reject,
             "version": MODEL_VERSION, "net": self.net_digest, "pips": self.pips,
             **({} if self.near is None else {"near": self.near})}, indent=1))

    @classmethod
    def load(cls, folder: Path, net_digest: str = "") -> "FaceModel":
        meta = json.loads((folder / "model.json").read_text())
        if meta.get("version", 1) != MODEL_VERSION or meta.get("net", "") != net_digest:
            raise StaleSet(f"dice set {folder.name!r} was taught by another recognizer; "
                           f"teach it again (`companion dice teach {folder.name} FOLDER`)")
        z = np.load(folder / "model.npz")
        emb = z["embeddings"].astype(np.float32)
        white = z["whitening"].astype(np.float32)
        if emb.ndim != 2 or white.shape != (emb.shape[1], emb.shape[1]):
            raise ValueError(f"embeddings {emb.shape} and whitening {white.shape} do not fit")
        return cls(meta["name"], list(meta["faces"]), emb, z["labels"].astype(np.int64),
                   float(meta["reject"]), meta.get("net", ""), _numbers(meta.get("pips")), white,
                   _numbers(meta["near"]) if "near" in meta else None)


def _numbers(table) -> dict[str, float]:
    """{face: number} of a set file's table, its entries that are numbers."""
    return {str(f): float(v) for f, v in dict(table or {}).items()
            if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)}


def build_model(name: str, examples: list[tuple[str, tuple[np.ndarray, float]]],
                net_digest: str) -> FaceModel:
    """A set from (face, (embeddings of one photo's views, its pip-likeness)) pairs; each
    photo's first view is the photo as it is."""
    pips = {f: float(np.mean([q for g, (_, q) in examples if g == f])) for f, _ in examples}
    examples = [(f, e) for f, (e, _) in examples]
    faces = sorted({f for f, _ in examples})
    embs = np.concatenate([e for _, e in examples])
    labels = np.concatenate([np.full(len(e), faces.index(f)) for f, e in examples])
    white = whiten(embs, labels)
    embs = _unit(embs @ white).astype(np.float32)
    # How close each photo's own face comes from the other photos' (leave one photo out):
    # a die much farther from everything taught is not a die of this set.
    near: dict[str, float] = {}
    start = 0
    for f, e in examples:
        others = np.ones(len(embs), bool)
        others[start:start + len(e)] = False
        same = others & (labels == faces.index(f))
        if same.any():
            own = float((embs[start:start + 1] @ embs[same].T).max())
            near[f] = min(near.get(f, own), own)
        start += len(e)
    reject = (min(near.values()) - 0.1) if near else 0.0
    return FaceModel(name, faces, embs, labels, float(min(reject, 0.8)), net_digest, pips, white,
                     near)
