"""The fused read of this tree against the code at another git ref, frame by frame: each
tree's reader in its own process, threads pinned as the bench's speed part has them, reads
the bench's speed frames (640x480, 9 dice, seed 7) one frame after the other, alternating
which goes first, so that a machine whose load changes by the second loads both alike. Per
read: wall time and the thread's CPU time (`time.thread_time()`); the ratio of the two trees'
CPU times, frame by frame, is the figure a shared machine moves least.

    python tests/bench/vision_lockstep.py [REF] [PASSES] [SET]   (default: main 10 xmen)

X-Men is taught by each tree from the bench's six photos per face (its seed), as the bench's
speed part teaches it.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))
SEED_BASE = 2000  # bench_vision.py's: the teaching photos' seed is SEED_BASE - 1000 + 3

_WORKER = (
    "import os, sys, time, json\n"
    "for v in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS'):\n"
    "    os.environ.setdefault(v, '1')\n"
    "import cv2\n"
    "cv2.setNumThreads(1)\n"
    "from vision.reader import make_reader, teach\n"
    "set_name, photos, data, frames = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]\n"
    "if set_name != 'd6':\n"
    "    teach(set_name, photos, data, recognizer='fused')\n"
    "r = make_reader(set_name, data if set_name != 'd6' else None, recognizer='fused')\n"
    "r.read(cv2.imread(frames[0]))\n"
    "print('ready', flush=True)\n"
    "for line in sys.stdin:\n"
    "    f = cv2.imread(frames[int(line)])\n"
    "    t, c = time.perf_counter(), time.thread_time()\n"
    "    r.read(f)\n"
    "    print(json.dumps([(time.perf_counter() - t) * 1000, (time.thread_time() - c) * 1000]),"
    " flush=True)\n"
)


def frames(folder: Path) -> dict[str, list[str]]:
    """The bench's speed frames (vision bench, ``speed``: the same draw, d6 first)."""
    from vision.render import render_roll

    rng = np.random.default_rng(7)
    out: dict[str, list[str]] = {}
    for set_name in ("d6", "xmen"):
        out[set_name] = []
        for i in range(40):
            p = folder / set_name / f"{i}.png"
            p.parent.mkdir(parents=True, exist_ok=True)
            img, _, _ = render_roll(rng, set_name, 9)
            cv2.imwrite(str(p), img)
            out[set_name].append(str(p))
    return out


def main(argv: list[str]) -> None:
    import trees
    from vision.render import write_teaching_photos

    ref = argv[0] if argv else "main"
    passes = int(argv[1]) if len(argv) > 1 else 10
    set_name = argv[2] if len(argv) > 2 else "xmen"
    other = trees.unpack(ref)
    if other is None:
        raise SystemExit(f"no code at {ref!r}")
    with other, tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        paths = frames(tmp / "speed")[set_name]
        photos = tmp / "teach"
        write_teaching_photos("xmen", photos, per_face=6, seed=SEED_BASE - 1000 + 3)
        procs = {}
        for name, tree in ((ref, Path(other.name)), ("this tree", REPO)):
            procs[name] = subprocess.Popen(
                [sys.executable, "-c", _WORKER, set_name, str(photos), str(tmp / "data" / name),
                 *paths], cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                env={**os.environ, "PYTHONPATH": str(tree)})
            assert procs[name].stdout.readline().strip() == "ready", f"{name}: no reader"
        got: dict[str, list] = {name: [] for name in procs}
        loads = []
        for k in range(passes):
            loads.append(os.getloadavg()[0])
            for i in range(len(paths)):
                for name in (list(procs) if (i + k) % 2 == 0 else list(procs)[::-1]):
                    procs[name].stdin.write(f"{i}\n")
                    procs[name].stdin.flush()
                    got[name].append(json.loads(procs[name].stdout.readline()))
        for p in procs.values():
            p.stdin.close()
            p.wait()
    print(f"{set_name}, fused: {passes} passes over {len(paths)} frames, load average "
          f"{min(loads):.1f}-{max(loads):.1f}")
    for name, reads in got.items():
        wall, cpu = [w for w, _ in reads], [c for _, c in reads]
        print(f"  {name:>10}: wall median {statistics.median(wall):.2f} ms (p90 "
              f"{np.percentile(wall, 90):.2f}), CPU median {statistics.median(cpu):.2f} ms")
    ratio = [b[1] / a[1] for a, b in zip(got[ref], got["this tree"])]
    print(f"  this tree / {ref}, CPU time frame by frame: median {statistics.median(ratio):.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
