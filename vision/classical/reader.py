"""The classical recognizer (a colour-difference finder, a pip counter, gradient-histogram
templates for taught faces), chosen with ``recognizer="classical"``: find the dice, read
each face, flag the doubtful ones.

    reader = ClassicalReader("d6")              # built in: pip counting
    reader = ClassicalReader("xmen", data_dir=data)  # a taught set
    for die in reader.read(frame_bgr):
        print(die.face, die.confidence, die.box, die.confirmed)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.classical import sets
from vision.classical.faces import features, read_crops
from vision.classical.finder import find_dice
from vision.classical.pips import read_pips
from vision.order_stats import median
from vision.reader import DEFAULT_THRESHOLD, DieRead

class ClassicalReader:
    """Reads dice of one set. ``region`` is an optional 0/255 tray mask from calibration."""

    def __init__(self, set_name: str = "d6", data_dir: Path | str | None = None,
                 threshold: float = DEFAULT_THRESHOLD, region: np.ndarray | None = None,
                 die_side: float | None = None):
        self.set_name = set_name
        self.model = sets.load(set_name, Path(data_dir) if data_dir else None)
        self.threshold = threshold
        self.region = region
        self.die_side = die_side
        self.last_obstructed = False
        self.last_unread: list = []  # this recognizer flags no unread dice
        self.last_flagged = False

    @property
    def faces(self) -> list[str]:
        return list(self.model.faces) if self.model else [str(i) for i in range(1, 7)]

    def __repr__(self) -> str:
        kind = "taught" if self.model else "pips"
        return f"<ClassicalReader set={self.set_name!r} ({kind}) threshold={self.threshold}>"

    def read(self, frame_bgr: np.ndarray) -> list[DieRead]:
        if frame_bgr.ndim == 2:  # a grey camera
            frame_bgr = cv2.cvtColor(frame_bgr, cv2.COLOR_GRAY2BGR)
        scene = self.find(frame_bgr)
        return [r for r in self.read_found(frame_bgr, scene.dice) if r is not None]

    def find(self, frame_bgr: np.ndarray, shrunk=None):
        """The finder's scene of a BGR frame (its dice, and whether a hand obstructs it);
        ``shrunk``: the frame's reductions (vision/shrink.py), shared with another reader."""
        scene = find_dice(frame_bgr, self.region, self.die_side, shrunk)
        self.last_obstructed = scene.obstructed
        return scene

    def read_found(self, frame_bgr: np.ndarray, dice: list, which=None) -> list[DieRead | None]:
        """A read of each found die (``dice``, the finder's; only those whose index is in
        ``which`` when given, the rest None), or None where it is no die of the set: no pips,
        or far from every taught face."""
        out: list[DieRead | None] = [None] * len(dice)
        todo = range(len(dice)) if which is None else sorted(which)
        if not todo:
            return out
        if self.model is None:
            for i in todo:
                r = read_pips(frame_bgr, dice[i])
                if r.count:  # no pips: a tray hole, a coin, not a d6
                    out[i] = DieRead(str(r.count), r.confidence, dice[i].box,
                                     r.confidence >= self.threshold)
            return out
        gray = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
        # the scene's typical outline: a die seen only in part is looked at at this size
        typical = median([np.sqrt(c.rect[1][0] * c.rect[1][1]) for c in dice])
        # every view of every die in one batch of histograms (the same rows one by one gives)
        crops = [c for i in todo for c in read_crops(frame_bgr, dice[i], gray, typical)]
        feats = np.split(features(crops), len(todo))
        for i, (face, conf, dist) in zip(todo, self.model.classify_dice(feats)):
            if dist <= 2.0 * self.model.reject:  # farther from every taught face: not a die
                out[i] = DieRead(face, conf, dice[i].box, conf >= self.threshold)
        return out
