"""Which loop a pointwise op runs on the cpu: NumPy's own SIMD ufunc where the spec's expression is one
NumPy has (``tanh(self)``) and the compute is float32/float64, the generated Numba kernel otherwise."""

import numpy as np
import pytest

import yaten
from yaten._generated import ops


@pytest.mark.parametrize(
    "dtype, numpy",
    [("float32", True), ("float64", True), ("float16", True), ("int64", True), ("complex64", False)],
)
def test_tanh_runs_numpys_loop_for_real_floating_compute(dtype, numpy):
    x = yaten.linspace(-2, 2, 7).to(getattr(yaten, dtype))
    y = yaten.tanh(x)
    key = ops._PW_tanh._key((x._data,))
    ufunc = ops._PW_tanh._plans[key].ufunc
    assert (ufunc is np.tanh) is numpy
    want = np.tanh(np.asarray(x.to(yaten.complex128 if dtype == "complex64" else yaten.float64).tolist()))
    np.testing.assert_allclose(np.asarray(y.tolist()), want, rtol=2e-3 if dtype == "float16" else 1e-6)
