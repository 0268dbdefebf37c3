"""What a read keeps in memory (docs/benchmarks.md, "the fused read's peak memory"): counts of
bytes and of modules, not timings. A fresh process reads a 1024x1024 frame (the held-out tray
photos' size: the largest input the detector is given) as `companion dice read` does."""

import json
import platform
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import detector, onnx_runtime
from vision.render import RenderOptions, random_roll, render_labelled

REPO = Path(__file__).resolve().parents[2]
GLIBC = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"

# malloc's bytes in use (glibc's mallinfo2) once the fused reader is made, and after it read the
# frame three times; and which modules the read loaded. OpenCV's Lab tables (4.5 MB, made at its
# first Lab conversion and kept for good; the classical finder runs on some frames only) are
# made before the count starts
_READ = """
import ctypes, json, sys
import vision.onnx_runtime
import cv2
import numpy as np
from vision.reader import make_reader
from vision.sets import load_image

class Info(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd",
                "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]
libc = ctypes.CDLL(None)
in_use = None
if hasattr(libc, "mallinfo2"):
    libc.mallinfo2.restype = Info
    in_use = lambda: libc.mallinfo2().uordblks + libc.mallinfo2().hblkhd
reader = make_reader("d6")
cv2.cvtColor(np.zeros((2, 2, 3), np.uint8), cv2.COLOR_BGR2LAB)
made = in_use() if in_use else None
for _ in range(3):
    frame = load_image(sys.argv[1])
    reader.read(frame)
    del frame
kept = in_use() - made if in_use else None
# then the most one run of each network takes: the face network on MAX_DICE crops, the detector
# on its largest input (a square frame)
from vision.reader import MAX_DICE
from vision.facenet import CROP
reader.learned.facenet.run(np.zeros((MAX_DICE, CROP, CROP, 3), np.uint8))
reader.learned.detector.run(np.zeros((1024, 1024, 3), np.uint8), 0.1)
print(json.dumps({"kept": kept, "kept_worst": in_use() - made if in_use else None,
                  "modules": sorted(m for m in ("hashlib", "_hashlib", "numpy.ma") if m in sys.modules)}))
"""


@pytest.fixture(scope="module")
def after_reads(tmp_path_factory):
    rng = np.random.default_rng(14)
    opt = replace(RenderOptions(), size=(1024, 1024), die_px=(64.0, 90.0))
    scene = render_labelled(rng, random_roll(rng, "d6", 9), opt, pips=True)
    path = tmp_path_factory.mktemp("memory") / "tray.png"
    cv2.imwrite(str(path), scene.image)
    r = subprocess.run([sys.executable, "-c", _READ, str(path)], capture_output=True, text=True,
                       cwd=REPO, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not GLIBC, reason="malloc's counts are glibc's (mallinfo2)")
def test_the_networks_keep_one_small_arena_between_reads(after_reads):
    """Both sessions take their tensors from one arena as a run needs them: after three reads
    of a 1024x1024 frame malloc holds 7 MB more than when the reader was made (that arena's 6
    MB). With an arena and a planned block of its own per session it held 20 MB (24 MB after
    the 50 held-out tray photos; the detector's arena alone 17 MB for a 320x320 input)."""
    assert after_reads["kept"] is not None
    assert after_reads["kept"] < 12 * 2**20, after_reads["kept"] / 2**20
    # the arena's first region holds the largest run: it did not double (6 MB more)
    assert after_reads["kept_worst"] - after_reads["kept"] < 2**20, after_reads["kept_worst"]


def test_a_pip_read_does_not_load_openssl(after_reads):
    """hashlib maps OpenSSL's libcrypto (3 MB of a read's peak); only a taught set needs it
    (the face network's digest)."""
    assert not {"hashlib", "_hashlib"} & set(after_reads["modules"]), after_reads["modules"]


def test_a_read_does_not_load_numpys_masked_arrays(after_reads):
    """np.median of floats, np.percentile and np.unique import numpy.ma (0.4 MB of a read's
    peak) to look for masked arrays; the reads take their medians and percentiles from
    vision/order_stats.py."""
    assert "numpy.ma" not in after_reads["modules"]


def test_the_sessions_share_the_environments_arena_and_plan_no_block():
    """(Its first region, ARENA_FIRST, holds the most one run takes: a run on MAX_DICE crops,
    the detector on its largest input. A larger first region only costs memory; a smaller
    one makes the arena grow by doubling: test_the_networks_keep_one_small_arena_between_reads)"""
    session = onnx_runtime.session(detector.MODEL)
    opts = session.get_session_options()
    assert opts.get_session_config_entry(onnx_runtime.SHARED_ARENA) == "1"
    assert opts.enable_mem_pattern is False


@pytest.mark.parametrize("h, w", [(1024, 1024), (480, 640), (640, 480), (3000, 4000),
                                  (1080, 1920), (3000, 100), (7, 5)])
def test_the_detectors_input_is_at_most_320_pixels_a_side(h, w):
    """Its working memory grows with its input: whatever the frame, the input's long side is
    320 (a square frame gives the largest, 320x320), padded to a multiple of 32."""
    blob, scale = detector.prepare(np.zeros((h, w, 3), np.uint8))
    _, _, bh, bw = blob.shape
    assert max(bh, bw) == detector.INPUT_SIDE and bh % detector.PAD == 0 and bw % detector.PAD == 0
    assert bh * bw <= detector.INPUT_SIDE ** 2
