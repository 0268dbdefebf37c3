"""Training on a chosen device (vision/training/train.py; needs the training extra): the
networks train where they are told and come back on the CPU, ready for the ONNX export."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.training import data, train  # noqa: E402


def test_auto_trains_on_cuda_only_where_torch_sees_it():
    assert train.resolve_device("auto") == ("cuda" if torch.cuda.is_available() else "cpu")
    assert train.resolve_device("cpu") == "cpu"
    if not torch.cuda.is_available():
        with pytest.raises(SystemExit, match="no CUDA device"):
            train.resolve_device("cuda")


@pytest.mark.parametrize("device", ["cpu"] + (["cuda"] if torch.cuda.is_available() else []))
def test_a_few_steps_on_a_device_come_back_on_the_cpu(device, training_scenes):
    dets, crops = training_scenes
    det, loss = train.train_detector(dets, dets, 2, 0, batch=4, log=lambda m: None, device=device)
    assert np.isfinite(loss) and all(p.device.type == "cpu" for p in det.parameters())
    assert not det.training
    faces, loss, proto = train.train_faces(crops, crops, 2, 0, batch=8, log=lambda m: None,
                                           device=device)
    assert np.isfinite(loss) and proto.device.type == "cpu" and not proto.requires_grad
    assert all(p.device.type == "cpu" for p in faces.parameters())


def test_the_batches_are_the_same_whatever_the_number_of_workers(training_scenes):
    dets, crops = training_scenes
    made = [list(train.batches(train.DetBatches(dets, dets, 5, 3, batch=4), w, "cpu"))
            for w in (0, 2)]
    for one, other in zip(*made):
        assert all(torch.equal(a, b) for a, b in zip(one, other))
    assert not torch.equal(made[0][0][0], made[0][1][0])  # each step draws its own batch
    both = data.Crops()
    both.extend(crops)
    faces = [list(train.batches(train.FaceBatches(both, len(both.images) // 2, 5, 3, 8), w, "cpu"))
             for w in (0, 2)]
    for one, other in zip(*faces):
        assert all(torch.equal(a, b) for a, b in zip(one, other))


@pytest.mark.parametrize("workers", [0, 2])
def test_a_resumed_run_gets_the_batches_of_its_remaining_steps(training_scenes, workers):
    dets, _ = training_scenes
    batches = train.DetBatches(dets, dets, 5, 4, batch=4)
    whole = list(train.batches(batches, 0, "cpu"))
    rest = list(train.batches(batches, workers, "cpu", start=2))
    assert len(rest) == 2
    for one, other in zip(whole[2:], rest):
        assert all(torch.equal(a, b) for a, b in zip(one, other))
