"""Reductions over device arrays, as block-level tree reductions in shared memory.

sum, mean, prod, max / min (with or without their indices), amax / amin, argmax / argmin, all / any,
var / std, logsumexp and the vector norms: same signatures, checks (imported from
``kernels/cpu/reduce.py``), dtype rules and results as the CPU kernels. The input (any layout) is
first gathered into a C-contiguous ``(kept..., reduced...)`` array by the copy kernel (no copy when
it already is one), so every output element is one contiguous row. One block reduces one row: its
threads stride through the row, then halve their partial results in shared memory. A long row is
split over several blocks and their partial results reduced by a second launch.

Every reduction is the one kernel template, ``_rows_kernel``, compiled per ``_Op`` (how two partial
results combine, with the index of the element they came from, for the arg-reductions), per
element transform before combining (``pre``: ``(x - c)**2`` for var, ``exp(x - c)`` for
logsumexp, with ``c`` a per-row value from an earlier pass; ``|x|**c`` for a p-norm, with ``c = p``
for every row) and per finishing step on a row's result (``post``: divide for mean and var,
``log(s) + c`` for logsumexp, ``s**(1/p)`` for a p-norm).
"""

import functools
import math
from typing import NamedTuple

import numpy as np
from numba import cuda, from_dtype, int64

from ..._dims import reduction_dims as _reduce_axes
from ..cpu.convert import compute_dtype
from ..cpu.reduce import (
    amaxmin_checks,
    argext_checks,
    logical_axes,
    logical_dtype,
    logsumexp_dtype,
    mean_dtype,
    minmax_all_checks,
    minmax_dim_checks,
    norm_checks,
    sum_out_dtype,
    var_checks,
)
from . import memory
from .copy import clone, contiguous_cast, gather
from .scalar import exp, isinf, log, sqrt

_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
_I64, _BOOL, _U8 = np.dtype(np.int64), np.dtype(np.bool_), np.dtype(np.uint8)

MAX_THREADS = 256  # threads per block, a power of two


def refuse_complex(op: str, *arrays) -> None:
    """The reductions and products here compute real numbers only: a complex input raises the error of
    an op without a cuda kernel (PyTorch's missing-backend NotImplementedError)."""
    for a in arrays:
        if a.dtype.kind == "c":
            raise NotImplementedError(
                f"Could not run 'aten::{op}' with arguments from the 'CUDA' backend: yaten's cuda kernels of "
                f"reductions and matrix products take no complex numbers; compute {op} on the cpu"
            )


_PER_THREAD = 8  # elements each thread reduces before a row is worth splitting over more blocks
_MAX_BLOCKS = 1024  # blocks a split reduction aims for


def sum_all(self, dtype):
    """Sum of every element, as a 0-d device array; integers and bool sum to int64 unless ``dtype``.

    >>> memory.to_host(sum_all(memory.from_host(np.array([[1, 2], [3, 4]], np.int8)), None))
    array(10)
    """
    refuse_complex("sum", self)
    return _sum_like(self, None, False, sum_out_dtype(self, _opt_dtype(dtype)), _SUM)


def sum_dim(self, dim, keepdim, dtype):
    """Sum over the dims in ``dim`` (a tuple; ``None`` or ``()`` for all)."""
    refuse_complex("sum", self)
    return _sum_like(self, dim, keepdim, sum_out_dtype(self, _opt_dtype(dtype)), _SUM)


def mean_dim(self, dim=None, keepdim=False, dtype=None):
    """Mean over the dims in ``dim``; floating inputs only, or a floating ``dtype``."""
    refuse_complex("mean", self)
    return _sum_like(self, dim, keepdim, mean_dtype(self, _opt_dtype(dtype)), _SUM, post=_divide)


def prod_dim(self, dim=None, keepdim=False, dtype=None):
    """Product over one dim (an int) or all of them (``None``); integers and bool give int64.

    >>> memory.to_host(prod_dim(memory.from_host(np.array([[1, 2], [3, 4]])), 1, False, None))
    array([ 2, 12])
    """
    refuse_complex("prod", self)
    axes = tuple(range(self.ndim)) if dim is None else _reduce_axes((dim,), self.ndim)
    return _sum_like(self, axes, keepdim, sum_out_dtype(self, _opt_dtype(dtype)), _PROD)


def max_all(self):
    """The largest element as a 0-d array (NaN if there is one); an empty input is an error.

    >>> memory.to_host(max_all(memory.from_host(np.array([1.0, 3.0, 2.0]))))
    array(3.)
    """
    refuse_complex("max", self)
    minmax_all_checks(self, "max")
    return _extreme(self, None, False, _MAX)


def min_all(self):
    """The smallest element as a 0-d array (NaN if there is one); an empty input is an error."""
    refuse_complex("min", self)
    minmax_all_checks(self, "min")
    return _extreme(self, None, False, _MIN)


def max_dim(self, dim, keepdim):
    """``(values, indices)`` of the maximum along ``dim``; the index is the first maximal one.

    >>> v, i = max_dim(memory.from_host(np.array([[1, 5, 5], [7, 2, 7]])), 1, False)
    >>> memory.to_host(v), memory.to_host(i)
    (array([5, 7]), array([1, 0]))
    """
    refuse_complex("max", self)
    return _extreme_dim(self, minmax_dim_checks(self, dim, "max"), keepdim, _ARGMAX)


def min_dim(self, dim, keepdim):
    """``(values, indices)`` of the minimum along ``dim``; the index is the first minimal one."""
    refuse_complex("min", self)
    return _extreme_dim(self, minmax_dim_checks(self, dim, "min"), keepdim, _ARGMIN)


def amax(self, dim, keepdim):
    """Maximum over the dims in ``dim`` (``None`` or ``()`` for all), NaN-propagating.

    >>> memory.to_host(amax(memory.from_host(np.array([[1, 5], [7, 2]])), (0,), False))
    array([7, 5])
    """
    refuse_complex("amax", self)
    return _extreme(self, amaxmin_checks(self, dim, "amax"), keepdim, _MAX)


def amin(self, dim, keepdim):
    """Minimum over the dims in ``dim`` (``None`` or ``()`` for all), NaN-propagating."""
    refuse_complex("amin", self)
    return _extreme(self, amaxmin_checks(self, dim, "amin"), keepdim, _MIN)


def argmax(self, dim, keepdim):
    """Index (int64) of the first maximum along ``dim``, or in the flattened input when ``dim`` is None.

    >>> memory.to_host(argmax(memory.from_host(np.array([[1, 9, 9], [4, 2, 4]])), 1, False))
    array([1, 0])
    """
    refuse_complex("argmax", self)
    return _arg_extreme(self, argext_checks(self, dim, "argmax"), keepdim, _ARGMAX)


def argmin(self, dim, keepdim):
    """Index (int64) of the first minimum along ``dim``, or in the flattened input when ``dim`` is None."""
    refuse_complex("argmin", self)
    return _arg_extreme(self, argext_checks(self, dim, "argmin"), keepdim, _ARGMIN)


def all_dims(self, dim, keepdim):
    """Whether every element is nonzero over ``dim`` (``None``: all dims; ``()``: none, as PyTorch).

    >>> memory.to_host(all_dims(memory.from_host(np.array([[1, 0], [2, 3]])), (1,), False))
    array([False,  True])
    """
    refuse_complex("all", self)
    return _logical(self, dim, keepdim, _ALL)


def any_dims(self, dim, keepdim):
    """Whether some element is nonzero over ``dim`` (``None``: all dims; ``()``: none, as PyTorch)."""
    refuse_complex("any", self)
    return _logical(self, dim, keepdim, _ANY)


def var(self, dim=None, correction=None, keepdim=False):
    """Variance over the dims in ``dim`` (``None`` or ``()`` for all) with ``N - correction`` divisor.

    >>> memory.to_host(var(memory.from_host(np.array([1.0, 2.0, 4.0])), None, 1, False))
    array(2.33333333)
    """
    refuse_complex("var", self)
    return _var(self, dim, correction, keepdim, _divide, "var")


def std(self, dim=None, correction=None, keepdim=False):
    """Standard deviation: the square root of ``var``."""
    refuse_complex("std", self)
    return _var(self, dim, correction, keepdim, _root_of_quotient, "std")


def logsumexp(self, dim, keepdim):
    """``log(sum(exp(self)))`` over the dims in ``dim``, stable; integer inputs give float32.

    >>> memory.to_host(logsumexp(memory.from_host(np.array([0.0, 0.0])), (0,), False))
    array(0.69314718)
    """
    refuse_complex("logsumexp", self)
    out = logsumexp_dtype(self)
    ct = compute_dtype(out)
    rows = _Rows(self, _reduce_axes(dim, self.ndim), keepdim, ct)
    if not rows.k:
        return rows.result(None, out)
    # Shifted by the row's max so that exp cannot overflow; an infinite max by 0 instead, so that
    # inf - inf does not make NaN (an empty row has max -inf: its sum is log(0) = -inf).
    shift = rows.reduce(_MAX, ct, post=_finite_or_zero)[0]
    return rows.result(rows.reduce(_SUM, ct, pre=_exp_shifted, aux=shift, post=_log_plus)[0], out)


def norm(self, p=2, dim=None, keepdim=False, dtype=None):
    """Vector ``p``-norm over ``dim`` (``None`` or ``()`` for all), as ``torch.linalg.vector_norm``;
    computed in float32 for half, as on the CPU.

    >>> memory.to_host(norm(memory.from_host(np.array([3.0, -4.0])), 2, None, False, None))
    array(5.)
    >>> memory.to_host(norm(memory.from_host(np.array([3.0, -4.0])), float("inf"), None, False, None))
    array(4.)
    """
    refuse_complex("norm", self)
    p, axes, out = norm_checks(self, p, dim, _opt_dtype(dtype))
    ct = compute_dtype(out)
    rows = _Rows(self, axes, keepdim, ct)
    if not rows.k:
        return rows.result(None, out)
    if p == 0:  # the count of nonzero elements
        res = rows.reduce(_SUM, ct, pre=_nonzero)
    elif p == math.inf:
        res = rows.reduce(_MAX, ct, pre=_magnitude)
    elif p == -math.inf:
        res = rows.reduce(_MIN, ct, pre=_magnitude)
    elif p == 1:
        res = rows.reduce(_SUM, ct, pre=_magnitude)
    elif p == 2:
        res = rows.reduce(_SUM, ct, pre=_square, post=_root)
    else:  # p itself is every row's aux value, 1 / p the launch's divisor
        p_dev = memory.from_host(np.array([p], ct))
        res = rows.reduce(_SUM, ct, pre=_magnitude_pow, aux=p_dev, post=_pow_div, div=1.0 / p)
    return rows.result(res[0], out)


# --- dims and dtypes (the rules of kernels/cpu/reduce.py) -------------------------------------


def _opt_dtype(dtype):
    """A NumPy dtype from a yaten dtype (its ``.np``) or anything ``np.dtype`` takes; None stays."""
    if dtype is None:
        return None
    return np.dtype(getattr(dtype, "np", dtype))


def _dtypes(in_dt, out):
    """(dtype the input is converted to before summing, accumulate dtype) for a result of ``out``.

    As PyTorch, conversions that round or truncate (to half, to a narrower integer, to bool) happen
    before summing; widening ones happen as each element is added. Half accumulates in float32,
    bool (an "any" for sums, an "all" for products) as int64.
    """
    src = in_dt if np.can_cast(in_dt, out, "safe") else out
    acc = _F32 if out == _F16 else (_I64 if out == _BOOL else out)
    return src, acc


def _value_dtype(dt):
    """The dtype max / min compare in: float32 for half (exact both ways), uint8 for bool."""
    return _F32 if dt == _F16 else (_U8 if dt == _BOOL else dt)


# --- the operations: how two partial results combine ----------------------------------------------
# ``combine(a, ia, b, ib)`` joins two partial results ``a`` and ``b``, each with the index in its
# row of the element it came from (-1 for none yet), into one such pair. Only the arg-reductions
# look at the indices (they keep one of the two pairs); the others carry ``ia`` along.


class _Op(NamedTuple):
    name: str
    combine: object  # a numba.cuda device function
    identity: str  # "zero", "one", "lowest", "highest": the result of reducing no element
    indexed: bool = False  # whether the index of the result is wanted


_device = cuda.jit(device=True)


@_device
def _add(a, ia, b, ib):
    return a + b, ia


@_device
def _mul(a, ia, b, ib):
    return a * b, ia


@_device
def _and(a, ia, b, ib):
    return a & b, ia


@_device
def _or(a, ia, b, ib):
    return a | b, ia


@_device
def _larger(a, ia, b, ib):
    # NaN wins, as NumPy's and PyTorch's max.
    if a != a or a >= b:
        return a, ia
    return b, ib


@_device
def _smaller(a, ia, b, ib):
    if a != a or a <= b:
        return a, ia
    return b, ib


def _first_extreme(largest: bool):
    """The combine of argmax (``largest``) or argmin: the first index of the extreme value, a NaN
    counting as beyond anything and the first NaN winning (PyTorch's CPU argmax/argmin)."""

    @_device
    def pick(a, ia, b, ib):
        if ib < 0:
            return a, ia
        if ia < 0:
            return b, ib
        if a != a:
            if b != b and ib < ia:
                return b, ib
            return a, ia
        beyond = b > a if largest else b < a
        if b != b or beyond or (b == a and ib < ia):
            return b, ib
        return a, ia

    return pick


_first_larger, _first_smaller = _first_extreme(True), _first_extreme(False)


_SUM = _Op("sum", _add, "zero")
_PROD = _Op("prod", _mul, "one")
_MAX = _Op("max", _larger, "lowest")
_MIN = _Op("min", _smaller, "highest")
_ARGMAX = _Op("argmax", _first_larger, "zero", indexed=True)
_ARGMIN = _Op("argmin", _first_smaller, "zero", indexed=True)
_ALL = _Op("all", _and, "one")  # over 0/1 in uint8
_ANY = _Op("any", _or, "zero")


def _identity(op: _Op, acc):
    if op.identity in ("zero", "one"):
        return acc.type(op.identity == "one")
    lowest = op.identity == "lowest"
    if acc.kind == "f":
        return acc.type(-np.inf if lowest else np.inf)
    info = np.iinfo(acc)
    return acc.type(info.min if lowest else info.max)


# --- element transforms before combining, and finishing steps of a row's result ----------------
# ``c`` is the row's value from an earlier pass (``aux``), ``div`` a divisor fixed per launch.


@_device
def _keep(x, c):
    return x


@_device
def _centered_square(x, c):
    d = x - c
    return d * d


@_device
def _exp_shifted(x, c):
    return exp(x - c)


@_device
def _square(x, c):
    return x * x


@_device
def _magnitude(x, c):
    return abs(x)


@_device
def _magnitude_pow(x, c):
    return abs(x) ** c


@_device
def _nonzero(x, c):
    return 1.0 if x != 0 else 0.0


@_device
def _keep_total(s, div, c):
    return s


@_device
def _divide(s, div, c):
    return s / div


@_device
def _root_of_quotient(s, div, c):
    return sqrt(s / div)


@_device
def _root(s, div, c):
    return sqrt(s)


@_device
def _pow_div(s, div, c):
    return s**div


@_device
def _finite_or_zero(s, div, c):
    return 0.0 if isinf(s) else s


@_device
def _log_plus(s, div, c):
    return log(s) + c


# --- the kernel template -----------------------------------------------------------------------------


@functools.cache
def _rows_kernel(op: _Op, acc, threads: int, pre, post, given_indices: bool):
    """The kernel reducing rows with ``op`` in ``acc`` with ``threads`` per block (a power of two);
    one compiled kernel per argument tuple, source dtype aside.

    Block ``b`` reduces chunk ``b % parts`` of row ``r = b // parts``, i.e. ``src[r*m + lo : r*m + hi]``,
    each element transformed by ``pre(x, aux[r * aux_step])``, and writes ``post(result, div, aux[...])``
    to ``out[b]`` (and the result's index to ``out_idx[b]`` for an indexed op). An element's index is
    its position in the row, or ``src_idx`` of it when ``given_indices`` (a second pass over the
    partial results of a split row).
    """
    acc_t, start = from_dtype(acc), _identity(op, acc)
    combine, indexed = op.combine, op.indexed

    @cuda.jit
    def reduce_rows(src, src_idx, aux, aux_step, m, chunk, parts, div, out, out_idx):
        b = cuda.blockIdx.x
        t = cuda.threadIdx.x
        r = b // parts
        c = aux[r * aux_step]
        lo = (b - r * parts) * chunk
        hi = lo + chunk
        if hi > m:
            hi = m
        s = start
        si = -1
        j = lo + t
        while j < hi:
            e = r * m + j
            s, si = combine(s, si, pre(src[e], c), src_idx[e] if given_indices else j)
            j += threads
        partial = cuda.shared.array(threads, acc_t)
        partial_idx = cuda.shared.array(threads, int64)
        partial[t] = s
        partial_idx[t] = si
        cuda.syncthreads()
        step = threads // 2
        while step > 0:
            if t < step:
                v, vi = combine(partial[t], partial_idx[t], partial[t + step], partial_idx[t + step])
                partial[t] = v
                partial_idx[t] = vi
            cuda.syncthreads()
            step //= 2
        if t == 0:
            out[b] = post(partial[0], div, c)
            if indexed:
                out_idx[b] = partial_idx[0]

    return reduce_rows


def block_threads(length: int) -> int:
    """The power of two of threads for rows of ``length``: no more than it takes, at most 256."""
    t = 1
    while t < length and t < MAX_THREADS:
        t *= 2
    return t


_PLACEHOLDERS = {}


def _placeholder(dt):
    """A one-element device array of ``dt``, passed for an argument a kernel does not read."""
    dt = np.dtype(dt)
    arr = _PLACEHOLDERS.get(dt)
    if arr is None:
        arr = _PLACEHOLDERS[dt] = memory.from_host(np.zeros(1, dt))
    return arr


def _reduce_rows(x, k: int, m: int, op: _Op, acc, pre=_keep, post=_keep_total, aux=None, div=0):
    """The ``k`` results of ``op`` over the rows of length ``m`` of the flat contiguous ``x``, in
    ``acc``, with their indices (int64, for an indexed op; else None). ``aux`` (in ``acc``) holds
    each row's value, or one value for every row."""
    div = acc.type(div)
    aux, aux_step = (_placeholder(acc), 0) if aux is None else (aux, int(aux.size > 1))
    no_idx = _placeholder(_I64)
    out = memory.empty((k,), acc)
    idx = memory.empty((k,), _I64) if op.indexed else no_idx
    parts = 1
    if m > MAX_THREADS * _PER_THREAD:
        parts = max(1, min(math.ceil(m / (MAX_THREADS * _PER_THREAD)), math.ceil(_MAX_BLOCKS / k)))
    if parts == 1:
        t = block_threads(m)
        _rows_kernel(op, acc, t, pre, post, False)[k, t](x, no_idx, aux, aux_step, m, m, 1, div, out, idx)
        return out, (idx if op.indexed else None)
    chunk = math.ceil(m / parts)
    partial = memory.empty((k * parts,), acc)
    partial_idx = memory.empty((k * parts,), _I64) if op.indexed else no_idx
    first = _rows_kernel(op, acc, MAX_THREADS, pre, _keep_total, False)
    first[k * parts, MAX_THREADS](x, no_idx, aux, aux_step, m, chunk, parts, div, partial, partial_idx)
    t = block_threads(parts)
    second = _rows_kernel(op, acc, t, _keep, post, op.indexed)
    second[k, t](partial, partial_idx, aux, aux_step, parts, parts, 1, div, out, idx)
    return out, (idx if op.indexed else None)


class _Rows:
    """``a`` gathered as ``k`` contiguous rows of the ``m`` elements each output element reduces
    (the dims in ``axes``), converted to ``src``; ``shape`` is the output's."""

    def __init__(self, a, axes, keepdim: bool, src):
        kept = [d for d in range(a.ndim) if d not in axes]
        shape = tuple(a.shape)
        if keepdim:
            self.shape = tuple(1 if d in axes else n for d, n in enumerate(shape))
        else:
            self.shape = tuple(shape[d] for d in kept)
        self.k = math.prod(shape[d] for d in kept)
        self.m = math.prod(shape[d] for d in axes)
        self.x = None
        if self.k:
            strides = memory.span(a)[1]
            order = kept + list(axes)
            x = gather(a, [shape[d] for d in order], [strides[d] for d in order], src)
            self.x = memory.flat(x)

    def reduce(self, op: _Op, acc, **kw):
        """``(values, indices)`` of ``op`` over each row (see ``_reduce_rows``)."""
        return _reduce_rows(self.x, self.k, self.m, op, acc, **kw)

    def result(self, res, out):
        """The ``k`` results ``res`` as a new array of the output's shape and dtype ``out``."""
        if not self.k:
            return memory.empty(self.shape, out)
        if res.dtype != out:
            res = contiguous_cast(res, (self.k,), out)
        return memory.raw_view(res, out, self.shape, memory.c_strides(self.shape, out.itemsize), 0)


# --- the reductions ------------------------------------------------------------------------------------


def _sum_like(a, dim, keepdim, out, op, post=_keep_total):
    """sum, mean (``post=_divide``) and prod over ``dim`` with a result of dtype ``out``."""
    src, acc = _dtypes(a.dtype, out)
    rows = _Rows(a, _reduce_axes(dim, a.ndim), keepdim, src)
    if not rows.k:
        return rows.result(None, out)
    return rows.result(rows.reduce(op, acc, post=post, div=rows.m)[0], out)


def _extreme(a, axes, keepdim, op):
    """max / min over ``axes`` (None: every dim), in ``a``'s dtype."""
    vt = _value_dtype(a.dtype)
    rows = _Rows(_as_values(a), _reduce_axes(axes, a.ndim), keepdim, vt)
    if not rows.k:
        return rows.result(None, a.dtype)
    return _from_values(rows.result(rows.reduce(op, vt)[0], vt), a.dtype)


def _extreme_dim(a, d, keepdim, op):
    """``(values, indices)`` of max / min along the (wrapped) dim ``d``."""
    if a.ndim == 0:
        return clone(a), memory.from_host(np.zeros((), _I64))
    vt = _value_dtype(a.dtype)
    rows = _Rows(_as_values(a), (d,), keepdim, vt)
    if not rows.k:
        return rows.result(None, a.dtype), rows.result(None, _I64)
    values, idx = rows.reduce(op, vt)
    return _from_values(rows.result(values, vt), a.dtype), rows.result(idx, _I64)


def _arg_extreme(a, d, keepdim, op):
    """argmax / argmin along the (wrapped) dim ``d``, or over the flattened input (``d`` None)."""
    if d is not None and a.ndim == 0:
        return memory.from_host(np.zeros((), _I64))
    axes = tuple(range(a.ndim)) if d is None else (d,)
    vt = _value_dtype(a.dtype)
    rows = _Rows(a, axes, keepdim, vt)
    if not rows.k:
        return rows.result(None, _I64)
    return rows.result(rows.reduce(op, vt)[1], _I64)


def _logical(a, dim, keepdim, op):
    """all / any: the input as 0/1 (``!= 0``) in uint8, reduced with ``&`` / ``|``."""
    out = logical_dtype(a)
    rows = _Rows(a, logical_axes(a, dim), keepdim, _BOOL)
    if not rows.k:
        return rows.result(None, out)
    rows.x = memory.raw_view(rows.x, _U8, rows.x.shape, rows.x.strides, 0)
    return _from_values(rows.result(rows.reduce(op, _U8)[0], _U8), out)


def _var(a, dim, correction, keepdim, post, name):
    """var (``post=_divide``) or std (``post=_root_of_quotient``), in two passes in float64."""
    axes, correction = var_checks(a, dim, correction, name)
    rows = _Rows(a, axes, keepdim, _F64)
    if not rows.k:
        return rows.result(None, a.dtype)
    if not rows.m:  # no elements at all: NaN whatever the correction, as PyTorch
        res = memory.from_host(np.full(rows.k, np.nan))
        return rows.result(res, a.dtype)
    mean = rows.reduce(_SUM, _F64, post=_divide, div=rows.m)[0]
    # PyTorch divides by max(0, N - correction): 0 gives inf (or NaN for 0 / 0).
    ss = rows.reduce(_SUM, _F64, pre=_centered_square, aux=mean, post=post, div=max(0.0, rows.m - correction))
    return rows.result(ss[0], a.dtype)


def _as_values(a):
    """``a`` with bool seen as uint8 (same bytes), so that max / min compare numbers."""
    if a.dtype != _BOOL:
        return a
    return memory.raw_view(a, _U8, a.shape, a.strides, 0)


def _from_values(res, dt):
    """A result computed by ``_value_dtype`` back in ``dt``: bool from 0/1 uint8 by a view."""
    if res.dtype == dt:
        return res
    if dt == _BOOL:
        return memory.raw_view(res, _BOOL, res.shape, res.strides, 0)
    return contiguous_cast(res, res.shape, dt)
