"""A network's training saved every few hundred steps, so that a long run on a machine that
goes away (a session's end, a lent accelerator taken back, a power cut) goes on from its last
checkpoint when the same command runs again, to the same weights as a run never stopped.

Every batch is drawn from ``(seed, step)`` alone (``train.DetBatches``, ``train.FaceBatches``),
so a resumed run needs only the network, the optimiser, the recent losses and torch's generator.
A checkpoint sits beside the data's cache, named after it, under a key of what else shapes the
run (seed, steps, batch, learning rate, how much data, and for a network continued from another
stage a digest of the weights it started from): one made by another run is never resumed (the
run starts afresh and writes over it)."""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

import torch

EVERY = 200  # steps between checkpoints: a few minutes of the detector on one CPU core
KEPT_LOSSES = 100  # the most any log line or final figure averages over


def key(name: str, seed: int, steps: int, batch: int, lr: float, *sizes: int,
        start: str | None = None) -> dict:
    """What a checkpoint must match to be resumed; ``start``: the digest of the weights a
    continued network began from (a new one's are the seed's)."""
    out = {"name": name, "seed": seed, "steps": steps, "batch": batch, "lr": lr,
           "sizes": list(sizes)}
    if start is not None:
        out["start"] = start
    return out


def digest(net) -> str:
    """A digest of a network's weights."""
    h = hashlib.sha1()
    for t in net.state_dict().values():
        h.update(t.detach().cpu().contiguous().numpy().tobytes())
    return h.hexdigest()[:16]


def save(path: Path, run_key: dict, step: int, net, opt, losses: list[float], **more) -> None:
    """The state after ``step`` steps, written whole or not at all (a killed writer leaves the
    previous checkpoint)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.part")  # its own, even beside a stray writer
    torch.save({"key": run_key, "step": step, "net": net.state_dict(), "opt": opt.state_dict(),
                "losses": losses[-KEPT_LOSSES:], "rng": torch.get_rng_state(), **more}, tmp)
    os.replace(tmp, path)


def resume(path: Path | None, run_key: dict, net, opt, log) -> tuple[int, list[float], dict]:
    """(the step to go on from, the recent losses, what else was saved), with ``net`` and ``opt``
    loaded; (0, [], {}) where there is no checkpoint of this run."""
    if path is None or not path.is_file():
        return 0, [], {}
    try:
        saved = torch.load(path, map_location="cpu", weights_only=False)
    except (OSError, EOFError, RuntimeError, ValueError, AttributeError,
            pickle.UnpicklingError) as e:
        log(f"{path.name}: unreadable checkpoint ({e}); starting afresh")
        return 0, [], {}
    if not isinstance(saved, dict) or saved.get("key") != run_key:
        found = saved.get("key") if isinstance(saved, dict) else type(saved).__name__
        log(f"{path.name}: a checkpoint of another run ({found}); starting afresh")
        return 0, [], {}
    try:
        net.load_state_dict(saved["net"])
        opt.load_state_dict(saved["opt"])
        torch.set_rng_state(saved["rng"])
        step, losses = int(saved["step"]), [float(x) for x in saved["losses"]]
    except (RuntimeError, KeyError, ValueError, TypeError) as e:
        # the network may be half loaded by now: going on, or afresh, would train the wrong weights
        raise SystemExit(f"{path}: a damaged checkpoint of this run ({e}); delete it to start afresh")
    log(f"{run_key['name']}: resumed at step {step}/{run_key['steps']} from {path.name}")
    more = {k: v for k, v in saved.items() if k not in ("key", "step", "net", "opt", "losses", "rng")}
    return step, losses, more
