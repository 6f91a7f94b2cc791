"""Indexing kernels over device arrays: index_select, gather and the scatter family (numba.cuda).

Same signatures, checks and errors as the CPU kernels of ``kernels/cpu/index.py``, whose
device-neutral checks (shapes, dtypes, strides) are imported; the index bounds are checked on the
device: ``_first_bad`` records the C-order position of the first index value outside ``[0, n)``
(an atomic min), and only that position comes back to the host, which raises the CPU's error
with that value. Scatters check every bound before writing anything, as on the CPU.

Every array is read and written through its strides (``memory.span``: a flat view from its first
element plus strides in elements), so strided views of ``self``, ``index`` and ``src`` are used as
they are, never copied; a 0-d array acts as a 1-d array of one element, as torch's
``ensure_nonempty_dim``. A kernel is compiled once per number of dims (strides go in as tuples).

- ``gather`` (``gather_dim`` here) and ``index_select``: one thread per output element.
- ``scatter_src_`` / ``scatter_value_``: one thread per line of ``index`` along ``dim`` (all the
  elements that differ only in their ``dim`` coordinate, the only ones that can hit the same
  element of ``self``), walking the line in order: with duplicate indices the last write in the
  index's C order wins, deterministically, as on the CPU.
- ``scatter_add_``: one thread per index element, adding with ``cuda.atomic.add`` (int32, int64,
  float32, float64). Other dtypes add in a copy: float16 in float32, rounded back once at the end
  as the CPU (and torch) accumulate half; int8 / int16 / uint8 / bool in int64, wrapped into the
  narrow type's range after (the result of adding in the narrow type; bool gives "any"). Integer sums
  are exact; floating ones add duplicates in whatever order the threads run, so they may differ
  from the CPU's serial sum in the last bits and from run to run, as torch's CUDA scatter_add_.
"""

import numpy as np
from numba import cuda

from ..cpu.convert import scalar_to as _scalar_to
from ..cpu.index import gather_checks, index_select_checks, out_of_bounds_error, scatter_checks
from . import memory
from .copy import clone, contiguous_cast, copy_into, launch

_F16, _F32, _I32, _I64 = (np.dtype(t) for t in (np.float16, np.float32, np.int32, np.int64))
_ATOMIC = {_I32, _I64, _F32, np.dtype(np.float64)}  # the dtypes cuda.atomic.add takes


def index_select(self, dim, index):
    """The entries of ``self`` at positions ``index`` (a vector) along ``dim``.

    >>> a = memory.from_host(np.arange(6).reshape(2, 3))
    >>> memory.to_host(index_select(a, 1, memory.from_host(np.array([2, 0]))))
    array([[2, 0],
           [5, 3]])
    """
    d, n = index_select_checks(self, dim, index)
    idx, idx_st = _operand(index)
    if _first_bad(idx, idx_st, (index.size,), n) is not None:
        raise IndexError("index out of range in self")
    if self.ndim == 0:
        return clone(self)
    shape = tuple(self.shape[:d]) + (index.size,) + tuple(self.shape[d + 1 :])
    out = memory.empty(shape, self.dtype)
    src, src_st = memory.span(self)
    launch(_select_kernel, out.size, memory.flat(out), src, src_st, idx, idx_st[0], shape, d)
    return out


def gather_dim(self, dim, index, sparse_grad=False):
    """The ``gather`` op: ``out[i][j] = self[index[i][j]][j]`` (for dim 0); ``index`` may be smaller
    than ``self`` in the other dims. (``copy.gather``, the strided copy, holds the name ``gather``
    among the CUDA kernels.)

    >>> a = memory.from_host(np.array([[1, 2], [3, 4]]))
    >>> memory.to_host(gather_dim(a, 1, memory.from_host(np.array([[0, 0], [1, 0]]))))
    array([[1, 1],
           [4, 3]])
    """
    d = gather_checks(self, dim, index)
    out = memory.empty(index.shape, self.dtype)
    if index.size == 0:
        return out
    src, src_st = _operand(self)
    idx, idx_st = _operand(index)
    shape = _shape_1d(index)
    _check_bounds(idx, idx_st, shape, d, _shape_1d(self)[d])
    launch(_gather_kernel, out.size, memory.flat(out), src, src_st, idx, idx_st, shape, d)
    return out


def scatter_src_(self, dim, index, src):
    """``self[index[i][j]][j] = src[i][j]`` (for dim 0), in place; the last duplicate wins.

    >>> a = memory.from_host(np.zeros((2, 2)))
    >>> scatter_src_(a, 0, memory.from_host(np.array([[1, 0]])), memory.from_host(np.array([[5.0, 6.0]])))
    >>> memory.to_host(a)
    array([[0., 6.],
           [5., 0.]])
    """
    d = scatter_checks(self, dim, index, src)
    if index.size:
        _scatter(self, d, index, *_operand(src))


def scatter_value_(self, dim, index, value):
    """``self[index[i][j]][j] = value`` (for dim 0), in place.

    >>> a = memory.from_host(np.zeros(3, np.int64))
    >>> scatter_value_(a, 0, memory.from_host(np.array([2])), 7); memory.to_host(a)
    array([0, 0, 7])
    """
    d = scatter_checks(self, dim, index, None)
    if index.size:
        one = memory.from_host(np.array([_scalar_to(value, self.dtype)]))
        _scatter(self, d, index, one, (0,) * max(index.ndim, 1))  # read everywhere: zero strides


def scatter_add_(self, dim, index, src):
    """``self[index[i][j]][j] += src[i][j]`` (for dim 0), in place; duplicates all add up.

    >>> a = memory.from_host(np.zeros(3))
    >>> scatter_add_(a, 0, memory.from_host(np.array([0, 0, 2])), memory.from_host(np.array([1.0, 2.0, 3.0])))
    >>> memory.to_host(a)
    array([3., 0., 3.])
    """
    d = scatter_checks(self, dim, index, src)
    if index.size == 0:
        return
    idx, idx_st = _operand(index)
    shape = _shape_1d(index)
    _check_bounds(idx, idx_st, shape, d, _shape_1d(self)[d])
    work = sum_buffer(self)
    if work is not self:
        src = contiguous_cast(src, src.shape, work.dtype)
    dst, dst_st = _operand(work)
    launch(_add_kernel, index.size, dst, dst_st, idx, idx_st, *_operand(src), shape, d, index.size)
    store_sums(self, work)


def sum_buffer(self):
    """Where atomic sums into ``self`` run: ``self`` when ``cuda.atomic.add`` takes its dtype, else a new
    C-contiguous copy in one it takes (float16: float32; int8 / int16 / uint8 / bool: int64), which
    ``store_sums`` writes back. (Shared with advanced_index.py's ``index_put_``.)

    >>> sum_buffer(memory.from_host(np.array([1, 2], np.int8))).dtype
    dtype('int64')
    """
    if self.dtype in _ATOMIC:
        return self
    return contiguous_cast(self, self.shape, _F32 if self.dtype == _F16 else _I64)


def store_sums(self, work) -> None:
    """Write the sums in ``work = sum_buffer(self)`` into ``self`` (nothing to do when it is ``self``):
    float16 rounded once, narrow ints wrapped into their range (the result of adding in the narrow
    type), bool true where the sum is not 0 ("any").

    >>> a = memory.from_host(np.array([120, 1], np.int8))
    >>> w = sum_buffer(a); _ = copy_into(w, memory.from_host(np.array([220, 1])))  # 120 + 100, 1 + 0
    >>> store_sums(a, w)
    >>> memory.to_host(a)
    array([-36,   1], dtype=int8)
    """
    if work is self:
        return
    if self.dtype.kind in "iu":  # wrapped into the narrow type's range here, not by the cast
        bits = 8 * self.dtype.itemsize
        signed = self.dtype.kind == "i"
        launch(_wrap_kernel, work.size, memory.flat(work), (1 << bits) - 1, 1 << (bits - 1), signed)
    copy_into(self, work)


# --- helpers ------------------------------------------------------------------------------------


def _shape_1d(a) -> tuple:
    return tuple(int(n) for n in a.shape) or (1,)


def _operand(a) -> tuple:
    """``(flat, strides)`` of ``memory.span``, a 0-d array seen as 1-d of one element."""
    flat, strides = memory.span(a)
    return flat, strides or (0,)


def _first_bad(idx, idx_st, shape, n: int):
    """The first index value (C order over ``shape``) outside ``[0, n)``, or None; checked on the device."""
    size = int(np.prod(shape))
    first = memory.from_host(np.array([size], np.int64))
    launch(_first_bad_kernel, size, idx, idx_st, shape, size, n, first)
    pos = int(memory.to_host(first)[0])
    if pos == size:
        return None
    off = 0
    for k in range(len(shape) - 1, -1, -1):  # the memory offset of C-order position ``pos``
        pos, r = divmod(pos, shape[k])
        off += r * idx_st[k]
    return int(memory.to_host(memory.raw_view(idx, idx.dtype, (), (), off * idx.dtype.itemsize)))


def _check_bounds(idx, idx_st, shape, d: int, n: int) -> None:
    bad = _first_bad(idx, idx_st, shape, n)
    if bad is not None:
        raise out_of_bounds_error(bad, d, n)


def _scatter(self, d: int, index, src, src_st) -> None:
    """``self[.., index[..], ..] = src[..]`` along ``d``, after the bounds check; the last duplicate wins."""
    idx, idx_st = _operand(index)
    shape = _shape_1d(index)
    _check_bounds(idx, idx_st, shape, d, _shape_1d(self)[d])
    dst, dst_st = _operand(self)
    lines = index.size // shape[d]
    launch(_assign_kernel, lines, dst, dst_st, idx, idx_st, src, src_st, shape, d, lines)


# --- kernels ------------------------------------------------------------------------------------
# Thread ``i`` takes the element at C-order position ``i`` over ``shape`` (the index's shape, or the
# output's) and finds each array's element by its strides, dim by dim from the last.


@cuda.jit
def _first_bad_kernel(idx, idx_st, shape, total, n, first):
    i = cuda.grid(1)
    if i < total:
        rem = i
        off = 0
        for k in range(len(shape) - 1, -1, -1):
            q = rem // shape[k]
            off += (rem - q * shape[k]) * idx_st[k]
            rem = q
        v = idx[off]
        if v < 0 or v >= n:
            cuda.atomic.min(first, 0, i)


@cuda.jit
def _select_kernel(out, src, src_st, idx, idx_st, shape, dim):
    i = cuda.grid(1)
    if i < out.shape[0]:
        rem = i
        off = 0
        for k in range(len(shape) - 1, -1, -1):
            q = rem // shape[k]
            c = rem - q * shape[k]
            rem = q
            if k == dim:
                c = idx[c * idx_st]
            off += c * src_st[k]
        out[i] = src[off]


@cuda.jit
def _gather_kernel(out, src, src_st, idx, idx_st, shape, dim):
    i = cuda.grid(1)
    if i < out.shape[0]:
        rem = i
        s_off = 0
        i_off = 0
        for k in range(len(shape) - 1, -1, -1):
            q = rem // shape[k]
            c = rem - q * shape[k]
            rem = q
            i_off += c * idx_st[k]
            if k != dim:
                s_off += c * src_st[k]
        out[i] = src[s_off + idx[i_off] * src_st[dim]]


@cuda.jit
def _assign_kernel(dst, dst_st, idx, idx_st, src, src_st, shape, dim, lines):
    # Thread i: the i-th line along dim (C order over the other dims), its elements in order.
    i = cuda.grid(1)
    if i < lines:
        rem = i
        d_off = 0
        i_off = 0
        s_off = 0
        for k in range(len(shape) - 1, -1, -1):
            if k != dim:
                q = rem // shape[k]
                c = rem - q * shape[k]
                rem = q
                d_off += c * dst_st[k]
                i_off += c * idx_st[k]
                s_off += c * src_st[k]
        for j in range(shape[dim]):
            dst[d_off + idx[i_off + j * idx_st[dim]] * dst_st[dim]] = src[s_off + j * src_st[dim]]


@cuda.jit
def _add_kernel(dst, dst_st, idx, idx_st, src, src_st, shape, dim, total):
    i = cuda.grid(1)
    if i < total:
        rem = i
        d_off = 0
        i_off = 0
        s_off = 0
        for k in range(len(shape) - 1, -1, -1):
            q = rem // shape[k]
            c = rem - q * shape[k]
            rem = q
            i_off += c * idx_st[k]
            s_off += c * src_st[k]
            if k != dim:
                d_off += c * dst_st[k]
        cuda.atomic.add(dst, d_off + idx[i_off] * dst_st[dim], src[s_off])


@cuda.jit
def _wrap_kernel(a, mask, half, signed):
    # a[i] modulo 2**bits (mask = 2**bits - 1), as a signed value when ``signed`` (half = 2**(bits-1)).
    i = cuda.grid(1)
    if i < a.shape[0]:
        w = a[i] & mask
        if signed and w >= half:
            w -= mask + 1
        a[i] = w
