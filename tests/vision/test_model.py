"""The shipped networks: present, small, recorded, and reading rendered scenes of every kind
the benchmark measures (a draw of seeds neither training nor tuning used)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.vision.conftest import score
from vision import detector, facenet
from vision.reader import RECORD, Reader
from vision.render import render_labelled
from vision.scenes import CONDITIONS
from vision.training import split

MODELS = Path(detector.__file__).with_name("models")


def test_the_shipped_models_are_small_and_recorded():
    size = sum(p.stat().st_size for p in MODELS.glob("*.onnx"))
    assert {p.name for p in MODELS.glob("*.onnx")} == {"detector.onnx", "faces.onnx"}
    assert size <= 5e6, size
    record = json.loads(RECORD.read_text())
    for key in ("seed", "stage 1", "stage 2", "tuning", "tuning taught", "tuning figures"):
        assert key in record, key
    for stage in ("stage 1", "stage 2"):  # both stages say what they trained on and how long
        for key in ("data", "detector", "faces"):
            assert key in record[stage], (stage, key)
        assert record[stage]["detector"]["epochs"] > 0 and record[stage]["faces"]["epochs"] > 0


def test_every_real_photo_has_one_part_and_the_parts_hold_apart():
    parts = split.load()
    assert set(parts.values()) == {"train", "tune", "test"}
    # photos taken together share a part, so near copies never straddle two
    by_group = {}
    for key, part in parts.items():
        if key.startswith("penlington_webcam_calibration/"):
            continue
        by_group.setdefault(split.group_of(key), set()).add(part)
    assert all(len(p) == 1 for p in by_group.values())
    assert all(v == "test" for k, v in parts.items() if k.startswith("penlington_webcam_calibration/"))


@pytest.mark.parametrize("condition", list(CONDITIONS))
def test_reads_rendered_pip_dice_under_every_condition(condition):
    rng = np.random.default_rng(90_000 + list(CONDITIONS).index(condition))
    reader = Reader("d6")
    pairs = []
    for i in range(6):
        sc = render_labelled(rng, [str(v) for v in rng.integers(1, 7, 3 + i)], CONDITIONS[condition])
        pairs.append((sc.faces, [d.face for d in reader.read(sc.image)]))
    recall, precision = score(pairs)
    assert recall >= 0.9 and precision >= 0.9, (condition, recall, precision)


def test_reading_loads_no_training_framework():
    code = ("import sys, numpy as np\n"
            "from vision.reader import Reader\n"
            "Reader('d6').read(np.zeros((480, 640, 3), np.uint8))\n"
            "print('torch' in sys.modules, 'onnx' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[2], timeout=60)
    assert out.stdout.split() == ["False", "False"], out.stderr[-500:]


def test_a_crop_is_the_square_around_the_face():
    frame = np.zeros((100, 100, 3), np.uint8)
    frame[40:60, 40:60] = 255
    c = facenet.crop(frame, 50, 50, 20)
    assert c.shape == (facenet.CROP, facenet.CROP, 3)
    inner = facenet.CROP / facenet.MARGIN
    lo, hi = int(facenet.CROP / 2 - inner / 2) + 2, int(facenet.CROP / 2 + inner / 2) - 2
    assert c[lo:hi, lo:hi].min() > 200 and c[:3].max() < 50
