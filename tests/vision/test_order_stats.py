"""vision/order_stats.py gives numpy's medians and percentiles to the last bit (a read's
thresholds come from them: the same values, the same reads), without numpy's masked arrays."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from vision.order_stats import median, percentile

DTYPES = st.sampled_from([np.float32, np.float64, np.uint8, np.int16, np.int32, np.int64])


@st.composite
def finite_arrays(draw):
    dtype = np.dtype(draw(DTYPES))
    if dtype.kind == "f":
        elements = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False,
                             width=32 if dtype == np.float32 else 64)
    else:   # no two values further apart than the type holds: a read's counts never are
        info = np.iinfo(dtype)
        elements = st.integers(max(int(info.min), -10_000), min(int(info.max), 10_000))
    return draw(hnp.arrays(dtype, st.integers(1, 300), elements=elements))


@settings(max_examples=400, deadline=None)
@given(finite_arrays())
def test_the_median_is_numpys(a):
    assert median(a) == float(np.median(a))
    assert median(a.tolist()) == float(np.median(a.tolist()))


@settings(max_examples=400, deadline=None)
@given(finite_arrays(), st.sampled_from([0, 1, 10, 25, 50, 75, 90, 99, 100, 33.3, 62.5]))
def test_a_percentile_is_numpys(a, q):
    assert percentile(a, q) == float(np.percentile(a, q))
    assert percentile(a.tolist(), q) == float(np.percentile(a.tolist(), q))


def test_the_input_is_left_as_it_was_and_no_values_are_refused():
    a = np.array([5.0, 1.0, 4.0, 2.0], np.float32)
    assert median(a) == 3.0 and percentile(a, 90) == pytest.approx(4.7)
    assert a.tolist() == [5.0, 1.0, 4.0, 2.0]
    with pytest.raises(ValueError, match="no values"):
        median([])
    with pytest.raises(ValueError, match="no values"):
        percentile(np.zeros((0, 3)), 50)
