"""The classical recognizer's taught sets (gradient-histogram templates), in the data folder:
``<data>/dice/sets/<SET>/`` (the learned one re-teaches a set from its photos, and back).

A set folder holds ``model.json`` + ``model.npz`` (the templates) and ``photos/<face>/``, the
teaching photos themselves, so a set can be taught again with added photos (corrections).
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np

from vision.classical.faces import FaceModel, build_model
from vision.classical.finder import Candidate, find_dice
from vision.errors import StaleSet, UnknownSet
from vision.sets import BUILTIN, _NAME, _load_model, sets_dir, taught_sets, teach_with

log = logging.getLogger(__name__)


def main_die(frame: np.ndarray) -> Candidate | None:
    """The die of a one-die teaching photo: the largest die-like blob, nearest the centre."""
    scene = find_dice(frame)
    if not scene.dice:
        return None
    h, w = frame.shape[:2]

    def score(c: Candidate) -> float:
        (cx, cy), _, _ = c.rect
        off = np.hypot((cx - w / 2) / w, (cy - h / 2) / h)
        return c.area * (1.0 - off)

    return max(scene.dice, key=score)


def teach(name: str, folder: str | Path, data_dir: Path) -> dict:
    """Build (or replace) taught set ``name`` from ``folder/<face>/<image>``."""

    def example(frame):
        cand = main_die(frame)
        return None if cand is None else (frame, cand)

    return teach_with(name, folder, data_dir, example, lambda examples: build_model(
        name, [(face, frame, cand) for face, (frame, cand) in examples]))


def load(name: str, data_dir: Path | None) -> FaceModel | None:
    """The taught model of ``name``, None for the built-in d6; UnknownSet otherwise."""
    if data_dir is not None:
        folder = sets_dir(data_dir) / name
        if _NAME.match(name) and (folder / "model.json").is_file():
            try:
                return _load_model(folder, lambda: FaceModel.load(folder))
            except StaleSet:
                if not (folder / "photos").is_dir():
                    raise
                # the set keeps its photos: teach it again rather than leave the table
                # without its dice after an update
                log.warning("dice set %r was taught by an older recognizer; teaching it "
                            "again from its photos", name)
                teach(name, folder / "photos", data_dir)
                return _load_model(folder, lambda: FaceModel.load(folder))
    if name in BUILTIN:
        return None
    known = sorted(BUILTIN | set(taught_sets(data_dir)))
    raise UnknownSet(f"unknown dice set {name!r}: built in or taught here: {', '.join(known)}"
                     f" (teach one with `companion dice teach {name} FOLDER`)")
