"""The array-level convolution and pooling kernels (runtime/kernels/cpu/conv.py, pool.py) against torch:
dtypes (float16/32/64, int64), 1-d and 2-d, transposed, masks, and the unfolding's adjointness."""

import numpy as np
import pytest
import torch

from tests.tolerances import tolerance
from yaten.kernels.cpu import conv, pool

RNG = np.random.default_rng(0)


def _t(a):
    return torch.from_numpy(np.ascontiguousarray(a))


def _tol(dtype):
    """tests/tolerances.py's tolerance for ``dtype``; float16 results against torch's float32 reference
    differ by a half's rounding of long sums: wider."""
    if np.dtype(dtype) == np.float16:
        return 1e-2, 1e-2
    return tolerance(dtype) or (0, 0)


CASES = [
    # (input shape, weight shape, stride, padding, dilation, transposed, output_padding, groups)
    ((2, 3, 7, 6), (4, 3, 3, 2), [1, 1], [1, 0], [1, 1], False, [0, 0], 1),
    ((2, 4, 9, 8), (6, 2, 3, 3), [2, 1], [1, 2], [2, 1], False, [0, 0], 2),
    ((2, 4, 5, 4), (4, 3, 3, 3), [2, 1], [1, 0], [1, 2], True, [1, 0], 2),
    ((2, 4, 9), (6, 2, 3), [2], [1], [2], False, [0], 2),
    ((2, 4, 5), (4, 3, 3), [3], [1], [1], True, [2], 2),
]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int64])
@pytest.mark.parametrize("case", CASES)
def test_convolution_and_backward_match_torch(case, dtype):
    xs, ws, *args = case
    transposed, groups = args[3], args[5]
    x = (RNG.integers(-3, 4, xs) if dtype == np.int64 else RNG.standard_normal(xs)).astype(dtype)
    w = (RNG.integers(-3, 4, ws) if dtype == np.int64 else RNG.standard_normal(ws)).astype(dtype)
    out_ch = ws[1] * groups if transposed else ws[0]
    b = (RNG.integers(-3, 4, out_ch) if dtype == np.int64 else RNG.standard_normal(out_ch)).astype(dtype)
    got = conv.convolution(x, w, b, *args)
    # torch's CPU half convolution is the reference in float32 (torch computes half in float too)
    ref_dt = torch.float32 if dtype == np.float16 else None
    tx, tw, tb = (_t(a).to(ref_dt) if ref_dt else _t(a) for a in (x, w, b))
    want = torch.convolution(tx, tw, tb, *args)
    assert got.dtype == dtype and got.shape == tuple(want.shape)
    rtol, atol = _tol(dtype)
    np.testing.assert_allclose(got.astype(np.float64), want.double().numpy(), rtol=rtol, atol=atol)
    if dtype == np.int64:
        return  # torch has no integer convolution_backward
    g = RNG.standard_normal(got.shape).astype(dtype)
    grads = conv.convolution_backward(g, x, w, [out_ch], *args, [True, True, True])
    wants = torch.ops.aten.convolution_backward(_t(g).to(ref_dt) if ref_dt else _t(g), tx, tw, [out_ch], *args,
                                                [True, True, True])  # fmt: skip
    for a, e in zip(grads, wants):
        assert a.dtype == dtype and a.shape == tuple(e.shape) and a.flags.c_contiguous
        scale = max(1.0, float(e.abs().max()))
        np.testing.assert_allclose(a.astype(np.float64), e.double().numpy(), rtol=rtol, atol=atol * scale)


def test_masked_outputs_are_empty():
    x, w = RNG.standard_normal((1, 2, 4, 4)), RNG.standard_normal((3, 2, 3, 3))
    g = RNG.standard_normal((1, 3, 2, 2))
    gi, gw, gb = conv.convolution_backward(g, x, w, None, [1], [0], [1], False, [0], 1, [False, True, False])
    assert gi.shape == (0,) and gb.shape == (0,) and gw.shape == w.shape


def test_unfold_and_fold_are_adjoint():
    """<unfold(x), c> == <x, fold(c)> for a strided, padded, dilated geometry: col2im is im2col's transpose."""
    g = conv._Geometry((7, 6), (3, 2), (2, 1), (1, 1), (1, 2), (4, 6))
    x = RNG.standard_normal((2, 3, 7, 6))
    c = RNG.standard_normal((3 * 6, 2 * 24))  # (C*kh*kw, N*oh*ow): the batch folded into the columns
    lhs = float((conv._unfold(x, g) * c).sum())
    rhs = float((x * conv._fold(c, g, 2, 3)).sum())
    assert abs(lhs - rhs) < 1e-9 * max(1.0, abs(lhs))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_pool_kernels_match_torch(dtype):
    x = RNG.standard_normal((2, 3, 7, 6)).astype(dtype)
    tx = _t(x).float() if dtype == np.float16 else _t(x)
    rtol, atol = _tol(dtype)
    v, i = pool.max_pool2d_with_indices(x, [3, 2], [2, 1], [1, 1], [1, 2], True)
    tv, ti = torch.nn.functional.max_pool2d_with_indices(tx, (3, 2), (2, 1), (1, 1), (1, 2), True)
    assert v.dtype == dtype and i.dtype == np.int64
    np.testing.assert_allclose(v.astype(np.float64), tv.double().numpy(), rtol=rtol, atol=atol)
    np.testing.assert_array_equal(i, ti.numpy())
    a = pool.avg_pool2d(x, [3], [2], [1], True, False, None)
    ta = torch.nn.functional.avg_pool2d(tx, 3, 2, 1, True, False)
    np.testing.assert_allclose(a.astype(np.float64), ta.double().numpy(), rtol=rtol, atol=atol)
    d = pool.adaptive_avg_pool2d(x, [4, 5])
    td = torch.nn.functional.adaptive_avg_pool2d(tx, (4, 5))
    np.testing.assert_allclose(d.astype(np.float64), td.double().numpy(), rtol=rtol, atol=atol)
