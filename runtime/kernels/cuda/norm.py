"""Fused normalization kernels over device arrays (numba.cuda): native_batch_norm, native_layer_norm
and their backwards.

Same signatures, checks (imported from ``kernels/cpu/norm.py``), dtype rules and results as the CPU
kernels: the statistics are accumulated in float64 (two passes, the mean then the variance), half is
computed in float32 and cast back. Operands are gathered by the copy kernel into C-contiguous arrays
in the compute dtype. One block then handles one channel (batch norm) or one row (layer norm): its
threads stride through the elements, combine their partial sums in shared memory (a tree, halving),
and write the elementwise results. Layer norm's grad_weight and grad_bias are column sums, one block
per column. Running statistics are updated in place (through a contiguous float64 copy when needed).
"""

import math

import numpy as np
from numba import cuda

from ..cpu.convert import compute_dtype
from ..cpu.norm import batch_norm_checks, normalized_shape_checks
from . import memory
from .copy import contiguous_cast, copy_into, launch
from .reduce import MAX_THREADS, block_threads
from .scalar import sqrt

_F64 = np.dtype(np.float64)
_NAN = math.nan


# --- block-wide sum -----------------------------------------------------------------------------
# As softmax.py's: each call gets its own shared array (no barrier needed to reuse one). Defined
# here, not imported: the simulator swaps a device function's module ``cuda`` per call, which races
# when the calling kernel's threads come from another module.


@cuda.jit(device=True)
def _block_sum(partial, t, v):
    """The sum of the block's ``v`` (``partial``: a shared array of at least blockDim.x elements)."""
    partial[t] = v
    cuda.syncthreads()
    step = cuda.blockDim.x // 2
    while step > 0:
        if t < step:
            partial[t] += partial[t + step]
        cuda.syncthreads()
        step //= 2
    return partial[0]


# --- kernels ------------------------------------------------------------------------------------


@cuda.jit
def _batch_norm_channels(x, nb, c, s, w, has_w, b, has_b, rmean, rvar, training, eps, out, mean, var):
    """Block ``k`` normalizes channel ``k`` of the flat ``(nb, c, s)`` ``x``; its statistics go to
    ``mean[k]`` and ``var[k]`` (float64), from the batch or from ``rmean``/``rvar``."""
    k = cuda.blockIdx.x
    t = cuda.threadIdx.x
    step = cuda.blockDim.x
    count = nb * s
    if training:
        acc = 0.0
        e = t
        while e < count:
            acc += x[((e // s) * c + k) * s + e % s]
            e += step
        mu = _block_sum(cuda.shared.array(MAX_THREADS, np.float64), t, acc) / count
        acc = 0.0
        e = t
        while e < count:
            d = x[((e // s) * c + k) * s + e % s] - mu
            acc += d * d
            e += step
        v = _block_sum(cuda.shared.array(MAX_THREADS, np.float64), t, acc) / count
    else:
        mu = rmean[k] * 1.0
        v = rvar[k] * 1.0
    if t == 0:
        mean[k] = mu
        var[k] = v
    scale = 1.0 / sqrt(v + eps)
    if has_w:
        scale = scale * w[k]
    shift = -mu * scale
    if has_b:
        shift = shift + b[k]
    e = t
    while e < count:
        i = ((e // s) * c + k) * s + e % s
        out[i] = x[i] * scale + shift
        e += step


@cuda.jit
def _running_update(rm, rv, mean, var, momentum, n, c, new_rm, new_rv):
    """The new running mean and (unbiased) variance of each channel, as the CPU kernel computes them."""
    k = cuda.grid(1)
    if k < c:
        if rm.size:
            new_rm[k] = momentum * mean[k] + (1 - momentum) * rm[k]
        if rv.size:
            unbiased = var[k] * n / (n - 1) if n > 1 else _NAN
            new_rv[k] = momentum * unbiased + (1 - momentum) * rv[k]


@cuda.jit
def _invstd(var, eps, out):
    k = cuda.grid(1)
    if k < var.size:
        out[k] = 1.0 / sqrt(var[k] + eps)


@cuda.jit
def _layer_norm_rows(x, n, w, has_w, b, has_b, eps, out, mean, rstd):
    """Block ``i`` normalizes row ``i`` of the flat ``(m, n)`` ``x``."""
    i = cuda.blockIdx.x
    t = cuda.threadIdx.x
    step = cuda.blockDim.x
    base = i * n
    acc = 0.0
    j = t
    while j < n:
        acc += x[base + j]
        j += step
    mu = _block_sum(cuda.shared.array(MAX_THREADS, np.float64), t, acc) / n
    acc = 0.0
    j = t
    while j < n:
        d = x[base + j] - mu
        acc += d * d
        j += step
    v = _block_sum(cuda.shared.array(MAX_THREADS, np.float64), t, acc) / n
    r = 1.0 / sqrt(v + eps)
    if t == 0:
        mean[i] = mu
        rstd[i] = r
    j = t
    while j < n:
        y = (x[base + j] - mu) * r
        if has_w:
            y = y * w[j]
        if has_b:
            y = y + b[j]
        out[base + j] = y
        j += step


@cuda.jit
def _layer_norm_backward_rows(g, x, n, mean, rstd, w, has_w, dx, g_xhat):
    """Block ``i``: row ``i``'s grad_input and ``grad * xhat`` (the terms of grad_weight)."""
    i = cuda.blockIdx.x
    t = cuda.threadIdx.x
    step = cuda.blockDim.x
    base = i * n
    mu = mean[i]
    r = rstd[i]
    s_g = 0.0
    s_gx = 0.0
    j = t
    while j < n:
        xh = (x[base + j] - mu) * r
        gw = g[base + j] * w[j] if has_w else g[base + j] * 1.0
        s_g += gw
        s_gx += gw * xh
        g_xhat[base + j] = g[base + j] * xh
        j += step
    a = _block_sum(cuda.shared.array(MAX_THREADS, np.float64), t, s_g) / n
    cc = _block_sum(cuda.shared.array(MAX_THREADS, np.float64), t, s_gx) / n
    j = t
    while j < n:
        xh = (x[base + j] - mu) * r
        gw = g[base + j] * w[j] if has_w else g[base + j] * 1.0
        dx[base + j] = r * (gw - a - xh * cc)
        j += step


@cuda.jit
def _column_sums(x, m, n, out):
    """Block ``j``: the float64 sum of column ``j`` of the flat ``(m, n)`` ``x``."""
    j = cuda.blockIdx.x
    t = cuda.threadIdx.x
    acc = 0.0
    i = t
    while i < m:
        acc += x[i * n + j]
        i += cuda.blockDim.x
    total = _block_sum(cuda.shared.array(MAX_THREADS, np.float64), t, acc)
    if t == 0:
        out[j] = total


@cuda.jit
def _batch_norm_backward_channels(
    g, x, nb, c, s, w, has_w, mean, invstd, rv, training, eps, need_dx, dx, dw, db
):
    """Block ``k``: channel ``k``'s sums of grad and grad * xhat (grad_bias, grad_weight), then its
    grad_input when ``need_dx``; in eval the inverse deviation comes from ``rv`` (the running var)."""
    k = cuda.blockIdx.x
    t = cuda.threadIdx.x
    step = cuda.blockDim.x
    count = nb * s
    mu = mean[k] * 1.0
    inv = invstd[k] * 1.0 if training else 1.0 / sqrt(rv[k] * 1.0 + eps)
    s_g = 0.0
    s_gx = 0.0
    e = t
    while e < count:
        i = ((e // s) * c + k) * s + e % s
        s_g += g[i]
        s_gx += g[i] * (x[i] - mu) * inv
        e += step
    s_g = _block_sum(cuda.shared.array(MAX_THREADS, np.float64), t, s_g)
    s_gx = _block_sum(cuda.shared.array(MAX_THREADS, np.float64), t, s_gx)
    if t == 0:
        db[k] = s_g
        dw[k] = s_gx
    if need_dx:
        scale = inv * w[k] if has_w else inv
        a = s_g / count
        cc = s_gx / count
        e = t
        while e < count:
            i = ((e // s) * c + k) * s + e % s
            if training:
                dx[i] = scale * (g[i] - a - (x[i] - mu) * inv * cc)
            else:
                dx[i] = g[i] * scale
            e += step


# --- host side ----------------------------------------------------------------------------------


def _flat(a, n, dtype):
    """``a`` as a C-contiguous 1-d device array of its ``n`` elements in ``dtype`` (an empty stand-in
    when ``a`` is None), so kernels index it flat."""
    if a is None:
        return memory.empty((0,), dtype)
    if a.size != n:
        raise RuntimeError(f"expected a tensor of {n} elements, got shape {list(a.shape)}")
    return memory.flat(contiguous_cast(a, a.shape, dtype))


def _cast(a, shape, dtype):
    """The C-contiguous ``a`` (a 1-d or flat array) with ``shape``, cast to ``dtype``."""
    a = memory.raw_view(a, a.dtype, tuple(shape), memory.c_strides(tuple(shape), a.dtype.itemsize), 0)
    return contiguous_cast(a, a.shape, dtype)


def _full(n, value, dtype):
    return memory.from_host(np.full(n, value, dtype))


def _by_channel(input):
    """A batch norm's input as ``(shape, N, C, spatial size, N * spatial size, compute dtype, the
    input flat in that dtype)``."""
    shape = tuple(input.shape)
    nb, c = shape[0], shape[1]
    s = math.prod(shape[2:])
    dtype = compute_dtype(input.dtype)
    return shape, nb, c, s, nb * s, dtype, memory.flat(contiguous_cast(input, shape, dtype))


def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    """``(output, save_mean, save_invstd)`` of batch norm over every dim but dim 1 (as the CPU kernel:
    training updates the running statistics in place, eval saves empty statistics).

    >>> rm, rv = memory.from_host([0.0, 0.0]), memory.from_host([1.0, 1.0])
    >>> x = memory.from_host([[0.0, 1.0], [2.0, 5.0]])
    >>> out, mean, invstd = native_batch_norm(x, None, None, rm, rv, True, 0.5, 0.0)
    >>> memory.to_host(out), memory.to_host(mean), memory.to_host(invstd)
    (array([[-1., -1.],
           [ 1.,  1.]]), array([1., 3.]), array([1. , 0.5]))
    >>> memory.to_host(rm), memory.to_host(rv)
    (array([0.5, 1.5]), array([1.5, 4.5]))
    """
    batch_norm_checks(input, training, running_mean, running_var)
    shape, nb, c, s, count, dtype, x = _by_channel(input)
    out = memory.empty((nb * c * s,), dtype)
    mean = memory.empty((c,), _F64)
    var = memory.empty((c,), _F64)
    rmean = _flat(running_mean, c, _F64) if not training else memory.empty((0,), _F64)
    rvar = _flat(running_var, c, _F64) if not training else memory.empty((0,), _F64)
    if c:
        if count == 0 and training:
            mean, var = _full(c, np.nan, _F64), _full(c, np.nan, _F64)
        else:
            w, b = _flat(weight, c, dtype), _flat(bias, c, dtype)
            _batch_norm_channels[c, block_threads(count)](
                x, nb, c, s, w, weight is not None, b, bias is not None, rmean, rvar, bool(training),
                float(eps), out, mean, var,
            )  # fmt: skip
    out = _cast(out, shape, input.dtype)
    if not training:
        return out, memory.empty((0,), input.dtype), memory.empty((0,), input.dtype)
    invstd = memory.empty((c,), _F64)
    launch(_invstd, c, var, float(eps), invstd)
    if c and (running_mean is not None or running_var is not None):
        rm, rv = _flat(running_mean, c, _F64), _flat(running_var, c, _F64)
        new_rm, new_rv = memory.empty((rm.size,), _F64), memory.empty((rv.size,), _F64)
        launch(_running_update, c, rm, rv, mean, var, float(momentum), count, c, new_rm, new_rv)
        for stat, new in ((running_mean, new_rm), (running_var, new_rv)):
            if stat is not None:
                copy_into(stat, _cast(new, stat.shape, _F64))
    return out, _cast(mean, (c,), input.dtype), _cast(invstd, (c,), input.dtype)


def native_batch_norm_backward(grad_out, input, weight, running_mean, running_var, save_mean, save_invstd, train,
                               eps, output_mask):  # fmt: skip
    """``(grad_input, grad_weight, grad_bias)`` of native_batch_norm, as the CPU kernel's; grad_input's
    elementwise pass is skipped when ``output_mask[0]`` is false (it is then zeros).

    >>> x = memory.from_host([[0.0], [2.0]])
    >>> out, mean, invstd = native_batch_norm(x, None, None, None, None, True, 0.1, 0.0)
    >>> gx, gw, gb = native_batch_norm_backward(memory.from_host([[1.0], [0.0]]), x, None, None, None, mean,
    ...                                         invstd, True, 0.0, [True, True, True])
    >>> memory.to_host(gx).ravel(), memory.to_host(gw), memory.to_host(gb)
    (array([0., 0.]), array([-1.]), array([1.]))
    """
    shape, nb, c, s, count, dtype, x = _by_channel(input)
    g = memory.flat(contiguous_cast(grad_out, shape, dtype))
    if train:
        mean, invstd, rv = _flat(save_mean, c, _F64), _flat(save_invstd, c, _F64), memory.empty((0,), _F64)
    else:
        mean, invstd, rv = _flat(running_mean, c, _F64), memory.empty((0,), _F64), _flat(running_var, c, _F64)
    need_dx = bool(output_mask[0])
    dx = memory.empty((nb * c * s,), dtype)
    dw = memory.empty((c,), _F64)
    db = memory.empty((c,), _F64)
    if c and count:
        _batch_norm_backward_channels[c, block_threads(count)](
            g, x, nb, c, s, _flat(weight, c, dtype), weight is not None, mean, invstd, rv, bool(train), float(eps),
            need_dx, dx, dw, db,
        )  # fmt: skip
    else:
        copy_into(dw, _full(1, 0.0, _F64))
        copy_into(db, _full(1, 0.0, _F64))
    if not (need_dx and c and count):
        copy_into(dx, _full(1, 0.0, dtype))
    return _cast(dx, shape, input.dtype), _cast(dw, (c,), input.dtype), _cast(db, (c,), input.dtype)


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    """``(output, mean, rstd)`` of layer norm over the last ``len(normalized_shape)`` dims; ``mean`` and
    ``rstd`` keep those dims as size 1.

    >>> out, mean, rstd = native_layer_norm(memory.from_host([[1.0, 3.0], [2.0, 4.0]]), [2], None, None, 0.0)
    >>> memory.to_host(out), memory.to_host(mean).ravel(), rstd.shape
    (array([[-1.,  1.],
           [-1.,  1.]]), array([2., 3.]), (2, 1))
    """
    shape = tuple(input.shape)
    normalized_shape_checks(input, normalized_shape, (("weight", weight), ("bias", bias)))
    k = len(normalized_shape)
    lead = shape[: len(shape) - k]
    m = math.prod(lead)
    n = math.prod(shape[len(shape) - k :])
    dtype = compute_dtype(input.dtype)
    x = memory.flat(contiguous_cast(input, shape, dtype))
    out = memory.empty((m * n,), dtype)
    mean = memory.empty((m,), dtype)
    rstd = memory.empty((m,), dtype)
    if m and n:
        w, b = _flat(weight, n, dtype), _flat(bias, n, dtype)
        _layer_norm_rows[m, block_threads(n)](
            x, n, w, weight is not None, b, bias is not None, float(eps), out, mean, rstd
        )
    elif m:
        mean, rstd = _full(m, np.nan, dtype), _full(m, np.nan, dtype)
    stat_shape = tuple(lead) + (1,) * k
    return (
        _cast(out, shape, input.dtype),
        _cast(mean, stat_shape, input.dtype),
        _cast(rstd, stat_shape, input.dtype),
    )


def native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask):
    """``(grad_input, grad_weight, grad_bias)`` of native_layer_norm from its saved ``mean``/``rstd``, as
    the CPU kernel's; grad_weight and grad_bias (column sums in float64) are zeros when ``output_mask``
    leaves them out, so their pass is skipped.

    >>> x = memory.from_host([[1.0, 3.0], [2.0, 6.0]])
    >>> out, mean, rstd = native_layer_norm(x, [2], None, None, 0.0)
    >>> gx, gw, gb = native_layer_norm_backward(memory.from_host([[1.0, 0.0], [0.0, 0.0]]), x, [2], mean, rstd,
    ...                                         None, None, [True, True, True])
    >>> memory.to_host(gx), memory.to_host(gw), memory.to_host(gb)
    (array([[0., 0.],
           [0., 0.]]), array([-1.,  0.]), array([1., 0.]))
    """
    shape = tuple(input.shape)
    normalized_shape_checks(input, normalized_shape, (("weight", weight), ("bias", bias)))
    k = len(normalized_shape)
    m = math.prod(shape[: len(shape) - k])
    n = math.prod(shape[len(shape) - k :])
    dtype = compute_dtype(input.dtype)
    x = memory.flat(contiguous_cast(input, shape, dtype))
    g = memory.flat(contiguous_cast(grad_out, shape, dtype))
    dx = memory.empty((m * n,), dtype)
    g_xhat = memory.empty((m * n,), dtype)
    if m and n:
        _layer_norm_backward_rows[m, block_threads(n)](
            g, x, n, _flat(mean, m, _F64), _flat(rstd, m, _F64), _flat(weight, n, dtype), weight is not None, dx,
            g_xhat,
        )  # fmt: skip
    param_shape = tuple(normalized_shape)
    sums = []
    for keep, src in ((output_mask[1], g_xhat), (output_mask[2], g)):
        total = memory.empty((n,), _F64)
        if n:
            if keep and m:
                _column_sums[n, block_threads(m)](src, m, n, total)
            else:
                copy_into(total, _full(1, 0.0, _F64))
        sums.append(_cast(total, param_shape, input.dtype))
    return (_cast(dx, shape, input.dtype), *sums)
