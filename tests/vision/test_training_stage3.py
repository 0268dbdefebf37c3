"""The third training stage's scenes (vision/training/stage3.py; needs the training extra):
blank top faces in the share it says, packed edge to edge in half of those scenes, and every
blank die not under a hand labelled a die for the detector."""

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("onnx")

from vision.render import render_labelled  # noqa: E402
from vision.scenes import CONDITIONS  # noqa: E402
from vision.training import __main__ as training  # noqa: E402
from vision.training import data, stage3  # noqa: E402


def test_most_scenes_show_blank_dice_and_half_of_those_are_packed():
    rng = np.random.default_rng(11)
    scenes = [stage3.scene(rng) for _ in range(400)]
    with_blank = [(opt, faces) for opt, faces, _ in scenes if "blank" in faces]
    # 60% of scenes draw blanks, at 10-60% of their dice: a scene of one die may draw none
    assert 0.4 < len(with_blank) / len(scenes) < 0.65
    packed = CONDITIONS["packed edge to edge"]
    share = np.mean([opt.packed == packed.packed and opt.touching == packed.touching
                     for opt, _ in with_blank])
    assert 0.35 < share < 0.65
    blank = sum(f == "blank" for _, faces in with_blank for f in faces)
    assert 0.1 < blank / sum(len(faces) for _, faces in with_blank) < 0.6
    # the other faces are the first and second stages' kinds: pips, symbols, numerals
    kinds = {f.split(":")[0] for _, faces, _ in scenes for f in faces if f != "blank"}
    assert {"sym", "num", "gsym"} <= kinds and kinds & {"1", "2", "3", "4", "5", "6"}


def test_every_blank_die_outside_a_hand_is_a_die_to_find():
    rng = np.random.default_rng(3)
    opt = CONDITIONS["packed edge to edge"]
    faces = ["blank", "3", "blank", "blank", "5", "blank"]
    det, sc, centres, _, kept = data.detector_sample(np.random.default_rng(3), opt, faces, True)
    again = render_labelled(rng, faces, opt, pips=True)
    assert sc.faces == again.faces  # the same draw: the sample is the scene rendered
    assert kept == sc.faces and kept.count("blank") >= 3
    assert len(det.centres) == len(centres) == len(sc.faces)


def test_the_third_stage_alone_is_not_given_with_the_first(capsys):
    with pytest.raises(SystemExit):
        training.main(["--first", "a", "--second", "b"])
    assert "--first and --second" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        training.main(["--second", "b"])  # the third stage is off unless its steps are given
    assert "--stage3-steps" in capsys.readouterr().err


def test_a_blank_face_is_another_face_with_no_embedding_class():
    from vision import facenet

    assert data._face_class("blank") == (facenet.OTHER_FACE, -1)
    # the marked faces keep their classes
    assert data._face_class("4") == (4, 3)
    assert data._face_class("sym:7") == (facenet.OTHER_FACE, 13)


def test_the_face_networks_crops_hold_blank_faces_and_the_detectors_false_peaks(tmp_path):
    """Crops for the face network's third stage, from scenes of its own seeds: blank dice
    as "another face" without an embedding class, and not-a-die crops, among them the
    detector's own peaks away from every die (stage2._hard_negatives)."""
    from vision import detector, facenet
    from vision.training import stage2

    stage2._init(str(detector.MODEL))
    seeds = [stage3.FACE_SEED0 + i for i in range(40)]
    blank = other = not_die = hard = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        opt, faces, pips = stage3.scene(rng)
        crops = stage3.render_faces(seed)
        cls, ids = np.asarray(crops.classes), np.asarray(crops.ids)
        other += int(np.sum(cls == facenet.OTHER_FACE))
        blank += int(np.sum((cls == facenet.OTHER_FACE) & (ids == -1)))
        not_die += int(np.sum(cls == facenet.NOT_A_DIE))
        # the same scene's crops without the detector's peaks: what _crops_of cuts alone
        rng = np.random.default_rng(seed)
        stage3.scene(rng)
        _, plain, _ = data.labelled_sample(rng, opt, faces, pips, per_die=3)
        hard += len(crops.images) - len(plain.images)
        assert "blank" not in faces or np.any((cls == facenet.OTHER_FACE) & (ids == -1))
    assert blank > 0 and other > blank and not_die > 0
    assert hard > 0  # the detector peaked somewhere that is no die, and that was kept


def test_blank_scenes_in_the_first_two_stages_change_only_the_faces():
    """--blank-scenes S: blank top faces in a share S of the first two stages' scenes, drawn
    by a generator of their own, so every other draw of a scene is the one made without it
    (and with S 0 the stages render what they rendered before the option)."""
    from vision import facenet

    faces = [str(v) for v in range(1, 7)] * 2
    assert data.blanked(faces, 5, 0.0) is faces
    drawn = [data.blanked(faces, seed, 0.5) for seed in range(400)]
    with_blank = [f for f in drawn if "blank" in f]
    assert 0.4 < len(with_blank) / len(drawn) < 0.6
    assert all(len(f) == len(faces) and all(x in ("blank", y) for x, y in zip(f, faces))
               for f in drawn)
    share = np.mean([f.count("blank") / len(f) for f in with_blank])
    assert data.BLANK_SHARE[0] < share < data.BLANK_SHARE[1]
    assert data.blanked(faces, 7, 0.5) == data.blanked(faces, 7, 0.5)  # reproducible by seed
    # a rendered first-stage scene: off, the scene as before; on, the same dice where they were
    seed = next(s for s in range(100) if "blank" in data.blanked(["1"] * 30, s, 1.0))
    off, on = data.render_one(seed), data.render_one(seed, blank_scenes=1.0)
    assert data.render_one(seed, blank_scenes=0.0)[0].jpeg == off[0].jpeg
    assert np.array_equal(off[0].centres, on[0].centres)
    assert on[0].jpeg != off[0].jpeg
    blank_crops = [i for c, i in zip(on[1].classes, on[1].ids) if i == -1 and c == facenet.OTHER_FACE]
    assert blank_crops and not [i for c, i in zip(off[1].classes, off[1].ids)
                                if i == -1 and c == facenet.OTHER_FACE]

def test_blank_scenes_are_cached_apart_and_off_is_named_as_before(tmp_path):
    from vision.training import stage2

    first = tmp_path / "detector.onnx"
    first.write_bytes(b"a first stage")
    for path in (lambda b: data.cache_path(tmp_path, 0, 10, tmp_path, b),
                 lambda b: stage2.cache_path(tmp_path, 0, 10, tmp_path, first, b)):
        assert path(0.0) != path(0.3) != path(0.5)
        assert "blank" not in path(0.0).name and "-blank0.3-" in path(0.3).name
    assert data.cache_path(tmp_path, 0, 10, tmp_path) == data.cache_path(tmp_path, 0, 10, tmp_path, 0.0)


def test_the_blank_share_of_the_scenes_is_a_share(capsys):
    for bad in ("-0.1", "1.5"):
        with pytest.raises(SystemExit):
            training.main(["--blank-scenes", bad, "--train-only"])
        assert f"--blank-scenes {float(bad)}" in capsys.readouterr().err
