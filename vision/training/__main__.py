"""`make train-vision`: train the dice detector and the face network from a seed, tune the
reader's thresholds on the tuning part, and write vision/models/ (detector.onnx, faces.onnx,
training.json: the training record).

    python -m vision.training [--seed 0] [--scenes 3000] [--det-steps 3000] [--face-steps 3000]

Needs the training extra (`pip install -e '.[train]'`: PyTorch, CPU build) and
../shared/data/dice-real. Rendered data is cached in build/train-vision/.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.training")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--scenes", type=int, default=3000, help="rendered training scenes")
    ap.add_argument("--det-steps", type=int, default=3000)
    ap.add_argument("--face-steps", type=int, default=3000)
    ap.add_argument("--tune-scenes", type=int, default=12, help="per rendered condition")
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ap.add_argument("--out", type=Path, default=REPO / "vision" / "models")
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads (1: a shared machine makes spinning threads crawl)")
    a = ap.parse_args(argv)

    import torch

    from vision.training import data, split, train

    import cv2

    torch.set_num_threads(a.threads)
    cv2.setNumThreads(1)
    started = time.time()
    log_lines: list[str] = []

    def log(msg: str) -> None:
        line = f"[{time.time() - started:6.0f} s] {msg}"
        log_lines.append(line)
        print(line, flush=True)

    root = a.shared / "data" / "dice-real"
    if not root.is_dir():
        print(f"{root}: the real photos are needed for training", file=sys.stderr)
        return 2
    rendered, real, crops, real_crops = data.build(root, a.seed, a.scenes, REPO / "build" / "train-vision")
    log(f"data: {len(rendered)} rendered scenes, {len(real)} real photos; "
        f"{len(crops.images)} rendered and {len(real_crops.images)} real face crops")
    # The face network trains in a second process beside the detector (two cores).
    import multiprocessing as mp

    faces_out = REPO / "build" / "train-vision" / f"faces-{a.seed}.pt"
    job = mp.get_context("spawn").Process(target=train.faces_job, args=(
        str(data.cache_path(REPO / "build" / "train-vision", a.seed, a.scenes)), a.face_steps,
        a.seed, str(faces_out), started))
    job.start()
    det, det_loss = train.train_detector(rendered, real, a.det_steps, a.seed, log=log)
    job.join()
    if job.exitcode != 0:
        print("training the face network failed", file=sys.stderr)
        return 1
    from vision.training.nets import FaceNet

    saved = torch.load(faces_out)
    faces = FaceNet()
    faces.load_state_dict(saved["state"])
    log_lines += saved["log"]
    faces.eval()
    face_loss = saved["loss"]

    a.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        train.export(det, torch.rand(1, 3, 256, 320) * 255, tmp / "detector.onnx", ["image"],
                     ["maps"], {"image": {2: "h", 3: "w"}, "maps": {2: "gh", 3: "gw"}})
        train.export(faces, torch.rand(4, 3, 40, 40) * 255, tmp / "faces.onnx", ["crops"],
                     ["classes", "embedding"], {"crops": {0: "n"}, "classes": {0: "n"},
                                                "embedding": {0: "n"}})
        for name in ("detector.onnx", "faces.onnx"):
            shutil.copy(tmp / name, a.out / name)
    log("exported " + ", ".join(f"{p.name} {p.stat().st_size / 1e6:.2f} MB"
                                for p in (a.out / "detector.onnx", a.out / "faces.onnx")))

    from vision.training import tune_sets
    from vision.training.calibrate import choose

    sets = tune_sets.build(root, a.seed, a.tune_scenes, log=log)
    tuning, figures = choose(sets, log=log)
    for name, f in figures.items():
        log(f"tune {name}: recall {f['recall']:.3f} precision {f['precision']:.3f} "
            f"silent {f['silent']:.4f} taps {f['taps']:.2f} ({f['frames']} frames, {f['dice']} dice)")
    parts = split.load()
    counts: dict[str, dict[str, int]] = {}
    for k, v in parts.items():
        counts.setdefault(k.split("/")[0], {}).setdefault(v, 0)
        counts[k.split("/")[0]][v] += 1
    record = {
        "seed": a.seed,
        "command": "python -m vision.training " + " ".join(argv),
        "made": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": f"{platform.machine()}, {a.threads} threads, torch {torch.__version__}",
        "seconds": round(time.time() - started),
        "data": {
            "split": "vision/models/split.json (rule in vision/training/split.py)",
            "real photos per part": counts,
            "real training photos used": len(real),
            "rendered scenes": len(rendered),
            "rendered seeds": f"{data.TRAIN_SEED0} + {a.seed} * 100000 + i, i < {a.scenes}",
            "tuning seeds": f"{data.TUNE_SEED0} + ... (vision/training/tune_sets.py)",
            "face crops": {"rendered": len(crops.images), "real": len(real_crops.images)},
            "symbols": f"{data.SYMBOLS} random symbols (sym:K); no game stand-in is trained on",
        },
        "detector": {"steps": a.det_steps, "batch": train.DET_BATCH, "patch": train.PATCH,
                     "epochs": round(a.det_steps * train.DET_BATCH / (len(rendered) + len(real)), 1),
                     "final_loss": round(det_loss, 4)},
        "faces": {"steps": a.face_steps, "batch": 128,
                  "epochs": round(a.face_steps * 128 / (len(crops.images) + len(real_crops.images)), 1),
                  "final_loss": round(face_loss, 4)},
        "tuning": {k: round(float(v), 4) for k, v in tuning.__dict__.items()},
        "tuning figures": {n: {k: (round(v, 4) if isinstance(v, float) else v) for k, v in f.items()}
                           for n, f in figures.items()},
        "log": log_lines,
    }
    (a.out / "training.json").write_text(json.dumps(record, indent=1) + "\n")
    log(f"wrote {a.out / 'training.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
