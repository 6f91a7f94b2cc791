"""Reductions over device arrays: sum and mean, as block-level tree reductions in shared memory.

Same signatures, dtype rules and errors as ``kernels/cpu/reduce.py``. The input (any layout) is
first gathered into a C-contiguous ``(kept..., reduced...)`` array by the copy kernel (no copy
when it already is one), so every output element is one contiguous row. One block sums one row:
its threads stride through the row, then halve their partial sums in shared memory. A long row
is split over several blocks and their partial sums reduced by a second launch.
"""

import math

import numpy as np
from numba import cuda, from_dtype

from ..._dims import reduction_dims as _reduce_axes
from . import memory
from .copy import contiguous_cast, gather

_F16, _F32, _I64, _BOOL = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.int64), np.dtype(np.bool_)

# PyTorch's legacy scalar-type names, as its error messages print them.
_LEGACY_NAMES = {
    np.dtype(np.bool_): "Bool", np.dtype(np.uint8): "Byte", np.dtype(np.int8): "Char",
    np.dtype(np.int16): "Short", np.dtype(np.int32): "Int", np.dtype(np.int64): "Long",
    np.dtype(np.float16): "Half", np.dtype(np.float32): "Float", np.dtype(np.float64): "Double",
}  # fmt: skip

_MAX_THREADS = 256  # threads per block, a power of two
_PER_THREAD = 8  # elements each thread adds before a row is worth splitting over more blocks
_MAX_BLOCKS = 1024  # blocks a split reduction aims for


def sum_all(self, dtype):
    """Sum of every element, as a 0-d device array; integers and bool sum to int64 unless ``dtype``."""
    return _reduce(self, None, False, _sum_out_dtype(self, _opt_dtype(dtype)), mean=False)


def sum_dim(self, dim, keepdim, dtype):
    """Sum over the dims in ``dim`` (a tuple; ``None`` or ``()`` for all)."""
    return _reduce(self, dim, keepdim, _sum_out_dtype(self, _opt_dtype(dtype)), mean=False)


def mean_dim(self, dim=None, keepdim=False, dtype=None):
    """Mean over the dims in ``dim``; floating inputs only, or a floating ``dtype``."""
    dtype = _opt_dtype(dtype)
    if dtype is None and self.dtype.kind != "f":
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or "
            f"complex dtype. Got: {_LEGACY_NAMES[self.dtype]}"
        )
    if dtype is not None and dtype.kind != "f":
        raise RuntimeError(
            "mean(): could not infer output dtype. Optional dtype must be either a floating point or "
            f"complex dtype. Got: {_LEGACY_NAMES[dtype]}"
        )
    return _reduce(self, dim, keepdim, dtype or self.dtype, mean=True)


# --- dims and dtypes (the rules of kernels/cpu/reduce.py) -------------------------------------


def _opt_dtype(dtype):
    """A NumPy dtype from a yaten dtype (its ``.np``) or anything ``np.dtype`` takes; None stays."""
    if dtype is None:
        return None
    return np.dtype(getattr(dtype, "np", dtype))


def _sum_out_dtype(a, dtype):
    if dtype is not None:
        return dtype
    return _I64 if a.dtype.kind in "biu" else a.dtype


def _dtypes(in_dt, out):
    """(dtype the input is converted to before summing, accumulate dtype) for a result of ``out``.

    As PyTorch, conversions that round or truncate (to half, to a narrower integer, to bool) happen
    before summing; widening ones happen as each element is added. Half accumulates in float32,
    bool (an "any") as an int64 count.
    """
    src = in_dt if np.can_cast(in_dt, out, "safe") else out
    acc = _F32 if out == _F16 else (_I64 if out == _BOOL else out)
    return src, acc


# --- the kernels ---------------------------------------------------------------------------------

_KERNELS = {}


def _rows_kernel(acc, threads: int, mean: bool):
    """The kernel summing rows in ``acc`` with ``threads`` per block (a power of two), dividing each
    sum by ``div`` when ``mean``; one compiled kernel per (acc, threads, mean), source dtype aside."""
    key = (acc, threads, mean)
    kernel = _KERNELS.get(key)
    if kernel is not None:
        return kernel
    acc_t, zero = from_dtype(acc), acc.type(0)

    @cuda.jit
    def reduce_rows(src, m, chunk, parts, div, out):
        # Block b sums chunk b % parts of row b // parts, i.e. src[r*m + lo : r*m + hi].
        b = cuda.blockIdx.x
        t = cuda.threadIdx.x
        r = b // parts
        lo = (b - r * parts) * chunk
        hi = lo + chunk
        if hi > m:
            hi = m
        s = zero
        j = lo + t
        while j < hi:
            s += src[r * m + j]
            j += threads
        partial = cuda.shared.array(threads, acc_t)
        partial[t] = s
        cuda.syncthreads()
        step = threads // 2
        while step > 0:
            if t < step:
                partial[t] += partial[t + step]
            cuda.syncthreads()
            step //= 2
        if t == 0:
            if mean:
                out[b] = partial[0] / div
            else:
                out[b] = partial[0]

    _KERNELS[key] = reduce_rows
    return reduce_rows


def _threads(length: int) -> int:
    """The power of two of threads for rows of ``length``: no more than it takes, at most 256."""
    t = 1
    while t < length and t < _MAX_THREADS:
        t *= 2
    return t


def _sum_rows(x, k: int, m: int, acc, mean: bool):
    """The ``k`` sums (or means) of the rows of length ``m`` of the flat contiguous ``x``, in ``acc``."""
    div = acc.type(m)
    out = memory.empty((k,), acc)
    parts = 1
    if m > _MAX_THREADS * _PER_THREAD:
        parts = max(1, min(math.ceil(m / (_MAX_THREADS * _PER_THREAD)), math.ceil(_MAX_BLOCKS / k)))
    if parts == 1:
        t = _threads(m)
        _rows_kernel(acc, t, mean)[k, t](x, m, m, 1, div, out)
        return out
    chunk = math.ceil(m / parts)
    partial = memory.empty((k * parts,), acc)
    _rows_kernel(acc, _MAX_THREADS, False)[k * parts, _MAX_THREADS](x, m, chunk, parts, div, partial)
    t = _threads(parts)
    _rows_kernel(acc, t, mean)[k, t](partial, parts, parts, 1, div, out)
    return out


def _reduce(a, dim, keepdim, out, mean: bool):
    axes = _reduce_axes(dim, a.ndim)
    kept = [d for d in range(a.ndim) if d not in axes]
    shape = tuple(a.shape)
    if keepdim:
        out_shape = tuple(1 if d in axes else n for d, n in enumerate(shape))
    else:
        out_shape = tuple(shape[d] for d in kept)
    k = math.prod(shape[d] for d in kept)
    m = math.prod(shape[d] for d in axes)
    if k == 0:
        return memory.empty(out_shape, out)
    src, acc = _dtypes(a.dtype, out)
    strides = memory.span(a)[1]
    order = kept + list(axes)
    x = gather(a, [shape[d] for d in order], [strides[d] for d in order], src)
    res = _sum_rows(memory.flat(x), k, m, acc, mean)
    if acc != out:
        res = contiguous_cast(res, (k,), out)
    return memory.raw_view(res, out, out_shape, memory.c_strides(out_shape, out.itemsize), 0)
