"""The third training stage: the detector alone continues from the second stage's export on
dice that show a blank top face.

The first two stages draw every top face with marks on it (pips, a symbol, a numeral), so the
detector learned "a square with marks on it". A game die can land blank (two of the X-Men
Alert die's six faces are): alone it is found by its outline, packed edge to edge among other
dice it peaked under the reader's threshold. Here a share of the dice in most scenes is
blank, and half of those scenes pack the dice edge to edge; the other scenes are drawn as the
first and second stages draw theirs, so that what those taught is kept.

The face network may continue too (``--stage3-face-steps``, off by default), on other scenes
drawn alike: a blank top face as "another face" (no embedding class: its set's own photos
read it), and the continued detector's own peaks that are no die, on those scenes and on the
real training photos, as "not a die". A detector that learned blank squares peaks on more
square patches that are no die; the face network is the reader's filter for them.
"""

from __future__ import annotations

from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

from vision.scenes import CONDITIONS
from vision.training import data, stage2

SEED0 = data.TRAIN_SEED0 + 70_000  # + seed * 100_000 + i: apart from the other stages' scenes
FACE_SEED0 = data.TRAIN_SEED0 + 90_000  # the face network's scenes, apart from the detector's
LR = 3e-4  # the default of --stage3-lr: a tenth of the first stage's, continuing a trained detector
BATCH = 32
BLANK_SCENES = 0.6  # scenes with blank dice
BLANK_SHARE = data.BLANK_SHARE  # of their dice
PACKED = 0.5  # of those scenes, packed edge to edge as the bench's and tuning's scenes are
_PACKED = CONDITIONS["packed edge to edge"]


def scene(rng: np.random.Generator):
    """Options, faces and pips of one third-stage scene."""
    if rng.random() < 0.5:
        opt, n, pips = data.scene_options(rng)
        faces = data._scene_faces(rng, n, pips)
    else:
        opt, faces, pips = stage2.scene(rng)
    if rng.random() < BLANK_SCENES:
        share = rng.uniform(*BLANK_SHARE)
        faces = ["blank" if rng.random() < share else f for f in faces]
        if rng.random() < PACKED:
            opt.packed, opt.touching = _PACKED.packed, _PACKED.touching
    return opt, faces, pips


def render_three(seed: int) -> data.DetSample:
    rng = np.random.default_rng(seed)
    opt, faces, pips = scene(rng)
    return data.detector_sample(rng, opt, faces, pips)[0]


def _init() -> None:
    cv2.setNumThreads(1)


def cache_path(cache: Path, seed: int, scenes: int, root: Path) -> Path:
    return cache / f"stage3-{seed}-{scenes}-{data.recipe(root, Path(__file__), Path(stage2.__file__))}.pkl"


def build(root: Path, seed: int, scenes: int, cache: Path, procs: int = 2):
    """(rendered detector samples, real ones) of the stage, cached by seed, scenes and recipe."""
    def make():
        seeds = [SEED0 + seed * 100_000 + i for i in range(scenes)]
        with Pool(procs, initializer=_init) as pool:
            rendered = pool.map(render_three, seeds, chunksize=16)
        return rendered, data.real_samples(root, seed)[0]

    return data.cached(cache_path(cache, seed, scenes, root), make)


def render_faces(seed: int) -> data.Crops:
    rng = np.random.default_rng(seed)
    opt, faces, pips = scene(rng)
    return stage2.with_negatives(rng, opt, faces, pips, per_die=3)[1]


def faces_cache_path(cache: Path, seed: int, scenes: int, root: Path, detector: Path) -> Path:
    """Cached by seed, scenes and recipe, the detector whose peaks are the negatives included."""
    more = (Path(__file__), Path(stage2.__file__), detector)
    return cache / f"stage3-faces-{seed}-{scenes}-{data.recipe(root, *more)}.pkl"


def build_faces(root: Path, seed: int, scenes: int, cache: Path, detector: Path, procs: int = 2):
    """(rendered face crops, real ones) for the face network's third stage; the hard
    negatives are ``detector``'s peaks that are no die."""
    def make():
        seeds = [FACE_SEED0 + seed * 100_000 + i for i in range(scenes)]
        with Pool(procs, initializer=stage2._init, initargs=(str(detector),)) as pool:
            parts = pool.map(render_faces, seeds, chunksize=8)
        crops = data.Crops()
        for c in parts:
            crops.extend(c)
        stage2._init(str(detector))
        real = data.real_samples(root, seed)[1]
        real.extend(stage2.real_hard_negatives(root, np.random.default_rng(seed + 9)))
        return crops, real

    return data.cached(faces_cache_path(cache, seed, scenes, root, detector), make)
