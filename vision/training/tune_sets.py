"""The tuning part: real tuning photos and rendered scenes from the tuning seeds, each set
with the reader it is read by (game sets taught first from rendered photos of their own)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from vision.reader import Reader
from vision.render import random_roll, render_labelled, render_roll, write_teaching_photos
from vision.scenes import CONDITIONS
from vision.sets import teach
from vision.training import data, split
from vision.training.calibrate import frame_outputs

TAUGHT = ("incredibles", "invincible", "xmen")


def guarded(per_condition: int) -> dict[str, tuple[str, list[int]]]:
    """The rendered pip set's conditions, each a part whose recall the side face rule must
    keep (vision/training/calibrate.py): the frames of ``build``'s "rendered d6", in order."""
    return {f"rendered d6, {name}": ("rendered d6", list(range(k * per_condition, (k + 1) * per_condition)))
            for k, name in enumerate(CONDITIONS)}


def pooled(per_condition: int) -> dict[str, list[tuple[str, list[int]]]]:
    """Each rendered condition's frames, pooled per kind of set (the d6 set's; the taught
    sets' together, drawn under every condition with ``taught_conditions``): with
    ``--condition-guard``, parts whose silent errors the budget holds as it holds every
    set's. The goals hold per condition (issue 14: "including dice packed edge to edge ...
    >= 0.99 everywhere"), and a set's budget alone lets one condition's errors gather (held
    out, packed dice ran 1.2% silent on one draw)."""
    out = {}
    for k, name in enumerate(CONDITIONS):
        idx = list(range(k * per_condition, (k + 1) * per_condition))
        out[f"rendered d6, {name}"] = [("rendered d6", idx)]
        out[f"rendered taught sets, {name}"] = [(f"rendered {t}", idx) for t in TAUGHT]
    return out


def build(root: Path, seed: int, per_condition: int, log=print, outputs=None,
          taught_conditions: bool = False) -> dict:
    """{set: (reader, outputs(reader, frames, teaching folder or None))}; ``outputs`` is
    ``frame_outputs`` (the networks' outputs) unless given. Taught sets are plain renders,
    or with ``taught_conditions`` drawn under every condition as the d6 scenes are (and as
    the bench draws them), ``per_condition`` each."""
    outputs = outputs or (lambda reader, frames, folder: frame_outputs(reader, frames))
    d6 = Reader("d6")
    sets = {}
    for source in ("byler_d6", "penlington_webcam_train"):
        frames = []
        for key in split.photos_in("tune"):
            if key.startswith(source):
                img, faces, _, _ = data.real_photo(root, key)
                frames.append((img, faces))
        sets[f"real {source}"] = (d6, outputs(d6, frames, None))
    rng = np.random.default_rng(data.TUNE_SEED0 + seed)
    frames = []
    for name, opt in CONDITIONS.items():
        for i in range(per_condition):
            faces = [str(v) for v in rng.integers(1, 7, 1 + i % 9)]
            sc = render_labelled(rng, faces, opt)
            frames.append((sc.image, sc.faces))
    sets["rendered d6"] = (d6, outputs(d6, frames, None))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for k, name in enumerate(TAUGHT):
            write_teaching_photos(name, tmp / name, per_face=6, seed=data.TUNE_SEED0 + 100 + k)
            teach(name, tmp / name, tmp / "data")
            reader = Reader(name, tmp / "data")
            frames = []
            if taught_conditions:
                for opt in CONDITIONS.values():
                    for i in range(per_condition):
                        sc = render_labelled(rng, random_roll(rng, name, 1 + i % 9), opt, pips=False)
                        frames.append((sc.image, sc.faces))
            else:
                for i in range(3 * per_condition):
                    img, faces, _ = render_roll(rng, name, 1 + i % 9)
                    frames.append((img, faces))
            sets[f"rendered {name}"] = (reader, outputs(reader, frames, tmp / name))
    log("tuning sets: " + ", ".join(f"{n} {len(o)}" for n, (_, o) in sets.items()))
    return sets
