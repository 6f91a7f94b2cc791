"""The scans besides cumsum on device arrays (numba.cuda): cumprod, cummax/cummin, logcumsumexp.

The input, cast to the compute dtype, is gathered into C-contiguous rows along ``dim``; one thread
scans a row serially (as the sort kernels sort one), and the rows are moved back. The checks, dtypes
and NaN rules are the CPU kernels' (``kernels/cpu/scan.py``). Parallel over rows only: a single long
row is scanned by one thread.
"""

import math

import numpy as np
from numba import cuda

from ..._dims import wrap_dim
from ..cpu.convert import compute_dtype
from ..cpu.reduce import _name
from ..cpu.scan import cumsum_checks
from . import memory
from .copy import copy_into, launch

_F16, _I8, _I64 = np.dtype(np.float16), np.dtype(np.int8), np.dtype(np.int64)


def _rows(a, d, dt):
    """A C-contiguous copy of ``a`` in ``dt`` with ``d`` moved last, as ``(work, flat, rows, n, order)``."""
    order = [k for k in range(a.ndim) if k != d] + [d]
    moved = memory.permuted(a, order)
    work = copy_into(memory.empty(moved.shape, dt), moved)
    n = int(a.shape[d])
    return work, memory.flat(work), a.size // n, n, order


def _back(work, order, shape, dt):
    """``work`` (rows along the last dim) moved back to ``shape``, in ``dt``."""
    back = memory.permuted(work, sorted(range(len(shape)), key=order.__getitem__))
    return copy_into(memory.empty(shape, dt), back)


def cumprod(self, dim, dtype):
    """Running product along ``dim``; integers and bool give int64 unless ``dtype`` is given.

    >>> memory.to_host(cumprod(memory.from_host(np.array([[1, 2], [3, 4]], np.uint8)), 1, None))
    array([[ 1,  2],
           [ 3, 12]])
    """
    d, out = cumsum_checks(self, dim, dtype, "cumprod_cuda")
    shape = tuple(int(k) for k in self.shape)
    if self.size == 0 or self.ndim == 0:
        return copy_into(memory.empty(shape, out), self)
    if out == _F16 and self.dtype != _F16:  # rounded to half first, as the CPU converts its input
        self = copy_into(memory.empty(shape, _F16), self)
    work, flat, rows, n, order = _rows(self, d, compute_dtype(out))
    launch(_cumprod_kernel, rows, flat, rows, n)
    return _back(work, order, shape, out)


def _cummaxmin(a, dim, sign):
    d = wrap_dim(dim, a.ndim)
    shape = tuple(int(k) for k in a.shape)
    if a.size == 0 or a.ndim == 0:
        return copy_into(memory.empty(shape, a.dtype), a), memory.from_host(np.zeros(shape, _I64))
    dt = _I8 if a.dtype == np.bool_ else compute_dtype(a.dtype)
    work, flat, rows, n, order = _rows(a, d, dt)
    index_work = memory.empty(work.shape, _I64)
    launch(_cummaxmin_kernel, rows, flat, memory.flat(index_work), rows, n, sign)
    return _back(work, order, shape, a.dtype), _back(index_work, order, shape, _I64)


def cummax(self, dim):
    """``(values, indices)``: the running maximum along ``dim`` and where it was taken (the latest on ties).

    >>> v, i = cummax(memory.from_host(np.array([1.0, 3.0, 2.0, 3.0])), 0)
    >>> memory.to_host(v), memory.to_host(i)
    (array([1., 3., 3., 3.]), array([0, 1, 1, 3]))
    """
    return _cummaxmin(self, dim, 1)


def cummin(self, dim):
    """``(values, indices)``: the running minimum along ``dim`` and where it was taken (the latest on ties).

    >>> v, i = cummin(memory.from_host(np.array([2, 1, 3, 1])), 0)
    >>> memory.to_host(v), memory.to_host(i)
    (array([2, 1, 1, 1]), array([0, 1, 1, 3]))
    """
    return _cummaxmin(self, dim, -1)


def logcumsumexp(self, dim):
    """``log(cumsum(exp(self)))`` along ``dim``, without overflow; floating inputs only.

    >>> memory.to_host(logcumsumexp(memory.from_host(np.array([0.0, 0.0])), 0))
    array([0.        , 0.69314718])
    """
    if self.dtype.kind != "f":
        raise NotImplementedError(f"\"logcumsumexp_cuda\" not implemented for '{_name(self.dtype)}'")
    d = wrap_dim(dim, self.ndim)
    shape = tuple(int(k) for k in self.shape)
    if self.size == 0 or self.ndim == 0:
        return copy_into(memory.empty(shape, self.dtype), self)
    work, flat, rows, n, order = _rows(self, d, compute_dtype(self.dtype))
    launch(_logcumsumexp_kernel, rows, flat, rows, n)
    return _back(work, order, shape, self.dtype)


# --- kernels: thread r scans row r of the flat C-contiguous (rows, n) array in place ----------------


@cuda.jit
def _cummaxmin_kernel(a, idx, rows, n, sign):
    # PyTorch's rule: a NaN takes over and stays; otherwise a value at least as extreme takes over.
    r = cuda.grid(1)
    if r < rows:
        best = a[r * n]
        at = 0
        for i in range(n):
            v = a[r * n + i]
            if v != v or (best == best and sign * v >= sign * best):
                best = v
                at = i
            a[r * n + i] = best
            idx[r * n + i] = at


@cuda.jit
def _cumprod_kernel(a, rows, n):
    # A kernel of its own: sharing one with logcumsumexp would type the product as a float.
    r = cuda.grid(1)
    if r < rows:
        s = a[r * n]
        for i in range(r * n + 1, r * n + n):
            s *= a[i]
            a[i] = s


@cuda.jit
def _logcumsumexp_kernel(a, rows, n):
    # numpy's logaddexp: equal values (infinities included) add log 2; otherwise the larger plus
    # log1p(exp(-difference)), which neither overflows nor turns inf - inf into NaN.
    r = cuda.grid(1)
    if r < rows:
        total = a[r * n]
        for i in range(r * n + 1, r * n + n):
            x = a[i]
            larger = total if total > x else x  # (a NaN on either side makes the sum NaN below)
            total = total + math.log(2.0) if total == x else larger + math.log1p(math.exp(-abs(total - x)))
            a[i] = total
