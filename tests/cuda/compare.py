"""What the CUDA kernel tests share: tensors made from arrays on a device, and a cuda result (or error)
compared with the CPU's."""

import numpy as np
import pytest

import yaten
from tests.tolerances import assert_close_reordered

CUDA = yaten.device("cuda", 0)


def on(a, device, dtype=None):
    """A C-contiguous yaten tensor on ``device`` with the values of ``a``."""
    return yaten.from_numpy(np.array(a, dtype)).to(device)


def assert_same(got, want):
    """``got`` (on cuda) equals ``want`` (on the CPU): device, dtype, shape, and values (NaN where NaN;
    floats to their dtype's tolerance, summed in another order; everything else exactly)."""
    assert got.device == CUDA
    assert got.dtype == want.dtype and tuple(got.shape) == tuple(want.shape)
    assert_close_reordered(got, want)


def both(fn, layout: bool = False):
    """``fn(device)`` (a tensor or a tuple of them) on the CPU and on cuda, compared (with ``layout``,
    their strides too); returns the cuda result."""
    want, got = fn("cpu"), fn("cuda")
    wants, gots = (want, got) if isinstance(want, tuple) else ((want,), (got,))
    for g, w in zip(gots, wants, strict=True):
        assert_same(g, w)
        if layout:
            assert g.stride() == w.stride(), (g.stride(), w.stride())
    return got


def values(dt, shape, seed=0, low=-9, high=10):
    """Random test values of NumPy dtype ``dt``: 0/1 for bool, integers in [low, high) (from 0 when
    unsigned), standard normal floats."""
    rng = np.random.default_rng(seed)
    kind = np.dtype(dt).kind
    if kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if kind in "iu":
        return rng.integers(0 if kind == "u" else low, high, shape).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def same_error(fn):
    """``fn(device)`` raises the same exception type with the same message on the CPU and on cuda;
    returns the CPU's exception."""
    with pytest.raises(Exception) as cpu:
        fn("cpu")
    with pytest.raises(type(cpu.value)) as dev:
        fn("cuda")
    assert type(dev.value) is type(cpu.value)
    assert str(dev.value) == str(cpu.value)
    return cpu.value
