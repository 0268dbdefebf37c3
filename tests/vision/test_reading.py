"""The classical recognizer (the default): rendered scenes of pip and stand-in symbol dice,
doubtful reads, blanks."""

import numpy as np
import pytest

from tests.vision.conftest import blank_frame, sweep
from vision.errors import UnknownSet
from vision.classical.reader import ClassicalReader as Reader
from vision.reader import DieRead
from vision.render import RenderOptions, draw_face, render_roll, render_scene


def test_reads_rendered_pip_dice():
    recall, precision = sweep(Reader("d6"), "d6", 18, seed=11)
    # measured 0.978 / 0.967 on these 18 scenes
    assert recall >= 0.93 and precision >= 0.93, (recall, precision)


@pytest.mark.parametrize("set_name", ["incredibles", "invincible", "xmen"])
def test_reads_rendered_taught_game_dice(taught, set_name):
    recall, precision = sweep(Reader(set_name, taught), set_name, 12, seed=21)
    assert recall >= 0.93 and precision >= 0.93, (set_name, recall, precision)


def test_read_returns_dierecords_with_boxes_inside_the_frame():
    rng = np.random.default_rng(3)
    img, faces, _ = render_roll(rng, "d6", 5)
    reads = Reader("d6").read(img)
    assert reads and all(isinstance(d, DieRead) for d in reads)
    h, w = img.shape[:2]
    for d in reads:
        x, y, bw, bh = d.box
        assert 0 <= x < w and 0 <= y < h and bw > 0 and bh > 0
        assert 0.0 <= d.confidence <= 1.0
        assert d.face in {"1", "2", "3", "4", "5", "6"}


def test_a_blank_face_is_a_face_not_a_missing_die(taught):
    rng = np.random.default_rng(5)
    img, _ = render_scene(rng, ["blank", "blank", "xmen"], RenderOptions(touching=0.0),
                          pips=False)
    faces = sorted(d.face for d in Reader("xmen", taught).read(img))
    assert faces == ["blank", "blank", "xmen"]


def test_empty_tray_reads_no_dice(taught):
    frame = blank_frame()
    assert Reader("d6").read(frame) == []
    assert Reader("xmen", taught).read(frame) == []


def test_a_doubtful_read_is_unconfirmed_not_guessed(taught):
    """A face halfway between two taught faces must come back unconfirmed."""
    frame = blank_frame((70, 70, 70))
    body, ink = (230, 230, 230), (30, 30, 30)
    mix = (draw_face("xmen", 64, body, ink).astype(np.float32) * 0.5
           + draw_face("marvel", 64, body, ink).astype(np.float32) * 0.5).astype(np.uint8)
    frame[200:264, 300:364] = mix
    reads = Reader("xmen", taught).read(frame)
    assert len(reads) == 1
    assert reads[0].confirmed is False
    assert reads[0].confidence < 0.6
    # and a clean face of the same die is confirmed
    frame[200:264, 300:364] = draw_face("xmen", 64, body, ink)
    clean = Reader("xmen", taught).read(frame)
    assert [d.face for d in clean] == ["xmen"] and clean[0].confirmed


def test_threshold_decides_confirmation():
    rng = np.random.default_rng(8)
    img, _, _ = render_roll(rng, "d6", 3)
    assert all(not d.confirmed for d in Reader("d6", threshold=1.01).read(img))


def test_unknown_set_is_a_clear_error(tmp_path):
    with pytest.raises(UnknownSet, match="nope"):
        Reader("nope", tmp_path)


def test_tray_region_limits_the_search():
    rng = np.random.default_rng(9)
    img, faces, boxes = render_roll(rng, "d6", 4)
    region = np.zeros(img.shape[:2], np.uint8)
    x, y, w, h = boxes[0]
    region[max(0, y - 10):y + h + 10, max(0, x - 10):x + w + 10] = 255
    reads = Reader("d6", region=region).read(img)
    assert len(reads) == 1


def test_a_hand_in_the_tray_is_reported():
    rng = np.random.default_rng(12)
    img, _ = render_scene(rng, ["3", "5"], RenderOptions(hand=True, perspective=0.0))
    reader = Reader("d6")
    reader.read(img)
    assert reader.last_obstructed


def test_grey_frames_are_read_too():
    rng = np.random.default_rng(14)
    img, faces, _ = render_roll(rng, "d6", 3)
    import cv2

    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    assert len(Reader("d6").read(grey)) >= 2


def test_a_speck_on_an_empty_table_is_not_a_pale_die():
    """A dark spot on a plain table has no die's outline around it: nothing is found."""
    import cv2

    from vision.classical.finder import find_dice

    rng = np.random.default_rng(3)
    img = np.full((480, 640, 3), 205, np.uint8)
    cv2.circle(img, (300, 200), 5, (30, 30, 30), -1)
    cv2.circle(img, (420, 330), 4, (40, 40, 40), -1)
    # two real-looking dice elsewhere so the die size is known
    for x in (80, 520):
        cv2.rectangle(img, (x, 380), (x + 44, 424), (40, 40, 200), -1)
        cv2.circle(img, (x + 22, 402), 5, (255, 255, 255), -1)
    img = np.clip(img + rng.normal(0, 4, img.shape), 0, 255).astype(np.uint8)  # sensor noise
    found = find_dice(img).dice
    assert len(found) == 2 and all(c.box[1] > 360 for c in found)


def test_a_set_taught_by_an_older_recognizer_is_taught_again_from_its_photos(tmp_path):
    """After an update that changes the templates, a table's taught set still loads: the set
    keeps its photos, so it is taught again from them (and says so in the log)."""
    import json

    from vision.render import write_teaching_photos
    from vision.classical.sets import sets_dir, teach

    write_teaching_photos("xmen", tmp_path / "photos", per_face=2, seed=41)
    teach("xmen", tmp_path / "photos", tmp_path / "data")
    meta_path = sets_dir(tmp_path / "data") / "xmen" / "model.json"
    meta = json.loads(meta_path.read_text())
    meta["version"] = 1
    meta_path.write_text(json.dumps(meta))
    reader = Reader("xmen", tmp_path / "data")
    assert json.loads(meta_path.read_text())["version"] != 1
    img, faces, _ = render_roll(np.random.default_rng(5), "xmen", 3)
    assert len(reader.read(img)) == 3


def test_a_stale_set_without_its_photos_is_a_clear_error(tmp_path):
    import json
    import shutil

    from vision.errors import StaleSet
    from vision.render import write_teaching_photos
    from vision.classical.sets import sets_dir, teach

    write_teaching_photos("xmen", tmp_path / "photos", per_face=2, seed=41)
    teach("xmen", tmp_path / "photos", tmp_path / "data")
    folder = sets_dir(tmp_path / "data") / "xmen"
    shutil.rmtree(folder / "photos")
    meta = json.loads((folder / "model.json").read_text())
    meta["version"] = 1
    (folder / "model.json").write_text(json.dumps(meta))
    with pytest.raises(StaleSet, match="teach it again"):
        Reader("xmen", tmp_path / "data")
