"""A training run stopped part way goes on from its checkpoint to the very networks an unstopped
run makes (vision/training/checkpoint.py; needs the training extra)."""

import copy

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.training import checkpoint, train  # noqa: E402
from vision.training.nets import DiceDetector  # noqa: E402

STEPS = 5


class Killed(Exception):
    """The process gone (a session's end, a power cut) while making a batch."""


@pytest.fixture
def every_two_steps(monkeypatch):
    monkeypatch.setattr(checkpoint, "EVERY", 2)


def _killed_at(monkeypatch, batches_class, step: int):
    made = batches_class.__getitem__

    def getitem(self, i):
        if i == step:
            raise Killed
        return made(self, i)

    monkeypatch.setattr(batches_class, "__getitem__", getitem)
    return lambda: monkeypatch.setattr(batches_class, "__getitem__", made)


def _detector(dets, path=None, log=lambda m: None):
    return train.train_detector(dets, dets, STEPS, 0, batch=4, log=log, checkpoint=path)


def _faces(crops, path=None, log=lambda m: None):
    return train.train_faces(crops, crops, STEPS, 0, batch=8, log=log, checkpoint=path)


def _same(one, other):
    a, b = one.state_dict(), other.state_dict()
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_a_detector_stopped_between_checkpoints_goes_on_to_the_same_network(
        training_scenes, tmp_path, monkeypatch, every_two_steps):
    dets, _ = training_scenes
    straight, straight_loss = _detector(dets)
    path = tmp_path / "data.detector.ckpt"
    revive = _killed_at(monkeypatch, train.DetBatches, 3)  # steps 0-2 trained, the third lost
    with pytest.raises(Killed):
        _detector(dets, path)
    revive()
    saved = torch.load(path, weights_only=False)
    assert saved["step"] == 2
    at_two = DiceDetector()
    at_two.load_state_dict(saved["net"])
    assert not _same(at_two, straight)  # three steps are left to train
    said = []
    resumed, loss = _detector(dets, path, said.append)
    assert "detector: resumed at step 2/5 from data.detector.ckpt" in said
    assert _same(resumed, straight) and loss == straight_loss


def test_a_face_network_and_its_class_centres_go_on_to_the_same_ones(
        training_scenes, tmp_path, monkeypatch, every_two_steps):
    _, crops = training_scenes
    straight, straight_loss, straight_proto = _faces(crops)
    path = tmp_path / "data.faces.ckpt"
    revive = _killed_at(monkeypatch, train.FaceBatches, 4)
    with pytest.raises(Killed):
        _faces(crops, path)
    revive()
    said = []
    resumed, loss, proto = _faces(crops, path, said.append)
    assert "faces: resumed at step 4/5 from data.faces.ckpt" in said
    assert _same(resumed, straight) and torch.equal(proto, straight_proto)
    assert loss == straight_loss


def test_a_checkpoint_of_another_run_is_not_resumed(training_scenes, tmp_path, every_two_steps):
    dets, _ = training_scenes
    path = tmp_path / "data.detector.ckpt"
    train.train_detector(dets, dets, 4, 0, batch=4, log=lambda m: None, checkpoint=path)
    said = []
    other, _ = _detector(dets, path, said.append)  # five steps, not four: another run
    assert any("a checkpoint of another run" in line for line in said)
    assert _same(other, _detector(dets)[0])
    assert torch.load(path, weights_only=False)["key"]["steps"] == STEPS  # written over


def test_an_unreadable_checkpoint_starts_afresh_and_says_so(training_scenes, tmp_path):
    dets, _ = training_scenes
    path = tmp_path / "data.detector.ckpt"
    path.write_bytes(b"not a checkpoint, cut short by a full disk")
    said = []
    net, _ = _detector(dets, path, said.append)
    assert any("unreadable checkpoint" in line for line in said)
    assert _same(net, _detector(dets)[0])


def test_a_damaged_checkpoint_of_this_run_stops_with_its_name(training_scenes, tmp_path, every_two_steps):
    dets, _ = training_scenes
    path = tmp_path / "data.detector.ckpt"
    _detector(dets, path)
    saved = torch.load(path, weights_only=False)
    saved["net"] = {k: v[..., :1] if v.dim() else v for k, v in saved["net"].items()}
    torch.save(saved, path)
    with pytest.raises(SystemExit, match="data.detector.ckpt: a damaged checkpoint"):
        _detector(dets, path)


def test_checkpoints_sit_beside_their_data_named_after_it(tmp_path):
    cache = tmp_path / "data-0-10000-blank0.3-f2df69895565.pkl"
    assert train.checkpoint_of(cache, "faces") == tmp_path / "data-0-10000-blank0.3-f2df69895565.faces.ckpt"


def test_a_continued_network_resumes_only_a_run_that_began_from_the_same_weights(
        training_scenes, tmp_path, every_two_steps):
    dets, _ = training_scenes
    path = tmp_path / "data.detector.ckpt"
    began, _ = train.train_detector(dets, dets, 2, 0, batch=4, log=lambda m: None)
    other, _ = train.train_detector(dets, dets, 2, 1, batch=4, log=lambda m: None)
    train.train_detector(dets, dets, 4, 0, batch=4, log=lambda m: None, net=copy.deepcopy(began),
                         checkpoint=path)
    said = []
    train.train_detector(dets, dets, 4, 0, batch=4, log=said.append, net=copy.deepcopy(began),
                         checkpoint=path)
    assert "detector: resumed at step 4/4 from data.detector.ckpt" in said
    said.clear()
    train.train_detector(dets, dets, 4, 0, batch=4, log=said.append, net=copy.deepcopy(other),
                         checkpoint=path)
    assert any("a checkpoint of another run" in line for line in said)
