"""2-d pooling over host arrays: max (with indices), average and adaptive average, and their backward.

Each kernel is a parallel Numba loop over the (batch, channel) planes (one thread for small inputs:
kernels/cpu/threads.py), so a backward pass that scatters into the input writes only its own plane. Inputs are (N, C, H, W) or unbatched (C, H, W). Indices are
positions in the flattened (H, W) plane, as PyTorch's. float16 is pooled in float32. Checks and messages
follow ATen's ``pool2d_shape_check`` and ``pooling_output_shape``.
"""

import numba
import numpy as np

from ..._dtype import LEGACY_NAME
from .convert import compute_dtype, is_floating
from .threads import parallel_njit

_I64 = np.dtype(np.int64)
_SCALAR_NAME = {d.np.name: name for d, name in LEGACY_NAME.items()}  # "Half", as torch's messages


# --- the loops -----------------------------------------------------------------------------------------


@parallel_njit
def _max_pool(x, kh, kw, sh, sw, ph, pw, dh, dw, out, idx):  # pragma: no cover - compiled
    planes, h, w = x.shape
    _, oh, ow = out.shape
    for p in numba.prange(planes):
        for y in range(oh):
            y0 = y * sh - ph
            while y0 < 0:
                y0 += dh
            y1 = min(y * sh - ph + (kh - 1) * dh + 1, h)
            for xo in range(ow):
                x0 = xo * sw - pw
                while x0 < 0:
                    x0 += dw
                x1 = min(xo * sw - pw + (kw - 1) * dw + 1, w)
                best_i = y0 * w + x0
                best = x[p, min(y0, h - 1), min(x0, w - 1)]
                first = True
                for iy in range(y0, y1, dh):
                    for ix in range(x0, x1, dw):
                        v = x[p, iy, ix]
                        # the first element, a larger one, or a NaN (which then propagates), as ATen
                        if first or v > best or v != v:
                            best = v
                            best_i = iy * w + ix
                            first = False
                out[p, y, xo] = best
                idx[p, y, xo] = best_i


@parallel_njit
def _max_pool_2x2(x, out, idx):  # pragma: no cover - compiled
    """``_max_pool`` for 2x2 windows at stride 2 without padding (the usual halving), every window
    inside the input: the same comparisons, in loops the compiler unrolls (3x faster)."""
    planes, w = x.shape[0], x.shape[2]
    _, oh, ow = out.shape
    for p in numba.prange(planes):
        for y in range(oh):
            for xo in range(ow):
                y0, x0 = 2 * y, 2 * xo
                best = x[p, y0, x0]
                best_i = y0 * w + x0
                for iy in range(y0, y0 + 2):
                    for ix in range(x0, x0 + 2):
                        v = x[p, iy, ix]
                        if v > best or v != v:  # a larger one, or a NaN (which then propagates), as ATen
                            best = v
                            best_i = iy * w + ix
                out[p, y, xo] = best
                idx[p, y, xo] = best_i


@parallel_njit
def _max_pool_backward(grad, idx, out):  # pragma: no cover - compiled
    planes, oh, ow = grad.shape
    w = out.shape[2]
    for p in numba.prange(planes):
        for y in range(oh):
            for xo in range(ow):
                i = idx[p, y, xo]
                out[p, i // w, i % w] += grad[p, y, xo]


def avg_window(y, xo, kh, kw, sh, sw, ph, pw, h, w, count_include_pad, divisor):  # pragma: no cover
    """(y0, y1, x0, x1, divide_factor) of one output position, as ATen's avg_pool2d.

    Plain Python, compiled for each target: here for the CPU loops, by kernels/cuda/pool.py as a
    device function. Conditional expressions rather than builtin min/max, which Numba cannot
    compile for a GPU.
    """
    y0 = y * sh - ph
    x0 = xo * sw - pw
    y1 = y0 + kh if y0 + kh < h + ph else h + ph
    x1 = x0 + kw if x0 + kw < w + pw else w + pw
    pool_size = (y1 - y0) * (x1 - x0)
    y0 = y0 if y0 > 0 else 0
    x0 = x0 if x0 > 0 else 0
    y1 = y1 if y1 < h else h
    x1 = x1 if x1 < w else w
    if divisor != 0:
        factor = divisor
    elif count_include_pad:
        factor = pool_size
    else:
        factor = (y1 - y0) * (x1 - x0)
    return y0, y1, x0, x1, factor


_avg_window = numba.njit(cache=True, error_model="numpy")(avg_window)


@parallel_njit
def _avg_pool(x, kh, kw, sh, sw, ph, pw, count_include_pad, divisor, out):  # pragma: no cover - compiled
    planes, h, w = x.shape
    _, oh, ow = out.shape
    for p in numba.prange(planes):
        for y in range(oh):
            for xo in range(ow):
                y0, y1, x0, x1, factor = _avg_window(
                    y, xo, kh, kw, sh, sw, ph, pw, h, w, count_include_pad, divisor
                )
                if y0 >= y1 or x0 >= x1:
                    out[p, y, xo] = 0
                    continue
                s = 0.0
                for iy in range(y0, y1):
                    for ix in range(x0, x1):
                        s += x[p, iy, ix]
                out[p, y, xo] = s / factor


@parallel_njit
def _avg_pool_backward(grad, kh, kw, sh, sw, ph, pw, count_include_pad, divisor, out):  # pragma: no cover
    planes, h, w = out.shape
    _, oh, ow = grad.shape
    for p in numba.prange(planes):
        for y in range(oh):
            for xo in range(ow):
                y0, y1, x0, x1, factor = _avg_window(
                    y, xo, kh, kw, sh, sw, ph, pw, h, w, count_include_pad, divisor
                )
                if y0 >= y1 or x0 >= x1:
                    continue
                g = grad[p, y, xo] / factor
                for iy in range(y0, y1):
                    for ix in range(x0, x1):
                        out[p, iy, ix] += g


@parallel_njit
def _adaptive_avg(x, out):  # pragma: no cover - compiled
    planes, h, w = x.shape
    _, oh, ow = out.shape
    for p in numba.prange(planes):
        for y in range(oh):
            y0 = (y * h) // oh
            y1 = -((-(y + 1) * h) // oh)
            for xo in range(ow):
                x0 = (xo * w) // ow
                x1 = -((-(xo + 1) * w) // ow)
                s = 0.0
                for iy in range(y0, y1):
                    for ix in range(x0, x1):
                        s += x[p, iy, ix]
                out[p, y, xo] = s / ((y1 - y0) * (x1 - x0))


@parallel_njit
def _adaptive_avg_backward(grad, out):  # pragma: no cover - compiled
    planes, h, w = out.shape
    _, oh, ow = grad.shape
    for p in numba.prange(planes):
        for y in range(oh):
            y0 = (y * h) // oh
            y1 = -((-(y + 1) * h) // oh)
            for xo in range(ow):
                x0 = (xo * w) // ow
                x1 = -((-(xo + 1) * w) // ow)
                g = grad[p, y, xo] / ((y1 - y0) * (x1 - x0))
                for iy in range(y0, y1):
                    for ix in range(x0, x1):
                        out[p, iy, ix] += g


# --- argument handling ---------------------------------------------------------------------------------


def _pair(name, op, value, allow_empty=False, verb="must either be"):
    value = [value] if isinstance(value, (int, np.integer)) else list(value)
    if allow_empty and not value:
        return None
    if len(value) not in (1, 2):
        what = "omitted, a single int" if allow_empty else "a single int"
        raise RuntimeError(f"{op}: {name} {verb} {what}, or a tuple of two ints")
    return (value[0], value[0]) if len(value) == 1 else tuple(value)


def _output_shape(size, k, pad, stride, dilation, ceil_mode):
    """ATen's pooling_output_shape: the output length along one axis, with its checks."""
    if stride == 0:
        raise RuntimeError("stride should not be zero")
    if pad < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {pad}")
    if pad > ((k - 1) * dilation + 1) // 2:
        raise RuntimeError(
            f"pad should be at most half of effective kernel size, but got pad={pad}, kernel_size={k} and "
            f"dilation={dilation}"
        )
    span = size + 2 * pad - dilation * (k - 1) - 1 + (stride - 1 if ceil_mode else 0)
    out = span // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def _shape_check(x, kernel, stride, padding, dilation, out_hw):
    (kh, kw), (sh, sw), (dh, dw) = kernel, stride, dilation
    if kh <= 0 or kw <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kh} kW: {kw}")
    if sh <= 0 or sw <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {sh} dW: {sw}")
    if dh <= 0 or dw <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dh} dilationW: {dw}")
    s = x.shape
    ok = s[-2] != 0 and s[-1] != 0 and s[-3] != 0
    if not ok:
        raise RuntimeError(
            "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:"
            f"[{', '.join(map(str, s))}]"
        )
    if out_hw[0] < 1 or out_hw[1] < 1:
        raise RuntimeError(
            f"Given input size: ({s[-3]}x{s[-2]}x{s[-1]}). Calculated output size: "
            f"({s[-3]}x{out_hw[0]}x{out_hw[1]}). Output size is too small"
        )


def _grad_shape_check(grad_output, x, out_hw):
    """torch's check of a pooling backward's ``grad_output`` against the forward's output shape."""
    n = x.ndim
    for dim, size in ((n - 3, x.shape[-3]), (n - 2, out_hw[0]), (n - 1, out_hw[1])):
        if grad_output.ndim != n or grad_output.shape[dim] != size:
            got = grad_output.shape[dim] if dim < grad_output.ndim else None
            raise RuntimeError(
                f"Expected a tensor of dimension {n} and tensor.size[{dim}] == {size} but got: dimension "
                f"{grad_output.ndim} and tensor.size[{dim}] = {got}"
            )


def _planes(x):
    """(N*C, H, W) contiguous, in the compute dtype (float32 for half)."""
    ct = compute_dtype(x.dtype)
    return np.ascontiguousarray(x.astype(ct, copy=False)).reshape(-1, x.shape[-2], x.shape[-1])


def max_geometry(self, kernel_size, stride, padding, dilation, ceil_mode):
    k = _pair("kernel_size", "max_pool2d", kernel_size)
    s = _pair("stride", "max_pool2d", stride, allow_empty=True) or k
    p = _pair("padding", "max_pool2d", padding)
    d = _pair("dilation", "max_pool2d", dilation, verb="must be either")
    if self.ndim not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    out = tuple(_output_shape(self.shape[-2 + i], k[i], p[i], s[i], d[i], ceil_mode) for i in range(2))
    _shape_check(self, k, s, p, d, out)
    return k, s, p, d, out


def max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode):
    """``(values, indices)`` of 2-d max pooling, as ``torch.nn.functional.max_pool2d_with_indices``.

    >>> max_pool2d_with_indices(np.arange(16.0).reshape(1, 4, 4), [2], [], [0], [1], False)[1]
    array([[[ 5,  7],
            [13, 15]]])
    """
    if self.dtype.kind == "b":
        raise RuntimeError("\"max_pool2d\" not implemented for 'Bool'")
    (kh, kw), (sh, sw), (ph, pw), (dh, dw), (oh, ow) = max_geometry(
        self, kernel_size, stride, padding, dilation, ceil_mode
    )
    x = _planes(self)
    out = np.empty((x.shape[0], oh, ow), dtype=x.dtype)
    idx = np.empty((x.shape[0], oh, ow), dtype=_I64)
    if (
        out.size
        and (kh, kw, sh, sw, ph, pw, dh, dw) == (2, 2, 2, 2, 0, 0, 1, 1)
        and 2 * oh <= x.shape[1]
        and 2 * ow <= x.shape[2]
    ):
        _max_pool_2x2(x, out, idx)
    elif out.size:
        _max_pool(x, kh, kw, sh, sw, ph, pw, dh, dw, out, idx)
    shape = self.shape[:-2] + (oh, ow)
    return out.astype(self.dtype, copy=False).reshape(shape), idx.reshape(shape)


def max_pool2d_with_indices_backward(
    grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices
):
    """The gradient of max pooling: each output's gradient added at its index in the input."""
    _grad_shape_check(
        grad_output, self, max_geometry(self, kernel_size, stride, padding, dilation, ceil_mode)[4]
    )
    g = _planes(grad_output)
    out = np.zeros((g.shape[0],) + self.shape[-2:], dtype=g.dtype)
    if g.size:
        _max_pool_backward(g, np.ascontiguousarray(indices).reshape(g.shape), out)
    return out.astype(self.dtype, copy=False).reshape(self.shape)


def avg_geometry(self, kernel_size, stride, padding, ceil_mode, divisor_override):
    k = _pair("kernel_size", "avg_pool2d", kernel_size)
    s = _pair("stride", "avg_pool2d", stride, allow_empty=True) or k
    p = _pair("padding", "avg_pool2d", padding)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    if self.ndim < 3:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-max(self.ndim, 1)}, {max(self.ndim, 1) - 1}], "
            "but got -3)"
        )
    if self.ndim > 4:
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    out = tuple(_output_shape(self.shape[-2 + i], k[i], p[i], s[i], 1, ceil_mode) for i in range(2))
    _shape_check(self, k, s, p, (1, 1), out)
    return k, s, p, out


def avg_pool2d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """2-d average pooling, as ``torch.nn.functional.avg_pool2d``.

    >>> avg_pool2d(np.arange(16.0).reshape(1, 4, 4), [2], [], [0], False, True, None)
    array([[[ 2.5,  4.5],
            [10.5, 12.5]]])
    """
    if self.dtype.kind == "b":
        raise RuntimeError("\"avg_pool2d\" not implemented for 'Bool'")
    (kh, kw), (sh, sw), (ph, pw), (oh, ow) = avg_geometry(self, kernel_size, stride, padding, ceil_mode,
                                                           divisor_override)  # fmt: skip
    x = _planes(self)
    out = np.empty((x.shape[0], oh, ow), dtype=x.dtype if x.dtype.kind == "f" else np.float64)
    if out.size:
        _avg_pool(x, kh, kw, sh, sw, ph, pw, count_include_pad, divisor_override or 0, out)
    if not is_floating(self.dtype):
        out = np.trunc(out)  # integer division truncates, as ATen's integral kernel
    return out.astype(self.dtype).reshape(self.shape[:-2] + (oh, ow))


def avg_pool2d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                        divisor_override):  # fmt: skip
    """The gradient of ``avg_pool2d``: each output's gradient spread evenly over its window."""
    (kh, kw), (sh, sw), (ph, pw), out_hw = avg_geometry(
        self, kernel_size, stride, padding, ceil_mode, divisor_override
    )
    _grad_shape_check(grad_output, self, out_hw)
    g = _planes(grad_output)
    out = np.zeros((g.shape[0],) + self.shape[-2:], dtype=g.dtype)
    if g.size:
        _avg_pool_backward(g, kh, kw, sh, sw, ph, pw, count_include_pad, divisor_override or 0, out)
    return out.astype(self.dtype, copy=False).reshape(self.shape)


def adaptive_check(self, output_size):
    if self.ndim not in (3, 4):
        raise RuntimeError(
            f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [{', '.join(map(str, self.shape))}]"
        )
    for i in range(1, self.ndim):
        if self.shape[i] == 0:
            raise RuntimeError(
                "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input "
                f"has sizes [{', '.join(map(str, self.shape))}] with dimension {i} being empty"
            )
    if len(output_size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if output_size[0] < 0 or output_size[1] < 0:
        raise RuntimeError(
            "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received "
            f"{{{output_size[0]}, {output_size[1]}}}"
        )
    if not is_floating(self.dtype):
        raise NotImplementedError(
            f"\"adaptive_avg_pool2d\" not implemented for '{_SCALAR_NAME.get(self.dtype.name, self.dtype.name)}'"
        )


def adaptive_avg_pool2d(self, output_size):
    """Average pooling to a given (H, W): output cell i covers input rows floor(i*H/oh) .. ceil((i+1)*H/oh).

    >>> adaptive_avg_pool2d(np.arange(16.0).reshape(1, 4, 4), [1, 2])
    array([[[6.5, 8.5]]])
    """
    output_size = list(output_size)
    adaptive_check(self, output_size)
    oh, ow = output_size
    x = _planes(self)
    out = np.empty((x.shape[0], oh, ow), dtype=x.dtype)
    if out.size:
        _adaptive_avg(x, out)
    return out.astype(self.dtype, copy=False).reshape(self.shape[:-2] + (oh, ow))


def adaptive_backward_check(grad_output, self):
    if grad_output.ndim != self.ndim:
        raise RuntimeError(
            f"adaptive_avg_pool2d_backward(): Expected grad_output to have the same dims as input, but got "
            f"{grad_output.ndim} and {self.ndim}"
        )


def adaptive_avg_pool2d_backward(grad_output, self):
    """The gradient of ``adaptive_avg_pool2d`` (its output size is ``grad_output``'s last two sizes)."""
    adaptive_backward_check(grad_output, self)
    g = _planes(grad_output)
    out = np.zeros((g.shape[0],) + self.shape[-2:], dtype=g.dtype)
    if g.size:
        _adaptive_avg_backward(g, out)
    return out.astype(self.dtype, copy=False).reshape(self.shape)
