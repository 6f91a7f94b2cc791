"""sort (and sort.stable) and topk over device arrays (numba.cuda).

The input, cast to the sort's working dtype, is gathered into contiguous rows along ``dim`` (the
other dims in C order, then ``dim``); one thread per row sorts its row with a bottom-up merge sort,
ping-ponging between the row and a scratch buffer, and writes the values and their int64 indices.
The comparison carries PyTorch's order: NaN is larger than every number, for ascending and
descending alike, and a right-hand element is taken only when it is strictly before the left one,
so the sort is stable (torch's non-stable order of ties may differ). float16 is sorted as float32
and bool as uint8 (both exact), then cast back. ``sort`` writes its results in the input's memory
layout, as the CPU kernel (``kernels/cpu/sort.py``) and PyTorch do; ``topk`` is the sort's first
``k`` columns copied into new C-contiguous arrays, always in sorted order.

Speed limits: one thread per row does O(n log n) serial work, so a few long rows (a 1-d input is
one row) use one thread each and run far slower than a parallel (radix or bitonic) sort would; topk
sorts the whole row whatever ``k`` is. Many short rows are where this kernel is reasonable.
"""

import numpy as np
from numba import cuda

from ..cpu.sort import sort_checks, topk_checks
from . import memory
from .copy import copy_into, empty_preserve, launch

_F16, _F32, _I64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.int64)
_BOOL, _U8 = np.dtype(np.bool_), np.dtype(np.uint8)


def _sorted_rows(self, d, descending):
    """``(values, indices, order)``: ``self`` sorted along ``d`` as C-contiguous device arrays of
    the working dtype and int64, laid out as ``self``'s dims permuted by ``order`` (``d`` last)."""
    order = [k for k in range(self.ndim) if k != d] + [d]
    moved = memory.permuted(self, order)
    work_dt = _F32 if self.dtype == _F16 else _U8 if self.dtype == _BOOL else self.dtype
    values = copy_into(memory.empty(moved.shape, work_dt), moved)
    indices = memory.empty(moved.shape, _I64)
    n = int(self.shape[d])
    rows = self.size // n if n else 0
    if rows:
        scratch_v, scratch_i = memory.empty((rows * n,), work_dt), memory.empty((rows * n,), _I64)
        flat_v, flat_i = memory.flat(values), memory.flat(indices)
        launch(_merge_sort_rows_kernel, rows, flat_v, flat_i, scratch_v, scratch_i, rows, n, bool(descending))
    return values, indices, order


def _sort(self, d, descending):
    values, indices = empty_preserve(self, self.dtype), empty_preserve(self, _I64)
    if self.ndim == 0:
        copy_into(values, self)
        copy_into(indices, memory.from_host(np.zeros((), _I64)))
        return values, indices
    if self.size == 0:
        return values, indices
    v, i, order = _sorted_rows(self, d, descending)
    copy_into(memory.permuted(values, order), v)
    copy_into(memory.permuted(indices, order), i)
    return values, indices


def sort(self, dim, descending):
    """``(values, int64 indices)`` of ``self`` sorted along ``dim``, stably; NaN sorts as the largest.

    >>> v, i = sort(memory.from_host(np.array([3.0, np.nan, 1.0, 3.0])), -1, False)
    >>> memory.to_host(v), memory.to_host(i)
    (array([ 1.,  3.,  3., nan]), array([2, 0, 3, 1]))
    """
    return _sort(self, sort_checks(self, dim), descending)


def sort_stable(self, stable, dim, descending):
    """sort.stable: the same stable sort whatever ``stable`` says (``None``, ``False`` or ``True``).

    >>> v, i = sort_stable(memory.from_host(np.array([1, 2, 1])), True, 0, True)
    >>> memory.to_host(v), memory.to_host(i)
    (array([2, 1, 1]), array([1, 0, 2]))
    """
    return _sort(self, sort_checks(self, dim), descending)


def topk(self, k, dim, largest, sorted):
    """``(values, int64 indices)`` of the ``k`` largest (``largest=False``: smallest) along ``dim``,
    C-contiguous and in sorted order; ties keep their order; NaN counts as the largest.

    >>> v, i = topk(memory.from_host(np.array([1.0, 5.0, np.nan, 2.0])), 2, 0, True, True)
    >>> memory.to_host(v), memory.to_host(i)
    (array([nan,  5.]), array([2, 1]))
    """
    d = topk_checks(self, k, dim)
    if self.dtype == _BOOL:  # torch's CUDA kernel is not dispatched for bool
        raise NotImplementedError("\"topk_out_cuda\" not implemented for 'Bool'")
    if self.ndim == 0:  # k is 0 or 1; either way torch returns the element
        values = copy_into(memory.empty((), self.dtype), self)
        return values, memory.from_host(np.zeros((), _I64))
    shape = [int(s) for s in self.shape]
    shape[d] = k
    values, indices = memory.empty(shape, self.dtype), memory.empty(shape, _I64)
    if values.size == 0:
        return values, indices
    v, i, order = _sorted_rows(self, d, largest)
    first = list(v.shape[:-1]) + [k]  # the first k columns of the sorted rows
    copy_into(memory.permuted(values, order), memory.raw_view(v, v.dtype, first, v.strides, 0))
    copy_into(memory.permuted(indices, order), memory.raw_view(i, i.dtype, first, i.strides, 0))
    return values, indices


# --- kernels ------------------------------------------------------------------------------------


@cuda.jit(device=True)
def _before(x, y, descending):
    # x goes strictly before y: NaN (x != x) is the largest value in both directions.
    if descending:
        return x > y or (x != x and y == y)
    return x < y or (y != y and x == x)


@cuda.jit(device=True)
def _merge_pass(src_v, src_i, dst_v, dst_i, base, n, width, descending):
    # Merge each pair of sorted runs of ``width`` in row [base, base + n) of src into dst.
    lo = 0
    while lo < n:
        mid = lo + width if lo + width < n else n
        hi = lo + 2 * width if lo + 2 * width < n else n
        i = lo
        j = mid
        for o in range(lo, hi):
            right = i >= mid or (j < hi and _before(src_v[base + j], src_v[base + i], descending))
            if right:
                dst_v[base + o] = src_v[base + j]
                dst_i[base + o] = src_i[base + j]
                j += 1
            else:
                dst_v[base + o] = src_v[base + i]
                dst_i[base + o] = src_i[base + i]
                i += 1
        lo += 2 * width


@cuda.jit
def _merge_sort_rows_kernel(values, indices, scratch_v, scratch_i, rows, n, descending):
    # Thread r: row r, sorted in place (values and their original positions) by a stable merge sort.
    r = cuda.grid(1)
    if r < rows:
        base = r * n
        for k in range(n):
            indices[base + k] = k
        in_scratch = False
        width = 1
        while width < n:
            if in_scratch:
                _merge_pass(scratch_v, scratch_i, values, indices, base, n, width, descending)
            else:
                _merge_pass(values, indices, scratch_v, scratch_i, base, n, width, descending)
            in_scratch = not in_scratch
            width *= 2
        if in_scratch:
            for k in range(base, base + n):
                values[k] = scratch_v[k]
                indices[k] = scratch_i[k]
