"""The parity helpers' one tolerance rule (tests/tolerances.py): a float result one ulp from torch's,
as another CPU's SIMD sin/exp or another summation order gives, passes; a real difference, an
integer off by one, a NaN for a number or another shape fails."""

import numpy as np
import pytest
import torch

import yaten
from tests.runtime.parity import same
from tests.tolerances import assert_close, assert_close_reordered, close, tolerance


def _ulp_up(values, dtype):
    return np.nextafter(np.array(values, dtype), np.array(np.inf, dtype))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_one_ulp_passes_and_a_real_difference_fails(dtype):
    want = np.array([0.7, -2.5, 1e-3, 300.0], dtype)
    assert close(_ulp_up(want, dtype).tolist(), want.tolist(), dtype)
    assert_close(_ulp_up(want, dtype), want)
    rtol, _ = tolerance(dtype)
    off = want * (1 + 3 * rtol)
    assert not close(off.tolist(), want.tolist(), dtype)
    with pytest.raises(AssertionError):
        assert_close(off, want)


def test_exact_where_the_math_is_exact():
    assert tolerance(np.int64) is None and tolerance(yaten.bool) is None
    assert not close([1, 2], [1, 3], yaten.int64)
    with pytest.raises(AssertionError):
        assert_close(np.array([10**15]), np.array([10**15 + 1]))
    assert not close([0.0], [0.0, 0.0], yaten.float64)  # another shape
    assert close([float("nan")], [float("nan")], torch.float32)
    assert not close([float("nan")], [1.0], torch.float32)


def test_cancellation_near_zero_is_within_the_absolute_floor():
    assert_close(np.array([1e-13]), np.array([0.0]))
    with pytest.raises(AssertionError):
        assert_close(np.array([1e-6], np.float32), np.array([2e-5], np.float32))
    assert_close_reordered(np.array([1e-11]), np.array([0.0]))  # a device's sum: floor 1e-10 in float64


def test_same_compares_tensors_to_their_dtype_and_all_else_exactly():
    def sin_one_ulp_off(m):
        x = m.tensor([0.5, 1.5], dtype=m.float64).sin()
        return x + 2.0**-53 * x if m is yaten else x  # yaten one ulp up, as on a CPU with other SIMD

    assert sin_one_ulp_off(yaten).tolist() != sin_one_ulp_off(torch).tolist()
    same(sin_one_ulp_off)
    with pytest.raises(AssertionError):
        same(lambda m: m.tensor([1.0, 2.0]) * (1.001 if m is yaten else 1.0))
    with pytest.raises(AssertionError):
        same(lambda m: m.tensor([1, 2]) + (m is yaten))
    with pytest.raises(AssertionError):
        same(lambda m: (m.tensor([1.0]), "a" if m is yaten else "b"))
