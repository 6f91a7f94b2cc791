"""Mask kernels over device arrays: nonzero, masked_select, masked_fill_ (numba.cuda).

Same signatures, checks (imported from ``kernels/cpu/index.py``), errors, warning and results as
the CPU kernels.

- ``nonzero`` and ``masked_select`` find where each kept element goes with a prefix scan
  (``scan.inclusive_scan``) of the flags ``x != 0`` (or the mask), in C order as int64: element ``i``
  is kept when the scan steps up at ``i``, and goes to position ``scan[i] - 1``. The count, the scan's
  last value, is copied to the host to size the result (one value: torch synchronizes here too); then
  one thread per element writes its coordinates (nonzero) or its value (masked_select).
- ``masked_fill_`` writes in place, one thread per element of ``self``, reading the mask through
  its broadcast strides (0 along broadcast dims). The value is a number, converted on the host with
  the CPU's overflow checks and passed to the kernel, or a 0-d device array, converted to ``self``'s
  dtype and read on the device (no host copy, so without the host conversion's overflow checks:
  the conversion is a cast, as ``copy_``'s).
"""

import numpy as np
from numba import cuda

from ..cpu.convert import scalar_to as _scalar_to
from ..cpu.index import masked_fill_checks, masked_select_checks
from . import memory
from .copy import coalesce, contiguous_cast, expand_strides, launch
from .scan import inclusive_scan

_BOOL, _I64 = np.dtype(np.bool_), np.dtype(np.int64)


def nonzero(self):
    """The indices of the non-zero entries of ``self``, int64 of shape (count, ndim).

    Like torch (and the CPU kernel), the result is laid out column by column (strides (1, count)).

    >>> memory.to_host(nonzero(memory.from_host(np.array([[0, 1], [2, 0]]))))
    array([[0, 1],
           [1, 0]])
    """
    shape = tuple(int(k) for k in self.shape)
    pos, count = _positions(contiguous_cast(self, shape, _BOOL), shape)
    ndim = len(shape)
    columns = memory.empty((ndim, count), _I64)  # one row per dim: the result transposed
    if ndim and count:
        launch(_coordinates_kernel, pos.size, memory.flat(columns), count, pos, shape, pos.size)
    st = memory.c_strides((ndim, count), _I64.itemsize)
    return memory.raw_view(columns, _I64, (count, ndim), st[::-1], 0)


def masked_select(self, mask):
    """The entries of ``self`` where ``mask`` (bool) is True, as a 1-d array; both broadcast.

    >>> a = memory.from_host(np.array([[1, 2], [3, 4]]))
    >>> memory.to_host(masked_select(a, memory.from_host(np.array([True, False]))))
    array([1, 3])
    """
    shape = tuple(int(k) for k in masked_select_checks(self, mask))
    pos, count = _positions(mask, shape)
    out = memory.empty((count,), self.dtype)
    if count:
        cshape, (st,) = coalesce(shape, expand_strides(self, shape))
        src = memory.span(self)[0]
        launch(_compact_kernel, pos.size, out, src, st, pos, cshape, pos.size)
    return out


def masked_fill_(self, mask, value):
    """``self[mask] = value`` in place; ``mask`` (bool) broadcasts to ``self``, ``value`` is a
    number, a 0-d host array (a CPU scalar tensor) or a 0-d device array.

    >>> a = memory.from_host(np.zeros((2, 2)))
    >>> masked_fill_(a, memory.from_host(np.array([True, False])), 1.5); memory.to_host(a)
    array([[1.5, 0. ],
           [1.5, 0. ]])
    """
    masked_fill_checks(self, mask, value)
    if isinstance(value, np.ndarray):  # a CPU 0-d tensor: its value, as torch's value.item()
        value = value.item()
    is_number = isinstance(value, (bool, int, float, complex, np.generic))
    if is_number:
        value = _scalar_to(value, self.dtype)
    if self.size == 0:
        return
    shape = tuple(int(k) for k in self.shape)
    dst, dst_st = memory.span(self)
    cshape, (dst_st, mask_st) = coalesce(shape, dst_st, expand_strides(mask, shape))
    m = memory.span(mask)[0]
    if is_number:
        launch(_fill_kernel, self.size, dst, dst_st, m, mask_st, cshape, self.size, value)
    else:
        v = contiguous_cast(value, (1,), self.dtype)  # the cast on the device, as copy_'s
        launch(_fill_from_kernel, self.size, dst, dst_st, m, mask_st, cshape, self.size, v)


def _positions(mask, shape) -> tuple:
    """``(pos, count)``: the inclusive scan, in C order as a flat int64 array, of the bool ``mask``
    broadcast to ``shape``, and its last value: the number of True elements."""
    pos = memory.flat(contiguous_cast(mask, shape, _I64))  # a new array: the dtype differs
    if pos.size == 0:
        return pos, 0
    inclusive_scan(memory.raw_view(pos, _I64, (1, pos.size), (pos.size * _I64.itemsize, _I64.itemsize), 0))
    last = memory.raw_view(pos, _I64, (), (), (pos.size - 1) * _I64.itemsize)
    return pos, int(memory.to_host(last))


# --- kernels ------------------------------------------------------------------------------------
# Thread ``i`` takes the element at C-order position ``i``; it is kept when the scan steps up there.


@cuda.jit
def _coordinates_kernel(columns, count, pos, shape, total):
    i = cuda.grid(1)
    if i < total:
        p = pos[i]
        prev = pos[i - 1] if i > 0 else 0
        if p != prev:
            rem = i
            for k in range(len(shape) - 1, -1, -1):
                q = rem // shape[k]
                columns[k * count + p - 1] = rem - q * shape[k]
                rem = q


@cuda.jit
def _compact_kernel(out, src, src_st, pos, shape, total):
    i = cuda.grid(1)
    if i < total:
        p = pos[i]
        prev = pos[i - 1] if i > 0 else 0
        if p != prev:
            rem = i
            off = 0
            for k in range(len(shape) - 1, -1, -1):
                q = rem // shape[k]
                off += (rem - q * shape[k]) * src_st[k]
                rem = q
            out[p - 1] = src[off]


@cuda.jit(device=True)
def _offsets(i, dst_st, mask_st, shape):
    rem = i
    d = 0
    m = 0
    for k in range(len(shape) - 1, -1, -1):
        q = rem // shape[k]
        r = rem - q * shape[k]
        d += r * dst_st[k]
        m += r * mask_st[k]
        rem = q
    return d, m


@cuda.jit
def _fill_kernel(dst, dst_st, mask, mask_st, shape, total, value):
    i = cuda.grid(1)
    if i < total:
        d, m = _offsets(i, dst_st, mask_st, shape)
        if mask[m]:
            dst[d] = value


@cuda.jit
def _fill_from_kernel(dst, dst_st, mask, mask_st, shape, total, value):
    i = cuda.grid(1)
    if i < total:
        d, m = _offsets(i, dst_st, mask_st, shape)
        if mask[m]:
            dst[d] = value[0]
