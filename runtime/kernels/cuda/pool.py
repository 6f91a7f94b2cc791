"""2-d pooling over device arrays: max (with indices), average and adaptive average, and their
backward (numba.cuda).

Same signatures, checks (the CPU module's ``max_geometry``, ``avg_geometry``, ``adaptive_check``
and ``adaptive_backward_check``, imported), dtype rules and results as ``kernels/cpu/pool.py``:
inputs are (N, C, H, W) or unbatched (C, H, W), indices are positions in the flattened (H, W) plane,
float16 is pooled in float32, integer averages are truncated. The input (any layout) is first
gathered into a C-contiguous array in the compute dtype (``contiguous_cast``; no copy when it
already is one).

- Forward kernels: one thread per output element, walking its window in the CPU's order (so max
  pooling keeps the first maximum, and the first NaN, which then propagates, as ATen).
- Backward kernels: one thread per (batch, channel) plane, adding each output's gradient into its
  plane in the CPU's order, so overlapping windows sum in the same order (the same bits) and no
  atomics are needed.

Sums and gradient shares are taken in float64 (``float(...)``) as Numba types the CPU loops; the
explicit conversion also makes the simulator, whose NumPy scalars would stay float32, agree.
"""

from typing import NamedTuple

import numpy as np
from numba import cuda

from ..cpu.convert import compute_dtype
from ..cpu.pool import adaptive_backward_check, adaptive_check, avg_geometry, avg_window, max_geometry
from . import memory
from .copy import contiguous_cast, launch, zero_

_F16, _F32, _F64, _I64 = (np.dtype(t) for t in (np.float16, np.float32, np.float64, np.int64))


# --- the kernels -------------------------------------------------------------------------------
# Builtin min / max do not compile for a GPU here (Numba types them with its one-argument iterable
# overload and fails), so the kernels use these two.


@cuda.jit(device=True)
def _min(a, b):
    return a if a < b else b


@cuda.jit(device=True)
def _max(a, b):
    return a if a > b else b


_window = cuda.jit(device=True)(avg_window)  # the CPU kernels' window arithmetic, compiled for the device


@cuda.jit
def _max_pool(x, h, w, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow, out, idx):
    i = cuda.grid(1)
    if i < out.shape[0]:
        p = i // (oh * ow)
        r = i - p * (oh * ow)
        y = r // ow
        xo = r - y * ow
        base = p * h * w
        y0 = y * sh - ph
        while y0 < 0:
            y0 += dh
        y1 = _min(y * sh - ph + (kh - 1) * dh + 1, h)
        x0 = xo * sw - pw
        while x0 < 0:
            x0 += dw
        x1 = _min(xo * sw - pw + (kw - 1) * dw + 1, w)
        best_i = y0 * w + x0
        best = x[base + _min(y0, h - 1) * w + _min(x0, w - 1)]
        first = True
        for iy in range(y0, y1, dh):
            for ix in range(x0, x1, dw):
                v = x[base + iy * w + ix]
                # the first element, a larger one, or a NaN (which then propagates), as ATen
                if first or v > best or v != v:
                    best = v
                    best_i = iy * w + ix
                    first = False
        out[i] = best
        idx[i] = best_i


@cuda.jit
def _max_pool_backward(grad, idx, planes, hw, ohw, out):
    p = cuda.grid(1)
    if p < planes:
        for j in range(p * ohw, (p + 1) * ohw):
            out[p * hw + idx[j]] += grad[j]


@cuda.jit
def _avg_pool(x, h, w, kh, kw, sh, sw, ph, pw, count_include_pad, divisor, oh, ow, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        p = i // (oh * ow)
        r = i - p * (oh * ow)
        y = r // ow
        xo = r - y * ow
        base = p * h * w
        y0, y1, x0, x1, factor = _window(y, xo, kh, kw, sh, sw, ph, pw, h, w, count_include_pad, divisor)
        if y0 >= y1 or x0 >= x1:
            out[i] = 0
            return
        s = 0.0
        for iy in range(y0, y1):
            for ix in range(x0, x1):
                s += float(x[base + iy * w + ix])
        out[i] = s / factor


@cuda.jit
def _avg_pool_backward(grad, h, w, kh, kw, sh, sw, ph, pw, count_include_pad, divisor, planes, oh, ow, out):
    p = cuda.grid(1)
    if p < planes:
        base = p * h * w
        for y in range(oh):
            for xo in range(ow):
                y0, y1, x0, x1, factor = _window(
                    y, xo, kh, kw, sh, sw, ph, pw, h, w, count_include_pad, divisor
                )
                if y0 >= y1 or x0 >= x1:
                    continue
                g = float(grad[(p * oh + y) * ow + xo]) / factor
                for iy in range(y0, y1):
                    for ix in range(x0, x1):
                        out[base + iy * w + ix] = float(out[base + iy * w + ix]) + g


@cuda.jit
def _adaptive_avg(x, h, w, oh, ow, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        p = i // (oh * ow)
        r = i - p * (oh * ow)
        y = r // ow
        xo = r - y * ow
        base = p * h * w
        y0 = (y * h) // oh
        y1 = -((-(y + 1) * h) // oh)
        x0 = (xo * w) // ow
        x1 = -((-(xo + 1) * w) // ow)
        s = 0.0
        for iy in range(y0, y1):
            for ix in range(x0, x1):
                s += float(x[base + iy * w + ix])
        out[i] = s / ((y1 - y0) * (x1 - x0))


@cuda.jit
def _adaptive_avg_backward(grad, h, w, planes, oh, ow, out):
    p = cuda.grid(1)
    if p < planes:
        base = p * h * w
        for y in range(oh):
            y0 = (y * h) // oh
            y1 = -((-(y + 1) * h) // oh)
            for xo in range(ow):
                x0 = (xo * w) // ow
                x1 = -((-(xo + 1) * w) // ow)
                g = float(grad[(p * oh + y) * ow + xo]) / ((y1 - y0) * (x1 - x0))
                for iy in range(y0, y1):
                    for ix in range(x0, x1):
                        out[base + iy * w + ix] = float(out[base + iy * w + ix]) + g


# --- host side ---------------------------------------------------------------------------------


class _Meta(NamedTuple):
    """What the CPU checks read of an array: the simulator's device arrays refuse negative indices
    into their ``shape``, which the checks use (a real device array's shape is a plain tuple)."""

    shape: tuple
    ndim: int
    dtype: np.dtype


def _meta(arr):
    return _Meta(tuple(arr.shape), arr.ndim, arr.dtype)


def _flat_in(arr, dt):
    """The elements of ``arr`` in ``dt`` as a flat C-ordered device array (no copy when it is one)."""
    return memory.flat(contiguous_cast(arr, arr.shape, dt))


def _as(arr, shape, dtype):
    """The C-contiguous ``arr`` viewed as ``shape``, cast to ``dtype`` (a copy only when it differs)."""
    shape = tuple(shape)
    v = memory.raw_view(arr, arr.dtype, shape, memory.c_strides(shape, arr.dtype.itemsize), 0)
    return v if arr.dtype == dtype else contiguous_cast(v, shape, dtype)


def _gradient_planes(grad_output, self):
    """What a pooling backward starts from: ``(compute dtype, planes, (h, w), (oh, ow), out)``, with
    ``out`` the zeroed flat gradient of ``self``, one ``h * w`` plane per plane of ``grad_output``."""
    ct = compute_dtype(grad_output.dtype)
    oh, ow = tuple(grad_output.shape)[-2:]
    h, w = tuple(self.shape)[-2:]
    planes = grad_output.size // (oh * ow) if oh * ow else 0
    out = memory.empty((planes * h * w,), ct)
    zero_(out)
    return ct, planes, (h, w), (oh, ow), out


def _planes_of(self):
    h, w = tuple(self.shape)[-2:]
    return (self.size // (h * w)) if h * w else 0, h, w


def max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode):
    """``(values, indices)`` of 2-d max pooling, as ``torch.nn.functional.max_pool2d_with_indices``.

    >>> memory.to_host(max_pool2d_with_indices(memory.from_host(np.arange(16.0).reshape(1, 4, 4)),
    ...                                        [2], [], [0], [1], False)[1])
    array([[[ 5,  7],
            [13, 15]]])
    """
    if self.dtype.kind == "b":
        raise RuntimeError("\"max_pool2d\" not implemented for 'Bool'")
    (kh, kw), (sh, sw), (ph, pw), (dh, dw), (oh, ow) = max_geometry(
        _meta(self), kernel_size, stride, padding, dilation, ceil_mode
    )
    ct = compute_dtype(self.dtype)
    planes, h, w = _planes_of(self)
    shape = tuple(self.shape)[:-2] + (oh, ow)
    out = memory.empty((planes * oh * ow,), ct)
    idx = memory.empty((planes * oh * ow,), _I64)
    if out.size:
        x = _flat_in(self, ct)
        launch(_max_pool, out.size, x, h, w, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow, out, idx)
    return _as(out, shape, self.dtype), _as(idx, shape, _I64)


def max_pool2d_with_indices_backward(
    grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices
):
    """The gradient of max pooling: each output's gradient added at its index in the input.

    >>> x = memory.from_host(np.arange(4.0).reshape(1, 2, 2))
    >>> g, i = memory.from_host(np.ones((1, 1, 1))), memory.from_host(np.full((1, 1, 1), 3))
    >>> memory.to_host(max_pool2d_with_indices_backward(g, x, [2], [], [0], [1], False, i))
    array([[[0., 0.],
            [0., 1.]]])
    """
    max_geometry(_meta(self), kernel_size, stride, padding, dilation, ceil_mode)
    ct, planes, (h, w), (oh, ow), out = _gradient_planes(grad_output, self)
    if grad_output.size:
        g = _flat_in(grad_output, ct)
        i = _flat_in(indices, _I64)
        launch(_max_pool_backward, planes, g, i, planes, h * w, oh * ow, out)
    return _as(out, self.shape, self.dtype)


def avg_pool2d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """2-d average pooling, as ``torch.nn.functional.avg_pool2d``.

    >>> memory.to_host(avg_pool2d(memory.from_host(np.arange(16.0).reshape(1, 4, 4)),
    ...                           [2], [], [0], False, True, None))
    array([[[ 2.5,  4.5],
            [10.5, 12.5]]])
    """
    if self.dtype.kind == "b":
        raise RuntimeError("\"avg_pool2d\" not implemented for 'Bool'")
    (kh, kw), (sh, sw), (ph, pw), (oh, ow) = avg_geometry(
        _meta(self), kernel_size, stride, padding, ceil_mode, divisor_override
    )
    ct = compute_dtype(self.dtype)
    planes, h, w = _planes_of(self)
    # Integers average in float64; the cast back truncates, as ATen's integral kernel divides.
    out = memory.empty((planes * oh * ow,), ct if self.dtype.kind == "f" else _F64)
    if out.size:
        x = _flat_in(self, ct)
        launch(_avg_pool, out.size, x, h, w, kh, kw, sh, sw, ph, pw, bool(count_include_pad),
               divisor_override or 0, oh, ow, out)  # fmt: skip
    return _as(out, tuple(self.shape)[:-2] + (oh, ow), self.dtype)


def avg_pool2d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                        divisor_override):  # fmt: skip
    """The gradient of ``avg_pool2d``: each output's gradient spread evenly over its window.

    >>> x, g = memory.from_host(np.zeros((1, 2, 2))), memory.from_host(np.ones((1, 1, 1)))
    >>> memory.to_host(avg_pool2d_backward(g, x, [2], [], [0], False, True, None))
    array([[[0.25, 0.25],
            [0.25, 0.25]]])
    """
    (kh, kw), (sh, sw), (ph, pw), _ = avg_geometry(
        _meta(self), kernel_size, stride, padding, ceil_mode, divisor_override
    )
    ct, planes, (h, w), (oh, ow), out = _gradient_planes(grad_output, self)
    if grad_output.size:
        g = _flat_in(grad_output, ct)
        launch(_avg_pool_backward, planes, g, h, w, kh, kw, sh, sw, ph, pw, bool(count_include_pad),
               divisor_override or 0, planes, oh, ow, out)  # fmt: skip
    return _as(out, self.shape, self.dtype)


def adaptive_avg_pool2d(self, output_size):
    """Average pooling to a given (H, W): output cell i covers input rows floor(i*H/oh) .. ceil((i+1)*H/oh).

    >>> memory.to_host(adaptive_avg_pool2d(memory.from_host(np.arange(16.0).reshape(1, 4, 4)), [1, 2]))
    array([[[6.5, 8.5]]])
    """
    output_size = list(output_size)
    adaptive_check(_meta(self), output_size)
    oh, ow = output_size
    ct = compute_dtype(self.dtype)
    planes, h, w = _planes_of(self)
    out = memory.empty((planes * oh * ow,), ct)
    if out.size:
        launch(_adaptive_avg, out.size, _flat_in(self, ct), h, w, oh, ow, out)
    return _as(out, tuple(self.shape)[:-2] + (oh, ow), self.dtype)


def adaptive_avg_pool2d_backward(grad_output, self):
    """The gradient of ``adaptive_avg_pool2d`` (its output size is ``grad_output``'s last two sizes).

    >>> x, g = memory.from_host(np.zeros((1, 2, 2))), memory.from_host(np.ones((1, 1, 1)))
    >>> memory.to_host(adaptive_avg_pool2d_backward(g, x))
    array([[[0.25, 0.25],
            [0.25, 0.25]]])
    """
    adaptive_backward_check(grad_output, self)
    ct, planes, (h, w), (oh, ow), out = _gradient_planes(grad_output, self)
    if grad_output.size:
        launch(_adaptive_avg_backward, planes, _flat_in(grad_output, ct), h, w, planes, oh, ow, out)
    return _as(out, self.shape, self.dtype)
