"""Convolution over device arrays: im2col / col2im as numba.cuda kernels, the products in linalg's.

The same algorithm, layout, checks and dtype rules as ``kernels/cpu/conv.py`` (whose checks and
geometry are shared): every convolution is 2-d (a 1-d one gets a height-1 axis, as a zero stride),
the input is unfolded into ``cols[(c, i, j), (n, y, x)]`` with the batch folded into the columns,
and each group's weight rows multiply them in one batched product (``bmm``-shaped, over the groups)
computed by ``kernels/cuda/linalg.py``'s ``batched_matmul``. Transposes and group splits are views with
strides, which that product reads directly; the permutes between ``(N, C, L)`` and ``(C, N*L)`` are
``copy.gather``, which also casts to the compute dtype.

- im2col: one thread per element of ``cols`` (zero in the padding);
- col2im: one thread per image element, summing the columns that land on it, so no atomics.

float16 is computed in float32; integers stay in their dtype with int64 sums, wrapped when stored,
as the CPU's NumPy integer arithmetic wraps.
"""

import functools

import numpy as np
from numba import cuda

from ..cpu.conv import check_dtypes, check_output, check_shapes, conv_geometry
from ..cpu.convert import compute_dtype
from . import memory
from .copy import contiguous_cast, gather, launch
from .linalg import batched_matmul, wrap_to

_I64 = np.dtype(np.int64)


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    """N-d convolution (1-d and 2-d), or its transpose, of device arrays, as ``torch.convolution``."""
    check_dtypes(input, weight, bias)
    g, out_spatial, (stride, padding, dilation, output_padding) = conv_geometry(
        input, weight, stride, padding, dilation, transposed, output_padding, groups
    )
    check_shapes(input, weight, bias, padding, dilation, transposed, groups)
    check_output(input, out_spatial, transposed, stride, dilation, output_padding)
    ct = compute_dtype(input.dtype)
    n, o = input.shape[0], weight.shape[1] * groups if transposed else weight.shape[0]
    shape = (n, o, *out_spatial)
    if not transposed:
        cols = _unfold(_image(input, ct), g)  # (C*k, N*L)
        out = batched_matmul(
            _weight_groups(weight, ct, groups), _split_rows(cols, groups), ct
        )  # (G, Og, N*L)
        out = _rows(out)  # (O, N*L)
        if bias is not None:
            _add_bias(out, bias, 1, o, out.shape[1])
        return _unfolded(out, n, shape, input.dtype)
    wt = _transposed(_weight_groups(weight, ct, groups))  # (G, Og*k, Cg)
    cols = _rows(batched_matmul(wt, _folded(input, ct, groups), ct))  # (O*k, N*L)
    out = _fold(cols, g, n, o)  # (N, O, H, W)
    if bias is not None:
        _add_bias(out, bias, n, o, _size(g.image))
    return _cast(out, shape, input.dtype)


def convolution_backward(
    grad_output, input, weight, bias_sizes, stride, padding, dilation, transposed, output_padding, groups,
    output_mask,
):  # fmt: skip
    """``(grad_input, grad_weight, grad_bias)`` of ``convolution``; an output left out of
    ``output_mask`` is an empty array (PyTorch's undefined tensor)."""
    check_dtypes(input, weight, None)
    g, _, _ = conv_geometry(input, weight, stride, padding, dilation, transposed, output_padding, groups)
    dt, ct = input.dtype, compute_dtype(input.dtype)
    n = input.shape[0]
    grad_input = grad_weight = grad_bias = memory.empty((0,), dt)
    if not transposed:
        gof = _folded(grad_output, ct, groups)  # (G, Og, N*L)
        if output_mask[0]:
            cols = _rows(
                batched_matmul(_transposed(_weight_groups(weight, ct, groups)), gof, ct)
            )  # (C*k, N*L)
            grad_input = _cast(_fold(cols, g, n, input.shape[1]), input.shape, dt)
        if output_mask[1]:
            cols = _split_rows(_unfold(_image(input, ct), g), groups)  # (G, Cg*k, N*L)
            grad_weight = _cast(batched_matmul(gof, _transposed(cols), ct), weight.shape, dt)
        if output_mask[2]:
            grad_bias = _cast(_row_sums(gof), (grad_output.shape[1],), dt)
    else:
        if output_mask[0] or output_mask[1]:
            cols = _split_rows(_unfold(_image(grad_output, ct), g), groups)  # (G, Og*k, N*L): the grad
        if output_mask[0]:
            rows = _rows(batched_matmul(_weight_groups(weight, ct, groups), cols, ct))  # (C, N*L)
            grad_input = _unfolded(rows, n, input.shape, dt)
        if output_mask[1]:
            grad_weight = _cast(
                batched_matmul(_folded(input, ct, groups), _transposed(cols), ct), weight.shape, dt
            )
        if output_mask[2]:
            grad_bias = _cast(_row_sums(_folded(grad_output, ct, 1)), (grad_output.shape[1],), dt)
    return grad_input, grad_weight, grad_bias


# --- layouts: views and gathers ----------------------------------------------------------------------


def _size(shape) -> int:
    out = 1
    for s in shape:
        out *= int(s)
    return out


def _bytes(strides, dt):
    return tuple(s * dt.itemsize for s in strides)


def _view(a, shape):
    """The C-contiguous device array ``a`` with a new shape of the same size."""
    return memory.raw_view(a, a.dtype, shape, _bytes(memory.c_strides(shape), a.dtype), 0)


def _cast(a, shape, dt):
    """The C-contiguous ``a`` reshaped to ``shape`` and cast to ``dt`` (a copy unless it already is)."""
    return contiguous_cast(_view(a, tuple(shape)), tuple(shape), dt)


def _image(a, dt):
    """The (N, C, L) or (N, C, H, W) array ``a`` as a C-contiguous (N, C, H, W) array of ``dt``."""
    strides = memory.span(a)[1]
    if a.ndim == 3:
        return gather(a, (a.shape[0], a.shape[1], 1, a.shape[2]), (strides[0], strides[1], 0, strides[2]), dt)
    return gather(a, a.shape, strides, dt)


def _folded(a, dt, groups):
    """(N, C, ...) as a C-contiguous (G, C/G, N*L) array of ``dt``: the batch folded into the columns."""
    strides = memory.span(a)[1]
    n, c = a.shape[:2]
    rows = gather(a, (c, n, *a.shape[2:]), (strides[1], strides[0], *strides[2:]), dt)
    return _view(rows, (groups, c // groups, n * _size(a.shape[2:])))


def _unfolded(a, n, shape, dt):
    """The inverse of ``_folded``: the C-contiguous (C, N*L) ``a`` as a C-contiguous array of ``shape``
    (N, C, ...) and ``dt``."""
    c, rest = a.shape[0], _size(shape[2:])
    return _view(gather(a, (n, c, rest), (rest, n * rest, 1), dt), tuple(shape))


def _rows(a):
    """A C-contiguous (G, R, L) array as (G*R, L)."""
    return _view(a, (a.shape[0] * a.shape[1], a.shape[2]))


def _split_rows(a, groups):
    """A C-contiguous (R, L) array as (G, R/G, L)."""
    return _view(a, (groups, a.shape[0] // groups, a.shape[1]))


def _transposed(a):
    """The (G, R, L) array ``a`` as a (G, L, R) view."""
    s = a.strides
    return memory.raw_view(a, a.dtype, (a.shape[0], a.shape[2], a.shape[1]), (s[0], s[2], s[1]), 0)


def _weight_groups(w, dt, groups):
    """The weight (O, Cg, *k) as a C-contiguous (G, O/G, Cg*k) array of ``dt``: one matrix per group."""
    w = contiguous_cast(w, w.shape, dt)
    return _view(w, (groups, w.shape[0] // groups, w.shape[1] * _size(w.shape[2:])))


def _row_sums(a):
    """The sums of the rows of the (G, R, L) array ``a``, as a (G, R, 1) array: ``a`` times a column
    of ones (a zero-stride view of one element), through the product's row-dot kernel."""
    one = memory.from_host(np.ones(1, a.dtype))
    z, _, k = a.shape
    return batched_matmul(a, memory.raw_view(one, a.dtype, (z, k, 1), (0, 0, 0), 0), a.dtype)


# --- the unfolding kernels -----------------------------------------------------------------------


def _unfold(x, g):
    """cols (C*kh*kw, N*oh*ow) of the C-contiguous image ``x`` (N, C, H, W)."""
    n, c, h, w = x.shape
    kh, kw = g.kernel
    cols = memory.empty((c * kh * kw, n * g.grid[0] * g.grid[1]), x.dtype)
    if x.size:
        launch(_im2col, cols.size, memory.flat(x), n, c, h, w, *g.args(), memory.flat(cols))
    return cols


def _fold(cols, g, n, c):
    """The image (N, C, H, W) whose unfolding's adjoint is the C-contiguous ``cols``."""
    out = memory.empty((n, c, *g.image), cols.dtype)
    if out.size:
        kernel = _col2im_kernel(cols.dtype)
        launch(kernel, out.size, memory.flat(cols), n, c, *g.image, *g.args(), memory.flat(out))
    return out


def _add_bias(out, bias, a, o, b):
    """``out[a, o, b] += bias[o]`` over the C-contiguous ``out`` seen as (A, O, B)."""
    flat, (step,) = memory.span(bias)
    launch(_bias_kernel(out.dtype), a * o * b, memory.flat(out), flat, step, o, b)


@cuda.jit
def _im2col(x, n_batch, chans, h, w, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow, cols):  # pragma: no cover
    t = cuda.grid(1)
    grid = oh * ow
    width = n_batch * grid
    if t < chans * kh * kw * width:
        row = t // width
        col = t - row * width
        c = row // (kh * kw)
        ij = row - c * (kh * kw)
        i = ij // kw
        j = ij - i * kw
        nn = col // grid
        yx = col - nn * grid
        y = yx // ow
        xo = yx - y * ow
        iy = y * sh - ph + i * dh
        ix = xo * sw - pw + j * dw
        if iy >= 0 and iy < h and ix >= 0 and ix < w:
            cols[t] = x[((nn * chans + c) * h + iy) * w + ix]
        else:
            cols[t] = 0


def _acc(dt):
    """The sum's dtype and its conversion: int64 for integers (wrapped when stored), else ``dt``."""
    acc = _I64 if dt.kind in "iu" else dt
    return acc.type(0), acc.type, wrap_to(dt)


@functools.cache
def _col2im_kernel(dt):
    zero, conv, wrap = _acc(dt)

    @cuda.jit
    def col2im(cols, n_batch, chans, h, w, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow, out):  # pragma: no cover
        t = cuda.grid(1)
        if t < n_batch * chans * h * w:
            ix = t % w
            r = t // w
            iy = r % h
            r = r // h
            c = r % chans
            nn = r // chans
            width = n_batch * oh * ow
            base = nn * oh * ow
            s = zero
            for i in range(kh):
                ty = iy + ph - i * dh
                if ty >= 0 and ty % sh == 0 and ty // sh < oh:
                    y = ty // sh
                    for j in range(kw):
                        tx = ix + pw - j * dw
                        if tx >= 0 and tx % sw == 0 and tx // sw < ow:
                            row = (c * kh + i) * kw + j
                            s += conv(cols[row * width + base + y * ow + tx // sw])
            out[t] = wrap(s)

    return col2im


@functools.cache
def _bias_kernel(dt):
    _, conv, wrap = _acc(dt)

    @cuda.jit
    def add_bias(out, bias, step, o, b):  # pragma: no cover
        t = cuda.grid(1)
        if t < out.shape[0]:
            c = (t // b) % o
            out[t] = wrap(conv(out[t]) + conv(bias[c * step]))

    return add_bias
