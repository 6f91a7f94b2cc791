"""Advanced indexing over device arrays: ``index`` (aten::index.Tensor) and ``index_put_`` (numba.cuda).

Same signatures, checks, errors and warnings as the CPU kernels of ``kernels/cpu/index.py``, whose
device-neutral parts are imported: ``expand_indices`` (argument checks; masks become index arrays,
here through the device's ``nonzero`` of ``kernels/cuda/mask.py``), ``result_layout`` (where the
index dims go in the result) and ``index_put_checks``.

Both ops start from one kernel, ``_positions_kernel``: the index arrays, broadcast to their common
shape ``b`` (``m`` elements) and cast to int64, are stacked into one contiguous ``(k, m)`` device
array; the result has shape ``before + b + after`` (the sliced dims of ``self`` around the index
dims), and one thread per result element decomposes its coordinate and adds up ``coordinate *
stride`` for the sliced dims and ``idx[kk, j] * stride`` for the indexed ones (``j``: its position in
``b``; negative indices wrapped). That is the element's position in ``memory.span(self)``, so strided
views of ``self`` are read and written as they are. Before that, ``_first_bad_kernel`` checks every
index against its dim on the device (an atomic min of ``j * k + kk`` for array ``kk`` of ``k`` at
position ``j``: the CPU's order, first position in ``b``, then first index array), and only that first bad position comes back to the
host, which raises the CPU's IndexError with its value, before anything is read or written.

- ``index``: ``out[i] = src[pos[i]]``, one thread per element.
- ``index_put_``: ``values`` broadcast to the result's shape, ``dst[pos[i]] = vals[i]``, one thread per
  element; with duplicate indices, which write wins is unspecified (as torch documents for CUDA; the
  CPU's last one wins). With ``accumulate``, ``cuda.atomic.add`` in the buffer of ``index.py``'s
  ``sum_buffer`` (float16 adds in float32, rounded once at the end as torch's CUDA kernel does, where
  the CPU rounds after every add as torch's CPU kernel; int8 / int16 / uint8 / bool in int64). Float
  sums of duplicates add in whatever order the threads run. ``values`` that share memory with ``self``
  are copied before anything is written, so every value is read before the writes (NumPy's rule,
  which the CPU kernel follows).
"""

import numpy as np
from numba import cuda

from ..cpu.index import expand_indices, index_out_of_bounds_error, index_put_checks, result_layout
from . import memory
from .copy import clone, contiguous_cast, copy_into, launch, overlaps
from .index import store_sums, sum_buffer
from .mask import nonzero

_I64 = np.dtype(np.int64)


def index(self, indices):
    """``self[indices]`` with torch's ``aten::index.Tensor`` semantics (None = full slice).

    >>> a = memory.from_host(np.arange(12).reshape(3, 4))
    >>> memory.to_host(index(a, [None, memory.from_host(np.array([0, -1]))]))
    array([[ 0,  3],
           [ 4,  7],
           [ 8, 11]])
    """
    entries, shape = expand_indices(self, indices, _mask_indices)
    if all(e is None for e in entries):
        return clone(self, "contiguous_format")
    result_shape, pos = _positions(self, entries, shape)
    out = memory.empty(result_shape, self.dtype)
    launch(_take_kernel, out.size, memory.flat(out), memory.span(self)[0], pos)
    return out


def index_put_(self, indices, values, accumulate):
    """``self[indices] = values`` (or ``+=`` with ``accumulate``, duplicates adding up), in place.

    >>> a = memory.from_host(np.zeros(3))
    >>> index_put_(a, [memory.from_host(np.array([0, 0, 2]))], memory.from_host(np.array([1.0, 2.0, 3.0])), True)
    >>> memory.to_host(a)
    array([3., 0., 3.])
    """
    if isinstance(values, np.ndarray):  # a CPU 0-d tensor
        values = memory.from_host(values)
    entries, shape = expand_indices(self, indices, _mask_indices)
    index_put_checks(self, entries, shape, values)
    work = sum_buffer(self) if accumulate else self
    result_shape, pos = _positions(work, entries, shape)  # bounds are checked here, before any write
    if pos.size == 0:
        return
    vals = contiguous_cast(values, result_shape, work.dtype)
    if work is self and overlaps(vals, self):
        vals = clone(vals, "contiguous_format")
    dst = memory.span(work)[0]
    launch(_add_kernel if accumulate else _put_kernel, pos.size, dst, pos, memory.flat(vals))
    store_sums(self, work)


# --- helpers ------------------------------------------------------------------------------------


def _mask_indices(mask) -> tuple:
    """A bool / uint8 mask's index arrays, one per mask dim: the columns of the device's nonzero."""
    nz = nonzero(mask)  # int64 (count, mask.ndim)
    count, (row, col) = nz.shape[0], nz.strides
    return tuple(memory.raw_view(nz, nz.dtype, (count,), (row,), k * col) for k in range(mask.ndim))


def _positions(self, entries: list, shape: tuple) -> tuple:
    """``(result_shape, pos)``: the shape of ``self[entries]`` and, as a flat int64 device array, the
    position in ``memory.span(self)`` of each of its elements (C order). Raises the CPU's IndexError,
    checked on the device, when an index is out of range."""
    before, adv, after = result_layout(self.ndim, entries)
    shape = tuple(int(n) for n in shape)
    dims, st = [int(n) for n in self.shape], memory.span(self)[1]
    sizes, adv_st = tuple(dims[d] for d in adv), tuple(st[d] for d in adv)
    stacked = _stack([entries[d] for d in adv], shape)
    if stacked.size:
        _check_bounds(stacked, sizes)
    result_shape = tuple(dims[d] for d in before) + shape + tuple(dims[d] for d in after)
    result_st = tuple(st[d] for d in before) + (0,) * len(shape) + tuple(st[d] for d in after)
    pos = memory.empty((int(np.prod(result_shape)),), _I64)
    b0 = len(before)
    # A kernel cannot index an empty tuple: a 0-d result is a 1-d one of one element, and with no
    # index array (``stacked`` has no rows) the index tuples hold one entry, never read.
    args = (sizes or (1,), adv_st or (0,), result_shape or (1,), result_st or (0,), b0, b0 + len(shape))
    launch(_positions_kernel, pos.size, pos, stacked, *args)
    return result_shape, pos


def _stack(arrays: list, shape: tuple):
    """The index ``arrays`` broadcast to ``shape`` and cast to int64, as the rows of one C-contiguous
    ``(len(arrays), prod(shape))`` device array."""
    m = int(np.prod(shape))
    out = memory.empty((len(arrays), m), _I64)
    if m:
        row_st, item = memory.c_strides(shape, _I64.itemsize), _I64.itemsize
        for k, a in enumerate(arrays):
            copy_into(memory.raw_view(out, _I64, shape, row_st, k * m * item), a)
    return out


def _check_bounds(stacked, sizes: tuple) -> None:
    """Raise the CPU's IndexError for the first index of ``stacked`` (position first, then array) outside
    ``[-n, n)`` of its dim; checked on the device, only that first position comes back."""
    k_count, m = stacked.shape
    total = k_count * m
    first = memory.from_host(np.array([total], np.int64))
    launch(_first_bad_kernel, total, stacked, sizes, total, first)
    t = int(memory.to_host(first)[0])
    if t == total:
        return
    j, k = divmod(t, k_count)
    value = memory.to_host(memory.raw_view(stacked, _I64, (), (), (k * m + j) * _I64.itemsize))
    raise index_out_of_bounds_error(int(value), k, sizes[k])


# --- kernels ------------------------------------------------------------------------------------


@cuda.jit
def _first_bad_kernel(idx, sizes, total, first):
    # Thread t = j * k + kk checks index array kk at broadcast position j: the smallest bad t is the
    # CPU's first error (first position, then first array).
    t = cuda.grid(1)
    if t < total:
        nk = idx.shape[0]
        j = t // nk
        kk = t - j * nk
        v = idx[kk, j]
        n = sizes[kk]
        if v < -n or v >= n:
            cuda.atomic.min(first, 0, t)


@cuda.jit
def _positions_kernel(pos, idx, sizes, adv_st, shape, st, b0, b1):
    # Result dims [b0, b1) are the index arrays' broadcast dims (stride 0 in ``st``); the others are
    # sliced dims of self. ``j`` is the element's C-order position within the broadcast dims.
    i = cuda.grid(1)
    if i < pos.shape[0]:
        rem = i
        off = 0
        j = 0
        step = 1
        for r in range(len(shape) - 1, -1, -1):
            q = rem // shape[r]
            c = rem - q * shape[r]
            rem = q
            off += c * st[r]
            if b0 <= r and r < b1:
                j += c * step
                step *= shape[r]
        for kk in range(idx.shape[0]):
            v = idx[kk, j]
            if v < 0:
                v += sizes[kk]
            off += v * adv_st[kk]
        pos[i] = off


@cuda.jit
def _take_kernel(out, src, pos):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = src[pos[i]]


@cuda.jit
def _put_kernel(dst, pos, vals):
    i = cuda.grid(1)
    if i < pos.shape[0]:
        dst[pos[i]] = vals[i]


@cuda.jit
def _add_kernel(dst, pos, vals):
    i = cuda.grid(1)
    if i < pos.shape[0]:
        cuda.atomic.add(dst, pos[i], vals[i])
