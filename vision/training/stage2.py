"""The second training stage: both networks continue from the first stage's ONNX export on
data the first stage lacked.

- Steeper, more oblique views (more of each die's sides in view, the sides showing faces,
  a stronger tilt) and more clutter, for the detector's false peaks on side faces and on
  things that are not dice.
- Hard negatives for the face network: the first-stage detector's own peaks that are no
  die, on the new scenes and on the real training photos, as "not a die" crops.
- More symbol kinds for the embedding: numerals in OpenCV's other fonts (one class a text)
  and symbols on a coloured ground (`vision.render.draw_numeral`, `draw_grounded_symbol`);
  the game stand-ins are still never trained on.

The networks start from the ONNX files (batch norm is folded into the convolutions there):
each folded convolution becomes the convolution with a frozen identity batch norm that
carries its bias, so the continued network computes exactly what the export did. The
embedding's class centres start as the mean embedding of each class's crops.
"""

from __future__ import annotations

import pickle
from functools import partial
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from vision import detector as det_rt
from vision import facenet
from vision.training import data
from vision.training.nets import DiceDetector, FaceNet

SEED0 = data.TRAIN_SEED0 + 50_000  # + seed * 100_000 + i: apart from the first stage's scenes
LR = 1e-3  # a third of the first stage's: continuing, not starting over
HARD_LOW = 0.1  # first-stage peaks from this score that are no die become negatives


def from_onnx(net: nn.Module, path: Path) -> nn.Module:
    """``net`` with the weights of its ONNX export at ``path``; batch norms frozen."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    init = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    order: list[nn.Conv2d] = []
    hooks = [m.register_forward_hook(lambda m, i, o: order.append(m))
             for m in net.modules() if isinstance(m, nn.Conv2d)]
    example = torch.rand(1, 3, 64, 64) * 255 if isinstance(net, DiceDetector) \
        else torch.rand(2, 3, facenet.CROP, facenet.CROP) * 255
    net.eval()
    with torch.no_grad():
        net(example)
    for h in hooks:
        h.remove()
    if len(order) != len(convs):
        raise ValueError(f"{path}: {len(convs)} convolutions, the network has {len(order)}")
    following = {}  # each convolution's batch norm, if any
    mods = list(net.modules())
    for k, m in enumerate(mods):
        if isinstance(m, nn.Conv2d) and k + 1 < len(mods) and isinstance(mods[k + 1], nn.BatchNorm2d):
            following[m] = mods[k + 1]
    with torch.no_grad():
        for conv, node in zip(order, convs):
            w = torch.from_numpy(init[node.input[1]].copy())
            if tuple(w.shape) != tuple(conv.weight.shape):
                raise ValueError(f"{path}: {node.input[1]} is {tuple(w.shape)}, "
                                 f"not {tuple(conv.weight.shape)}")
            conv.weight.copy_(w)
            b = torch.from_numpy(init[node.input[2]].copy()) if len(node.input) > 2 \
                else torch.zeros(w.shape[0])
            bn = following.get(conv)
            if bn is None:
                conv.bias.copy_(b)
                continue
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
            bn.weight.fill_(1.0)
            bn.bias.copy_(b)
        for name, p in net.named_parameters():  # the linear layers keep their names
            if name in init and tuple(init[name].shape) == tuple(p.shape):
                p.copy_(torch.from_numpy(init[name].copy()))
    net.train()
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()  # the folded statistics stay; a few thousand steps cannot re-estimate them
    return net


def scene(rng: np.random.Generator):
    """Options, faces and pips of one second-stage scene."""
    opt, n, pips = data.scene_options(rng)
    if rng.random() < 0.6:  # a steeper view
        opt.oblique = rng.uniform(0.8, 1.6)
        opt.side_faces = rng.uniform(0.5, 1.0)
        opt.perspective = rng.uniform(0.05, 0.12)  # more and no die fits a wide frame
    opt.clutter = int(rng.integers(2, 10))
    kind = rng.random()
    if kind < 0.4:
        return opt, [str(v) for v in rng.integers(1, 7, n)], True
    if kind < 0.6:
        return opt, [f"sym:{int(v)}" for v in rng.integers(0, data.SYMBOLS, n)], False
    if kind < 0.8:
        fonts = rng.integers(0, 100, n)
        texts = rng.integers(0, len(data.NUMERALS), n)
        return opt, [f"num:{data.NUMERALS[t]}:{f}" for t, f in zip(texts, fonts)], False
    return opt, [f"gsym:{int(v)}" for v in rng.integers(0, data.GROUNDED, n)], False


_DETECTOR = None


def _hard_negatives(img: np.ndarray, centres, sides, rng) -> data.Crops:
    """"Not a die" crops at the first-stage detector's peaks away from every die."""
    global _DETECTOR
    if _DETECTOR is None:
        _DETECTOR = det_rt.Detector(_DETECTOR_PATH)
    out = data.Crops()
    centres = np.asarray(centres, np.float32).reshape(-1, 2)
    sides = np.asarray(sides, np.float32).reshape(-1)
    dets, _, _ = _DETECTOR.run(img, HARD_LOW)
    for d in dets[:20]:
        if len(centres) and np.min(np.hypot(*(centres - (d.cx, d.cy)).T) / sides) < 0.5:
            continue
        out.images.append(facenet.crop(img, d.cx, d.cy, d.side, rng.uniform(0, 360)))
        out.classes.append(facenet.NOT_A_DIE)
        out.ids.append(-1)
    return out


_DETECTOR_PATH = det_rt.MODEL


def _init(path: str) -> None:
    """The detector whose peaks are the hard negatives (and one thread for OpenCV)."""
    global _DETECTOR_PATH, _DETECTOR
    cv2.setNumThreads(1)
    _DETECTOR_PATH, _DETECTOR = Path(path), None


def with_negatives(rng, opt, faces: list[str], pips: bool, per_die: int):
    """A scene's detector sample and its face crops, hard negatives (``_init``) among them."""
    det, crops, img = data.labelled_sample(rng, opt, faces, pips, per_die=per_die)
    s = det_rt.INPUT_SIDE / max(img.shape[:2])
    crops.extend(_hard_negatives(img, det.centres / s, det.sizes.max(1) / s if len(det.sizes)
                                 else [], rng))
    return det, crops


def render_two(seed: int, blank_scenes: float = 0.0):
    rng = np.random.default_rng(seed)
    opt, faces, pips = scene(rng)
    return with_negatives(rng, opt, data.blanked(faces, seed, blank_scenes), pips, per_die=3)


def cache_path(cache: Path, seed: int, scenes: int, root: Path, first_detector: Path,
               blank_scenes: float = 0.0) -> Path:
    """The stage's data, cached by seed, scenes and recipe: its hard negatives are the first
    stage's detector's, so a new first stage makes new data too."""
    digest = data.recipe(root, Path(__file__), first_detector)
    return cache / f"stage2-{seed}-{scenes}{data.blank_tag(blank_scenes)}-{digest}.pkl"


def build(root: Path, seed: int, scenes: int, cache: Path, first_detector: Path, procs: int = 2,
          blank_scenes: float = 0.0):
    """(rendered detector samples, real ones, rendered face crops, real ones) of the stage."""
    cache.mkdir(parents=True, exist_ok=True)
    path = cache_path(cache, seed, scenes, root, first_detector, blank_scenes)
    if path.is_file():
        return pickle.loads(path.read_bytes())
    seeds = [SEED0 + seed * 100_000 + i for i in range(scenes)]
    with Pool(procs, initializer=_init, initargs=(str(first_detector),)) as pool:
        rendered = pool.map(partial(render_two, blank_scenes=blank_scenes), seeds, chunksize=8)
    dets = [d for d, _ in rendered]
    crops = data.Crops()
    for _, c in rendered:
        crops.extend(c)
    _init(str(first_detector))
    real_dets, real_crops = data.real_samples(root, seed)
    real_crops.extend(real_hard_negatives(root, np.random.default_rng(seed + 7)))
    out = (dets, real_dets, crops, real_crops)
    path.write_bytes(pickle.dumps(out, protocol=5))
    return out


def real_hard_negatives(root: Path, rng) -> data.Crops:
    """The detector's (``_init``) peaks that are no die on the real training photos."""
    out = data.Crops()
    for key in data.split.photos_in("train"):
        if key.startswith("penlington_webcam_calibration/"):
            continue
        img, _, centres, sides = data.real_photo(root, key)
        out.extend(_hard_negatives(img, centres, sides, rng))
    return out


def imprint(net: FaceNet, crops: data.Crops, classes: int,
            device: str = "cpu") -> torch.Tensor:
    """Each embedding class's centre: the mean embedding of its crops (a random direction
    for a class without crops)."""
    gen = torch.Generator().manual_seed(0)
    proto = torch.randn(classes, net.embed.out_features, generator=gen) * 0.1
    ids = np.asarray(crops.ids)
    sums = torch.zeros_like(proto)
    counts = torch.zeros(classes)
    net.to(device).eval()
    with torch.no_grad():
        for i in range(0, len(ids), 512):
            sel = [k for k in range(i, min(i + 512, len(ids))) if ids[k] >= 0]
            if not sel:
                continue
            X = torch.from_numpy(np.stack([crops.images[k] for k in sel]).astype(np.float32)
                                 .transpose(0, 3, 1, 2).copy())
            _, e = net(X.to(device))
            e = e.cpu()
            idx = torch.from_numpy(ids[sel])
            sums.index_add_(0, idx, e)
            counts.index_add_(0, idx, torch.ones(len(sel)))
    seen = counts > 0
    proto[seen] = sums[seen] / counts[seen, None]
    net.train()
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()
    return torch.nn.functional.normalize(proto, dim=1)


def faces_job(cache: str, first: str, steps: int, seed: int, out: str, started: float,
              device: str = "cpu", batch: int = 128, workers: int = 0) -> None:
    """Continue the face network in its own process (beside the detector) and save it."""
    from vision.training import train

    lines, log = train.job_log(started)
    _, _, crops, real_crops = pickle.loads(Path(cache).read_bytes())
    net = from_onnx(FaceNet(), Path(first))
    both = data.Crops()
    both.extend(crops)
    both.extend(real_crops)
    proto = imprint(net, both, data.CLASSES, device)
    net, loss, proto = train.train_faces(crops, real_crops, steps, seed + 2, log=log, lr=LR,
                                         net=net, proto=proto, name="faces (stage 2)",
                                         batch=batch, device=device, workers=workers,
                                         checkpoint=train.checkpoint_of(Path(cache), "faces"))
    torch.save({"state": net.state_dict(), "proto": proto.detach(), "loss": loss,
                "log": lines}, out)
