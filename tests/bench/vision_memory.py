"""Where a fresh process's memory goes while it reads photos as `companion dice read` does (the
reader made once, each photo decoded and read in turn, the last one dropped before the next):

    python tests/bench/vision_memory.py [--tree DIR] [--recognizer R] SET DATA|- IMAGE...

prints one JSON line: the peak RSS (VmHWM), the library pages mapped at the end (RssFile) and
the rest at the peak (peak - library pages: the process's own memory), what malloc holds once
the reader is made and after the reads (glibc's mallinfo2), the median CPU ms a read, the
set-up time, and a hash of the reads (equal hashes: the same reads). ``--tree DIR`` reads with
the code of another checkout (``git worktree add``): PYTHONPATH alone does not, as the
venv's editable install finds this checkout's packages first.

The library pages of one process reading the same photos with the same code move between about
60 and 105 MB with the state of the kernel's page cache (docs/benchmarks.md, "the fused read's
peak memory"): compare trees in the same minutes, alternating, several runs each.
"""

from __future__ import annotations

import argparse
import ctypes
import hashlib
import json
import os
import sys
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")


class _MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd",
                                               "usmblks", "fsmblks", "uordblks", "fordblks",
                                               "keepcost")]


def _malloc_in_use() -> float | None:
    libc = ctypes.CDLL(None)
    if not hasattr(libc, "mallinfo2"):
        return None
    libc.mallinfo2.restype = _MallInfo2
    m = libc.mallinfo2()
    return (m.uordblks + m.hblkhd) / 2**20


def _status() -> dict[str, float]:
    with open("/proc/self/status") as f:
        return {line.split(":")[0]: int(line.split()[1]) / 1024 for line in f
                if line.startswith(("VmHWM", "RssFile", "RssAnon"))}


def main(argv: list[str]) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tree", help="read with the code of this checkout")
    p.add_argument("--recognizer", default="fused")
    p.add_argument("set")
    p.add_argument("data", help="the data folder of a taught set, or - for d6")
    p.add_argument("images", nargs="+")
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    if args.tree:
        tree = os.path.abspath(args.tree)
        sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
        sys.path.insert(0, tree)
    import vision.onnx_runtime  # noqa: F401 (threads pinned before numpy loads, as the CLI does)
    import cv2

    cv2.setNumThreads(1)
    from vision.reader import make_reader
    from vision.sets import load_image

    if args.tree:
        assert vision.__file__.startswith(tree), vision.__file__
    reader = make_reader(args.set, None if args.data == "-" else args.data,
                         recognizer=args.recognizer)
    set_up = time.perf_counter() - t0
    made = _malloc_in_use()
    cpu, reads = [], []
    for path in args.images:
        frame = None
        frame = load_image(path)
        c = time.thread_time()
        dice = reader.read(frame)
        cpu.append((time.thread_time() - c) * 1000)
        reads.append(json.dumps([[d.face, d.confidence, list(d.box), d.confirmed] for d in dice]
                                + [[list(b) for b in reader.last_unread]]))
    st = _status()
    after = _malloc_in_use()
    cpu = sorted(cpu[1:] or cpu)
    return {"peak_mb": round(st["VmHWM"], 1), "library_pages_mb": round(st["RssFile"], 1),
            "own_at_peak_mb": round(st["VmHWM"] - st["RssFile"], 1),
            "malloc_made_mb": None if made is None else round(made, 1),
            "malloc_after_mb": None if after is None else round(after, 1),
            "cpu_ms_a_read": round(cpu[len(cpu) // 2], 2), "set_up_s": round(set_up, 3),
            "reads": hashlib.sha1("\n".join(reads).encode()).hexdigest()[:12],
            "images": len(args.images)}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
