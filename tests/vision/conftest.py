"""Fixtures for the vision suite: taught game sets (from rendered stand-in photos), once."""

from collections import Counter

import cv2
import numpy as np
import pytest

from vision.render import render_roll, write_teaching_photos
from vision.classical.sets import teach

cv2.setNumThreads(1)


GAME_SETS = ("incredibles", "invincible", "xmen")


@pytest.fixture(scope="session")
def teaching_photos(tmp_path_factory):
    """Six rendered stand-in photos a face of each game set, written once for every recognizer."""
    root = tmp_path_factory.mktemp("teach")
    for k, name in enumerate(GAME_SETS):
        write_teaching_photos(name, root / name, per_face=6, seed=500 + k)
    return root


def taught_with(tmp_path_factory, photos, label: str, teach_set, names=GAME_SETS):
    """A data folder with the game sets ``names`` taught from ``photos`` by ``teach_set``."""
    data = tmp_path_factory.mktemp(label)
    for name in names:
        teach_set(name, photos / name, data)
    return data


@pytest.fixture(scope="session")
def taught(tmp_path_factory, teaching_photos):
    """A data folder with the game sets taught to the classical recognizer."""
    return taught_with(tmp_path_factory, teaching_photos, "data", teach)


@pytest.fixture(scope="session")
def taught_learned(tmp_path_factory, teaching_photos):
    """The same, taught for the learned recognizer (embeddings of the face network)."""
    from vision.sets import teach as teach_learned

    return taught_with(tmp_path_factory, teaching_photos, "data-learned", teach_learned)


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


def sweep(reader, set_name, scenes, seed, opt=None):
    """(recall, precision) of ``reader`` over ``scenes`` rendered rolls of ``set_name`` (1 to 9
    dice, a draw of ``seed``; ``opt``: the render's RenderOptions)."""
    rng = np.random.default_rng(seed)
    pairs = []
    for i in range(scenes):
        img, faces, _ = render_roll(rng, set_name, 1 + i % 9, opt)
        pairs.append((faces, [d.face for d in reader.read(img)]))
    return score(pairs)


def blank_frame(colour=(60, 110, 60), size=(640, 480), seed=0):
    rng = np.random.default_rng(seed)
    img = np.empty((size[1], size[0], 3), np.float32)
    img[:] = colour
    img += rng.normal(0, 2, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def teach_webcam_and_read_the_sixth(shared, tmp_path, teach_fn, reader_fn) -> int:
    """Teach a set from 5 real webcam photos per face, read the sixth of each face (held out
    from training: vision/models/split.json); how many of the six read right."""
    import shutil

    src = shared / "data" / "dice-real" / "penlington_webcam_calibration" / "d6"
    held = []
    for face_dir in sorted(src.iterdir()):
        photos = sorted(face_dir.glob("*.jpg"))
        dst = tmp_path / "teach" / face_dir.name
        dst.mkdir(parents=True)
        for p in photos[1:]:
            shutil.copy(p, dst / p.name)
        held.append((face_dir.name, photos[0]))
    info = teach_fn("webcam", tmp_path / "teach", tmp_path / "data")
    assert sorted(info["faces"]) == ["1", "2", "3", "4", "5", "6"]
    reader = reader_fn("webcam", tmp_path / "data")
    right = 0
    for face, path in held:
        reads = reader.read(cv2.imread(str(path)))
        assert reads, f"no die found in {path.name}"
        die = max(reads, key=lambda d: d.box[2] * d.box[3])
        right += die.face == face
    return right


def held_out_photos(shared, source):
    """[(path, labelled faces)] of one source's held-out *test* part (vision/models/split.json):
    "byler_d6" (tray photos) or "webcam"."""
    import json

    from vision.training import split

    root = shared / "data" / "dice-real"
    if source == "byler_d6":
        labels = json.loads((root / "labels.json").read_text())
        return [(root / k, labels[k]["faces"]) for k in split.photos_in("test")
                if k.startswith("byler_d6/")]
    labels = json.loads((root / "penlington_webcam_train" / "labels.json").read_text())
    return [(root / k, labels[k.split("/", 1)[1]]["faces"]) for k in split.photos_in("test")
            if k.startswith("penlington_webcam_train/")]


def read_real(reader, photos):
    """((recall, precision), silent errors per die, taps per roll) of ``reader`` over
    ``photos``: a roll is tapped when the reader flags it or a die is unconfirmed."""
    pairs, silent, taps = [], 0, 0
    for path, faces in photos:
        reads = reader.read(cv2.imread(str(path)))
        got = [d.face for d in reads]
        pairs.append((faces, got))
        if reader.last_flagged or any(not d.confirmed for d in reads):
            taps += 1
        else:
            r, _ = score([(faces, got)])
            silent += max(len(faces), len(got)) - round(r * len(faces))
    return score(pairs), silent / sum(len(f) for _, f in photos), taps / len(photos)


@pytest.fixture(scope="session")
def training_scenes():
    """Three small rendered scenes as the training's detector samples and face crops."""
    from vision.render import RenderOptions, random_roll, render_labelled
    from vision.training import data

    rng = np.random.default_rng(0)
    dets, crops = [], data.Crops()
    for _ in range(3):
        sc = render_labelled(rng, random_roll(rng, "d6", 3), RenderOptions(), pips=True)
        centres = [t.mean(axis=0) for t in sc.tops]
        sides = [float(np.linalg.norm(t[1] - t[0])) for t in sc.tops]
        dets.append(data._det_sample(sc.image, centres, [(s, s) for s in sides]))
        crops.extend(data._crops_of(sc.image, centres, sides, sc.faces, rng, per_die=2, negatives=1))
    return dets, crops
