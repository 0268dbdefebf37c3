"""The detector alone on a tuning-range draw: dice it misses and peaks that are no die.

    .venv/bin/python tests/bench/detector_alone.py vision/models [scenes per set and condition]

Scenes from ``TUNE_SEED0 + 9800 + 100 k + c`` (the tuning range, apart from what
tune_sets.py draws; never the bench's held-out seeds), every game set under every condition
of vision/scenes.py, 1 to 9 dice. A die is missed when no peak within half its side reaches
``KEEP``; a false peak is one at ``KEEP`` or more lying over 0.6 sides from every die.
Blank top faces (the X-Men Alert die's) are counted apart. Used to choose among detectors
before their thresholds are tuned (docs/benchmarks.md, 2026-12-05 03:00).
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from vision.detector import Detector  # noqa: E402
from vision.render import random_roll, render_labelled  # noqa: E402
from vision.scenes import CONDITIONS  # noqa: E402
from vision.training import data  # noqa: E402

KEEP = 0.3
SETS = ("d6", "incredibles", "invincible", "xmen")


def one_part(det: Detector, k: int, set_name: str, c: int, opt, scenes: int) -> np.ndarray:
    """(dice, missed, blank missed, blank dice, false peaks) of one set and condition."""
    rng = np.random.default_rng(data.TUNE_SEED0 + 9800 + 100 * k + c)
    out = np.zeros(5, int)
    for i in range(scenes):
        sc = render_labelled(rng, random_roll(rng, set_name, 1 + i % 9), opt,
                             pips=(set_name == "d6"))
        found, _, _ = det.run(sc.image, 0.1)
        peaks = np.array([(d.cx, d.cy, d.score) for d in found]).reshape(-1, 3)
        centres = np.array([t.mean(0) for t in sc.tops]).reshape(-1, 2)
        sides = np.array([max(np.ptp(t[:, 0]), np.ptp(t[:, 1])) for t in sc.tops])
        for (x, y), side, face in zip(centres, sides, sc.faces):
            near = peaks[np.hypot(peaks[:, 0] - x, peaks[:, 1] - y) < side / 2]
            missed = not len(near) or near[:, 2].max() < KEEP
            out += (1, missed, missed and face == "blank", face == "blank", 0)
        for x, y, score in peaks:
            if score >= KEEP and (not len(centres) or
                                  (np.hypot(*(centres - (x, y)).T) / sides).min() > 0.6):
                out[4] += 1
    return out


def main(argv: list[str]) -> int:
    cv2.setNumThreads(1)
    det = Detector(Path(argv[0]) / "detector.onnx")
    scenes = int(argv[1]) if len(argv) > 1 else 40
    total = np.zeros(5, int)
    for k, set_name in enumerate(SETS):
        for c, (cond, opt) in enumerate(CONDITIONS.items()):
            got = one_part(det, k, set_name, c, opt, scenes)
            total += got
            if got[1] or got[4]:
                print(f"{set_name}, {cond}: " + "dice %d missed %d (blank %d of %d) false %d" % tuple(got))
    print("all: dice %d missed %d (blank %d of %d) false %d" % tuple(total))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
