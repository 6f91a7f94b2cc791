"""Indexing kernels over host NumPy arrays: select, gather/scatter, masks, advanced indexing.

Every function takes NumPy arrays (any strides, 0-d or empty) and plain Python values. Functional
kernels return new arrays with PyTorch's dtype; in-place kernels (``*_``) write through ``self`` and
return None. Bad input raises PyTorch's exception type with PyTorch's wording.

NumPy does what it does well (take, fancy indexing, masks); the gather/scatter family walks the index
with a Numba loop over raw strided memory, in the index's C order as torch's serial CPU loop does, so
sums of duplicates round the same way. Numba has no float16 (nor bfloat16): moves go through uint16
bits, sums through a float32 copy, rounded back after every add for index_put_ (torch adds in Half)
and once at the end for scatter_add_ (torch accumulates in float).
"""

import math
import warnings

import numba
import numpy as np

from ..._dims import wrap_dim as _wrap_dim
from ..._dtype import LEGACY_NAME, TYPEID_NAME
from ..._overlap import assert_no_internal_overlap as _assert_no_internal_overlap
from ..._overlap import assert_no_overlap as _assert_no_overlap
from ..._overlap import assert_no_partial_overlap as _assert_no_partial_overlap
from ..._overlap import has_internal_overlap as _has_internal_overlap
from ..._promotion import infer_size as _infer_size
from .convert import BF16 as _BF16
from .convert import BOOL as _BOOL
from .convert import F32 as _F32
from .convert import HALVES as _HALVES
from .convert import U8 as _U8
from .convert import c_contiguous as _c
from .convert import scalar_to as _scalar_to

_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)

_TYPEID_NAME = {d.name: name for d, name in TYPEID_NAME.items()}
# torch's ScalarType names.
_SCALAR_NAME = {d.name: name for d, name in LEGACY_NAME.items()}


# --- helpers (the conversions shared with shape.py live in convert.py) ---------------------------------


def _first_out_of_bounds(idx: np.ndarray, n: int):
    """The first (C order) value of ``idx`` outside [0, n), or None."""
    if idx.size == 0 or (idx.min() >= 0 and idx.max() < n):
        return None
    flat = idx.reshape(-1)
    return int(flat[np.argmax((flat < 0) | (flat >= n))])


# --- strided memory and the Numba loops ---------------------------------------------------------------


def _flat(a: np.ndarray) -> tuple:
    """``(buf, offset, strides)`` with ``a[i, j, ..] == buf[offset + i * strides[0] + j * strides[1] ..]``.

    ``buf`` is a 1-d view of the memory ``a`` spans (writes go through to ``a``), ``strides`` an int64
    array in elements; float16 and bfloat16 show as their uint16 bits, which Numba can move.
    """
    st = [s // a.itemsize for s in a.strides]
    if a.size == 0:  # spans no memory (and NumPy may report any strides)
        return np.empty(0, np.uint16 if a.dtype in _HALVES else a.dtype), 0, np.array(st, np.int64)
    lo = sum((n - 1) * s for n, s in zip(a.shape, st) if s < 0)
    hi = sum((n - 1) * s for n, s in zip(a.shape, st) if s > 0)
    first = a[
        tuple(slice(None, None, -1) if s < 0 else slice(None) for s in st)
    ]  # starts at the lowest address
    buf = np.lib.stride_tricks.as_strided(first, (hi - lo + 1,), (a.itemsize,))
    return (buf.view(np.uint16) if a.dtype in _HALVES else buf), -lo, np.array(st, np.int64)


@numba.njit(cache=True, error_model="numpy")
def _round_to_16bit(x, mode):
    """``x`` rounded to the nearest float16 (mode _ADD_HALF) or bfloat16 (_ADD_BF16) value, ties to
    even, returned as float32."""
    ax = abs(np.float64(x))
    if math.isnan(ax):
        return np.float32(x)
    # float16 keeps 11 significant bits, down to 2**-24; halfway between its max (65504) and 2**16
    # rounds to even: infinity. bfloat16 keeps 8, down to 2**-133, and overflows likewise past its max.
    bits, lowest, inf_at = (11, -24, 65520.0) if mode == 2 else (8, -133, (2.0 - 2.0**-8) * 2.0**127)
    if ax >= inf_at:
        return np.float32(math.copysign(math.inf, x))
    _, e = math.frexp(ax)
    q = math.ldexp(1.0, max(e - bits, lowest))
    return np.float32(math.copysign(np.rint(ax / q) * q, x))


# Modes of _scatter_loop.
_ASSIGN, _ADD, _ADD_HALF, _ADD_BF16 = 0, 1, 2, 3


@numba.njit(cache=True, error_model="numpy")
def _gather_loop(out, src, src_off, src_st, idx, idx_off, idx_st, shape, dim):
    # out (C order, the index's shape) = src[.., idx[..], ..]: an odometer over the index's outer dims
    # around a plain loop over its last dim.
    ndim = shape.shape[0]
    last = ndim - 1
    n_in, i_in = shape[last], idx_st[last]
    s_in = 0 if dim == last else src_st[last]
    s_dim = src_st[dim]
    count = np.zeros(ndim, np.int64)
    s, i, o = src_off, idx_off, 0
    while o < out.shape[0]:
        for j in range(n_in):
            out[o + j] = src[s + j * s_in + idx[i + j * i_in] * s_dim]
        o += n_in
        k = last - 1
        while k >= 0:
            count[k] += 1
            i += idx_st[k]
            if k != dim:
                s += src_st[k]
            if count[k] < shape[k]:
                break
            i -= idx_st[k] * shape[k]
            if k != dim:
                s -= src_st[k] * shape[k]
            count[k] = 0
            k -= 1


@numba.njit(cache=True, error_model="numpy")
def _scatter_loop(dst, dst_off, dst_st, idx, idx_off, idx_st, src, src_off, src_st, shape, dim, mode):
    # dst[.., idx[..], ..] (=, += or 16-bit-rounded +=) src[..], serially in the index's C order: an
    # odometer over the index's outer dims around a plain loop over its last dim.
    ndim = shape.shape[0]
    last = ndim - 1
    n_out = 1
    for k in range(last):
        n_out *= shape[k]
    n_in, i_in, s_in = shape[last], idx_st[last], src_st[last]
    d_in = 0 if dim == last else dst_st[last]
    d_dim = dst_st[dim]
    count = np.zeros(ndim, np.int64)
    d, i, s = dst_off, idx_off, src_off
    for _ in range(n_out):
        if mode == 0:
            for j in range(n_in):
                dst[d + j * d_in + idx[i + j * i_in] * d_dim] = src[s + j * s_in]
        elif mode == 1:
            for j in range(n_in):
                dst[d + j * d_in + idx[i + j * i_in] * d_dim] += src[s + j * s_in]
        else:
            for j in range(n_in):
                p = d + j * d_in + idx[i + j * i_in] * d_dim
                dst[p] = _round_to_16bit(dst[p] + src[s + j * s_in], mode)
        k = last - 1
        while k >= 0:
            count[k] += 1
            i += idx_st[k]
            s += src_st[k]
            if k != dim:
                d += dst_st[k]
            if count[k] < shape[k]:
                break
            i -= idx_st[k] * shape[k]
            s -= src_st[k] * shape[k]
            if k != dim:
                d -= dst_st[k] * shape[k]
            count[k] = 0
            k -= 1


def _scatter(self: np.ndarray, dim: int, index: np.ndarray, src: np.ndarray, mode: int) -> None:
    """Run _scatter_loop on arrays of equal rank; ``src`` covers the index's extent."""
    if self.dtype.kind == "c":  # the loop types every mode's branch for its dtype: scatter the two parts
        src = np.asarray(src)
        _scatter(self.real, dim, index, src.real, mode)
        _scatter(self.imag, dim, index, src.imag, mode)
        return
    shape = np.array(index.shape, np.int64)
    ibuf, ioff, ist = _flat(index)
    if mode == _ASSIGN or self.dtype not in _HALVES:
        sbuf, soff, sst = _flat(src)
        _scatter_loop(*_flat(self), ibuf, ioff, ist, sbuf, soff, sst, shape, dim, mode)
        return
    # float16 and bfloat16 sums: in a float32 copy of self, rounded back once (scatter_add_).
    work = self.astype(_F32)
    sbuf, soff, sst = _flat(src.astype(_F32))
    _scatter_loop(*_flat(work), ibuf, ioff, ist, sbuf, soff, sst, shape, dim, mode)
    self[...] = work


# --- index_select, gather, scatter ---------------------------------------------------------------------


def index_select_checks(self, dim, index) -> tuple:
    """index_select's argument checks, on shapes and dtypes only (any device's arrays).

    Returns ``(d, n)``: the wrapped dim and the bound every index value must lie below (1 for a 0-d
    ``self``); an index outside [0, n) is the caller's ``IndexError("index out of range in self")``.
    """
    d = _wrap_dim(dim, self.ndim)
    if index.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if index.dtype not in (_I32, _I64):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    if self.ndim == 0:
        if index.size != 1:
            raise RuntimeError(
                f"index_select(): Index to scalar can have only 1 value, got {index.size} value(s)"
            )
        return d, 1
    n = self.shape[d]
    if n == 0 and index.size:
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    return d, n


def index_select(self, dim, index):
    """The entries of ``self`` at positions ``index`` (a vector) along ``dim``.

    >>> index_select(np.arange(6).reshape(2, 3), 1, np.array([2, 0]))
    array([[2, 0],
           [5, 3]])
    """
    d, n = index_select_checks(self, dim, index)
    idx = index.reshape(-1)
    if _first_out_of_bounds(idx, n) is not None:
        raise IndexError("index out of range in self")
    if self.ndim == 0:
        return self.copy()
    return _c(np.take(self, idx, axis=d))


def _check_scatter_gather_index(op: str, index: np.ndarray) -> None:
    if index.dtype not in (_I32, _I64):
        raise RuntimeError(f"{op}(): Expected dtype int32/int64 for index")


def out_of_bounds_error(bad: int, d: int, n: int) -> RuntimeError:
    """The error of gather and the scatter family for the first index value ``bad`` outside [0, n)."""
    return RuntimeError(f"index {bad} is out of bounds for dimension {d} with size {n}")


def _check_bounds(idx: np.ndarray, d: int, n: int) -> None:
    bad = _first_out_of_bounds(idx, n)
    if bad is not None:
        raise out_of_bounds_error(bad, d, n)


def _1d(a: np.ndarray) -> np.ndarray:
    # torch's ensure_nonempty_dim: a 0-d tensor acts as a 1-d tensor of size 1 here.
    return a.reshape(1) if a.ndim == 0 else a


def shape_1d(a) -> tuple:
    """The shape of ``_1d(a)``, for an array of any device."""
    return tuple(a.shape) or (1,)


def gather_checks(self, dim, index) -> int:
    """gather's argument checks but the index bounds, on shapes and dtypes only (any device's arrays);
    returns the wrapped dim. Bounds (``out_of_bounds_error``) are checked after, when ``index`` is
    not empty."""
    d = _wrap_dim(dim, self.ndim)
    _check_scatter_gather_index("gather", index)
    if index.size == 0:
        return d
    self1, idx1 = shape_1d(self), shape_1d(index)
    if len(self1) != len(idx1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    for k in range(len(self1)):
        if k != d and idx1[k] > self1[k]:
            raise RuntimeError(
                f"Size does not match at dimension {k} expected index {list(index.shape)} "
                f"to be no larger than self {list(self.shape)} apart from dimension {d}"
            )
    return d


def gather(self, dim, index, sparse_grad=False):
    """``out[i][j] = self[index[i][j]][j]`` (for dim 0); ``index`` may be smaller than ``self``
    in the other dims.

    >>> gather(np.array([[1, 2], [3, 4]]), 1, np.array([[0, 0], [1, 0]]))
    array([[1, 1],
           [4, 3]])
    """
    d = gather_checks(self, dim, index)
    if index.size == 0:
        return np.empty(index.shape, self.dtype)
    self1, idx1 = _1d(self), _1d(index)
    _check_bounds(idx1, d, self1.shape[d])
    out = np.empty(index.shape, self.dtype)
    flat_out = out.reshape(-1)
    _gather_loop(
        flat_out.view(np.uint16) if out.dtype in _HALVES else flat_out,
        *_flat(self1),
        *_flat(idx1),
        np.array(idx1.shape, np.int64),
        d,
    )
    return out


def scatter_checks(self, dim, index, src):
    """The scatter family's argument checks but the index bounds, on shapes, dtypes and strides only
    (any device's arrays); returns the wrapped dim. Bounds (``out_of_bounds_error``) are checked
    after, when ``index`` is not empty."""
    d = _wrap_dim(dim, self.ndim)
    _check_scatter_gather_index("scatter", index)
    if src is not None and src.dtype != self.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if index.size == 0:
        return d
    _assert_no_internal_overlap(self)
    self1, idx1 = shape_1d(self), shape_1d(index)
    if len(self1) != len(idx1):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    wrong = any(k != d and idx1[k] > self1[k] for k in range(len(self1)))
    if src is not None:
        if not wrong:
            src1 = shape_1d(src)
            for k in range(len(self1)):
                if k >= len(src1):  # torch's src.size(k) fails here
                    _wrap_dim(k, len(src1))
                if idx1[k] > src1[k]:
                    wrong = True
                    break
        if wrong:
            raise RuntimeError(
                f"Expected index {list(index.shape)} to be no larger than self "
                f"{list(self.shape)} apart from dimension {d} and to be no larger size "
                f"than src {list(src.shape)}"
            )
    elif wrong:
        raise RuntimeError(
            f"Expected index {list(index.shape)} to be no larger than self {list(self.shape)} "
            f"apart from dimension {d}"
        )
    return d


def _scatter_checks(self, dim, index, src):
    """All the scatter family's checks, bounds included; returns the wrapped dim."""
    d = scatter_checks(self, dim, index, src)
    if index.size:
        _check_bounds(_1d(index), d, shape_1d(self)[d])
    return d


def scatter_src_(self, dim, index, src):
    """``self[index[i][j]][j] = src[i][j]`` (for dim 0), in place.

    >>> a = np.zeros((2, 2)); scatter_src_(a, 0, np.array([[1, 0]]), np.array([[5.0, 6.0]])); a
    array([[0., 6.],
           [5., 0.]])
    """
    d = _scatter_checks(self, dim, index, src)
    if index.size:
        _scatter(_1d(self), d, _1d(index), _1d(src), _ASSIGN)


def scatter_value_(self, dim, index, value):
    """``self[index[i][j]][j] = value`` (for dim 0), in place.

    >>> a = np.zeros(3, np.int64); scatter_value_(a, 0, np.array([2]), 7); a
    array([0, 0, 7])
    """
    d = _scatter_checks(self, dim, index, None)
    if index.size:
        self1, idx1 = _1d(self), _1d(index)
        value = np.broadcast_to(np.array(_scalar_to(value, self.dtype)), idx1.shape)  # zero strides
        _scatter(self1, d, idx1, value, _ASSIGN)


def scatter_add_(self, dim, index, src):
    """``self[index[i][j]][j] += src[i][j]`` (for dim 0), in place; duplicates all add up.

    >>> a = np.zeros(3); scatter_add_(a, 0, np.array([0, 0, 2]), np.array([1.0, 2.0, 3.0])); a
    array([3., 0., 3.])
    """
    d = _scatter_checks(self, dim, index, src)
    if index.size:
        _scatter(_1d(self), d, _1d(index), _1d(src), _ADD)


# --- masks -------------------------------------------------------------------------------------------


def masked_fill_checks(self, mask, value) -> None:
    """masked_fill_'s argument checks, on shapes, dtypes and strides only (any device's arrays), and
    PyTorch's deprecation warning for an expanded ``self``; ``value`` is a number or a 0-d array."""
    if getattr(value, "ndim", 0) > 0:
        raise RuntimeError(
            "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
            f"{value.ndim} dimension(s)."
        )
    if mask.dtype != _BOOL:
        raise RuntimeError(
            "masked_fill_ only supports boolean masks, but got mask with dtype "
            f"{_TYPEID_NAME[mask.dtype.name]}"
        )
    shape = _infer_size(self.shape, mask.shape)
    if shape != tuple(self.shape):
        raise RuntimeError(
            f"output with shape {list(self.shape)} doesn't match the broadcast shape {list(shape)}"
        )
    if _has_internal_overlap(self):
        warnings.warn(
            "Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor "
            "before performing this operation. This also applies to advanced indexing e.g. "
            "tensor[mask] = scalar",
            UserWarning,
            stacklevel=4,  # the caller of masked_fill_ (past the fp-error wrapper)
        )
    _assert_no_partial_overlap(self, mask)


def masked_fill_(self, mask, value):
    """``self[mask] = value`` in place; ``mask`` (bool) broadcasts to ``self``, ``value`` is a
    number or a 0-d array.

    >>> a = np.zeros((2, 2)); masked_fill_(a, np.array([True, False]), 1.5); a
    array([[1.5, 0. ],
           [1.5, 0. ]])
    """
    masked_fill_checks(self, mask, value)
    np.copyto(self, _scalar_to(value, self.dtype), where=mask)


def masked_select_checks(self, mask) -> tuple:
    """masked_select's argument checks, on shapes and dtypes only (any device's arrays); returns the
    broadcast shape of ``self`` and ``mask``."""
    if mask.dtype != _BOOL:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    return _infer_size(mask.shape, self.shape)


def masked_select(self, mask):
    """The entries of ``self`` where ``mask`` (bool) is True, as a 1-d array; both broadcast.

    >>> masked_select(np.array([[1, 2], [3, 4]]), np.array([True, False]))
    array([1, 3])
    """
    shape = masked_select_checks(self, mask)
    return np.broadcast_to(self, shape)[np.broadcast_to(mask, shape)]


def nonzero(self):
    """The indices of the non-zero entries of ``self``, int64 of shape (count, ndim).

    Like torch, the result is laid out column by column (strides (1, count)).

    >>> nonzero(np.array([[0, 1], [2, 0]]))
    array([[0, 1],
           [1, 0]])
    """
    if self.ndim == 0:
        return np.zeros((1 if self.item() != 0 else 0, 0), np.int64)
    where = np.nonzero(self)
    out = np.empty((self.ndim, where[0].size), np.int64)
    for k, w in enumerate(where):
        out[k] = w
    return out.T


# --- advanced indexing -------------------------------------------------------------------------------


def expand_indices(self, indices, mask_indices=np.nonzero) -> tuple:
    """Check ``indices`` as aten::index does, on shapes and dtypes (any device's arrays); masks become
    index arrays through ``mask_indices`` (a mask -> one int64 array per mask dim: ``np.nonzero`` here,
    the device's nonzero for device arrays).

    Returns (entries, shape): one entry per dim consumed (None = full slice, else an int index array)
    and the broadcast shape of the index arrays. A 0-d mask consumes no dim and is dropped, as torch's
    expandTensors drops it.

    >>> expand_indices(np.zeros((2, 3)), [None, np.array([True, False, True])])
    ([None, array([0, 2])], (2,))
    """
    indices = list(indices)
    if not indices:
        raise IndexError("at least one index must be provided")
    if len(indices) > self.ndim:
        raise IndexError(f"too many indices for tensor of dimension {self.ndim} (got {len(indices)})")
    for idx in indices:
        if idx is not None and idx.dtype not in (_I64, _I32, _U8, _BOOL):
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    entries = []
    for idx in indices:
        if idx is None or idx.dtype not in (_U8, _BOOL):
            entries.append(idx)
            continue
        if idx.dtype == _U8:
            warnings.warn(
                "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.",
                UserWarning,
                stacklevel=4,
            )
        for j in range(idx.ndim):
            src = len(entries) + j
            if idx.shape[j] != self.shape[_wrap_dim(src, self.ndim)]:
                raise IndexError(
                    f"The shape of the mask {list(idx.shape)} at index {j} does not match the "
                    f"shape of the indexed tensor {list(self.shape)} at index {src}"
                )
        entries.extend(mask_indices(idx) if idx.ndim else ())
    arrays = [e for e in entries if e is not None]
    try:
        shape = np.broadcast_shapes(*(a.shape for a in arrays))
    except ValueError:
        shapes = ", ".join(str(list(a.shape)) for a in arrays)
        raise IndexError(
            f"shape mismatch: indexing tensors could not be broadcast together with shapes {shapes}"
        ) from None
    return entries, shape


def index_out_of_bounds_error(value: int, k: int, n: int) -> IndexError:
    """aten::index's error for ``value``, the first bad index (C order over the broadcast shape, then
    the ``k``-th index array first), outside [-n, n) for its dim of size ``n``.

    >>> index_out_of_bounds_error(5, 1, 4)
    IndexError('index 5 is out of bounds for dimension 1 with size 4')
    """
    if n == 0:
        return IndexError("index is out of bounds for dimension with size 0")
    return IndexError(f"index {value} is out of bounds for dimension {k} with size {n}")


def _check_index_bounds(self: np.ndarray, entries: list, shape: tuple) -> list:
    """Raise torch's IndexError for the first out-of-range index; return the indices wrapped >= 0."""
    adv = [(d, e) for d, e in enumerate(entries) if e is not None]
    bad = None
    for k, (d, e) in enumerate(adv):
        n = self.shape[d]
        if e.size and (e.min() < -n or e.max() >= n):
            b = np.broadcast_to((e < -n) | (e >= n), shape).reshape(-1)
            first = int(np.argmax(b))
            if bad is None or first < bad[0]:
                bad = (first, k, d, e)
    if bad is not None:
        first, k, d, e = bad
        value = int(np.broadcast_to(e, shape).reshape(-1)[first])
        raise index_out_of_bounds_error(value, k, self.shape[d])
    return [
        None if e is None else np.where(e < 0, e + self.shape[d], e).astype(np.int64, copy=False)
        for d, e in enumerate(entries)
    ]


def result_layout(ndim: int, entries: list) -> tuple:
    """(before, adv, after): the sliced dims placed before the broadcast index dims, the indexed dims,
    and the sliced dims placed after. Index dims replace adjacent indexed dims in place, else lead;
    without any index array every dim comes before.

    >>> result_layout(3, [None, np.array([0]), np.array([1])]), result_layout(3, [np.array([0]), None, np.array([1])])
    (([0], [1, 2], []), ([], [0, 2], [1]))
    """
    adv = [d for d, e in enumerate(entries) if e is not None]
    if not adv:
        return list(range(ndim)), [], []
    rest = [d for d in range(ndim) if d not in adv]
    adjacent = adv == list(range(adv[0], adv[-1] + 1))
    before = [d for d in rest if d < adv[0]] if adjacent else []
    return before, adv, [d for d in rest if d not in before]


def index_put_checks(self, entries: list, shape: tuple, values) -> tuple:
    """index_put_'s checks of ``values`` against ``self`` and its expanded indices (``expand_indices``),
    on shapes and dtypes (any device's arrays), and torch's warning for a ``self`` whose elements
    overlap. Returns the shape of the indexing result, which ``values`` broadcasts to.

    >>> index_put_checks(np.zeros((2, 3)), [None, np.array([0, 2])], (2,), np.zeros(2))
    (2, 2)
    """
    before, _, after = result_layout(self.ndim, entries)
    result_shape = tuple(self.shape[d] for d in before) + tuple(shape) + tuple(self.shape[d] for d in after)
    if values.ndim > len(result_shape) or any(
        v != 1 and v != r for v, r in zip(values.shape[::-1], result_shape[::-1])
    ):
        raise RuntimeError(
            f"shape mismatch: value tensor of shape {list(values.shape)} cannot be broadcast "
            f"to indexing result of shape {list(result_shape)}"
        )
    if values.dtype != self.dtype:
        raise RuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{_SCALAR_NAME[self.dtype.name]} for the destination and "
            f"{_SCALAR_NAME[values.dtype.name]} for the source."
        )
    if _has_internal_overlap(self):
        warnings.warn(
            "Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor before "
            "performing this operation. This also applies to advanced indexing e.g. "
            "tensor[indices] = tensor",
            UserWarning,
            stacklevel=4,
        )
    # Unlike masked_fill_'s mask, values and indices may not even be self itself.
    _assert_no_overlap(self, values)
    for e in entries:
        if e is not None:
            _assert_no_overlap(self, e)
    return result_shape


def index(self, indices):
    """``self[indices]`` with torch's ``aten::index.Tensor`` semantics (None = full slice).

    >>> index(np.arange(12).reshape(3, 4), [None, np.array([0, 3])])
    array([[ 0,  3],
           [ 4,  7],
           [ 8, 11]])
    """
    entries, shape = expand_indices(self, indices)
    if all(e is None for e in entries):
        return _c(self.copy())
    _check_index_bounds(self, entries, shape)
    key = tuple(slice(None) if e is None else e for e in entries)
    return _c(self[key])


def index_put_(self, indices, values, accumulate):
    """``self[indices] = values`` (or ``+=`` with ``accumulate``, duplicates adding up), in place.

    >>> a = np.zeros(3); index_put_(a, [np.array([0, 0, 2])], np.array([1.0, 2.0, 3.0]), True); a
    array([3., 0., 3.])
    """
    entries, shape = expand_indices(self, indices)
    result_shape = index_put_checks(self, entries, shape, values)
    if all(e is None for e in entries):
        if accumulate:
            self += values
        else:
            self[...] = values
        return
    wrapped = _check_index_bounds(self, entries, shape)
    if not accumulate:
        self[tuple(slice(None) if e is None else e for e in wrapped)] = values
        return
    if self.dtype.kind == "c":  # _scatter_loop adds real numbers: accumulate the two parts
        index_put_(self.real, indices, values.real, True)
        index_put_(self.imag, indices, values.imag, True)
        return
    before, adv, after = result_layout(self.ndim, entries)
    # 16-bit float sums run in a float32 copy, rounded after every add as torch's Half/BFloat16 adds are.
    half = self.dtype in _HALVES
    target = self.astype(_F32) if half else self
    buf, off, st = _flat(target)
    # The memory position of every element of the indexing result, built by broadcasting.
    ndim_r = len(result_shape)
    pos = np.full((1,) * ndim_r, off, np.int64)
    lead, trail = (1,) * len(before), (1,) * len(after)
    for d in adv:
        pos = pos + (np.broadcast_to(wrapped[d], shape) * st[d]).reshape(lead + shape + trail)
    for r, d in enumerate(before + after):
        axis_shape = [1] * ndim_r
        axis_shape[r if r < len(before) else r + len(shape)] = self.shape[d]
        pos = pos + (np.arange(self.shape[d], dtype=np.int64) * st[d]).reshape(axis_shape)
    pos = _c(np.broadcast_to(pos, result_shape)).reshape(-1)
    vals = _c(np.broadcast_to(values.astype(_F32) if half else values, result_shape)).reshape(-1)
    one = np.ones(1, np.int64)
    _scatter_loop(
        buf,
        0,
        one,
        pos,
        0,
        one,
        vals,
        0,
        one,
        np.array(pos.shape, np.int64),
        0,
        (_ADD_BF16 if self.dtype == _BF16 else _ADD_HALF) if half else _ADD,
    )
    if half:
        self[...] = target
