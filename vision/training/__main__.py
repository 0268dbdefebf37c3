"""`make train-vision`: train the dice detector and the face network from a seed, tune the
reader's thresholds on the tuning part, choose the fused recognizer's combination for them
(vision/training/tune_fused.py, the same tuning part) and how it looks for dice left out of a
group (vision/training/tune_leftover.py), and write --out, by default
vision/models/ (detector.onnx, faces.onnx, training.json: the training record).

    python -m vision.training [--seed 0] [--scenes 3000] [--det-steps 3000] [--face-steps 3000]
        [--device cpu|cuda|auto] [--workers 0] [--procs 2] [--det-batch 16] [--face-batch 128]
        [--stage2-scenes 600] [--stage2-steps 1000] [--stage3-scenes 1600]
        [--stage3-steps 0] [--stage3-lr 3e-4] [--stage3-face-steps 0] [--stage3-face-scenes 1600]
        [--stage3-face-lr 3e-4] [--blank-scenes 0] [--first DIR | --second DIR]
        [--tune-only] [--train-only] [--no-fused] [--condition-guard] [--silent-budget 0.003]
        [--condition-budget B] [--out DIR]

Two stages: the first trains both networks from the seed; the second continues both from
the first's export on steeper views, hard negatives and more symbol kinds
(vision/training/stage2.py). A third, off by default (``--stage3-steps 1200`` runs it), continues
the detector on dice showing a blank top face, packed edge to edge and not, and with
``--stage3-face-steps`` the face network too, on blank faces and the continued detector's
peaks that are no die (vision/training/stage3.py): tried and not shipped, see
docs/benchmarks.md, 2026-12-05 03:00 and 05:00. ``--condition-guard`` holds each rendered
condition to the silent budget in the thresholds' and the fused choice's search, as every
set is (tried, not shipped: 05:30); ``--silent-budget`` sets the share of dice that may be
silently wrong on every tuning set (and guarded condition) in both searches,
``--condition-budget`` the guarded conditions' alone. ``--blank-scenes S`` (off by default)
draws blank top faces into a share S of the first two stages' scenes (`data.blanked`),
so that both networks learn them from the start.
``--first DIR`` skips the first stage and continues from the
ONNX files and training record in DIR (the first stage's output, e.g. a shipped model set);
``--second DIR`` skips the first two and runs the third from DIR's networks and record;
``--tune-only`` only chooses the reader's thresholds for the models in --out again (the fused
choice is left as recorded); ``--train-only`` stops at the networks and their training record
(the tuning needs the tuning part's photos); ``--no-fused`` leaves out the fused choice (15
minutes).

Needs the training extra (`pip install -e '.[train]'`: PyTorch, CPU build) and
../shared/data/dice-real. Rendered data is cached in build/train-vision/. ``--device cuda``
(a torch build with CUDA, where a machine with an accelerator is at hand) moves the networks'
steps there; ``--workers N`` makes each network's batches in N processes ahead of its steps
(the detector N, the face network a quarter of N: its batches cost less), and ``--procs``
renders the scenes in that many. Each step's batch is drawn from (seed, step), so the workers
change the speed, not the networks. The default recipe must still finish here, on two cores,
in 90 min. The first two stages' networks are saved every few hundred steps beside their data
(build/train-vision/*.ckpt, vision/training/checkpoint.py): a run that is stopped goes on from
there when the same command runs again, to the networks an unstopped run makes.
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
    from vision.training.calibrate import add_guard_options, check_guard_options

    ap = argparse.ArgumentParser(prog="python -m vision.training")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--scenes", type=int, default=3000, help="rendered training scenes")
    ap.add_argument("--det-steps", type=int, default=3000)
    ap.add_argument("--face-steps", type=int, default=3000)
    # 30 held the silent budget on its own draw but not on another draw of the tuning range
    # (0.4-0.6% of taught dice): docs/benchmarks.md, 2026-12-04 17:40
    ap.add_argument("--tune-scenes", type=int, default=90, help="per rendered condition")
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ap.add_argument("--out", type=Path, default=REPO / "vision" / "models")
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads (1: a shared machine makes spinning threads crawl)")
    ap.add_argument("--device", default="cpu", choices=("cpu", "cuda", "auto"),
                    help="where the networks train (auto: CUDA where torch sees one); the "
                         "batches, the thresholds and the fused choice stay on the CPU")
    ap.add_argument("--workers", type=int, default=0,
                    help="processes making the detector's batches (the face network's: a quarter)")
    ap.add_argument("--procs", type=int, default=2, help="processes rendering the scenes")
    ap.add_argument("--det-batch", type=int, default=16)
    ap.add_argument("--face-batch", type=int, default=128)
    ap.add_argument("--stage2-scenes", type=int, default=600)
    ap.add_argument("--stage2-steps", type=int, default=1000, help="each network; 0: no second stage")
    ap.add_argument("--stage3-scenes", type=int, default=1600)
    # off: on the held-out draws it found the packed blank dice but moved the real photos
    # and the silent errors the wrong way (docs/benchmarks.md, 2026-12-05 03:00)
    ap.add_argument("--stage3-steps", type=int, default=0, help="0: no third stage")
    ap.add_argument("--stage3-lr", type=float, help="default: vision/training/stage3.py's LR")
    ap.add_argument("--stage3-face-steps", type=int, default=0,
                    help="the face network's third stage (0: the second stage's network)")
    ap.add_argument("--stage3-face-scenes", type=int, default=1600)
    ap.add_argument("--stage3-face-lr", type=float, help="default: stage3.py's LR")
    # off: continuing the shipped networks with it read worse on the tuning part (docs/
    # benchmarks.md, 2026-12-05 07:30); the run from the seed with it is still to be made
    ap.add_argument("--blank-scenes", type=float, default=0.0,
                    help="the share of the first two stages' scenes where some dice show a "
                         "blank top face (0: none, as shipped)")
    ap.add_argument("--first", type=Path, help="continue from this first-stage output")
    ap.add_argument("--second", type=Path,
                    help="run only the third stage, from this second-stage output")
    ap.add_argument("--tune-only", action="store_true")
    ap.add_argument("--train-only", action="store_true",
                    help="stop after the networks and their record: no thresholds, no fused choice")
    # --condition-guard: off, held out it changed no figure but the taps (docs/benchmarks.md,
    # 2026-12-05 05:30); tighter budgets: 07:00
    add_guard_options(ap)
    ap.add_argument("--no-fused", dest="fused", action="store_false",
                    help="leave out choosing the fused recognizer's combination (15 min)")
    a = ap.parse_args(argv)
    if a.first is not None and a.second is not None:
        ap.error("--first and --second: give one (--second skips the first stage as well)")
    check_guard_options(ap, a)
    if not 0.0 <= a.blank_scenes <= 1.0:
        ap.error(f"--blank-scenes {a.blank_scenes}: a share of the scenes, 0 to 1")
    if a.second is not None and a.stage3_steps <= 0 and a.stage3_face_steps <= 0:
        ap.error("--second runs only the third stage: give --stage3-steps (1200 was tried) "
                 "or --stage3-face-steps")

    import cv2

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
    if a.tune_only:  # the shipped networks on onnxruntime: no training framework needed
        return tune_only(a, root, log, log_lines)
    import torch

    torch.set_num_threads(a.threads)
    from vision.training.train import resolve_device  # noqa: PLC0415 (needs torch)

    a.device = resolve_device(a.device)
    cache = REPO / "build" / "train-vision"
    if a.second is not None:
        record = third_only(a, root, cache, log, argv)
        return finish(a, root, record, log, log_lines, started)
    first = cache / f"stage1-{a.seed}"
    first.mkdir(parents=True, exist_ok=True)
    if a.first is not None:
        for name in ("detector.onnx", "faces.onnx", "training.json"):
            shutil.copy(a.first / name, first / name)
        stage1 = json.loads((first / "training.json").read_text())
        stage1 = stage1.get("stage 1", stage1)
        log(f"first stage: {a.first} (made {stage1.get('made')}, seed {stage1.get('seed')})")
    else:
        stage1 = first_stage(a, root, cache, log, log_lines, started)
        if stage1 is None:
            return 1
        for name in ("detector.onnx", "faces.onnx"):
            shutil.copy(a.out / name, first / name)
        (first / "training.json").write_text(json.dumps(stage1, indent=1) + "\n")
    record = {"seed": a.seed, "command": "python -m vision.training " + " ".join(argv),
              "machine": f"{platform.machine()}, {a.threads} threads, torch {torch.__version__}"
                         + (f", on {a.device}" if a.device != "cpu" else ""),
              "stage 1": {k: v for k, v in stage1.items() if k not in ("tuning", "tuning figures")}}
    if a.stage2_steps > 0:
        record["stage 2"] = second_stage(a, root, cache, first, log, log_lines, started)
    else:
        for name in ("detector.onnx", "faces.onnx"):
            shutil.copy(first / name, a.out / name)
    if a.stage3_steps > 0 or a.stage3_face_steps > 0:
        second = cache / f"stage2-{a.seed}-detector.onnx"
        shutil.copy(a.out / "detector.onnx", second)
        record["stage 3"] = third_stage(a, root, cache, second, log)
    return finish(a, root, record, log, log_lines, started)


def finish(a, root: Path, record: dict, log, log_lines, started) -> int:
    """The record written; the thresholds and the fused choice made for the networks in --out
    (unless --train-only)."""
    record["seconds"] = round(time.time() - started)
    record["made"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    if a.train_only:
        record["log"] = log_lines
        (a.out / "training.json").write_text(json.dumps(record, indent=1) + "\n")
        log(f"wrote {a.out / 'training.json'} (networks only: tune with --tune-only)")
        return 0
    rc = tune(a, root, record, log, log_lines)
    if rc == 0 and a.fused:
        # the fused recognizer (the default reader) combines these networks' reads with the
        # classical ones: its choice is made again for them, on the same tuning part
        from vision.training import tune_fused  # noqa: PLC0415

        log("choosing the fused recognizer's combination (vision/training/tune_fused.py)")
        rc = tune_fused.main(["--shared", str(a.shared), "--models", str(a.out), "--seed",
                              str(a.seed), "--tune-scenes", str(a.tune_scenes),
                              "--procs", str(a.procs), "--write"]
                             + _tuning_flags(a))
        if rc == 0:
            log("choosing which sure taught dice are read again (tune_fused FOUND_CHECK)")
            rc = tune_fused.main(["--shared", str(a.shared), "--models", str(a.out), "--seed",
                                  str(a.seed), "--tune-scenes", str(a.tune_scenes),
                                  "--procs", str(a.procs), "--write", *tune_fused.FOUND_CHECK])
        log(f"fused choice written to {a.out / 'training.json'}" if rc == 0 else
            "the fused choice failed")
        if rc == 0:
            # ... and how it looks for dice left out of a group, for those reads
            from vision.training import tune_leftover  # noqa: PLC0415

            log("choosing how the fused reader looks for dice left out "
                "(vision/training/tune_leftover.py)")
            # on three times the thresholds' draw, as the shipped choice (tune_leftover.SCENES)
            rc = tune_leftover.main(["--shared", str(a.shared), "--models", str(a.out), "--seed",
                                     str(a.seed), "--tune-scenes", str(3 * a.tune_scenes),
                                     "--write"])
    return rc


def _export(det, faces, out: Path, log) -> None:
    import torch

    from vision.training import train

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        _export_detector(det, tmp / "detector.onnx")
        _export_faces(faces, tmp / "faces.onnx")
        for name in ("detector.onnx", "faces.onnx"):
            shutil.copy(tmp / name, out / name)
    log("exported " + ", ".join(f"{p.name} {p.stat().st_size / 1e6:.2f} MB"
                                for p in (out / "detector.onnx", out / "faces.onnx")))


def _export_faces(faces, path: Path) -> None:
    import torch

    from vision.training import train

    train.export(faces, torch.rand(4, 3, 40, 40) * 255, path, ["crops"],
                 ["classes", "embedding"], {"crops": {0: "n"}, "classes": {0: "n"},
                                            "embedding": {0: "n"}})


def _export_detector(det, path: Path) -> None:
    import torch

    from vision.training import train

    train.export(det, torch.rand(1, 3, 256, 320) * 255, path, ["image"], ["maps"],
                 {"image": {2: "h", 3: "w"}, "maps": {2: "gh", 3: "gw"}})


def third_only(a, root: Path, cache: Path, log, argv: list[str]) -> dict:
    """The networks and record of --second DIR in --out, its detector continued by the third
    stage; the record keeps how DIR's networks were made."""
    made = json.loads((a.second / "training.json").read_text())
    record = {k: made[k] for k in ("seed", "command", "machine", "stage 1", "stage 2", "stage 3")
              if k in made}
    record["command"] = (str(record.get("command", "")) + "; then the third stage alone: "
                         "python -m vision.training " + " ".join(argv))
    log(f"stages 1 and 2: {a.second} (made {made.get('made')}, seed {made.get('seed')})")
    a.out.mkdir(parents=True, exist_ok=True)
    second = cache / f"stage2-{a.seed}-detector.onnx"
    cache.mkdir(parents=True, exist_ok=True)
    shutil.copy(a.second / "detector.onnx", second)
    if (a.second / "faces.onnx").resolve() != (a.out / "faces.onnx").resolve():
        shutil.copy(a.second / "faces.onnx", a.out / "faces.onnx")
    # DIR's own third stage (its detector's), where only the face network continues now
    record["stage 3"] = {**record.get("stage 3", {}), **third_stage(a, root, cache, second, log)}
    return record


def third_stage(a, root: Path, cache: Path, second: Path, log) -> dict:
    """The detector at ``second`` continued on blank top faces (--stage3-steps), then the face
    network in --out (--stage3-face-steps), each exported to --out."""
    if a.stage3_steps <= 0:
        shutil.copy(second, a.out / "detector.onnx")
        return third_faces(a, root, cache, log)
    record = third_detector(a, root, cache, second, log)
    if a.stage3_face_steps > 0:
        record.update(third_faces(a, root, cache, log))
        record["from"] = "the second stage's exports (batch norm folded and frozen)"
    return record


def third_faces(a, root: Path, cache: Path, log) -> dict:
    """The face network in --out continued on blank faces and the hard negatives of the
    detector in --out, exported there."""
    from vision.training import data, stage2, stage3, train
    from vision.training.nets import FaceNet

    t0 = time.time()
    lr = a.stage3_face_lr or stage3.LR
    detector = cache / f"stage3-{a.seed}-detector.onnx"
    shutil.copy(a.out / "detector.onnx", detector)
    crops, real = stage3.build_faces(root, a.seed, a.stage3_face_scenes, cache, detector, a.procs)
    log(f"stage 3 face data: {len(crops.images)} rendered and {len(real.images)} real crops "
        f"({time.time() - t0:.0f} s)")
    net = stage2.from_onnx(FaceNet(), a.out / "faces.onnx")
    both = data.Crops()
    both.extend(crops)
    both.extend(real)
    proto = stage2.imprint(net, both, data.CLASSES, a.device)
    net, loss, _ = train.train_faces(crops, real, a.stage3_face_steps, a.seed + 4, log=log, lr=lr,
                                     net=net, proto=proto, name="faces (stage 3)",
                                     batch=a.face_batch, device=a.device,
                                     workers=max(a.workers // 4, 0))
    with tempfile.TemporaryDirectory() as tmp:
        _export_faces(net, Path(tmp) / "faces.onnx")
        shutil.copy(Path(tmp) / "faces.onnx", a.out / "faces.onnx")
    log(f"exported faces.onnx {(a.out / 'faces.onnx').stat().st_size / 1e6:.2f} MB")
    classes = np.bincount(np.asarray(crops.classes, int), minlength=8)
    return {"faces": {
        "seconds": round(time.time() - t0),
        "rendered seeds": f"{stage3.FACE_SEED0} + {a.seed} * 100000 + i, i < {a.stage3_face_scenes}",
        "crops": {"rendered": len(crops.images), "real": len(real.images),
                  "rendered not a die": int(classes[0]), "rendered another face": int(classes[7])},
        "hard negatives": f"the stage's detector's peaks >= {stage2.HARD_LOW} half a die or more "
                          "from every die, rendered and real training photos",
        "blank faces": "another face, no embedding class",
        "steps": a.stage3_face_steps, "batch": a.face_batch, "lr": lr,
        "epochs": round(a.stage3_face_steps * a.face_batch / (len(crops.images) + len(real.images)), 1),
        "final_loss": round(loss, 4)}}


def third_detector(a, root: Path, cache: Path, second: Path, log) -> dict:
    """The detector at ``second`` continued on blank top faces, exported to --out."""
    from vision.training import stage2, stage3, train
    from vision.training.nets import DiceDetector

    t0 = time.time()
    lr = a.stage3_lr or stage3.LR
    rendered, real = stage3.build(root, a.seed, a.stage3_scenes, cache, a.procs)
    log(f"stage 3 data: {len(rendered)} rendered scenes, {len(real)} real photos "
        f"({time.time() - t0:.0f} s)")
    det = stage2.from_onnx(DiceDetector(), second)
    det, loss = train.train_detector(rendered, real, a.stage3_steps, a.seed + 3, log=log,
                                     net=det, lr=lr, name="detector (stage 3)",
                                     batch=stage3.BATCH, device=a.device, workers=a.workers)
    with tempfile.TemporaryDirectory() as tmp:
        _export_detector(det, Path(tmp) / "detector.onnx")
        shutil.copy(Path(tmp) / "detector.onnx", a.out / "detector.onnx")
    log(f"exported detector.onnx {(a.out / 'detector.onnx').stat().st_size / 1e6:.2f} MB")
    n = len(rendered) + len(real)
    return {
        "from": "the second stage's detector export (batch norm folded and frozen); the face "
                "network is the second stage's",
        "seconds": round(time.time() - t0),
        "data": {"rendered scenes": len(rendered),
                 "rendered seeds": f"{stage3.SEED0} + {a.seed} * 100000 + i, i < {a.stage3_scenes}",
                 "scenes": "half drawn as the first stage's, half as the second's; in "
                           f"{stage3.BLANK_SCENES:.0%} of them {stage3.BLANK_SHARE[0]:.0%} to "
                           f"{stage3.BLANK_SHARE[1]:.0%} of the dice show a blank top face, "
                           f"and {stage3.PACKED:.0%} of those are packed edge to edge",
                 "real training photos used": len(real)},
        "detector": {"steps": a.stage3_steps, "batch": stage3.BATCH, "lr": lr,
                     "epochs": round(a.stage3_steps * stage3.BATCH / n, 1),
                     "final_loss": round(loss, 4)},
    }


def second_stage(a, root: Path, cache: Path, first: Path, log, log_lines, started) -> dict:
    import multiprocessing as mp

    import torch

    from vision.training import data, stage2, train
    from vision.training.nets import DiceDetector, FaceNet

    t0 = time.time()
    rendered, real, crops, real_crops = stage2.build(root, a.seed, a.stage2_scenes, cache,
                                                     first / "detector.onnx", a.procs,
                                                     a.blank_scenes)
    log(f"stage 2 data: {len(rendered)} rendered scenes, {len(real)} real photos; "
        f"{len(crops.images)} rendered and {len(real_crops.images)} real face crops "
        f"({sum(c == 0 for c in crops.classes) + sum(c == 0 for c in real_crops.classes)} "
        f"not a die) ({time.time() - t0:.0f} s)")
    faces_out = cache / f"faces2-{a.seed}.pt"
    job = mp.get_context("spawn").Process(target=stage2.faces_job, args=(
        str(stage2.cache_path(cache, a.seed, a.stage2_scenes, root, first / "detector.onnx",
                              a.blank_scenes)),
        str(first / "faces.onnx"), a.stage2_steps, a.seed, str(faces_out), started, a.device,
        a.face_batch, a.workers // 4))
    job.start()
    det = stage2.from_onnx(DiceDetector(), first / "detector.onnx")
    det, det_loss = train.train_detector(
        rendered, real, a.stage2_steps, a.seed + 2, log=log, net=det, lr=stage2.LR,
        name="detector (stage 2)", batch=a.det_batch, device=a.device, workers=a.workers,
        checkpoint=train.checkpoint_of(stage2.cache_path(cache, a.seed, a.stage2_scenes, root,
                                                         first / "detector.onnx", a.blank_scenes),
                                       "detector"))
    job.join()
    if job.exitcode != 0:
        raise SystemExit("training the face network (stage 2) failed")
    saved = torch.load(faces_out)
    faces = FaceNet()
    faces.load_state_dict(saved["state"])
    faces.eval()
    log_lines += saved["log"]
    _export(det, faces, a.out, log)
    n_det = len(rendered) + len(real)
    n_face = len(crops.images) + len(real_crops.images)
    return {
        "from": "the first stage's ONNX export (batch norm folded and frozen)",
        "seconds": round(time.time() - t0),
        "data": {"rendered scenes": len(rendered),
                 "rendered seeds": f"{stage2.SEED0} + {a.seed} * 100000 + i, i < {a.stage2_scenes}",
                 "views": "60% steeper (oblique 0.8-1.6 die sides, sides showing faces, tilt "
                          "0.05-0.12), 2-9 clutter items each",
                 "faces": "40% pips, 20% random symbols, 20% numerals in 7 other fonts "
                          f"({len(data.NUMERALS)} texts), 20% symbols on a coloured ground "
                          f"({data.GROUNDED})",
                 **_blank_record(a),
                 "real training photos used": len(real),
                 "face crops": {"rendered": len(crops.images), "real": len(real_crops.images)},
                 "hard negatives": f"first-stage peaks >= {stage2.HARD_LOW} half a die or more "
                                   "from every die, as not-a-die crops"},
        "detector": {"steps": a.stage2_steps, "batch": a.det_batch, "lr": stage2.LR,
                     "epochs": round(a.stage2_steps * a.det_batch / n_det, 1),
                     "final_loss": round(det_loss, 4)},
        "faces": {"steps": a.stage2_steps, "batch": a.face_batch, "lr": stage2.LR,
                  "epochs": round(a.stage2_steps * a.face_batch / n_face, 1),
                  "final_loss": round(saved["loss"], 4)},
    }


def first_stage(a, root: Path, cache: Path, log, log_lines, started) -> dict | None:
    import torch

    from vision.training import data, split, train

    rendered, real, crops, real_crops = data.build(root, a.seed, a.scenes, cache, a.procs,
                                                   a.blank_scenes)
    log(f"data: {len(rendered)} rendered scenes, {len(real)} real photos; "
        f"{len(crops.images)} rendered and {len(real_crops.images)} real face crops")
    # The face network trains in a second process beside the detector (two cores).
    import multiprocessing as mp

    faces_out = REPO / "build" / "train-vision" / f"faces-{a.seed}.pt"
    job = mp.get_context("spawn").Process(target=train.faces_job, args=(
        str(data.cache_path(cache, a.seed, a.scenes, root, a.blank_scenes)), a.face_steps,
        a.seed, str(faces_out), started, a.device, a.face_batch, a.workers // 4))
    job.start()
    det, det_loss = train.train_detector(
        rendered, real, a.det_steps, a.seed, log=log, batch=a.det_batch, device=a.device,
        workers=a.workers, checkpoint=train.checkpoint_of(
            data.cache_path(cache, a.seed, a.scenes, root, a.blank_scenes), "detector"))
    job.join()
    if job.exitcode != 0:
        print("training the face network failed", file=sys.stderr)
        return None
    from vision.training.nets import FaceNet

    saved = torch.load(faces_out)
    faces = FaceNet()
    faces.load_state_dict(saved["state"])
    log_lines += saved["log"]
    faces.eval()
    face_loss = saved["loss"]

    _export(det, faces, a.out, log)
    counts: dict[str, dict[str, int]] = {}
    for k, v in split.load().items():
        counts.setdefault(k.split("/")[0], {}).setdefault(v, 0)
        counts[k.split("/")[0]][v] += 1
    return {
        "seed": a.seed,
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
            **_blank_record(a),
        },
        "detector": {"steps": a.det_steps, "batch": a.det_batch, "patch": train.PATCH,
                     "epochs": round(a.det_steps * a.det_batch / (len(rendered) + len(real)), 1),
                     "final_loss": round(det_loss, 4)},
        "faces": {"steps": a.face_steps, "batch": a.face_batch,
                  "epochs": round(a.face_steps * a.face_batch
                                  / (len(crops.images) + len(real_crops.images)), 1),
                  "final_loss": round(face_loss, 4)},
        "log": list(log_lines),
    }


def tune_only(a, root: Path, log, log_lines) -> int:
    path = a.out / "training.json"
    record = json.loads(path.read_text())
    record["tuned again"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    record["tune command"] = ("python -m vision.training --tune-only --tune-scenes "
                              + " ".join([str(a.tune_scenes), *_tuning_flags(a)]))
    return tune(a, root, record, log, log_lines, "tune log")


def _blank_record(a) -> dict:
    """The training record's line for --blank-scenes (none where it is off)."""
    from vision.training import data  # noqa: PLC0415

    if a.blank_scenes <= 0:
        return {}
    low, high = data.BLANK_SHARE
    return {"blank faces": f"in {a.blank_scenes:.0%} of the scenes {low:.0%} to {high:.0%} of "
                           "the dice show a blank top face (--blank-scenes)"}


def _tuning_flags(a) -> list[str]:
    """The options both searches share, as given (tune_fused takes the same)."""
    return ((["--condition-guard"] if a.condition_guard else [])
            + ([f"--silent-budget={a.silent_budget}"] if a.silent_budget is not None else [])
            + ([f"--condition-budget={a.condition_budget}"] if a.condition_budget is not None
               else []))


def tune(a, root: Path, record: dict, log, log_lines, log_key: str = "log") -> int:
    from vision import detector, facenet
    from vision.training import tune_sets
    from vision.training.calibrate import SILENT_BUDGET, choose

    # the networks just written, wherever --out put them
    detector.MODEL, facenet.MODEL = a.out / "detector.onnx", a.out / "faces.onnx"

    # taught sets drawn under every condition, as the bench and the fused tuning draw them:
    # plain renders alone chose a confirm the packed and blurred rolls were silently wrong at
    sets = tune_sets.build(root, a.seed, a.tune_scenes, log=log, taught_conditions=True)
    budget = SILENT_BUDGET if a.silent_budget is None else a.silent_budget
    tunings, figures = choose(sets, log=log, budget=budget, guarded=tune_sets.guarded(a.tune_scenes),
                              pooled=tune_sets.pooled(a.tune_scenes) if a.condition_guard else None,
                              pooled_budget=a.condition_budget)
    for name, f in figures.items():
        log(f"tune {name}: recall {f['recall']:.3f} precision {f['precision']:.3f} "
            f"silent {f['silent']:.4f} taps {f['taps']:.2f} ({f['frames']} frames, {f['dice']} dice)")
    record.update({
        "tuning": {k: round(float(v), 4) for k, v in tunings["pips"].__dict__.items()},
        "tuning taught": {k: round(float(v), 4) for k, v in tunings["taught"].__dict__.items()},
        "tuning figures": {n: {k: (round(v, 4) if isinstance(v, float) else v) for k, v in f.items()}
                           for n, f in figures.items()},
        log_key: log_lines,
    })
    (a.out / "training.json").write_text(json.dumps(record, indent=1) + "\n")
    log(f"wrote {a.out / 'training.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
