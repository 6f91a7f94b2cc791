"""Convolution over host arrays: im2col / col2im in compiled Numba, the products in BLAS.

Every convolution here is 2-d (a 1-d one gets a height-1 axis). Forward of a convolution unfolds the
input into columns with the batch folded in, ``cols[(c, i, j), (n, y, x)] = input[n, c, y*s - p + i*d,
x*s - p + j*d]`` (zero in the padding), and multiplies each group's weight rows by them: one
``(Og, Cg*kh*kw) @ (Cg*kh*kw, N*L)`` product per group for the whole batch, where a per-image layout
would need N small ones (the digits CNN's 4x4 images made those 64 products of 16 columns each). Its
two backward products are the same unfolding used the other way: ``weight^T @ grad`` folded back with
col2im (grad_input) and ``grad @ cols^T`` (grad_weight, summed over the batch by the product itself).
A transposed convolution is the adjoint: its forward is the convolution's grad_input and its backward
the convolution's forward. The unfolding loops are compiled Numba (serial: see the note on
``_im2col``); the products are BLAS. float16 is computed in float32; integer dtypes go through
NumPy's integer matmul, as exact as PyTorch's.

Checks run in PyTorch's order (``check_shape_forward`` in ATen's ConvUtils.h) with its messages.
"""

import numba
import numpy as np

from ..._dtype import LEGACY_NAME, TYPEID_NAME
from ..._threads import blas_matmul
from .convert import compute_dtype, is_floating

_SCALAR_NAME = {d.np.name: name for d, name in LEGACY_NAME.items()}  # "Half", as torch's messages
_C_NAME = {d.np.name: name for d, name in TYPEID_NAME.items()}  # "c10::Half"


# --- the unfolding loops -------------------------------------------------------------------------------


@numba.njit(cache=True, error_model="numpy")
def _inside(j, dw, pw, sw, w, ow):  # pragma: no cover - compiled
    """The output columns ``lo <= xo < hi`` whose input column ``xo*sw - pw + j*dw`` lies in ``[0, w)``."""
    off = j * dw - pw
    lo = 0 if off >= 0 else (sw - 1 - off) // sw
    hi = (w - 1 - off) // sw + 1 if w - 1 - off >= 0 else 0
    return off, min(lo, ow), min(max(hi, lo), ow)


# Serial on purpose: the products around these loops run on OpenBLAS's threads, and on this project's
# 2-core machine a parallel (prange) unfolding measured slower end to end (conv2d forward+backward,
# N=64, 16->32 channels, 28x28: 37-53 ms against 28-32 ms serial, also with OMP_WAIT_POLICY=passive):
# each thread pool keeps spinning for a while after its work and takes the cores the other one needs.
@numba.njit(cache=True, error_model="numpy")
def _im2col(x, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow, cols):  # pragma: no cover - compiled
    n_batch, chans, h, w = x.shape
    grid = oh * ow
    for c in range(chans):
        for i in range(kh):
            for j in range(kw):
                row = (c * kh + i) * kw + j
                off, lo, hi = _inside(j, dw, pw, sw, w, ow)
                for n in range(n_batch):
                    for y in range(oh):
                        iy = y * sh - ph + i * dh
                        base = n * grid + y * ow
                        if iy < 0 or iy >= h:
                            for xo in range(ow):
                                cols[row, base + xo] = 0
                            continue
                        for xo in range(lo):
                            cols[row, base + xo] = 0
                        for xo in range(lo, hi):
                            cols[row, base + xo] = x[n, c, iy, xo * sw + off]
                        for xo in range(hi, ow):
                            cols[row, base + xo] = 0


@numba.njit(cache=True, error_model="numpy")
def _col2im(cols, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow, out):  # pragma: no cover - compiled
    n_batch, chans, h, w = out.shape
    grid = oh * ow
    for c in range(chans):
        for i in range(kh):
            for j in range(kw):
                row = (c * kh + i) * kw + j
                off, lo, hi = _inside(j, dw, pw, sw, w, ow)
                for n in range(n_batch):
                    for y in range(oh):
                        iy = y * sh - ph + i * dh
                        if iy < 0 or iy >= h:
                            continue
                        base = n * grid + y * ow
                        for xo in range(lo, hi):
                            out[n, c, iy, xo * sw + off] += cols[row, base + xo]


class _Geometry:
    """One 2-d convolution's sizes: ``image`` is the (H, W) side the kernel slides over (the input of a
    convolution, the output of a transposed one), ``grid`` the (oh, ow) of the kernel's positions."""

    __slots__ = ("dilation", "grid", "image", "kernel", "padding", "stride")

    def __init__(self, image, kernel, stride, padding, dilation, grid):
        self.image, self.kernel, self.grid = image, kernel, grid
        self.stride, self.padding, self.dilation = stride, padding, dilation

    def args(self):
        (kh, kw), (sh, sw), (ph, pw), (dh, dw), (oh, ow) = (
            self.kernel, self.stride, self.padding, self.dilation, self.grid)  # fmt: skip
        return kh, kw, sh, sw, ph, pw, dh, dw, oh, ow


def _unfold(x, g):
    """cols (C*kh*kw, N*oh*ow) of the image ``x`` (N, C, H, W): the batch folded into the columns, so
    one matrix product serves the whole batch."""
    n, c = x.shape[:2]
    kh, kw = g.kernel
    cols = np.empty((c * kh * kw, n * g.grid[0] * g.grid[1]), dtype=x.dtype)
    if cols.size:
        _im2col(x, *g.args(), cols)
    return cols


def _fold(cols, g, n, c):
    """The image (N, C, H, W) whose unfolding's adjoint is ``cols``: overlapping columns add up."""
    out = np.zeros((n, c) + tuple(g.image), dtype=cols.dtype)
    if out.size and cols.size:
        _col2im(np.ascontiguousarray(cols), *g.args(), out)
    return out


def _batch_folded(a, groups):
    """(N, C, ...) as (G, C/G, N*L): each group's channels as rows, the batch folded into the columns
    (a copy, as ``_unfold``'s layout)."""
    n, c = a.shape[:2]
    rest = _rest(a)
    return np.ascontiguousarray(a.reshape(n, c, rest).transpose(1, 0, 2)).reshape(
        groups, c // groups, n * rest
    )


def _batch_unfolded(a, n, spatial):
    """The inverse of ``_batch_folded``: rows of (N*L) columns as a C-contiguous (N, C, *spatial) array."""
    rest = _size(spatial)
    c = _size(a.shape[:-1])
    return np.ascontiguousarray(a.reshape(c, n, rest).transpose(1, 0, 2)).reshape((n, c) + tuple(spatial))


def _split_rows(a, groups):
    """(R, N*L) as (G, R/G, N*L): each group's rows (a view)."""
    return a.reshape(groups, a.shape[0] // groups, a.shape[1])


def _size(shape) -> int:
    """The product of ``shape`` (explicit: reshape's -1 fails on empty arrays)."""
    return int(np.prod(shape, dtype=np.int64))


def _rest(a) -> int:
    """The product of the sizes after the first two."""
    return _size(a.shape[2:])


def _weight_groups(w, groups):
    """The weight (O, Cg, kh, kw) as (G, O/G, Cg*kh*kw): one matrix per group."""
    return w.reshape(groups, w.shape[0] // groups, w.shape[1] * _rest(w))


# --- argument handling ---------------------------------------------------------------------------------


def _fmt(shape):
    return "[" + ", ".join(str(s) for s in shape) + "]"


def _expand(name, value, dims):
    value = [value] if isinstance(value, (int, np.integer)) else list(value)
    if len(value) == 1 and dims > 1:
        value = value * dims
    if len(value) != dims:
        raise RuntimeError(
            f"expected {name} to be a single integer value or a list of {dims} values to match the "
            f"convolution dimensions, but got {name}={_fmt(value)}"
        )
    return value


def check_dtypes(input, weight, bias):
    if input.dtype != weight.dtype:
        raise RuntimeError(
            f"expected scalar type {_SCALAR_NAME.get(input.dtype.name, input.dtype.name)} but found "
            f"{_SCALAR_NAME.get(weight.dtype.name, weight.dtype.name)}"
        )
    if bias is not None and bias.dtype != input.dtype:
        raise RuntimeError(
            f"Input type ({_C_NAME.get(input.dtype.name)}) and bias type ({_C_NAME.get(bias.dtype.name)}) "
            "should be the same"
        )
    if not (is_floating(input.dtype) or input.dtype.kind in "iu"):
        raise RuntimeError(f"\"slow_conv2d_cpu\" not implemented for '{_SCALAR_NAME[input.dtype.name]}'")


def _params(input, weight, stride, padding, dilation, transposed, output_padding, groups):
    """PyTorch's checks of a convolution's arguments; the per-dim lists, expanded."""
    dims = weight.ndim - 2
    if dims < 1:
        raise RuntimeError(f"weight should have at least three dimensions (got {weight.ndim})")
    stride = _expand("stride", stride, dims)
    padding = _expand("padding", padding, dims)
    dilation = _expand("dilation", dilation, dims)
    output_padding = _expand("output_padding", output_padding, dims) if transposed else [0] * dims
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(p < 0 for p in output_padding):
        raise RuntimeError("negative output_padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got {_fmt(dilation)}")
    if weight.ndim != input.ndim:
        raise RuntimeError(
            f"Expected {weight.ndim}-dimensional input for {weight.ndim}-dimensional weight {_fmt(weight.shape)}, "
            f"but got {input.ndim}-dimensional input of size {_fmt(input.shape)} instead"
        )
    if dims > 2:
        raise NotImplementedError("yaten's convolution supports 1-d and 2-d convolutions, not 3-d")
    if weight.shape[0] < groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got weight "
            f"of size {_fmt(weight.shape)} instead"
        )
    if weight.shape[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but got "
            f"weight of size [{_fmt(weight.shape)}] instead"
        )
    return stride, padding, dilation, output_padding


def check_shapes(input, weight, bias, padding, dilation, transposed, groups):
    k = weight.shape
    if not transposed:
        if input.shape[1] != k[1] * groups:
            raise RuntimeError(
                f"Given groups={groups}, weight of size {_fmt(k)}, expected input{_fmt(input.shape)} to have "
                f"{k[1] * groups} channels, but got {input.shape[1]} channels instead"
            )
        if bias is not None and (bias.ndim != 1 or bias.shape[0] != k[0]):
            raise RuntimeError(
                f"Given weight of size {_fmt(k)}, expected bias to be 1-dimensional with {k[0]} elements, but "
                f"got bias of size {_fmt(bias.shape)} instead"
            )
        padded = [input.shape[2 + i] + 2 * p for i, p in enumerate(padding)]
        kernel = [d * (k[2 + i] - 1) + 1 for i, d in enumerate(dilation)]
        if any(a < b for a, b in zip(padded, kernel)):
            raise RuntimeError(
                f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel size: "
                f"({' x '.join(map(str, kernel))}). Kernel size can't be greater than actual input size"
            )
    else:
        if input.shape[1] != k[0]:
            raise RuntimeError(
                f"Given transposed=1, weight of size {_fmt(k)}, expected input{_fmt(input.shape)} to have "
                f"{k[0]} channels, but got {input.shape[1]} channels instead"
            )
        if bias is not None and (bias.ndim != 1 or bias.shape[0] != k[1] * groups):
            raise RuntimeError(
                f"Given transposed=1, weight of size {_fmt(k)}, expected bias to be 1-dimensional with "
                f"{k[1] * groups} elements, but got bias of size {_fmt(bias.shape)} instead"
            )


def _output_size(input_shape, kernel, stride, padding, dilation, transposed, output_padding):
    if transposed:
        return [(n - 1) * s - 2 * p + d * (k - 1) + op + 1
                for n, k, s, p, d, op in zip(input_shape, kernel, stride, padding, dilation, output_padding)]  # fmt: skip
    return [(n + 2 * p - d * (k - 1) - 1) // s + 1
            for n, k, s, p, d in zip(input_shape, kernel, stride, padding, dilation)]  # fmt: skip


def _as_2d(a):
    """A 1-d convolution's (N, C, L) array as (N, C, 1, L); 2-d arrays unchanged (and contiguous)."""
    a = np.ascontiguousarray(a)
    return a[:, :, None, :] if a.ndim == 3 else a


def _pair(values, fill):
    return (fill, values[0]) if len(values) == 1 else tuple(values)


def conv_geometry(input, weight, stride, padding, dilation, transposed, output_padding, groups):
    """The checked arguments and the 2-d geometry, from shapes alone (so device arrays share it):
    ``(geometry, output spatial sizes, (stride, padding, dilation, output_padding))``."""
    stride, padding, dilation, output_padding = _params(
        input, weight, stride, padding, dilation, transposed, output_padding, groups
    )
    spatial = list(input.shape[2:])
    kernel = list(weight.shape[2:])
    out = _output_size(spatial, kernel, stride, padding, dilation, transposed, output_padding)
    image, grid = (out, spatial) if transposed else (spatial, out)
    g = _Geometry(_pair(image, 1), _pair(kernel, 1), _pair(stride, 1), _pair(padding, 0), _pair(dilation, 1),
                  _pair(grid, 1))  # fmt: skip
    return g, out, (stride, padding, dilation, output_padding)


def check_output(input, out_spatial, transposed, stride, dilation, output_padding):
    """PyTorch's checks of a convolution's output size (after ``check_shapes``)."""
    if transposed:
        for op, s, d in zip(output_padding, stride, dilation):
            if op >= s and op >= d:
                names = ("height", "width") if len(stride) == 2 else ("width",)
                sizes = " ".join(
                    f"{what}_{names[j]}: {v[j]}"
                    for what, v in (
                        ("output_padding", output_padding),
                        ("stride", stride),
                        ("dilation", dilation),
                    )
                    for j in range(len(stride))
                )
                raise RuntimeError(
                    f"output padding must be smaller than either stride or dilation, but got {sizes}"
                )
    if any(o <= 0 for o in out_spatial):
        raise RuntimeError(
            f"Given input size per channel: ({' x '.join(map(str, input.shape[2:]))}). Calculated output size "
            f"per channel: ({' x '.join(map(str, out_spatial))}). Output size is too small"
        )


def _prepare(input, weight, stride, padding, dilation, transposed, output_padding, groups):
    """The 2-d geometry and the arrays in their compute dtype, (N, C, H, W) and contiguous."""
    g, out, params = conv_geometry(
        input, weight, stride, padding, dilation, transposed, output_padding, groups
    )
    ct = compute_dtype(input.dtype)
    x = _as_2d(input.astype(ct, copy=False))
    w = _as_2d(weight.astype(ct, copy=False))
    return x, w, g, out, params


# --- the kernels ---------------------------------------------------------------------------------------


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    """N-d convolution (1-d and 2-d), or its transpose, as ``torch.convolution``.

    >>> convolution(np.ones((1, 1, 3, 3)), np.ones((1, 1, 2, 2)), None, [1], [0], [1], False, [0], 1)
    array([[[[4., 4.],
             [4., 4.]]]])
    """
    check_dtypes(input, weight, bias)
    x, w, g, out_spatial, (stride, padding, dilation, output_padding) = _prepare(
        input, weight, stride, padding, dilation, transposed, output_padding, groups
    )
    check_shapes(input, weight, bias, padding, dilation, transposed, groups)
    check_output(input, out_spatial, transposed, stride, dilation, output_padding)
    n = x.shape[0]
    if not transposed:
        cols = _unfold(x, g)  # (C*k, N*L)
        wg = _weight_groups(w, groups)  # (G, Og, Cg*k)
        out = blas_matmul(wg, _split_rows(cols, groups)).reshape(w.shape[0], cols.shape[1])  # (O, N*L)
    else:
        wt = _weight_groups(w, groups).transpose(0, 2, 1)  # (G, Og*k, Cg)
        cols = blas_matmul(wt, _batch_folded(x, groups))
        cols = cols.reshape(cols.shape[0] * cols.shape[1], cols.shape[2])  # (O*k, N*L)
        out = _fold(cols, g, n, groups * w.shape[1])
        out = _batch_folded(out, 1)[0]  # (O, N*L)
    if bias is not None:
        out += bias.astype(out.dtype).reshape(-1, 1)
    return _batch_unfolded(out.astype(input.dtype, copy=False), n, out_spatial)


def convolution_backward(
    grad_output, input, weight, bias_sizes, stride, padding, dilation, transposed, output_padding, groups,
    output_mask,
):  # fmt: skip
    """``(grad_input, grad_weight, grad_bias)`` of ``convolution``; an output left out of
    ``output_mask`` is an empty array (PyTorch's undefined tensor)."""
    check_dtypes(input, weight, None)
    x, w, g, _, _ = _prepare(input, weight, stride, padding, dilation, transposed, output_padding, groups)
    dt = input.dtype
    go = _as_2d(grad_output.astype(x.dtype, copy=False))
    n = x.shape[0]
    empty = np.empty((0,), dtype=dt)
    grad_input = grad_weight = grad_bias = empty
    gw_shape = weight.shape
    if not transposed:
        gof = _batch_folded(go, groups)  # (G, Og, N*L)
        if output_mask[0]:
            wg = _weight_groups(w, groups).transpose(0, 2, 1)  # (G, Cg*k, Og)
            cols = blas_matmul(wg, gof)
            cols = cols.reshape(cols.shape[0] * cols.shape[1], cols.shape[2])  # (C*k, N*L)
            grad_input = _fold(cols, g, n, x.shape[1]).reshape(input.shape)
        if output_mask[1]:
            cols = _split_rows(_unfold(x, g), groups)  # (G, Cg*k, N*L)
            grad_weight = blas_matmul(gof, cols.transpose(0, 2, 1)).reshape(gw_shape)
        if output_mask[2]:
            grad_bias = gof.sum(axis=-1).reshape(go.shape[1])
    else:
        if output_mask[0] or output_mask[1]:
            cols = _split_rows(_unfold(go, g), groups)  # (G, Og*k, N*L): the grad, unfolded
        if output_mask[0]:
            wg = _weight_groups(w, groups)  # (G, Cg, Og*k)
            grad_input = _batch_unfolded(blas_matmul(wg, cols), n, x.shape[2:]).reshape(input.shape)
        if output_mask[1]:
            grad_weight = blas_matmul(_batch_folded(x, groups), cols.transpose(0, 2, 1)).reshape(gw_shape)
        if output_mask[2]:
            grad_bias = go.sum(axis=(0, 2, 3))
    return tuple(np.ascontiguousarray(a.astype(dt, copy=False)) for a in (grad_input, grad_weight, grad_bias))
