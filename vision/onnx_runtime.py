"""The shipped networks run on onnxruntime's CPU provider, one thread (measured faster than
OpenCV's DNN module on one core: docs/benchmarks.md). Numpy's BLAS threads are pinned too,
before numpy loads where this module is imported first (the CLI), so one read uses one core."""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from pathlib import Path  # noqa: E402

from vision.errors import VisionError  # noqa: E402

_CACHE: dict[str, object] = {}


def session(path: Path | str):
    """An inference session for a model file, shared by every reader in the process."""
    import onnxruntime as ort  # noqa: PLC0415

    key = str(Path(path).resolve())
    if key not in _CACHE:
        if not Path(path).is_file():
            raise VisionError(f"{path}: the model file is missing (reinstall companion or run "
                              "`make train-vision`)")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.log_severity_level = 3
        _CACHE[key] = ort.InferenceSession(key, opts, providers=["CPUExecutionProvider"])
    return _CACHE[key]
