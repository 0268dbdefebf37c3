"""Vision benchmark: accuracy on rendered and real photos, speed, memory.

Accuracy is measured the way the goals are stated: `companion dice read --json` over the
images, scored per die by ../shared/tools/score_dice.py. Rendered scenes are drawn fresh
from fixed seeds (pip d6 and the game sets' stand-in symbols, 1 to 9 dice, perspective,
light gradients, shadows, blur, noise, JPEG). VISION_BENCH_SCENES sets scenes per set,
VISION_BENCH_SEED another draw of them (default 2000).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
SHARED = Path(os.environ.get("COMPANION_SHARED", REPO.parent / "shared"))
SCENES = int(os.environ.get("VISION_BENCH_SCENES", "90"))
# another draw of the rendered scenes: teaching photos from BASE - 1000 + k, scenes BASE + k
SEED_BASE = int(os.environ.get("VISION_BENCH_SEED", "2000"))
SETS = ["d6", "incredibles", "invincible", "xmen"]


_WRAP = (
    "import resource, runpy, sys\n"
    "sys.argv = ['companion dice'] + sys.argv[1:]\n"
    "code = 0\n"
    "try:\n"
    "    runpy.run_module('vision.cli', run_name='__main__')\n"
    "except SystemExit as e:\n"
    "    code = e.code\n"
    # VmHWM: this program's own peak (ru_maxrss would include the forking parent's)
    "hwm = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')]\n"
    "sys.stderr.write('MAXRSS %s\\n' % (hwm[0] if hwm else "
    "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))\n"
    "sys.exit(code)\n"
)


def _cli(args: list[str], out: Path | None = None) -> tuple[int, float]:
    """Run `companion dice ...` (vision.cli) in its own process; returns (exit code, that
    process's own peak RSS in MB)."""
    cmd = [sys.executable, "-c", _WRAP, *args]
    with open(out, "w") if out else open(os.devnull, "w") as f:
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.PIPE, text=True, cwd=REPO)
    rss = [int(x.split()[1]) for x in r.stderr.splitlines() if x.startswith("MAXRSS ")]
    return r.returncode, (rss[-1] / 1024.0 if rss else float("nan"))


def _score(labels: Path, reads: Path, root: Path, *extra: str) -> str:
    tool = SHARED / "tools" / "score_dice.py"
    r = subprocess.run([sys.executable, str(tool), str(labels), str(reads), str(root), *extra],
                       capture_output=True, text=True)
    return r.stdout.strip()


def _parse(line: str) -> tuple[str, str]:
    # "90 images, 450 dice, recall 0.993, precision 0.995, median 6.1 ms"
    import re

    rec = re.search(r"recall ([0-9.]+)", line)
    prec = re.search(r"precision ([0-9.]+)", line)
    return (rec.group(1) if rec else "?"), (prec.group(1) if prec else "?")


def rendered(tmp: Path) -> list[tuple[str, str, str]]:
    from vision.render import render_roll, write_teaching_photos

    rows = []
    data = tmp / "data"
    labels = {}
    all_reads = tmp / "reads_all.jsonl"
    all_reads.write_text("")
    for k, set_name in enumerate(SETS):
        if set_name != "d6":
            write_teaching_photos(set_name, tmp / "teach" / set_name, per_face=6,
                                  seed=SEED_BASE - 1000 + k)
            rc, _ = _cli(["teach", set_name, str(tmp / "teach" / set_name), "--data", str(data)])
            assert rc == 0, f"teaching {set_name} failed"
        rng = np.random.default_rng(SEED_BASE + k)
        paths = []
        for i in range(SCENES):
            img, faces, _ = render_roll(rng, set_name, 1 + i % 9)
            p = tmp / "scenes" / set_name / f"{i:03d}.jpg"
            p.parent.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(p), img, [cv2.IMWRITE_JPEG_QUALITY, 95])
            labels[str(p.relative_to(tmp))] = {"faces": faces}
            paths.append(str(p))
        reads = tmp / f"reads_{set_name}.jsonl"
        _cli(["read", "--set", set_name, "--json", "--data", str(data), *paths], reads)
        (tmp / "labels.json").write_text(json.dumps(labels))
        line = _score(tmp / "labels.json", reads, tmp)
        rec, prec = _parse(line)
        rows.append((f"rendered {set_name}: recall / precision", f"{rec} / {prec}", line))
        with open(all_reads, "a") as f:
            f.write(reads.read_text())
    line = _score(tmp / "labels.json", all_reads, tmp)
    rec, prec = _parse(line)
    rows.insert(0, ("rendered, all sets: recall / precision", f"{rec} / {prec}", line))
    return rows


def real(tmp: Path) -> list[tuple[str, str, str]]:
    root = SHARED / "data" / "dice-real"
    if not root.is_dir():
        return [("real tray photos", "skipped", f"{root} absent")]
    labels = json.loads((root / "labels.json").read_text())
    imgs = [str(root / k) for k, v in labels.items() if k.startswith("byler_d6")]
    reads = tmp / "reads_real.jsonl"
    rc, rss = _cli(["read", "--set", "d6", "--json", *imgs], reads)
    rows = []
    line = _score(root / "labels.json", reads, root, "--le9", "--subset", "byler_d6")
    rec, prec = _parse(line)
    rows.append(("real tray photos <=9 dice: recall / precision", f"{rec} / {prec}", line))
    line = _score(root / "labels.json", reads, root, "--subset", "byler_d6")
    rec, prec = _parse(line)
    rows.append(("real tray photos, all (up to 25 dice)", f"{rec} / {prec}", line))
    rows.append(("peak RSS of `dice read` over 200 photos", f"{rss:.0f} MB", "1024x1024 JPEGs"))
    return rows


def speed(tmp: Path) -> list[tuple[str, str, str]]:
    from vision.reader import Reader
    from vision.render import render_roll
    from vision.settle import MotionDetector

    cv2.setNumThreads(1)
    rows = []
    rng = np.random.default_rng(7)
    frames = [render_roll(rng, "d6", 9)[0] for _ in range(40)]
    for set_name in ("d6", "xmen"):
        reader = Reader(set_name, tmp / "data")
        if set_name != "d6":
            frames = [render_roll(rng, set_name, 9)[0] for _ in range(40)]
        reader.read(frames[0])
        cpu, wall = [], []
        for f in frames:
            c, t = time.thread_time(), time.perf_counter()
            reader.read(f)
            cpu.append((time.thread_time() - c) * 1000)
            wall.append((time.perf_counter() - t) * 1000)
        rows.append((f"read 640x480, 9 dice, {set_name}, 1 thread",
                     f"{statistics.median(cpu):.1f} ms",
                     f"CPU time, median of {len(cpu)} (p90 {np.percentile(cpu, 90):.1f}); "
                     f"wall {statistics.median(wall):.1f} ms on a shared machine"))
    md = MotionDetector()
    ts, cpu = [], []
    for f in frames * 3:
        c, t = time.thread_time(), time.perf_counter()
        md.update(f)
        cpu.append((time.thread_time() - c) * 1000)
        ts.append((time.perf_counter() - t) * 1000)
    rows.append(("motion check per 640x480 frame", f"{statistics.median(cpu):.2f} ms",
                 f"CPU time, median; wall median {statistics.median(ts):.2f} ms, "
                 f"p99 {np.percentile(ts, 99):.2f} ms"))
    # memory of a reading process on 640x480 frames
    paths = []
    for i, f in enumerate(frames[:20]):
        p = tmp / "speed" / f"{i}.jpg"
        p.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(p), f)
        paths.append(str(p))
    _, rss = _cli(["read", "--set", "xmen", "--json", "--data", str(tmp / "data"), *paths])
    rows.append(("peak RSS of `dice read` (taught set, 640x480)", f"{rss:.0f} MB", ""))
    return rows


def run() -> list[tuple[str, str, str]]:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        rows = rendered(tmp)
        rows += real(tmp)
        rows += speed(tmp)
    return rows


if __name__ == "__main__":
    for row in run():
        print(" | ".join(row))
