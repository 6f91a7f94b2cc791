"""Pooling as CompositeImplicitAutograd ops: the 1-d poolings (a height-1 2-d pooling over the 2-d
kernels), ``adaptive_avg_pool3d`` (separable: the (H, W) planes, then D), adaptive max pooling in 1-3
dimensions and ``max_pool3d``/``avg_pool3d`` (a gather of every window, ``gather_windows``, of the
input padded with -inf or 0, then ``max`` or ``sum``).

An adaptive window ``i`` of a dimension of size ``L`` pooled to ``O`` covers ``[floor(i L / O),
ceil((i + 1) L / O))``, as ATen's ``start_index``/``end_index``. Adaptive max pooling gathers each
window padded to the longest one by repeating its last position (a repeat never wins over the first
maximum, so the index is PyTorch's: the first maximum in row-major window order).
"""

import numpy as np

import yaten

from .conv import _ints
from .padding import constant_pad_nd


def _check_1d(self, name):
    if self.ndim not in (2, 3):
        raise RuntimeError(
            f"Expected 2 to 3 dimensions, but got {self.ndim}-dimensional tensor for argument #1 'self' "
            f"(while checking arguments for {name})"
        )


def _one(value, name, arg):
    value = _ints(value, 1)
    if len(value) != 1:
        raise RuntimeError(f"{name}() argument '{arg}' should contain one int (got {len(value)})")
    return value[0]


def avg_pool1d(self, kernel_size, stride=(), padding=(0,), ceil_mode=False, count_include_pad=True):
    _check_1d(self, "avg_pool1d")
    k = _one(kernel_size, "avg_pool1d", "kernel_size")
    s = _one(stride, "avg_pool1d", "stride") if len(_ints(stride, 1)) else k
    p = _one(padding, "avg_pool1d", "padding")
    out = yaten.avg_pool2d(self.unsqueeze(-2), [1, k], [1, s], [0, p], ceil_mode, count_include_pad)
    return out.squeeze(-2)


def max_pool1d_with_indices(self, kernel_size, stride=(), padding=(0,), dilation=(1,), ceil_mode=False):
    _check_1d(self, "max_pool1d")
    k = _one(kernel_size, "max_pool1d", "kernel_size")
    s = _one(stride, "max_pool1d", "stride") if len(_ints(stride, 1)) else k
    p, d = _one(padding, "max_pool1d", "padding"), _one(dilation, "max_pool1d", "dilation")
    values, indices = yaten.max_pool2d_with_indices(
        self.unsqueeze(-2), [1, k], [1, s], [0, p], [1, d], ceil_mode
    )
    return values.squeeze(-2), indices.squeeze(-2)  # a height-1 plane's flat index is the column


def max_pool1d(self, kernel_size, stride=(), padding=(0,), dilation=(1,), ceil_mode=False):
    return max_pool1d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)[0]


def adaptive_avg_pool1d(self, output_size):
    _check_1d(self, "adaptive_avg_pool1d")
    o = _one(output_size, "adaptive_avg_pool1d", "output_size")
    return yaten.adaptive_avg_pool2d(self.unsqueeze(-2), [1, o]).squeeze(-2)


def _check_adaptive(self, name, dims, output_size):
    if self.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(
            f"{name}(): Expected {dims + 1}D or {dims + 2}D tensor, but got: {list(self.shape)}"
        )
    for i in range(1, self.ndim):
        if self.shape[i] == 0:
            raise RuntimeError(
                f"{name}(): Expected input to have non-zero size for non-batch dimensions, but input has sizes "
                f"{list(self.shape)} with dimension {i} being empty"
            )
    if len(output_size) != dims:
        raise RuntimeError(f"{name}(): internal error: output_size.size() must be {dims}")


def adaptive_avg_pool3d(self, output_size):
    output_size = _ints(output_size, 3)
    _check_adaptive(self, "adaptive_avg_pool3d", 3, output_size)
    x = self if self.ndim == 5 else self.unsqueeze(0)
    n, c, d, h, w = x.shape
    od, oh, ow = output_size
    planes = yaten.adaptive_avg_pool2d(x.reshape(n, c * d, h, w), [oh, ow])
    out = yaten.adaptive_avg_pool2d(planes.reshape(n, c, d, oh * ow), [od, oh * ow]).reshape(n, c, od, oh, ow)
    return out if self.ndim == 5 else out.squeeze(0)


def _windows(size, out):
    """``(out, K)`` input positions of each adaptive window, padded to the longest by its last one."""
    i = np.arange(out)
    start, end = (i * size) // out, -((-(i + 1) * size) // out)
    k = int((end - start).max())
    return np.minimum(start[:, None] + np.arange(k)[None, :], (end - 1)[:, None])


def gather_windows(x, first, tables):
    """``x`` with each dimension ``first + i`` replaced by two, ``(out_i, K_i)``: the positions of the
    table ``tables[i]`` (an ``(out_i, K_i)`` array), gathered by ``index_select``."""
    for i, table in enumerate(tables):
        dim = first + 2 * i
        x = x.index_select(dim, yaten.tensor(table.reshape(-1), device=x.device))
        x = x.reshape(*x.shape[:dim], *table.shape, *x.shape[dim + 1 :])
    return x


def _argmax_positions(arg, tables, spatial):
    """The flat input index (row-major over ``spatial``) of each window's argmax ``arg`` (its slot in the
    row-major window order of the position ``tables``)."""
    dims = len(tables)
    out = [t.shape[0] for t in tables]
    flat = np.zeros([*out, *(t.shape[1] for t in tables)], dtype=np.int64)
    stride = 1
    for i in reversed(range(dims)):
        shape = [1] * (2 * dims)
        shape[i], shape[dims + i] = tables[i].shape
        flat = flat + tables[i].reshape(shape) * stride
        stride *= spatial[i]
    flat = yaten.tensor(flat.reshape(*out, -1), device=arg.device)
    return flat.expand(*arg.shape, flat.shape[-1]).gather(-1, arg.unsqueeze(-1)).squeeze(-1)


def _adaptive_max(self, output_size, dims, name):
    output_size = _ints(output_size, dims)
    _check_adaptive(self, name, dims, output_size)
    lead = self.ndim - dims
    spatial = list(self.shape[lead:])
    tables = [_windows(s, o) for s, o in zip(spatial, output_size)]
    x = gather_windows(self, lead, tables)
    outs = list(range(lead, lead + 2 * dims, 2))
    x = x.permute(*range(lead), *outs, *(o + 1 for o in outs))
    values, arg = x.reshape(*x.shape[: lead + dims], -1).max(-1)
    return values, _argmax_positions(arg, tables, spatial)


def adaptive_max_pool1d(self, output_size):
    _check_1d(self, "adaptive_max_pool1d")
    return _adaptive_max(
        self, [_one(output_size, "adaptive_max_pool1d", "output_size")], 1, "adaptive_max_pool1d"
    )


def adaptive_max_pool2d(self, output_size):
    return _adaptive_max(self, output_size, 2, "adaptive_max_pool2d")


def adaptive_max_pool3d(self, output_size):
    return _adaptive_max(self, output_size, 3, "adaptive_max_pool3d")


def _triple(value, name, allow_empty=False):
    value = _ints(value, 3)
    if not (len(value) == 3 or (allow_empty and not value)):
        raise RuntimeError(f"max_pool3d: {name} must either be a single int, or a tuple of three ints")
    return value


def _pool_out(size, k, pad, stride, dilation, ceil_mode):
    """ATen's ``pooling_output_shape``."""
    out = (size + 2 * pad - dilation * (k - 1) - 1 + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def _windows3d(self, kernel_size, stride, padding, dilation, ceil_mode):
    """``(batched input, window position tables)`` of a 3-d pooling (an ``(out, kernel)`` table of input
    positions per dimension, negative or past the end in the padding), with PyTorch's checks."""
    if self.ndim not in (4, 5) or (self.numel() == 0 and self.ndim == 4):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    k = _triple(kernel_size, "kernel_size")
    s = _triple(stride, "stride", allow_empty=True) or k
    p, d = _triple(padding, "padding"), _triple(dilation, "dilation")
    for ki, pi, di in zip(k, p, d):
        if pi * 2 > di * (ki - 1) + 1:
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={pi}, kernel_size={ki} and "
                f"dilation={di}"
            )
    x = self if self.ndim == 5 else self.unsqueeze(0)
    out = [_pool_out(n, *args, ceil_mode) for n, args in zip(x.shape[2:], zip(k, p, s, d))]
    tables = [
        np.arange(o)[:, None] * si - pi + np.arange(ki)[None, :] * di
        for o, ki, si, pi, di in zip(out, k, s, p, d)
    ]
    return x, tables


def _padded_windows(x, tables, fill):
    """Every window of ``x``'s last 3 dimensions, positions outside filled with ``fill``: (N, C, oD, oH, oW, K)."""
    pads = []
    for size, table in reversed(list(zip(x.shape[2:], tables))):
        pads += [max(0, -int(table.min())), max(0, int(table.max()) + 1 - size)]
    x = constant_pad_nd(x, pads, fill)
    shifted = [t + pads[2 * (2 - i)] for i, t in enumerate(tables)]
    x = gather_windows(x, 2, shifted).permute(0, 1, 2, 4, 6, 3, 5, 7)
    return x.reshape(*x.shape[:5], -1)


def max_pool3d_with_indices(self, kernel_size, stride=(), padding=(0,), dilation=(1,), ceil_mode=False):
    x, tables = _windows3d(self, kernel_size, stride, padding, dilation, ceil_mode)
    fill = float("-inf") if x.dtype.is_floating_point else yaten.iinfo(x.dtype).min
    values, arg = _padded_windows(x, tables, fill).max(-1)
    indices = _argmax_positions(arg, tables, x.shape[2:])
    if self.ndim == 4:
        return values.squeeze(0), indices.squeeze(0)
    return values, indices


def max_pool3d(self, kernel_size, stride=(), padding=(0,), dilation=(1,), ceil_mode=False):
    return max_pool3d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)[0]


def avg_pool3d(self, kernel_size, stride=(), padding=(0,), ceil_mode=False, count_include_pad=True,
               divisor_override=None):  # fmt: skip
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    x, tables = _windows3d(self, kernel_size, stride, padding, (1,), ceil_mode)
    sums = _padded_windows(x, tables, 0).sum(-1)
    if divisor_override is not None:
        result = sums / divisor_override
    else:
        pad = _triple(padding, "padding")
        counts = []
        for size, table, p in zip(x.shape[2:], tables, pad):
            start, end = table[:, 0], np.minimum(table[:, -1] + 1, size + p)
            if not count_include_pad:
                start, end = np.maximum(start, 0), np.minimum(end, size)
            counts.append(end - start)
        divisor = counts[0][:, None, None] * counts[1][None, :, None] * counts[2][None, None, :]
        result = sums / yaten.tensor(divisor.astype(np.float64), device=x.device).to(sums.dtype)
    return result if self.ndim == 5 else result.squeeze(0)
