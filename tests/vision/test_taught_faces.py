"""Taught faces (vision/faces.py): the nearest taught view, in the set's whitened embedding."""

import numpy as np
import pytest

from vision import faces
from vision.errors import DamagedSet
from vision.faces import FaceModel, build_model, whiten
from vision.render import write_teaching_photos
from vision.sets import load, sets_dir, teach


def _views(rng, centre, nuisance, n=36):
    """``n`` unit views of one photo: ``centre`` plus a large move along the ``nuisance``
    directions (what a turn or a blur does to an embedding) and a little noise."""
    x = centre + (rng.normal(0, 1.0, (n, nuisance.shape[0])) @ nuisance) \
        + rng.normal(0, 0.02, (n, len(centre)))
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def test_whitening_tells_faces_apart_by_what_they_differ_in():
    """Two faces whose embeddings differ less than one photo's views differ among themselves
    (a turn, a blur): the nearest raw view is often of the other face, the nearest whitened
    one is not, because every view of one face shows the set which directions are nuisance."""
    rng = np.random.default_rng(3)
    d = 16
    nuisance = np.eye(d)[1:4] * 0.6  # three directions the views move in
    centres = {"a": np.eye(d)[0] * 0.1 + np.eye(d)[5], "b": -np.eye(d)[0] * 0.1 + np.eye(d)[5]}
    examples = [(f, (_views(rng, c, nuisance), 0.0)) for f, c in centres.items() for _ in range(6)]
    model = build_model("toy", examples, "net")
    assert model.whitening is not None and model.whitening.shape == (d, d)
    queries = [(f, _views(rng, c, nuisance, 60)) for f, c in centres.items()]
    right_white = sum(r[0] == f for f, q in queries for r in model.classify(q))
    raw = FaceModel("toy", ["a", "b"], np.concatenate([e for _, (e, _) in examples]),
                    np.concatenate([np.full(len(e), "ab".index(f)) for f, (e, _) in examples]),
                    0.0)
    right_raw = sum(r[0] == f for f, q in queries for r in raw.classify(q))
    assert right_white >= 0.95 * 120, right_white
    assert right_raw <= 0.8 * 120, right_raw  # the old comparison: raw cosine


def test_each_face_keeps_how_near_its_own_photos_come_and_a_crop_must_come_near_that():
    """vision/faces.py: a face's ``near`` is the least best similarity of one of its photos to
    its other photos; ``reject`` stays the set's least of them less 0.1. ``like`` (a crop the
    face network calls "not a die" read as this face from there) is ``margin`` under the
    face's own, never under ``reject``; a set taught before the faces kept it has none, and
    its bar is ``reject`` as before."""
    rng = np.random.default_rng(5)
    d = 16
    nuisance = np.eye(d)[1:4] * 0.6
    tight, loose = np.eye(d)[5], np.eye(d)[7]
    examples = [("blank", (_views(rng, tight, nuisance * 0.2), 0.0)) for _ in range(6)] + \
        [("logo", (_views(rng, loose + rng.normal(0, 0.5, d), nuisance), 0.0)) for _ in range(6)]
    model = build_model("toy", examples, "net")
    assert set(model.near) == {"blank", "logo"}
    assert model.near["blank"] > model.near["logo"]  # the blank face's photos lie closer
    assert model.reject == pytest.approx(min(min(model.near.values()) - 0.1, 0.8))
    assert model.like("blank", 0.05) == pytest.approx(max(model.reject, model.near["blank"] - 0.05))
    assert model.like("blank", 0.05) > model.reject
    assert model.like("logo", 1.0) == model.reject  # a margin of 1: the set's reject
    before = FaceModel("toy", model.faces, model.embeddings, model.labels, model.reject)
    assert before.near is None and before.like("blank", 0.05) == model.reject


def test_a_set_taught_from_one_photo_a_face_keeps_no_near_and_is_not_taught_again(tmp_path):
    """With one photo a face there is no other photo to come near: ``near`` is empty, the bar
    is ``reject``, and loading leaves the set as taught (only a set taught before ``near`` was
    kept is taught again from its photos)."""
    write_teaching_photos("xmen", tmp_path / "photos", per_face=1, seed=43)
    teach("xmen", tmp_path / "photos", tmp_path / "data")
    meta = sets_dir(tmp_path / "data") / "xmen" / "model.json"
    written = meta.stat().st_mtime_ns
    for _ in range(2):
        model = load("xmen", tmp_path / "data")
        assert model.near == {} and model.like("blank", 0.05) == model.reject
    assert meta.stat().st_mtime_ns == written


def test_whitening_leaves_a_direction_no_view_varies_in_bounded():
    """A direction with no within-face variance is scaled by 1/sqrt(RIDGE * mean variance),
    not blown up to infinity."""
    rng = np.random.default_rng(0)
    embs = np.zeros((40, 4), np.float32)
    embs[:, :2] = rng.normal(0, 1, (40, 2))  # directions 2 and 3 never vary
    w = whiten(embs, np.repeat([0, 1], 20))
    assert np.all(np.isfinite(w)) and np.abs(w).max() < 100


def test_a_taught_set_keeps_its_whitening_and_reads_the_same_after_loading(tmp_path):
    write_teaching_photos("xmen", tmp_path / "photos", per_face=2, seed=41)
    info = teach("xmen", tmp_path / "photos", tmp_path / "data")
    assert sorted(info["faces"]) == ["blank", "evil_mutant", "marvel", "xmen"]
    model = load("xmen", tmp_path / "data")
    n_views = len(faces.TURNS) * (len(faces.JITTER) + len(faces.LOOKS))
    assert model.embeddings.shape == (8 * n_views, 64) and model.whitening.shape == (64, 64)
    assert np.all(np.diff(model.labels) >= 0)  # ordered by face, as classify's reduceat needs
    q = np.random.default_rng(1).normal(size=(5, 64)).astype(np.float32)
    again = FaceModel.load(sets_dir(tmp_path / "data") / "xmen", model.net_digest)
    assert again.classify(q) == model.classify(q)
    assert again.near == model.near and set(again.near) == set(info["faces"])
    # a set file without its whitening is damaged, and says how to mend it
    folder = sets_dir(tmp_path / "data") / "xmen"
    z = dict(np.load(folder / "model.npz"))
    del z["whitening"]
    np.savez_compressed(folder / "model.npz", **z)
    with pytest.raises(DamagedSet, match="teach the set again"):
        load("xmen", tmp_path / "data")


def test_an_unsure_taught_read_is_read_again_turned_and_reads_more_dice_right(tmp_path, monkeypatch):
    """vision/reader.py ``Reader.taught``: a taught read under ``TURN_BELOW`` is read from its
    crop at four quarter turns. On Invincible's numerals at 320x240 (small dice: the face
    network's least sure reads) the four views read more of the detector's dice right than
    one view, and a read sure from one view is left as it was."""
    from vision import reader as reader_module
    from vision.reader import Reader
    from vision.render import random_roll, render_labelled
    from vision.scenes import CONDITIONS

    write_teaching_photos("invincible", tmp_path / "photos", per_face=6, seed=9051)
    teach("invincible", tmp_path / "photos", tmp_path / "data")
    reader = Reader("invincible", tmp_path / "data")
    rng = np.random.default_rng(9052)
    dice = []  # (true face, crop) of each die the detector found
    for i in range(24):
        scene = render_labelled(rng, random_roll(rng, "invincible", 1 + i % 9),
                                CONDITIONS["320x240"], pips=False)
        dets, crops = reader.detect(scene.image)
        centres = [t.mean(0) for t in scene.tops]
        for d, c in zip(dets, crops):
            gap = [np.hypot(d.cx - x, d.cy - y) for x, y in centres]
            if gap and min(gap) < 0.5 * d.side and d.score >= reader.tuning.keep:
                dice.append((scene.faces[int(np.argmin(gap))], c))
    crops = np.stack([c for _, c in dice])
    emb = reader.facenet.run(crops)[1]
    turned = reader.taught(crops, emb)
    below = reader_module.TURN_BELOW
    monkeypatch.setattr(reader_module, "TURN_BELOW", 0.0)
    one = reader.taught(crops, emb)
    assert len(dice) >= 100
    wrong_one = sum(r[0] != f for r, (f, _) in zip(one, dice))
    wrong_turned = sum(r[0] != f for r, (f, _) in zip(turned, dice))
    assert wrong_one >= 4 and wrong_turned * 2 <= wrong_one, (wrong_one, wrong_turned)
    sure = [k for k, r in enumerate(one) if r[1] >= below]
    assert sure and all(turned[k] == one[k] for k in sure)
