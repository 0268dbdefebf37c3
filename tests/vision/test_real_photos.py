"""Real photographs from ../shared: tray photos of d6 dice and webcam photos for teaching.

These are samples with thresholds below the benchmark's full sweep (docs/benchmarks.md),
high enough to catch a regression; the labels are only used to score.
"""

import json

import cv2
import pytest

from tests.vision.conftest import score, teach_webcam_and_read_the_sixth
from vision.classical.reader import ClassicalReader as Reader
from vision.classical.sets import teach

pytestmark = pytest.mark.shared


def _labels(shared):
    root = shared / "data" / "dice-real"
    return root, json.loads((root / "labels.json").read_text())


def test_reads_real_tray_photos_with_nine_dice_or_fewer(shared):
    root, labels = _labels(shared)
    keys = [k for k, v in labels.items() if k.startswith("byler_d6") and len(v["faces"]) <= 9]
    sample = keys[::5]  # a spread sample across the sessions
    reader = Reader("d6")
    pairs = [(labels[k]["faces"], [d.face for d in reader.read(cv2.imread(str(root / k)))])
             for k in sample]
    recall, precision = score(pairs)
    assert recall >= 0.85 and precision >= 0.85, (recall, precision)


def test_finds_dice_in_real_tray_photos(shared):
    """Every labelled die is found (its box centre inside a found box), few extras."""
    root, labels = _labels(shared)
    keys = [k for k, v in labels.items() if k.startswith("byler_d6") and len(v["faces"]) <= 9]
    found = total = 0
    for k in keys[::6]:
        reads = Reader("d6").read(cv2.imread(str(root / k)))
        for x, y, w, h in labels[k]["boxes"]:
            cx, cy = x + w / 2, y + h / 2
            total += 1
            found += any(bx <= cx <= bx + bw and by <= cy <= by + bh
                         for bx, by, bw, bh in (d.box for d in reads))
    assert found / total >= 0.9, found / total


def test_teach_from_webcam_photos_and_read_held_out_ones(shared, tmp_path):
    """Teach a set from 5 webcam photos per face; read the sixth of each face."""
    right = teach_webcam_and_read_the_sixth(shared, tmp_path, teach, Reader)
    assert right >= 3, f"{right} of 6 held-out webcam photos read right"


def test_dice_held_in_a_hand_are_not_a_roll(shared):
    """A hand reaching in from the frame's edge holds a few dice (unlabelled: not rolled); the
    one die on the table is the roll, and the scene is reported as obstructed."""
    root, labels = _labels(shared)
    key = "byler_d6/images/IMG_20191208_112623.jpg"
    reader = Reader("d6")
    reads = reader.read(cv2.imread(str(root / key)))
    assert [d.face for d in reads] == labels[key]["faces"] == ["5"]
    assert reader.last_obstructed


@pytest.mark.parametrize("name", ["IMG_20191209_095652", "IMG_20191209_100701",
                                  "IMG_20191209_100719"])
def test_white_dice_on_the_white_table_are_found_by_their_pips(shared, name):
    """White dice on the white table barely differ from it; their pips, ringed by the die's
    outline, find them (vision/pale.py). Every die of these photos is read right."""
    root, labels = _labels(shared)
    key = f"byler_d6/images/{name}.jpg"
    reads = Reader("d6").read(cv2.imread(str(root / key)))
    assert sorted(d.face for d in reads) == sorted(labels[key]["faces"])
