"""Fused normalization kernels over host arrays: native_layer_norm and native_batch_norm.

One pass computes the statistics (accumulated in float64, two-pass mean then variance, as stable as
PyTorch's Welford) and a second writes the normalized output, in parallel over rows (layer norm) or
channels (batch norm) on Numba's threads (one thread for small inputs: kernels/cpu/threads.py). Half precision is computed in float32 and cast back.
"""

import math

import numpy as np
from numba import prange

from ..._dtype import BY_NP, LEGACY_NAME
from .convert import compute_dtype, is_floating
from .threads import parallel_njit

_F16 = np.dtype(np.float16)

# The statistics' sums may be reordered (so they vectorize: 4x faster on a batch norm of 64K elements)
# and multiply-adds fused, as PyTorch's vectorized kernels do; NaN and infinity keep IEEE behaviour.
_SUMS_IN_ANY_ORDER = {"reassoc", "contract"}


def _vector(t, n, dtype):
    """A contiguous 1-d array of ``n`` values of ``t`` (an empty stand-in when ``t`` is None)."""
    if t is None:
        return np.empty(0, dtype)
    return np.ascontiguousarray(t, dtype=dtype).reshape(n)


@parallel_njit(fastmath=_SUMS_IN_ANY_ORDER)
def _layer_norm_rows(x, w, b, eps, out, mean, rstd):  # pragma: no cover (compiled)
    m, n = x.shape
    for i in prange(m):
        s = 0.0
        for j in range(n):
            s += x[i, j]
        mu = s / n
        v = 0.0
        for j in range(n):
            d = x[i, j] - mu
            v += d * d
        r = 1.0 / math.sqrt(v / n + eps)
        mean[i] = mu
        rstd[i] = r
        for j in range(n):
            y = (x[i, j] - mu) * r
            if w.size:
                y = y * w[j]
            if b.size:
                y = y + b[j]
            out[i, j] = y


def normalized_shape_checks(input, normalized_shape, params, star="*, "):
    """``normalized_shape`` as a tuple, after PyTorch's checks of it, of the affine ``params`` and of the
    input's trailing dims (``star`` is how the message writes the leading ones: layer_norm and rms_norm
    differ). Arrays and tensors alike; shared with runtime/native and the cuda kernels."""
    shape = tuple(normalized_shape)
    if len(shape) == 0:
        raise RuntimeError(
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, "
            "but got normalized_shape = []"
        )
    for name, t in params:
        if t is not None and tuple(t.shape) != shape:
            raise RuntimeError(
                f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                f"{list(t.shape)} and normalized_shape = {list(shape)}"
            )
    k = len(shape)
    if input.ndim < k or tuple(input.shape[input.ndim - k :]) != shape:
        raise RuntimeError(
            f"Given normalized_shape={list(shape)}, expected input with shape [{star}{', '.join(map(str, shape))}], "
            f"but got input of size{list(input.shape)}"
        )
    return shape


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    """``(output, mean, rstd)`` of layer norm over the last ``len(normalized_shape)`` dims; ``mean`` and
    ``rstd`` keep those dims as size 1, as PyTorch's.

    >>> out, mean, rstd = native_layer_norm(np.array([[1.0, 3.0], [2.0, 4.0]]), [2], None, None, 0.0)
    >>> out
    array([[-1.,  1.],
           [-1.,  1.]])
    >>> mean.ravel(), rstd.shape
    (array([2., 3.]), (2, 1))
    """
    normalized_shape_checks(input, normalized_shape, (("weight", weight), ("bias", bias)))
    k = len(normalized_shape)
    lead = input.shape[: input.ndim - k]
    m = math.prod(lead)
    n = math.prod(input.shape[input.ndim - k :])
    dtype = compute_dtype(input.dtype)
    x = np.ascontiguousarray(input, dtype=dtype).reshape(m, n)
    out = np.empty((m, n), dtype)
    mean = np.empty(m, dtype)
    rstd = np.empty(m, dtype)
    if m and n:
        _layer_norm_rows(x, _vector(weight, n, dtype), _vector(bias, n, dtype), float(eps), out, mean, rstd)
    elif m:
        mean.fill(np.nan)
        rstd.fill(np.nan)
    stat_shape = tuple(lead) + (1,) * k
    return (
        out.reshape(input.shape).astype(input.dtype, copy=False),
        mean.reshape(stat_shape).astype(input.dtype, copy=False),
        rstd.reshape(stat_shape).astype(input.dtype, copy=False),
    )


@parallel_njit(fastmath=_SUMS_IN_ANY_ORDER)
def _batch_norm_channels(x, w, b, rmean, rvar, training, eps, out, mean, var):  # pragma: no cover
    nb, c, s = x.shape
    count = nb * s
    for k in prange(c):
        if training:
            total = 0.0
            for i in range(nb):
                for j in range(s):
                    total += x[i, k, j]
            mu = total / count
            v = 0.0
            for i in range(nb):
                for j in range(s):
                    d = x[i, k, j] - mu
                    v += d * d
            v = v / count
        else:
            mu = rmean[k] * 1.0
            v = rvar[k] * 1.0
        mean[k] = mu
        var[k] = v
        scale = 1.0 / math.sqrt(v + eps)
        if w.size:
            scale = scale * w[k]
        shift = -mu * scale
        if b.size:
            shift = shift + b[k]
        for i in range(nb):
            for j in range(s):
                out[i, k, j] = x[i, k, j] * scale + shift


def batch_norm_checks(input, training, running_mean, running_var):
    """The checks of native_batch_norm, shared with the CUDA kernel."""
    if not is_floating(input.dtype):
        raise NotImplementedError(f"\"batch_norm\" not implemented for '{LEGACY_NAME[BY_NP[input.dtype]]}'")
    if not training and (running_mean is None or running_var is None):
        raise RuntimeError(
            "running_mean must be defined in evaluation mode"
            if running_mean is None
            else "running_var must be defined in evaluation mode"
        )


def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    """``(output, save_mean, save_invstd)`` of batch norm over every dim but dim 1.

    Training normalizes with the batch's statistics and, when given, updates ``running_mean`` and
    ``running_var`` in place (the latter with the unbiased variance), as PyTorch's kernel does; eval
    normalizes with the running statistics and saves empty statistics.

    >>> rm, rv = np.zeros(2), np.ones(2)
    >>> out, mean, invstd = native_batch_norm(np.array([[0.0, 1.0], [2.0, 5.0]]), None, None, rm, rv, True, 0.5, 0.0)
    >>> out, mean, invstd
    (array([[-1., -1.],
           [ 1.,  1.]]), array([1., 3.]), array([1. , 0.5]))
    >>> rm, rv
    (array([0.5, 1.5]), array([1.5, 4.5]))
    """
    batch_norm_checks(input, training, running_mean, running_var)
    shape = input.shape
    nb, c = shape[0], shape[1]
    s = math.prod(shape[2:])
    dtype = compute_dtype(input.dtype)
    x = np.ascontiguousarray(input, dtype=dtype).reshape(nb, c, s)
    out = np.empty((nb, c, s), dtype)
    mean = np.empty(c, np.float64)
    var = np.empty(c, np.float64)
    rmean = _vector(running_mean, c, np.float64) if not training else np.empty(0)
    rvar = _vector(running_var, c, np.float64) if not training else np.empty(0)
    if c:
        if nb * s == 0 and training:
            mean.fill(np.nan)
            var.fill(np.nan)
        else:
            _batch_norm_channels(
                x, _vector(weight, c, dtype), _vector(bias, c, dtype), rmean, rvar, bool(training), float(eps),
                out, mean, var,
            )  # fmt: skip
    out = out.reshape(shape).astype(input.dtype, copy=False)
    if not training:
        return out, np.empty(0, input.dtype), np.empty(0, input.dtype)
    n = nb * s
    with np.errstate(divide="ignore", invalid="ignore"):
        invstd = 1.0 / np.sqrt(var + eps)
        if running_mean is not None:
            running_mean[...] = momentum * mean + (1 - momentum) * running_mean
        if running_var is not None:
            unbiased = var * n / (n - 1) if n > 1 else var * np.nan
            running_var[...] = momentum * unbiased + (1 - momentum) * running_var
    return out, mean.astype(input.dtype), invstd.astype(input.dtype)


@parallel_njit(fastmath=_SUMS_IN_ANY_ORDER)
def _layer_norm_backward_rows(g, x, mean, rstd, w, dx, g_xhat):  # pragma: no cover (compiled)
    m, n = x.shape
    for i in prange(m):
        mu, r = mean[i], rstd[i]
        s_g = 0.0
        s_gx = 0.0
        for j in range(n):
            xh = (x[i, j] - mu) * r
            gw = g[i, j] * w[j] if w.size else g[i, j] * 1.0
            s_g += gw
            s_gx += gw * xh
            g_xhat[i, j] = g[i, j] * xh
        a, c = s_g / n, s_gx / n
        for j in range(n):
            xh = (x[i, j] - mu) * r
            gw = g[i, j] * w[j] if w.size else g[i, j] * 1.0
            dx[i, j] = r * (gw - a - xh * c)


def native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask):
    """``(grad_input, grad_weight, grad_bias)`` of native_layer_norm from its saved ``mean``/``rstd``, in
    one pass per row. Every gradient is computed whatever ``output_mask`` says (the caller drops what it
    does not need); grad_weight and grad_bias are sums over the leading dims, accumulated in float64.

    >>> x = np.array([[1.0, 3.0], [2.0, 6.0]])
    >>> out, mean, rstd = native_layer_norm(x, [2], None, None, 0.0)
    >>> gx, gw, gb = native_layer_norm_backward(np.array([[1.0, 0.0], [0.0, 0.0]]), x, [2], mean, rstd, None, None,
    ...                                         [True, True, True])
    >>> gx, gw, gb
    (array([[0., 0.],
           [0., 0.]]), array([-1.,  0.]), array([1., 0.]))
    """
    normalized_shape_checks(input, normalized_shape, (("weight", weight), ("bias", bias)))
    k = len(normalized_shape)
    lead = input.shape[: input.ndim - k]
    m = math.prod(lead)
    n = math.prod(input.shape[input.ndim - k :])
    dtype = compute_dtype(input.dtype)
    x = np.ascontiguousarray(input, dtype=dtype).reshape(m, n)
    g = np.ascontiguousarray(grad_out, dtype=dtype).reshape(m, n)
    dx = np.empty((m, n), dtype)
    g_xhat = np.empty((m, n), dtype)
    if m and n:
        _layer_norm_backward_rows(
            g, x, np.asarray(mean, np.float64).reshape(m), np.asarray(rstd, np.float64).reshape(m),
            _vector(weight, n, dtype), dx, g_xhat,
        )  # fmt: skip
    param_shape = tuple(normalized_shape)
    grad_weight = g_xhat.sum(0, dtype=np.float64).reshape(param_shape)
    grad_bias = g.sum(0, dtype=np.float64).reshape(param_shape)
    return (
        dx.reshape(input.shape).astype(input.dtype, copy=False),
        grad_weight.astype(input.dtype),
        grad_bias.astype(input.dtype),
    )


@parallel_njit(fastmath=_SUMS_IN_ANY_ORDER)
def _batch_norm_backward_channels(g, x, w, mean, invstd, training, dx, dw, db):  # pragma: no cover
    nb, c, s = x.shape
    count = nb * s
    for k in prange(c):
        mu, inv = mean[k], invstd[k]
        s_g = 0.0
        s_gx = 0.0
        for i in range(nb):
            for j in range(s):
                s_g += g[i, k, j]
                s_gx += g[i, k, j] * (x[i, k, j] - mu) * inv
        db[k] = s_g
        dw[k] = s_gx
        scale = inv * w[k] if w.size else inv
        if training:
            a, cc = s_g / count, s_gx / count
            for i in range(nb):
                for j in range(s):
                    xh = (x[i, k, j] - mu) * inv
                    dx[i, k, j] = scale * (g[i, k, j] - a - xh * cc)
        else:
            for i in range(nb):
                for j in range(s):
                    dx[i, k, j] = g[i, k, j] * scale


def native_batch_norm_backward(grad_out, input, weight, running_mean, running_var, save_mean, save_invstd, train,
                               eps, output_mask):  # fmt: skip
    """``(grad_input, grad_weight, grad_bias)`` of native_batch_norm: through the saved batch statistics
    when ``train``, through the running ones otherwise. All three are computed whatever ``output_mask``
    says.

    >>> x = np.array([[0.0], [2.0]])
    >>> out, mean, invstd = native_batch_norm(x, None, None, None, None, True, 0.1, 0.0)
    >>> native_batch_norm_backward(np.array([[1.0], [0.0]]), x, None, None, None, mean, invstd, True, 0.0,
    ...                            [True, True, True])
    (array([[0.],
           [0.]]), array([-1.]), array([1.]))
    """
    shape = input.shape
    nb, c = shape[0], shape[1]
    s = math.prod(shape[2:])
    dtype = compute_dtype(input.dtype)
    x = np.ascontiguousarray(input, dtype=dtype).reshape(nb, c, s)
    g = np.ascontiguousarray(grad_out, dtype=dtype).reshape(nb, c, s)
    if train:
        mean = np.asarray(save_mean, np.float64).reshape(c)
        invstd = np.asarray(save_invstd, np.float64).reshape(c)
    else:
        mean = np.asarray(running_mean, np.float64).reshape(c)
        invstd = 1.0 / np.sqrt(np.asarray(running_var, np.float64).reshape(c) + eps)
    dx = np.empty((nb, c, s), dtype)
    dw = np.zeros(c, np.float64)
    db = np.zeros(c, np.float64)
    if c and nb * s:
        _batch_norm_backward_channels(g, x, _vector(weight, c, dtype), mean, invstd, bool(train), dx, dw, db)
    return dx.reshape(shape).astype(input.dtype, copy=False), dw.astype(input.dtype), db.astype(input.dtype)
