"""Taught faces: the nearest taught photos in the face network's embedding.

Teaching keeps, for every photo, the embedding of its die's top face at four quarter turns
and a few small shifts and scales; reading embeds the die's crop and compares it with all of
them (cosine similarity). The face is that of the nearest taught photo; the probability of
each face is a softmax over each face's best similarity (temperature `TAU`), and a die whose
best similarity falls below what the set's own photos reach (`reject`) is not a die of this
set.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.errors import StaleSet

MODEL_VERSION = 3  # 3: embeddings of the learned face network (2: gradient histograms)
TAU = 0.05  # softmax temperature over faces' best cosine similarities
TURNS = (0.0, 90.0, 180.0, 270.0)
JITTER = ((0.0, 0.0, 1.0), (0.06, 0.0, 0.93), (-0.06, 0.04, 1.07))  # dx, dy (sides), scale


@dataclass
class FaceModel:
    name: str
    faces: list[str]
    embeddings: np.ndarray  # T x D, unit rows
    labels: np.ndarray  # T, index into faces
    reject: float  # a best similarity below this is not a die of this set
    net_digest: str = ""  # which face network made the embeddings
    # per face, how much the face network takes its taught photos for a pip face (0..1; a
    # set taught before this was kept has none)
    pips: dict = field(default_factory=dict)

    def classify(self, emb: np.ndarray) -> list[tuple[str, float, float]]:
        """(face, probability, best similarity) per embedding row."""
        if len(emb) == 0:
            return []
        sims = emb @ self.embeddings.T
        best = np.full((len(emb), len(self.faces)), -1.0, np.float32)
        for k in range(len(self.faces)):
            m = self.labels == k
            if m.any():
                best[:, k] = sims[:, m].max(1)
        z = (best - best.max(1, keepdims=True)) / TAU
        p = np.exp(z)
        p /= p.sum(1, keepdims=True)
        k = best.argmax(1)
        return [(self.faces[i], float(p[j, i]), float(best[j, i])) for j, i in enumerate(k)]

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(folder / "model.npz", embeddings=self.embeddings.astype(np.float32),
                            labels=self.labels.astype(np.int16))
        (folder / "model.json").write_text(json.dumps(
            {"name": self.name, "faces": self.faces, "reject": self.reject,
             "version": MODEL_VERSION, "net": self.net_digest, "pips": self.pips}, indent=1))

    @classmethod
    def load(cls, folder: Path, net_digest: str = "") -> "FaceModel":
        meta = json.loads((folder / "model.json").read_text())
        if meta.get("version", 1) != MODEL_VERSION or meta.get("net", "") != net_digest:
            raise StaleSet(f"dice set {folder.name!r} was taught by another recognizer; "
                           f"teach it again (`companion dice teach {folder.name} FOLDER`)")
        z = np.load(folder / "model.npz")
        return cls(meta["name"], list(meta["faces"]), z["embeddings"].astype(np.float32),
                   z["labels"].astype(np.int64), float(meta["reject"]), meta.get("net", ""),
                   {str(f): float(v) for f, v in dict(meta.get("pips") or {}).items()
                    if isinstance(v, (int, float)) and not isinstance(v, bool)})


def build_model(name: str, examples: list[tuple[str, tuple[np.ndarray, float]]],
                net_digest: str) -> FaceModel:
    """A set from (face, (embeddings of one photo's views, its pip-likeness)) pairs."""
    pips = {f: float(np.mean([q for g, (_, q) in examples if g == f])) for f, _ in examples}
    examples = [(f, e) for f, (e, _) in examples]
    faces = sorted({f for f, _ in examples})
    embs = np.concatenate([e for _, e in examples])
    labels = np.concatenate([np.full(len(e), faces.index(f)) for f, e in examples])
    # How close each photo's own face comes from the other photos' (leave one photo out):
    # a die much farther from everything taught is not a die of this set.
    near = []
    start = 0
    for f, e in examples:
        others = np.ones(len(embs), bool)
        others[start:start + len(e)] = False
        start += len(e)
        same = others & (labels == faces.index(f))
        if same.any():
            near.append(float((e[:1] @ embs[same].T).max()))
    reject = (min(near) - 0.1) if near else 0.0
    return FaceModel(name, faces, embs, labels, float(min(reject, 0.8)), net_digest, pips)
