"""Train the detector and the face network (PyTorch: on the CPU, or on an accelerator where
one is at hand, ``device``), export them to ONNX.

Each step's batch is drawn from its own generator, seeded by (seed, step) (`DetBatches`,
`FaceBatches`), so that torch's DataLoader can make batches in ``workers`` processes ahead of
the steps (an accelerator's steps outrun one process's batches) and the networks come out
the same whatever the number of workers.
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.onnx
import torch.nn.functional as F

from vision import detector as det_rt
from vision.training import checkpoint as checkpoints
from vision.training.data import SYMBOLS, Crops, DetSample
from vision.training.nets import EMBED, DiceDetector, FaceNet

PATCH = 192  # detector training crops, input pixels
DET_BATCH = 16
GRID = PATCH // det_rt.STRIDE


def resolve_device(name: str) -> str:
    """The torch device to train on: "cpu", "cuda", or "auto" (CUDA where torch sees one).
    The batches are made on the CPU either way; only the networks' steps move."""
    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and not torch.cuda.is_available():
        raise SystemExit("--device cuda: this torch sees no CUDA device (use auto or cpu)")
    return name


def _colour(img: np.ndarray, rng) -> np.ndarray:
    """Photometric jitter: channel order (any die or tray colour), gains, gamma, grey, noise."""
    x = img.astype(np.float32)
    if rng.random() < 0.5:
        x = x[..., rng.permutation(3)]
    x *= rng.uniform(0.85, 1.15, 3) * rng.uniform(0.45, 1.3)
    if rng.random() < 0.3:
        x = 255.0 * (np.clip(x, 0, 255) / 255.0) ** rng.uniform(0.7, 1.4)
    if rng.random() < 0.1:
        x[:] = x.mean(-1, keepdims=True)
    if rng.random() < 0.2:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.5, 1.5))
    x += rng.normal(0, rng.uniform(0, 6), x.shape).astype(np.float32)
    return np.clip(x, 0, 255)


def det_batch(samples: list[DetSample], rng, n: int):
    X = np.zeros((n, 3, PATCH, PATCH), np.float32)
    heat = np.zeros((n, GRID, GRID), np.float32)
    reg = np.zeros((n, 4, GRID, GRID), np.float32)
    regm = np.zeros((n, GRID, GRID), np.float32)
    hand = np.zeros((n, GRID, GRID), np.float32)
    handw = np.zeros(n, np.float32)
    yy, xx = np.mgrid[0:GRID, 0:GRID].astype(np.float32)
    for b in range(n):
        s = samples[rng.integers(len(samples))]
        img = cv2.imdecode(np.frombuffer(s.jpeg, np.uint8), cv2.IMREAD_COLOR)
        hm = (cv2.imdecode(np.frombuffer(s.hand, np.uint8), cv2.IMREAD_GRAYSCALE)
              if s.hand is not None else np.zeros(img.shape[:2], np.uint8))
        k = rng.uniform(0.7, 1.4)
        img = cv2.resize(img, None, fx=k, fy=k, interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
        hm = cv2.resize(hm, img.shape[1::-1], interpolation=cv2.INTER_NEAREST)
        h, w = img.shape[:2]
        ph, pw = max(0, PATCH - h), max(0, PATCH - w)
        if ph or pw:
            img = cv2.copyMakeBorder(img, 0, ph, 0, pw, cv2.BORDER_REFLECT)
            hm = cv2.copyMakeBorder(hm, 0, ph, 0, pw, cv2.BORDER_CONSTANT, value=0)
            h, w = img.shape[:2]
        x0, y0 = int(rng.integers(0, w - PATCH + 1)), int(rng.integers(0, h - PATCH + 1))
        img = img[y0:y0 + PATCH, x0:x0 + PATCH]
        hm = hm[y0:y0 + PATCH, x0:x0 + PATCH]
        c = s.centres * k - (x0, y0)
        sz = s.sizes * k
        if rng.random() < 0.5:
            img, hm, c = img[:, ::-1], hm[:, ::-1], c * (-1, 1) + (PATCH - 1, 0)
        if rng.random() < 0.5:
            img, hm, c = img[::-1], hm[::-1], c * (1, -1) + (0, PATCH - 1)
        if rng.random() < 0.5:  # a quarter turn (transpose)
            img, hm, c, sz = img.transpose(1, 0, 2), hm.T, c[:, ::-1], sz[:, ::-1]
        X[b] = _colour(np.ascontiguousarray(img), rng).transpose(2, 0, 1)
        g = c / det_rt.STRIDE
        for (gx, gy), (bw, bh) in zip(g, sz):
            if not (0 <= gx < GRID and 0 <= gy < GRID):
                continue
            sig = max(0.5, 0.12 * max(bw, bh) / det_rt.STRIDE)
            heat[b] = np.maximum(heat[b], np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sig * sig)))
            ix, iy = int(gx), int(gy)
            heat[b, iy, ix] = 1.0
            reg[b, :, iy, ix] = (gx - ix, gy - iy, math.log(max(bw, 1) / det_rt.STRIDE),
                                 math.log(max(bh, 1) / det_rt.STRIDE))
            regm[b, iy, ix] = 1.0
        if not s.real:
            hand[b] = cv2.resize(np.ascontiguousarray(hm), (GRID, GRID), interpolation=cv2.INTER_AREA) / 255.0
            handw[b] = 1.0
    return [torch.from_numpy(a) for a in (X, heat, reg, regm, hand, handw)]


class DetBatches(torch.utils.data.Dataset):
    """The detector's batch for step ``i``: ``batch`` crops, 40% from the real photos."""

    def __init__(self, rendered, real, seed: int, steps: int, batch: int = DET_BATCH):
        self.rendered, self.real, self.seed = rendered, real, seed
        self.steps, self.batch = steps, batch

    def __len__(self) -> int:
        return self.steps

    def __getitem__(self, i: int):
        rng = np.random.default_rng([self.seed, i])
        nreal = int(round(self.batch * 0.4))
        parts = [det_batch(self.rendered, rng, self.batch - nreal),
                 det_batch(self.real, rng, nreal)]
        X, *maps = (torch.cat([a, b]) for a, b in zip(*parts))
        return [_bytes(X), *maps]


class FaceBatches(torch.utils.data.Dataset):
    """The face network's batch for step ``i``: ``batch`` crops, 40% real (``both`` holds the
    rendered crops first, ``nrend`` of them)."""

    def __init__(self, both: Crops, nrend: int, seed: int, steps: int, batch: int):
        self.both, self.nrend, self.seed, self.steps, self.batch = both, nrend, seed, steps, batch

    def __len__(self) -> int:
        return self.steps

    def __getitem__(self, i: int):
        rng = np.random.default_rng([self.seed, i])
        nreal = int(self.batch * 0.4)
        idx = np.concatenate([rng.integers(0, self.nrend, self.batch - nreal),
                              rng.integers(self.nrend, len(self.both.images), nreal)])
        X, cls, ids = face_batch(self.both, idx, rng)
        return _bytes(X), cls, ids


def _bytes(X: torch.Tensor) -> torch.Tensor:
    """Pixels as a camera gives them (and a quarter of the bytes between processes)."""
    return X.round_().to(torch.uint8)


def _worker_init(_: int) -> None:
    torch.set_num_threads(1)
    cv2.setNumThreads(1)


def batches(dataset, workers: int, device: str, start: int = 0):
    """The dataset's batches in step order from step ``start``; with ``workers``, made that many
    processes ahead (forked: they inherit the data and never touch the accelerator)."""
    if workers <= 0:
        return (dataset[i] for i in range(start, len(dataset)))
    if start:
        dataset = torch.utils.data.Subset(dataset, range(start, len(dataset)))
    return torch.utils.data.DataLoader(
        dataset, batch_size=None, shuffle=False, num_workers=workers, prefetch_factor=4,
        worker_init_fn=_worker_init, multiprocessing_context="fork",
        pin_memory=device == "cuda")


def det_loss(out, heat, reg, regm, hand, handw):
    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    neg = 1 - pos
    pos_l = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    neg_l = -(torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * neg).sum()
    npos = pos.sum().clamp(min=1)
    focal = (pos_l + neg_l) / npos
    m = regm.unsqueeze(1)
    off = (torch.abs(torch.sigmoid(out[:, 1:3]) - reg[:, :2]) * m).sum() / npos
    size = (torch.abs(out[:, 3:5] - reg[:, 2:]) * m).sum() / npos
    hb = F.binary_cross_entropy_with_logits(out[:, 5], hand, reduction="none").mean((1, 2))
    return focal + off + size + (hb * handw).sum() / handw.sum().clamp(min=1), focal.item()


def _schedule(opt, step, steps, lr):
    warm = max(1, steps // 20)
    f = step / warm if step < warm else 0.5 * (1 + math.cos(math.pi * (step - warm) / (steps - warm)))
    for g in opt.param_groups:
        g["lr"] = lr * max(f, 0.02)


def train_detector(rendered, real, steps: int, seed: int, batch: int = DET_BATCH, log=print,
                   net: DiceDetector | None = None, lr: float = 3e-3, name: str = "detector",
                   device: str = "cpu", workers: int = 0, checkpoint: Path | None = None):
    """Train a new detector, or continue ``net`` (the second stage); returned on the CPU.
    With ``checkpoint``, saved there as it goes and resumed from there (vision/training/checkpoint.py)."""
    torch.manual_seed(seed)
    began = None if net is None else checkpoints.digest(net)
    net = (net or DiceDetector()).to(device)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    run_key = checkpoints.key(name, seed, steps, batch, lr, len(rendered), len(real), start=began)
    start, run, _ = checkpoints.resume(checkpoint, run_key, net, opt, log)
    t0 = time.time()
    made = batches(DetBatches(rendered, real, seed, steps, batch), workers, device, start)
    for step, tensors in enumerate(made, start):
        tensors = [t.to(device, non_blocking=True) for t in tensors]
        tensors[0] = tensors[0].float()
        _schedule(opt, step, steps, lr)
        loss, focal = det_loss(net(tensors[0]), *tensors[1:])
        opt.zero_grad()
        loss.backward()
        opt.step()
        run.append(loss.item())
        if checkpoint is not None and (step + 1) % checkpoints.EVERY == 0:
            checkpoints.save(checkpoint, run_key, step + 1, net, opt, run)
        if (step + 1) % 50 == 0:
            log(f"{name} step {step + 1}/{steps}: loss {np.mean(run[-50:]):.3f} "
                f"({time.time() - t0:.0f} s)")
    return net.cpu().eval(), float(np.mean(run[-50:]))


def face_batch(crops: Crops, idx: np.ndarray, rng):
    X = np.zeros((len(idx), 3, 40, 40), np.float32)
    for b, i in enumerate(idx):
        img = crops.images[i]
        if crops.ids[i] < 6:  # pips and the table look the same mirrored; symbols do not
            if rng.random() < 0.5:
                img = img[:, ::-1]
        X[b] = _colour(np.ascontiguousarray(img), rng).transpose(2, 0, 1)
    cls = torch.tensor([crops.classes[i] for i in idx])
    ids = torch.tensor([crops.ids[i] for i in idx])
    return torch.from_numpy(X), cls, ids


def train_faces(rendered: Crops, real: Crops, steps: int, seed: int, batch: int = 128,
                log=print, lr: float = 3e-3, net: FaceNet | None = None,
                proto: torch.Tensor | None = None, name: str = "faces", device: str = "cpu",
                workers: int = 0, checkpoint: Path | None = None):
    """Train a new face network, or continue ``net`` with the class centres ``proto``;
    both returned on the CPU. With ``checkpoint``, saved there as it goes and resumed from there."""
    torch.manual_seed(seed)
    # the class centres are the network's own on the data (stage2.imprint): the network says both
    began = None if net is None else checkpoints.digest(net)
    if net is None:
        net, proto = FaceNet(), torch.randn(6 + SYMBOLS, EMBED) * 0.1
    net = net.to(device)
    proto = torch.nn.Parameter(proto.clone().to(device))
    opt = torch.optim.AdamW(list(net.parameters()) + [proto], lr=lr, weight_decay=1e-4)
    both = Crops()
    both.extend(rendered)
    nrend = len(both.images)
    both.extend(real)
    run_key = checkpoints.key(name, seed, steps, batch, lr, nrend, len(both.images) - nrend,
                              start=began)
    start, run, more = checkpoints.resume(checkpoint, run_key, net, opt, log)
    if start:
        with torch.no_grad():
            proto.copy_(more["proto"].to(device))
    t0 = time.time()
    made = batches(FaceBatches(both, nrend, seed + 1, steps, batch), workers, device, start)
    for step, made_batch in enumerate(made, start):
        X, cls, ids = (t.to(device, non_blocking=True) for t in made_batch)
        X = X.float()
        _schedule(opt, step, steps, lr)
        logits, emb = net(X)
        loss = F.cross_entropy(logits, cls, label_smoothing=0.05)
        m = ids >= 0
        if m.any():  # a cosine classifier with a margin over pips and symbols (CosFace)
            cos = emb[m] @ F.normalize(proto, dim=1).T
            cos = cos - 0.25 * F.one_hot(ids[m], cos.shape[1])
            loss = loss + 0.5 * F.cross_entropy(20.0 * cos, ids[m])
        opt.zero_grad()
        loss.backward()
        opt.step()
        run.append(loss.item())
        if checkpoint is not None and (step + 1) % checkpoints.EVERY == 0:
            checkpoints.save(checkpoint, run_key, step + 1, net, opt, run, proto=proto.detach().cpu())
        if (step + 1) % 100 == 0:
            log(f"{name} step {step + 1}/{steps}: loss {np.mean(run[-100:]):.3f} "
                f"({time.time() - t0:.0f} s)")
    return net.cpu().eval(), float(np.mean(run[-100:])), proto.detach().cpu()


def export(net, example, path, names_in, names_out, dynamic):
    torch.onnx.export(net, example, str(path), input_names=names_in, output_names=names_out,
                      dynamic_axes=dynamic, opset_version=17, dynamo=False)


def job_log(started: float):
    """A training job's set-up in its own process (one thread) and its log: (lines, log)."""
    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    lines: list[str] = []

    def log(msg: str) -> None:
        line = f"[{time.time() - started:6.0f} s] {msg}"
        lines.append(line)
        print(line, flush=True)

    return lines, log


def checkpoint_of(cache: Path, network: str) -> Path:
    """Where a network trained on the data cached at ``cache`` keeps its checkpoint."""
    return cache.with_name(f"{cache.stem}.{network}.ckpt")


def faces_job(cache: str, steps: int, seed: int, out: str, started: float,
              device: str = "cpu", batch: int = 128, workers: int = 0) -> None:
    """Train the face network in its own process (beside the detector) and save it."""
    import pickle

    lines, log = job_log(started)
    _, _, crops, real_crops = pickle.loads(Path(cache).read_bytes())
    net, loss, proto = train_faces(crops, real_crops, steps, seed, batch=batch, log=log,
                                   device=device, workers=workers,
                                   checkpoint=checkpoint_of(Path(cache), "faces"))
    torch.save({"state": net.state_dict(), "proto": proto.detach(), "loss": loss,
                "log": lines}, out)
