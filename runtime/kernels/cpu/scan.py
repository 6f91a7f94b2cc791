"""Scans over host arrays: cumsum, cumprod, cummax/cummin, logcumsumexp.

Each scan runs along ``dim`` and returns a new C-contiguous array of the input's shape, as PyTorch's.
"""

import numba
import numpy as np

from ..._dims import wrap_dim
from .convert import compute_dtype, is_floating
from .reduce import _BOOL, _F32, _F64, _as_new, _name, _opt_dtype, _prepare, sum_out_dtype

_I64 = np.dtype(np.int64)


def cumsum_checks(self, dim, dtype, kernel: str) -> tuple:
    """cumsum's argument checks, on shapes and dtypes only (any device's arrays).

    Returns ``(d, out)``: the wrapped dim and the result dtype (int64 for integers and bool unless
    ``dtype`` is given). A bool result has no scan kernel; ``kernel`` is the name PyTorch's error
    gives it on the device (``cumsum_out_cpu``, ``cumsum_cuda``).
    """
    out = sum_out_dtype(self, _opt_dtype(dtype))
    d = wrap_dim(dim, self.ndim)
    if out == _BOOL and self.ndim and self.size:  # PyTorch only looks for a kernel when there is a scan
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    return d, out


def cumsum(self, dim, dtype):
    """Running sum along ``dim``; integers and bool give int64 unless ``dtype`` is given. The result is
    C-contiguous.

    >>> cumsum(np.array([[1, 2], [3, 4]], np.uint8), 0, None)
    array([[1, 2],
           [4, 6]])
    """
    return scan(self, dim, dtype, "cumsum_out_cpu", np.cumsum)


def scan(self, dim, dtype, kernel: str, accumulate):
    """The CPU scan of cumsum and cumprod: ``accumulate`` (``np.cumsum``, ``np.cumprod``) along ``dim``,
    with ``cumsum_checks``' dtypes (``kernel`` names the op in its error) and a C-contiguous result."""
    d, out = cumsum_checks(self, dim, dtype, kernel)
    if self.size == 0:
        return np.empty(self.shape, out)
    src, acc = _prepare(self, out)
    if is_floating(out) and src.dtype != out:
        with np.errstate(over="ignore"):
            src = src.astype(out)  # rounded to the output dtype first, as PyTorch converts its input
    # PyTorch's CPU scans accumulate float32 in double and half in float.
    if acc == _F32 and out == _F32:
        acc = _F64
    if self.ndim == 0:
        return np.array(src, dtype=out)  # src may be a NumPy scalar: 0-d comparisons return one
    # C-contiguous whatever the input's layout, as PyTorch's result.
    return np.ascontiguousarray(_as_new(accumulate(src, axis=d, dtype=acc), out))


def cumprod(self, dim, dtype):
    """Running product along ``dim``; integers and bool give int64 unless ``dtype`` is given.

    >>> cumprod(np.array([[1, 2], [3, 4]], np.uint8), 1, None)
    array([[ 1,  2],
           [ 3, 12]])
    """
    return scan(self, dim, dtype, "cumprod_out_cpu", np.cumprod)


def _rows(a, d):
    """``a`` with ``dim`` moved last, as C-contiguous ``(rows, n)``, and the moved shape."""
    moved = np.moveaxis(a, d, -1)
    return np.ascontiguousarray(moved).reshape(-1, moved.shape[-1] if moved.ndim else 1), moved.shape


@numba.njit(cache=True)
def _cummaxmin_rows(x, values, indices, sign):
    # PyTorch's rule: a NaN takes over and stays; otherwise a value at least as extreme takes over, so
    # a tie gives the later index.
    for r in range(x.shape[0]):
        best = x[r, 0]
        at = 0
        for i in range(x.shape[1]):
            v = x[r, i]
            if v != v or (best == best and sign * v >= sign * best):
                best = v
                at = i
            values[r, i] = best
            indices[r, i] = at


def _cummaxmin(a, dim, sign):
    d = wrap_dim(dim, a.ndim)
    if a.size == 0 or a.ndim == 0:
        return a.copy(), np.zeros(a.shape, _I64)
    # Bool and half are scanned as int8 and float32 (exact), then given back their dtype.
    work = a.view(np.int8) if a.dtype == np.bool_ else a.astype(compute_dtype(a.dtype), copy=False)
    x, moved = _rows(work, d)
    values, indices = np.empty_like(x), np.empty(x.shape, _I64)
    _cummaxmin_rows(x, values, indices, x.dtype.type(sign))
    back = [np.ascontiguousarray(np.moveaxis(v.reshape(moved), -1, d)) for v in (values, indices)]
    return back[0].astype(a.dtype, copy=False), back[1]


def cummax(self, dim):
    """``(values, indices)``: the running maximum along ``dim`` and where it was taken (the latest on ties).

    >>> cummax(np.array([1.0, 3.0, 2.0, 3.0]), 0)
    (array([1., 3., 3., 3.]), array([0, 1, 1, 3]))
    """
    return _cummaxmin(self, dim, 1)


def cummin(self, dim):
    """``(values, indices)``: the running minimum along ``dim`` and where it was taken (the latest on ties).

    >>> cummin(np.array([2, 1, 3, 1]), 0)
    (array([2, 1, 1, 1]), array([0, 1, 1, 3]))
    """
    return _cummaxmin(self, dim, -1)


def logcumsumexp(self, dim):
    """``log(cumsum(exp(self)))`` along ``dim``, without overflow; floating inputs only.

    >>> logcumsumexp(np.array([0.0, 0.0, np.log(2.0)]), 0)
    array([0.        , 0.69314718, 1.38629436])
    """
    if not is_floating(self.dtype):
        raise NotImplementedError(f"\"logcumsumexp_out_cpu\" not implemented for '{_name(self.dtype)}'")
    d = wrap_dim(dim, self.ndim)
    if self.size == 0 or self.ndim == 0:
        return self.copy()
    x = self.astype(compute_dtype(self.dtype), copy=False)
    return np.ascontiguousarray(_as_new(np.logaddexp.accumulate(x, axis=d), self.dtype))
