"""The second training stage's pieces (vision/training/stage2.py; needs the training extra):
it continues from the ONNX export exactly, and its new symbol kinds are classes of their own."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from vision import detector, facenet, onnx_runtime  # noqa: E402
from vision.training import data, stage2  # noqa: E402
from vision.training.nets import DiceDetector, FaceNet  # noqa: E402


@pytest.mark.parametrize("net, path, shape", [
    (DiceDetector, detector.MODEL, (1, 3, 96, 128)),
    (FaceNet, facenet.MODEL, (5, 3, facenet.CROP, facenet.CROP))])
def test_a_network_continued_from_its_export_computes_what_the_export_does(net, path, shape):
    continued = stage2.from_onnx(net(), path)
    assert continued.training  # ready to train on: only the folded batch norms are frozen
    assert not any(m.training for m in continued.modules() if isinstance(m, torch.nn.BatchNorm2d))
    x = torch.rand(*shape) * 255
    with torch.no_grad():
        got = continued(x)
    got = got if isinstance(got, tuple) else (got,)
    session = onnx_runtime.session(path)
    want = session.run(None, {session.get_inputs()[0].name: x.numpy()})
    for g, w in zip(got, want):
        assert np.abs(g.numpy() - w).max() < 1e-3


def test_the_new_symbol_kinds_are_classes_of_their_own():
    rng = np.random.default_rng(5)
    ids = set()
    for _ in range(40):
        _, faces, pips = stage2.scene(rng)
        for f in faces:
            cls, ident = data._face_class(f)
            assert 0 <= ident < data.CLASSES
            assert (cls == facenet.OTHER_FACE) != pips
            ids.add((f.split(":")[0], ident))
    kinds = {k for k, _ in ids}
    assert kinds >= {"sym", "num", "gsym"}
    # one class a numeral's text, whatever its font
    assert data._face_class("num:3:0") == data._face_class("num:3:5") != data._face_class("num:4:0")
    # a crop is turned any way in training, and a turned 6 is a 9: neither is a class
    assert "6" not in data.NUMERALS and "9" not in data.NUMERALS
