"""Medians and percentiles of a 1-D set of numbers, as numpy gives them, for the per-frame reads.

``np.median`` of floats, ``np.percentile`` and ``np.unique`` look for masked arrays through
``np.ma``, which imports numpy's masked-array package (about 0.4 MB of the read's peak memory)
on the first read of every process; for a short array their own overhead is most of the cost.
The order statistics by ``np.partition``, combined in the same arithmetic as numpy's, give the
same values for finite numbers (a NaN, which no read makes, is not looked for).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def _flat(values: Any) -> np.ndarray:
    a = np.asarray(values).ravel()
    if a.size == 0:
        raise ValueError("an order statistic of no values")
    return a


def median(values: Any) -> float:
    """The middle value (the mean of the two middle ones for an even count) of ``values``
    taken flat: ``float(np.median(values))``."""
    a = _flat(values)
    lo, hi = (a.size - 1) // 2, a.size // 2
    part = np.partition(a, (lo, hi) if lo != hi else lo)
    if a.dtype.kind == "f":   # halved in the array's own precision, as np.mean does it
        return float((part[lo] + part[hi]) / 2)
    return (float(part[lo]) + float(part[hi])) / 2


def percentile(values: Any, q: float) -> float:
    """``float(np.percentile(values, q))``: numpy's default ("linear") method, its virtual
    index and its interpolation from either end, step for step."""
    a = _flat(values)
    n = a.size
    virtual = (n - 1) * (q / 100)
    if virtual >= n - 1:
        return float(np.partition(a, n - 1)[n - 1])
    if virtual < 0:
        return float(np.partition(a, 0)[0])
    lo = math.floor(virtual)
    part = np.partition(a, (lo, lo + 1))
    x, y, t = part[lo], part[lo + 1], virtual - lo
    diff = y - x
    return float(y - diff * (1 - t)) if t >= 0.5 else float(x + diff * t)
