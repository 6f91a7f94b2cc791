"""Sorting over host arrays: sort (and sort.stable) and topk, with NumPy's stable sorts.

The order is PyTorch's: NaN sorts as larger than every number, ascending and descending alike, and
``-0.0`` equals ``0.0``. Every sort here is stable (equal elements keep their order, reversed
neither for ``descending`` nor for ``largest``), which is one valid result of PyTorch's non-stable
sort: torch's own order of ties may differ where ``stable`` is not asked for.

``sort`` returns values and int64 indices in the input's memory layout (torch's preserve_format);
``topk`` returns C-contiguous ones, always in sorted order (also for ``sorted=False``, whose order
PyTorch leaves unspecified). The checks are functions of shapes and dtypes only, shared with the
cuda kernels (``kernels/cuda/sort.py``).
"""

import numpy as np

from ..._dims import wrap_dim as _wrap_dim
from .convert import is_floating
from .shape import _empty_like_preserve

_I64, _BOOL = np.dtype(np.int64), np.dtype(np.bool_)


def sort_checks(self, dim) -> int:
    """The wrapped ``dim`` of sort (shared with the cuda kernels)."""
    if self.dtype.kind == "c":
        raise RuntimeError(" Sort does not support complex dtypes on CPU")
    return _wrap_dim(dim, self.ndim)


def topk_checks(self, k, dim) -> int:
    """The wrapped ``dim`` of topk; ``k`` must be in ``[0, size]`` (a 0-d input has size 1). Each
    device checks the dtype itself: the errors for bool differ."""
    d = _wrap_dim(dim, self.ndim)
    size = int(self.shape[d]) if self.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    return d


def _stable_order(a, d, descending):
    """int64 indices that sort ``a`` stably along axis ``d``, NaN last (first when descending)."""
    if is_floating(a.dtype):
        nan = np.isnan(a)
        key = np.where(nan, 0, a)
        # lexsort's last key is the primary one: NaN or not, then the value.
        return np.lexsort((-key if descending else key, ~nan if descending else nan), axis=d)
    # ~ reverses the order of any integer type (and of bool) without overflow, unlike negation.
    return np.argsort(~a if descending else a, axis=d, kind="stable")


def _sort(a, d, descending):
    """``(values, indices)`` of a stable sort along ``d``, in ``a``'s memory layout."""
    values, indices = _empty_like_preserve(a, a.dtype), _empty_like_preserve(a, _I64)
    if a.ndim == 0:
        values[()], indices[()] = a, 0
        return values, indices
    order = _stable_order(a, d, descending)
    indices[...] = order
    values[...] = np.take_along_axis(a, order, axis=d)
    return values, indices


def sort(self, dim, descending):
    """``(values, int64 indices)`` of ``self`` sorted along ``dim``, stably; NaN sorts as the largest.

    >>> sort(np.array([3.0, np.nan, 1.0, 3.0]), -1, False)
    (array([ 1.,  3.,  3., nan]), array([2, 0, 3, 1]))
    """
    return _sort(self, sort_checks(self, dim), descending)


def sort_stable(self, stable, dim, descending):
    """sort.stable: the same stable sort whatever ``stable`` says (``None``, ``False`` or ``True``).

    >>> sort_stable(np.array([1, 2, 1]), True, 0, True)
    (array([2, 1, 1]), array([1, 0, 2]))
    """
    return _sort(self, sort_checks(self, dim), descending)


def topk(self, k, dim, largest, sorted):
    """``(values, int64 indices)`` of the ``k`` largest (``largest=False``: smallest) along ``dim``,
    C-contiguous and in sorted order; ties keep their order; NaN counts as the largest.

    >>> topk(np.array([1.0, 5.0, np.nan, 2.0]), 2, 0, True, True)
    (array([nan,  5.]), array([2, 1]))
    """
    d = topk_checks(self, k, dim)
    if self.dtype == _BOOL:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    if self.ndim == 0:  # k is 0 or 1; either way torch returns the element
        return np.array(self, copy=True), np.zeros((), _I64)
    order = np.take(_stable_order(self, d, largest), np.arange(k), axis=d)
    values = np.take_along_axis(self, order, axis=d)
    return np.ascontiguousarray(values), np.ascontiguousarray(order.astype(_I64, copy=False))
