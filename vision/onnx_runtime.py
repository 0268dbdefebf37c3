"""The shipped networks run on onnxruntime's CPU provider, one thread (measured faster than
OpenCV's DNN module on one core: docs/benchmarks.md). Numpy's BLAS threads are pinned too,
before numpy loads where this module is imported first (the CLI), so one read uses one core."""

from __future__ import annotations

import functools
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from pathlib import Path  # noqa: E402

from vision.errors import VisionError  # noqa: E402

_CACHE: dict[str, object] = {}

# glibc's malloc hands a freed block of a frame's size back to the system (a trim of the heap's
# top, or an unmap) and faults it in again on the next frame: about 470 page faults a read of a
# 640x480 frame, 1 ms of the 15 a read may take. Kept instead (the peak is no higher: the
# next frame reuses them). mallopt's parameter numbers, from glibc's malloc.h.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
KEEP_FREED = 64 * 2**20  # freed memory at the heap's top kept up to this
HEAP_BLOCKS = 16 * 2**20  # blocks up to this come from the heap (a 1920x1080 frame is 6 MB)


@functools.cache
def keep_freed_memory() -> bool:
    """Have glibc keep freed frame-sized blocks for the next read (once a process; False
    where the C library is not glibc)."""
    import ctypes  # noqa: PLC0415

    try:
        libc = ctypes.CDLL(None)
    except OSError:
        return False
    if not (hasattr(libc, "mallopt") and hasattr(libc, "gnu_get_libc_version")):
        return False
    return bool(libc.mallopt(_M_TRIM_THRESHOLD, KEEP_FREED)) and \
        bool(libc.mallopt(_M_MMAP_THRESHOLD, HEAP_BLOCKS))


# Where the sessions' working memory comes from (docs/benchmarks.md, "the fused read's peak
# memory"). Each session's own arena kept its largest blocks for good: about 24 MB after the
# held-out tray photos, of which 8 MB only because a 1024x1024 photo gives the detector a
# 320x320 input (320x256 for 640x480), whose planned single block ("memory pattern") no
# longer fitted the regions the arena had. One arena in the environment, shared by both
# sessions (they never run at once), with each tensor taken from it as the run needs it:
# the same outputs, no CPU time measurably added. Its first region holds the most one run
# takes (the face network on MAX_DICE crops: 5-6 MB; the detector on its largest input,
# 320x320: under 4 MB), so that it need not grow: 6 MB kept (8 MB growing from 1 MB by
# doubling); a larger run still grows it.
SHARED_ARENA = "session.use_env_allocators"
ARENA_FIRST = 6 * 2**20


@functools.cache
def _shared_arena() -> None:
    import onnxruntime as ort  # noqa: PLC0415

    cpu = ort.OrtMemoryInfo("Cpu", ort.OrtAllocatorType.ORT_ARENA_ALLOCATOR, 0,
                            ort.OrtMemType.DEFAULT)
    # no limit, the default growth (doubling), the first region ARENA_FIRST, the default reuse
    ort.create_and_register_allocator(cpu, ort.OrtArenaCfg(0, -1, ARENA_FIRST, -1))


def session(path: Path | str):
    """An inference session for a model file, shared by every reader in the process."""
    import onnxruntime as ort  # noqa: PLC0415

    key = str(Path(path).resolve())
    if key not in _CACHE:
        if not Path(path).is_file():
            raise VisionError(f"{path}: the model file is missing (reinstall companion or run "
                              "`make train-vision`)")
        _shared_arena()
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.log_severity_level = 3
        opts.enable_mem_pattern = False
        opts.add_session_config_entry(SHARED_ARENA, "1")
        _CACHE[key] = ort.InferenceSession(key, opts, providers=["CPUExecutionProvider"])
    return _CACHE[key]
