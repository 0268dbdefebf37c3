"""Training on a chosen device (vision/training/train.py; needs the training extra): the
networks train where they are told and come back on the CPU, ready for the ONNX export."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.render import RenderOptions, random_roll, render_labelled  # noqa: E402
from vision.training import data, train  # noqa: E402


def test_auto_trains_on_cuda_only_where_torch_sees_it():
    assert train.resolve_device("auto") == ("cuda" if torch.cuda.is_available() else "cpu")
    assert train.resolve_device("cpu") == "cpu"
    if not torch.cuda.is_available():
        with pytest.raises(SystemExit, match="no CUDA device"):
            train.resolve_device("cuda")


def _samples(n: int):
    rng = np.random.default_rng(0)
    dets, crops = [], data.Crops()
    for _ in range(n):
        sc = render_labelled(rng, random_roll(rng, "d6", 3), RenderOptions(), pips=True)
        centres = [t.mean(axis=0) for t in sc.tops]
        sides = [float(np.linalg.norm(t[1] - t[0])) for t in sc.tops]
        dets.append(data._det_sample(sc.image, centres, [(s, s) for s in sides]))
        crops.extend(data._crops_of(sc.image, centres, sides, sc.faces, rng, per_die=2, negatives=1))
    return dets, crops


@pytest.mark.parametrize("device", ["cpu"] + (["cuda"] if torch.cuda.is_available() else []))
def test_a_few_steps_on_a_device_come_back_on_the_cpu(device):
    dets, crops = _samples(3)
    det, loss = train.train_detector(dets, dets, 2, 0, batch=4, log=lambda m: None, device=device)
    assert np.isfinite(loss) and all(p.device.type == "cpu" for p in det.parameters())
    assert not det.training
    faces, loss, proto = train.train_faces(crops, crops, 2, 0, batch=8, log=lambda m: None,
                                           device=device)
    assert np.isfinite(loss) and proto.device.type == "cpu" and not proto.requires_grad
    assert all(p.device.type == "cpu" for p in faces.parameters())


def test_the_batches_are_the_same_whatever_the_number_of_workers():
    dets, crops = _samples(3)
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
