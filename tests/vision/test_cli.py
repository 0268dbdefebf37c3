"""`companion dice teach|read|watch` through vision.cli.run(argv)."""

import json

import cv2
import numpy as np
import pytest

from vision.cli import run
from vision.render import render_roll, write_teaching_photos


def test_read_json_one_line_per_image(tmp_path, capsys):
    rng = np.random.default_rng(1)
    paths = []
    for i in range(2):
        img, faces, _ = render_roll(rng, "d6", 3)
        p = tmp_path / f"{i}.jpg"
        cv2.imwrite(str(p), img)
        paths.append(str(p))
    assert run(["read", "--set", "d6", "--json", "--data", str(tmp_path / "d"), *paths]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    for path, line in zip(paths, lines):
        rec = json.loads(line)
        assert rec["image"] == path
        assert isinstance(rec["ms"], float) and rec["ms"] >= 0
        assert isinstance(rec["flagged"], bool) and isinstance(rec["unread"], list)
        assert rec["flagged"] == (bool(rec["unread"]) or any(
            not d["confirmed"] for d in rec["dice"]))
        for die in rec["dice"]:
            assert set(die) == {"face", "confidence", "box", "confirmed"}
            assert len(die["box"]) == 4 and all(isinstance(v, int) for v in die["box"])


@pytest.mark.parametrize("recognizer", ["fused", "learned", "classical"])
def test_the_cli_reads_with_each_recognizer(tmp_path, capsys, recognizer):
    img, faces, _ = render_roll(np.random.default_rng(1), "d6", 3)
    p = tmp_path / "a.png"
    cv2.imwrite(str(p), img)
    assert run(["read", "--recognizer", recognizer, "--json", "--data", str(tmp_path), str(p)]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert sorted(d["face"] for d in rec["dice"]) == sorted(faces)
    assert rec["flagged"] == (bool(rec["unread"]) or any(not d["confirmed"] for d in rec["dice"]))


def test_read_human_output_marks_doubtful_reads(tmp_path, capsys):
    rng = np.random.default_rng(2)
    img, _, _ = render_roll(rng, "d6", 2)
    p = tmp_path / "a.png"
    cv2.imwrite(str(p), img)
    assert run(["read", "--threshold", "1.01", "--data", str(tmp_path), str(p)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(str(p)) and "?" in out


def test_missing_or_unreadable_image_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.jpg"
    bad.write_text("not an image")
    assert run(["read", "--data", str(tmp_path), str(tmp_path / "none.jpg")]) == 2
    assert "no such image" in capsys.readouterr().err
    assert run(["read", "--data", str(tmp_path), str(bad)]) == 2
    err = capsys.readouterr().err
    assert "cannot decode" in err or "not an image" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("recognizer", ["classical", "learned", "fused"])
def test_a_strip_of_an_image_or_a_threshold_that_is_no_number_exits_2_with_why(tmp_path, capsys,
                                                                               recognizer):
    """A 1 x 20000 or 20000 x 1 PNG made every recognizer raise cv2.error (the heat map shrunk
    to nothing); --threshold nan confirmed every read."""
    paths = []
    for name, shape in (("row.png", (1, 20000, 3)), ("column.png", (20000, 1, 3)),
                        ("strip.png", (20, 2000, 3))):
        paths.append(tmp_path / name)
        cv2.imwrite(str(paths[-1]), np.zeros(shape, np.uint8))
    assert run(["read", "--recognizer", recognizer, "--data", str(tmp_path), *map(str, paths)]) == 2
    err = capsys.readouterr().err
    assert err.count("cannot be read as a photo of the tray") == 3 and "Traceback" not in err, err
    for bad in ("nan", "inf", "-0.1", "half"):
        assert run(["read", "--threshold", bad, "--data", str(tmp_path), str(paths[0])]) == 2
        assert "give a number from 0" in capsys.readouterr().err


def test_unknown_set_and_bad_usage_exit_2(tmp_path, capsys):
    img = tmp_path / "x.png"
    cv2.imwrite(str(img), np.zeros((40, 40, 3), np.uint8))
    assert run(["read", "--set", "nope", "--data", str(tmp_path), str(img)]) == 2
    assert "unknown dice set 'nope'" in capsys.readouterr().err
    assert run(["frobnicate"]) == 2
    assert run(["read", "--data", str(tmp_path)]) == 2  # no image
    assert run(["teach", "s", str(tmp_path / "absent"), "--data", str(tmp_path)]) == 2


def test_teach_then_read_a_game_set(tmp_path, capsys):
    write_teaching_photos("xmen", tmp_path / "photos", per_face=4, seed=3)
    data = tmp_path / "data"
    assert run(["teach", "xmen", str(tmp_path / "photos"), "--data", str(data)]) == 0
    assert "taught xmen" in capsys.readouterr().out
    assert (data / "dice" / "sets" / "xmen" / "model.json").is_file()
    assert len(list((data / "dice" / "sets" / "xmen" / "photos" / "blank").iterdir())) == 4
    rng = np.random.default_rng(4)
    img, faces, _ = render_roll(rng, "xmen", 3)
    p = tmp_path / "roll.png"
    cv2.imwrite(str(p), img)
    assert run(["read", "--set", "xmen", "--json", "--data", str(data), str(p)]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert sorted(d["face"] for d in rec["dice"]) == sorted(faces)


def test_data_dir_from_environment(tmp_path, monkeypatch, capsys):
    write_teaching_photos("xmen", tmp_path / "photos", per_face=3, seed=5)
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "envdata"))
    assert run(["teach", "xmen", str(tmp_path / "photos")]) == 0
    assert (tmp_path / "envdata" / "dice" / "sets" / "xmen").is_dir()


def test_teach_needs_faces(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert run(["teach", "s", str(tmp_path / "empty"), "--data", str(tmp_path)]) == 2
    assert "face" in capsys.readouterr().err


def test_watch_synthetic_camera_prints_settled_rolls(tmp_path, capsys):
    assert run(["watch", "--set", "d6", "--camera", "synthetic", "--rolls", "2",
                "--settle", "0.05", "--json", "--data", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    assert [json.loads(x)["roll"] for x in lines] == [1, 2]


def test_watch_bad_camera_exits_2(tmp_path, capsys):
    assert run(["watch", "--camera", str(tmp_path / "nothing.xyz"), "--data", str(tmp_path)]) == 2
    assert "camera" in capsys.readouterr().err
