"""Fixtures for the vision suite: taught game sets (from rendered stand-in photos), once."""

from collections import Counter

import cv2
import numpy as np
import pytest

from vision.render import write_teaching_photos
from vision.sets import teach

cv2.setNumThreads(1)


@pytest.fixture(scope="session")
def taught(tmp_path_factory):
    """A data folder with the game sets taught from rendered photos, six per face."""
    data = tmp_path_factory.mktemp("data")
    for k, name in enumerate(["incredibles", "invincible", "xmen"]):
        folder = data.parent / f"teach-{name}"
        write_teaching_photos(name, folder, per_face=6, seed=500 + k)
        teach(name, folder, data)
    return data


def score(pairs):
    """Per-die recall and precision over (labelled faces, read faces) pairs, as
    shared/tools/score_dice.py computes them (faces compared as multisets per image)."""
    want = got = right = 0
    for faces, read in pairs:
        w, g = Counter(faces), Counter(read)
        right += sum(min(n, g[f]) for f, n in w.items())
        want += len(faces)
        got += len(read)
    return right / max(want, 1), right / max(got, 1)


def blank_frame(colour=(60, 110, 60), size=(640, 480), seed=0):
    rng = np.random.default_rng(seed)
    img = np.empty((size[1], size[0], 3), np.float32)
    img[:] = colour
    img += rng.normal(0, 2, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)
