"""Reductions over host arrays: sum, mean, prod, max/min, arg-reductions, var/std, norms, softmax.

Every kernel takes NumPy arrays of any layout (non-contiguous, 0-d, empty) and plain Python values,
returns a new array whose dtype is the one PyTorch gives for the same op, and raises PyTorch's
exception with PyTorch's wording on bad input. ``dim`` arrives as ints that may be negative or out
of range; the kernels wrap and check them. Half-precision inputs are computed in float32 and cast
back, as PyTorch's CPU kernels accumulate them.

Large dense sums go through the Numba kernels at the bottom of this file: blocks summed in the
input dtype (vectorised by ``fastmath``), blocks combined in float64/int64, in parallel on Numba's
threads. Everything else uses NumPy's reductions.
"""

import math

import numba
import numpy as np
from numba import prange

from ..._dims import reduction_dims as _reduce_axes
from ..._dims import wrap_dim as _wrap_dim
from ..._dtype import LEGACY_NAME
from ..._user_warning import warn_user
from .convert import HALVES, cast, compute_dtype, is_floating
from .threads import kernel_threads, parallel_njit

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_I64, _BOOL, _U8 = np.dtype(np.int64), np.dtype(np.bool_), np.dtype(np.uint8)

# PyTorch's legacy scalar-type names, as its error messages print them.
_LEGACY_NAMES = {d.np: name for d, name in LEGACY_NAME.items()}

# From about this many elements the parallel Numba sums beat NumPy's (measured on 2 cores: 6 vs 6 us
# at 32k float32, 7 vs 21 us at 128k); below it starting the threads does not pay.
_PARALLEL_MIN = 1 << 15


def _name(dtype) -> str:
    return _LEGACY_NAMES.get(np.dtype(dtype), str(dtype))


def _is_float(dtype) -> bool:
    return is_floating(dtype)


def _is_inexact(dtype) -> bool:
    """Floating or complex: the dtypes mean, var/std and the norms take."""
    return is_floating(dtype) or np.dtype(dtype).kind == "c"


def _real(dtype) -> np.dtype:
    """The dtype of a complex one's parts (var, std and norms of complex are real); others unchanged."""
    d = np.dtype(dtype)
    return np.empty(0, d).real.dtype if d.kind == "c" else d


def _refuse_complex(a, kernel) -> None:
    if a.dtype.kind == "c":
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_name(a.dtype)}'")


def _opt_dtype(dtype):
    return None if dtype is None else np.dtype(dtype)


def _dim_list(dim):
    """``dim`` as a tuple of ints; ``None`` stays ``None``."""
    if dim is None:
        return None
    if isinstance(dim, (int, np.integer)):
        return (int(dim),)
    return tuple(int(d) for d in dim)


def _count(shape, axes) -> int:
    return math.prod(shape[d] for d in axes)


def _as_new(r, dtype) -> np.ndarray:
    """``r`` (an array or NumPy scalar) as an array of ``dtype``, never a scalar."""
    r = np.asarray(r)
    if r.dtype == dtype:
        return r
    with np.errstate(over="ignore", invalid="ignore"):  # rounding to half may overflow to inf
        return r.astype(dtype)


# ---------------------------------------------------------------------------------------------
# sum / mean / prod


def sum_out_dtype(a, dtype):
    if dtype is not None:
        return dtype
    return _I64 if a.dtype.kind in "biu" else a.dtype


def _prepare(a, out):
    """``a`` converted as PyTorch converts a reduction's input to ``dtype``, and the accumulate dtype.

    Conversions that round or truncate (to half, to an integer, to bool) happen before summing;
    widening ones are left to the reduction's own casting loop, which avoids a full-size copy.
    """
    if is_floating(out):
        if out in HALVES and a.dtype != out:
            with np.errstate(over="ignore"):
                a = cast(a, out)
        return a, compute_dtype(out)
    if out == _BOOL:
        return (a if a.dtype == _BOOL else a != 0), _BOOL
    if is_floating(a.dtype) or (a.dtype != out and out != _I64):
        with np.errstate(invalid="ignore"):  # NaN and inf to an integer: whatever C gives, as PyTorch
            a = a.astype(out)
    return a, out


def _sum(a, axes, keepdim, out):
    """Sum over ``axes`` of ``a`` converted to ``out``; the result is in the accumulate dtype."""
    src, acc = _prepare(a, out)
    if acc == _BOOL:
        return np.logical_or.reduce(src, axis=axes, keepdims=keepdim)
    fast = _fast_sum(src, axes, keepdim) if src.dtype == acc else None
    if fast is not None:
        return fast
    return np.add.reduce(src, axis=axes, dtype=acc, keepdims=keepdim)


def sum_all(self, dtype):
    """Sum of every element, as a 0-d array; integers and bool sum to int64 unless ``dtype`` is given.

    >>> sum_all(np.array([[1, 2], [3, 4]], np.int8), None)
    array(10)
    """
    out = sum_out_dtype(self, _opt_dtype(dtype))
    return _as_new(_sum(self, tuple(range(self.ndim)), False, out), out)


def sum_dim(self, dim, keepdim, dtype):
    """Sum over the dims in ``dim`` (a tuple; ``None`` or ``()`` for all).

    >>> sum_dim(np.arange(6.0).reshape(2, 3), (-1,), False, None)
    array([ 3., 12.])
    """
    out = sum_out_dtype(self, _opt_dtype(dtype))
    axes = _reduce_axes(dim, self.ndim)
    return _as_new(_sum(self, axes, keepdim, out), out)


def mean_dtype(a, dtype):
    """mean's result dtype: floating inputs only, or a floating ``dtype`` (shared with cuda)."""
    if dtype is None and not _is_inexact(a.dtype):
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or "
            f"complex dtype. Got: {_name(a.dtype)}"
        )
    if dtype is not None and not _is_inexact(dtype):
        raise RuntimeError(
            "mean(): could not infer output dtype. Optional dtype must be either a floating point or "
            f"complex dtype. Got: {_name(dtype)}"
        )
    return dtype or a.dtype


def mean_dim(self, dim=None, keepdim=False, dtype=None):
    """Mean over the dims in ``dim``; floating inputs only, or a floating ``dtype``.

    >>> mean_dim(np.arange(6.0).reshape(2, 3), (0,), False, None)
    array([1.5, 2.5, 3.5])
    """
    out = mean_dtype(self, _opt_dtype(dtype))
    axes = _reduce_axes(dim, self.ndim)
    total = np.asarray(_sum(self, axes, keepdim, out))
    with np.errstate(invalid="ignore", divide="ignore"):
        return _as_new(total / total.dtype.type(_count(self.shape, axes)), out)


def prod_dim(self, dim=None, keepdim=False, dtype=None):
    """Product over one dim (an int) or all of them (``None``).

    >>> prod_dim(np.array([[1, 2], [3, 4]]), 1, False, None)
    array([ 2, 12])
    """
    out = sum_out_dtype(self, _opt_dtype(dtype))
    axes = tuple(range(self.ndim)) if dim is None else _reduce_axes((dim,), self.ndim)
    src, acc = _prepare(self, out)
    if acc == _BOOL:
        r = np.logical_and.reduce(src, axis=axes, keepdims=keepdim)
    else:
        r = np.multiply.reduce(src, axis=axes, dtype=acc, keepdims=keepdim)
    return _as_new(r, out)


# ---------------------------------------------------------------------------------------------
# max / min and the arg-reductions


def minmax_all_checks(a, name):
    """An empty input has no max or min (shared with the cuda kernels)."""
    if a.size == 0:
        raise RuntimeError(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
            "Specify the reduction dim with the 'dim' argument."
        )


def _minmax_all(a, ufunc, name):
    _refuse_complex(a, f"{name}_all")
    minmax_all_checks(a, name)
    # NumPy's maximum/minimum propagate NaN, as PyTorch's max/min do.
    return _as_new(ufunc.reduce(a, axis=None), a.dtype)


def max_all(self):
    """The largest element as a 0-d array (NaN if there is one); an empty input is an error.

    >>> max_all(np.array([1.0, 3.0, 2.0]))
    array(3.)
    """
    return _minmax_all(self, np.maximum, "max")


def min_all(self):
    """The smallest element as a 0-d array (NaN if there is one); an empty input is an error.

    >>> min_all(np.array([1.0, 3.0, 2.0]))
    array(1.)
    """
    return _minmax_all(self, np.minimum, "min")


def _arg_along(a, d, keepdim, argfn):
    """Indices (int64) of the first extreme along axis ``d``, with keepdim applied."""
    idx = argfn(a, axis=d, keepdims=True)
    return idx if keepdim else np.squeeze(idx, axis=d)


def minmax_dim_checks(a, dim, name):
    """The wrapped ``dim`` of max.dim / min.dim, which must not be empty (shared with cuda)."""
    if a.dtype.kind == "c":
        raise RuntimeError(f"{name}(): does not support complex input")
    d = _wrap_dim(dim, a.ndim)
    if a.ndim and a.shape[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    return d


def _minmax_dim(a, dim, keepdim, argfn, name):
    d = minmax_dim_checks(a, dim, name)
    if a.ndim == 0:
        return a.copy(), np.zeros((), _I64)
    # argmax/argmin return the first extreme and treat NaN as the extreme, as PyTorch's CPU kernel.
    idx = argfn(a, axis=d, keepdims=True)
    values = np.take_along_axis(a, idx, axis=d)
    if not keepdim:
        idx, values = np.squeeze(idx, axis=d), np.squeeze(values, axis=d)
    # ascontiguousarray alone would make a 0-d result 1-d.
    return np.ascontiguousarray(values).reshape(values.shape), idx.astype(_I64, copy=False)


def max_dim(self, dim, keepdim):
    """``(values, indices)`` of the maximum along ``dim``; the index is the first maximal one.

    >>> max_dim(np.array([[1, 5, 5], [7, 2, 7]]), 1, False)
    (array([5, 7]), array([1, 0]))
    """
    return _minmax_dim(self, dim, keepdim, np.argmax, "max")


def min_dim(self, dim, keepdim):
    """``(values, indices)`` of the minimum along ``dim``; the index is the first minimal one.

    >>> min_dim(np.array([[1, 5, 1], [7, 2, 2]]), 1, False)
    (array([1, 2]), array([0, 1]))
    """
    return _minmax_dim(self, dim, keepdim, np.argmin, "min")


def amaxmin_checks(a, dim, name):
    """The axes amax / amin reduce; none of them may be empty (shared with the cuda kernels)."""
    axes = _reduce_axes(dim, a.ndim)
    dims = _dim_list(dim)
    if a.size == 0:
        if not dims:
            raise RuntimeError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        for d in dims:
            if a.shape[_wrap_dim(d, a.ndim)] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    return axes


def _amaxmin(a, dim, keepdim, ufunc, name):
    _refuse_complex(a, f"{name[1:]}_values_cpu")
    axes = amaxmin_checks(a, dim, name)
    return _as_new(ufunc.reduce(a, axis=axes, keepdims=keepdim), a.dtype)


def amax(self, dim, keepdim):
    """Maximum over the dims in ``dim`` (``None`` or ``()`` for all), NaN-propagating.

    >>> amax(np.array([[1, 5], [7, 2]]), (0,), False)
    array([7, 5])
    """
    return _amaxmin(self, dim, keepdim, np.maximum, "amax")


def amin(self, dim, keepdim):
    """Minimum over the dims in ``dim`` (``None`` or ``()`` for all), NaN-propagating.

    >>> amin(np.array([[1, 5], [7, 2]]), (0,), False)
    array([1, 2])
    """
    return _amaxmin(self, dim, keepdim, np.minimum, "amin")


def argext_checks(a, dim, name):
    """The wrapped ``dim`` of argmax / argmin (None: the flattened input), shared with cuda."""
    if a.dtype == _BOOL:
        raise RuntimeError(f"{name}(): does not support bool input")
    if a.dtype.kind == "c":
        raise RuntimeError(f"{name}(): does not support complex input")
    if dim is None:
        if a.size == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
        return None
    return minmax_dim_checks(a, dim, name)


def _argext(a, dim, keepdim, argfn, name):
    d = argext_checks(a, dim, name)
    if d is None:
        r = np.asarray(argfn(a), dtype=_I64)
        return r.reshape((1,) * a.ndim) if keepdim else r
    if a.ndim == 0:
        return np.zeros((), _I64)
    return _arg_along(a, d, keepdim, argfn).astype(_I64, copy=False)


def argmax(self, dim, keepdim):
    """Index (int64) of the first maximum along ``dim``, or in the flattened input when ``dim`` is None.

    >>> argmax(np.array([[1, 9, 9], [4, 2, 4]]), 1, False)
    array([1, 0])
    """
    return _argext(self, dim, keepdim, np.argmax, "argmax")


def argmin(self, dim, keepdim):
    """Index (int64) of the first minimum along ``dim``, or in the flattened input when ``dim`` is None.

    >>> argmin(np.array([3, 1, 1]), None, False)
    array(1)
    """
    return _argext(self, dim, keepdim, np.argmin, "argmin")


# ---------------------------------------------------------------------------------------------
# var / std / logsumexp


def var_checks(a, dim, correction, name):
    """The axes and the correction of var / std (shared with the cuda kernels); torch's warning when
    ``name`` (var or std) has no degrees of freedom left."""
    correction = 1 if correction is None else correction  # the schema's None means Bessel's correction
    if not _is_inexact(a.dtype):
        raise RuntimeError("std and var only support floating point and complex dtypes")
    axes = _reduce_axes(dim, a.ndim)
    if _count(a.shape, axes) - correction <= 0:
        warn_user(
            f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the reduction "
            "factor (input numel divided by output numel)."
        )
    return axes, correction


def _var(a, dim, correction, keepdim, name):
    axes, correction = var_checks(a, dim, correction, name)
    n = _count(a.shape, axes)
    # Two passes in float64: stable, and at least as accurate as PyTorch's float32/half kernels.
    x = a.astype(np.complex128 if a.dtype.kind == "c" else _F64)
    with np.errstate(invalid="ignore", divide="ignore"):
        x -= np.add.reduce(x, axis=axes, keepdims=True) / n
        x = np.abs(x) if x.dtype.kind == "c" else x  # a complex variance is that of |x - mean|
        ss = np.add.reduce(x * x, axis=axes, keepdims=keepdim)
        # PyTorch divides by max(0, N - correction): 0 gives inf (or nan for 0/0), with a warning;
        # no elements at all give nan whatever the correction.
        return ss / max(0.0, n - correction) if n else ss * np.nan


def var(self, dim=None, correction=None, keepdim=False):
    """Variance over the dims in ``dim`` (``None`` or ``()`` for all) with ``N - correction`` divisor.

    >>> var(np.array([1.0, 2.0, 4.0]), None, 1, False)
    array(2.33333333)
    """
    return _as_new(_var(self, dim, correction, keepdim, "var"), _real(self.dtype))


def std(self, dim=None, correction=None, keepdim=False):
    """Standard deviation: the square root of ``var``.

    >>> std(np.array([1.0, 3.0]), None, 1, False)
    array(1.41421356)
    """
    return _as_new(np.sqrt(_var(self, dim, correction, keepdim, "std")), _real(self.dtype))


def logsumexp_dtype(a):
    """logsumexp's result dtype: integer inputs give float32 (shared with the cuda kernels)."""
    return a.dtype if _is_inexact(a.dtype) else _F32


def logsumexp(self, dim, keepdim):
    """``log(sum(exp(self)))`` over the dims in ``dim``, stable; integer inputs give float32.

    >>> logsumexp(np.array([0.0, 0.0]), (0,), False)
    array(0.69314718)
    """
    axes = _reduce_axes(dim, self.ndim)
    out = logsumexp_dtype(self)
    x = self.astype(compute_dtype(out), copy=False)
    # An infinite maximum is replaced by 0 so that inf - inf does not make NaN (PyTorch does the same).
    # Complex numbers are shifted by the largest real part.
    m = np.maximum.reduce(x.real, axis=axes, keepdims=True, initial=-np.inf)
    m = np.where(np.isinf(m), 0, m)
    with np.errstate(divide="ignore", over="ignore"):
        s = np.add.reduce(np.exp(x - m), axis=axes, keepdims=keepdim)
        r = np.log(s) + (m if keepdim else m.reshape(s.shape))
    return _as_new(r, out)


# ---------------------------------------------------------------------------------------------
# all / any / norm


def logical_axes(a, dim):
    """The axes all / any reduce (shared with the cuda kernels)."""
    dims = _dim_list(dim)
    # dim=None reduces everything; an explicit empty list reduces nothing (PyTorch's all.dims).
    return tuple(range(a.ndim)) if dims is None else (_reduce_axes(dims, a.ndim) if dims else ())


def logical_dtype(a):
    # PyTorch keeps uint8 for uint8 input (a legacy of masks being byte tensors).
    return _U8 if a.dtype == _U8 else _BOOL


def _logical(a, dim, keepdim, ufunc):
    axes = logical_axes(a, dim)
    b = a != 0 if a.dtype != _BOOL else a
    # Reducing nothing still returns a new array, never the input itself.
    r = ufunc.reduce(b, axis=axes, keepdims=keepdim) if axes else (b.copy() if b is a else b)
    return _as_new(r, logical_dtype(a))


def all_dims(self, dim, keepdim):
    """Whether every element is nonzero over ``dim`` (``None``: all dims; ``()``: none, as PyTorch).

    >>> all_dims(np.array([[1, 0], [2, 3]]), (1,), False)
    array([False,  True])
    """
    return _logical(self, dim, keepdim, np.logical_and)


def any_dims(self, dim, keepdim):
    """Whether some element is nonzero over ``dim`` (``None``: all dims; ``()``: none, as PyTorch).

    >>> any_dims(np.array([[1, 0], [0, 0]]), (1,), False)
    array([ True, False])
    """
    return _logical(self, dim, keepdim, np.logical_or)


def norm_checks(a, p, dim, dtype):
    """``(p as a float, the axes reduced, the result dtype)`` of a norm, after its checks (shared with
    the cuda kernel)."""
    if not _is_inexact(a.dtype):
        raise RuntimeError(
            f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got {_name(a.dtype)}"
        )
    dtype = _opt_dtype(dtype)
    if dtype is not None:
        if not _is_inexact(dtype):
            raise RuntimeError(
                f"linalg.vector_norm: dtype should be floating point or complex, but got {_name(dtype)}"
            )
        if dtype.itemsize < a.dtype.itemsize:
            raise RuntimeError(
                f"linalg.vector_norm: the dtype of the input ({_name(a.dtype)}) should be convertible "
                f"without narrowing to the specified dtype ({_name(dtype)})"
            )
    out = _real(dtype or a.dtype)  # the norm of complex numbers is real
    axes = _reduce_axes(dim, a.ndim)
    p = 2.0 if p is None else float(p)  # ScalarOpt_dim: None is the 2-norm
    if p < 0 or p == math.inf:
        # max and min have no identity: they cannot reduce an empty dim.
        dims = _dim_list(dim)
        if not dims and a.size == 0:
            raise RuntimeError(
                f"linalg.vector_norm cannot compute the {p:g} norm on an empty tensor because the "
                "operation does not have an identity"
            )
        for d in dims if a.size == 0 else ():
            if a.shape[_wrap_dim(d, a.ndim)] == 0:
                raise RuntimeError(
                    f"linalg.vector_norm cannot compute the {p:g} norm on the dimension {d}because this "
                    "dimension is empty and the operation does not have an identity"
                )
    return p, axes, out


def norm(self, p=2, dim=None, keepdim=False, dtype=None):
    """Vector ``p``-norm over ``dim`` (``None`` or ``()`` for all), as ``torch.linalg.vector_norm``.

    >>> norm(np.array([3.0, -4.0]), 2, None, False, None)
    array(5.)
    >>> norm(np.array([3.0, -4.0]), float("inf"), None, False, None)
    array(4.)
    """
    p, axes, out = norm_checks(self, p, dim, dtype)
    x = self.astype(compute_dtype(out), copy=False) if self.dtype.kind != "c" else np.abs(self)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        if p == 0:
            r = np.add.reduce(x != 0, axis=axes, keepdims=keepdim, dtype=x.dtype)
        elif p == math.inf:
            r = np.maximum.reduce(np.abs(x), axis=axes, keepdims=keepdim)
        elif p == -math.inf:
            r = np.minimum.reduce(np.abs(x), axis=axes, keepdims=keepdim)
        elif p == 1:
            r = np.add.reduce(np.abs(x), axis=axes, keepdims=keepdim)
        elif p == 2:
            # Accumulated in the compute dtype, so float32 overflows where PyTorch's does.
            r = np.sqrt(np.add.reduce(x * x, axis=axes, keepdims=keepdim))
        else:
            r = np.add.reduce(np.abs(x) ** p, axis=axes, keepdims=keepdim) ** (1.0 / p)
    return _as_new(r, out)


# ---------------------------------------------------------------------------------------------
# softmax / log_softmax


def softmax_checks(a, dim, half_to_float, name):
    if half_to_float:
        raise RuntimeError("softmax with half to float conversion is not supported on CPU")
    d = _wrap_dim(dim, a.ndim)
    if not _is_float(a.dtype) and a.size:
        kernel = f"{name}_lastdim_kernel_impl" if d == max(a.ndim - 1, 0) else f"{name}_kernel_impl"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_name(a.dtype)}'")
    return d


def _shifted(a, d):
    """``x - max(x)`` along axis ``d`` in the compute dtype (a 0-d input is viewed as 1-d)."""
    x = a.astype(compute_dtype(a.dtype), copy=False).reshape(a.shape or (1,))
    with np.errstate(invalid="ignore"):
        return x - np.maximum.reduce(x, axis=d, keepdims=True)


def softmax(self, dim, half_to_float):
    """``exp(x) / sum(exp(x))`` along ``dim``, computed from ``x - max(x)`` so it cannot overflow.

    >>> softmax(np.array([0.0, 0.0, 0.0, 0.0]), 0, False)
    array([0.25, 0.25, 0.25, 0.25])
    """
    d = softmax_checks(self, dim, half_to_float, "softmax")
    if self.size == 0:
        return self.copy()
    e = np.exp(_shifted(self, d))
    with np.errstate(invalid="ignore"):
        e /= np.add.reduce(e, axis=d, keepdims=True)
    return _as_new(e.reshape(self.shape), self.dtype)


def log_softmax(self, dim, half_to_float):
    """``x - log(sum(exp(x)))`` along ``dim``, computed from ``x - max(x)``.

    >>> log_softmax(np.array([0.0, 0.0]), 0, False)
    array([-0.69314718, -0.69314718])
    """
    d = softmax_checks(self, dim, half_to_float, "log_softmax")
    if self.size == 0:
        return self.copy()
    s = _shifted(self, d)
    with np.errstate(invalid="ignore", divide="ignore"):
        s -= np.log(np.add.reduce(np.exp(s), axis=d, keepdims=True))
    return _as_new(s.reshape(self.shape), self.dtype)


def softmax_backward_checks(grad_output, output, dim, input_dtype, name):
    """The wrapped axis of a softmax backward ``name`` (shared with the cuda kernels). The gradient keeps
    grad_output's dtype: ``input_dtype`` only tells a half-to-float softmax, which the cpu lacks."""
    if tuple(grad_output.shape) != tuple(output.shape):
        raise RuntimeError(
            f"Expected tensor for argument #1 'grad' to have same size as tensor for argument #2 'output'; but "
            f"{list(grad_output.shape)} does not equal {list(output.shape)} (while checking arguments for {name})"
        )
    if np.dtype(input_dtype) in HALVES and grad_output.dtype == _F32:
        raise RuntimeError(f"expected scalar type Float but found {_name(input_dtype)}")
    return _wrap_dim(dim, output.ndim)


def _backward_operands(grad_output, output, dim, input_dtype, name):
    """The axis and both arrays in the compute dtype (a 0-d pair is viewed as 1-d)."""
    d = softmax_backward_checks(grad_output, output, dim, input_dtype, name)
    ct = compute_dtype(output.dtype)
    shape = output.shape or (1,)
    return d, grad_output.astype(ct, copy=False).reshape(shape), output.astype(ct, copy=False).reshape(shape)


def softmax_backward_data(grad_output, output, dim, input_dtype):
    """The gradient of softmax at its ``output``: ``output * (grad - sum(grad * output))`` along ``dim``.

    >>> softmax_backward_data(np.array([1.0, 0.0]), np.array([0.5, 0.5]), 0, np.float64)
    array([ 0.25, -0.25])
    """
    d, g, y = _backward_operands(grad_output, output, dim, input_dtype, "softmax_backward_data")
    gy = g * y
    gy -= y * np.add.reduce(gy, axis=d, keepdims=True)
    return _as_new(gy.reshape(output.shape), grad_output.dtype)


def log_softmax_backward_data(grad_output, output, dim, input_dtype):
    """The gradient of log_softmax at its ``output``: ``grad - exp(output) * sum(grad)`` along ``dim``.

    >>> log_softmax_backward_data(np.array([1.0, 0.0]), np.log([0.5, 0.5]), 0, np.float64)
    array([ 0.5, -0.5])
    """
    d, g, y = _backward_operands(grad_output, output, dim, input_dtype, "log_softmax_backward_data")
    r = g - np.exp(y) * np.add.reduce(g, axis=d, keepdims=True)
    return _as_new(r.reshape(output.shape), grad_output.dtype)


# ---------------------------------------------------------------------------------------------
# Parallel sums of large dense arrays (Numba)
#
# A dense array is first viewed in the axis order that makes it C-contiguous. Its axes then form
# runs of reduced and kept ones; the shapes handled are "all reduced", "kept then reduced" (row
# sums), "reduced then kept" (column sums) and "reduced, kept, reduced" (row sums, then column sums
# of those: the NCHW batch-norm pattern). Others go to NumPy.
#
# The compiled kernels are cached on disk (cache=True). Numba records this module's name in each
# cache entry and cannot load it under another name, so the file must always be imported as
# ``yaten.kernels.cpu.reduce`` (the tests load it by path under that name too).

_BLOCK = 1 << 14  # elements summed in the input dtype before joining the wide accumulator
_COLS = 512  # columns one task of the column kernel accumulates
_SHORT = 64  # rows shorter than this are summed whole by one task, not in blocks
_NARROW = 128  # fewer columns than this are folded into wider rows first


def _dense_order(a):
    """The axis order that makes ``a`` C-contiguous, or None when its elements are not one dense block."""
    if a.flags.c_contiguous:
        return tuple(range(a.ndim))
    order = tuple(sorted(range(a.ndim), key=lambda d: -abs(a.strides[d])))
    return order if a.transpose(order).flags.c_contiguous else None


def _fast_sum(a, axes, keepdim):
    """Sum over ``axes`` with the parallel kernels, or None where they do not apply.

    They apply to float32, float64 and int64 arrays large enough to pay for the threads whose
    elements form one dense block in some axis order (C, Fortran, any permutation).
    """
    if a.dtype not in (_F32, _F64, _I64) or a.size < _PARALLEL_MIN or not axes:
        return None
    order = _dense_order(a)
    if order is None:
        return None
    t = a.transpose(order)
    reduced = [order[i] in axes for i in range(a.ndim)]
    runs = []  # [is_reduced, element count] of consecutive axes of t; size-1 axes may sit anywhere
    for red, n in zip(reduced, t.shape):
        if n == 1:
            continue
        if runs and runs[-1][0] == red:
            runs[-1][1] *= n
        else:
            runs.append([red, n])
    pattern = tuple(red for red, _ in runs)
    sizes = [n for _, n in runs]
    wide = np.int64(0) if a.dtype == _I64 else np.float64(0)
    zero = a.dtype.type(0)
    if pattern == (True,):
        flat = _row_sums(t.reshape(1, -1), zero, wide)
    elif pattern == (False, True):
        flat = _row_sums(t.reshape(sizes), zero, wide)
    elif pattern == (True, False):
        flat = _col_sums(t.reshape(sizes), wide)
    elif pattern == (True, False, True):
        rows = _row_sums(t.reshape(sizes[0] * sizes[1], sizes[2]), zero, wide)
        flat = _col_sums(rows.reshape(sizes[0], sizes[1]), wide)
    else:
        return None
    # The result lists the kept axes in t's order; put them back in the input's order.
    kept = [i for i in range(a.ndim) if not reduced[i]]
    r = flat.reshape([t.shape[i] for i in kept])
    r = np.ascontiguousarray(r.transpose(np.argsort([order[i] for i in kept])))
    if keepdim:
        shape = [1 if d in axes else n for d, n in enumerate(a.shape)]
    else:
        shape = [n for d, n in enumerate(a.shape) if d not in axes]
    return r.astype(a.dtype).reshape(shape)


def _row_sums(a2, zero, wide):
    if a2.shape[1] < _SHORT:
        return _sum_short_rows(a2, wide)
    return _sum_rows(a2, zero, wide)


def _col_sums(a2, wide):
    rows, cols = a2.shape
    if cols >= _NARROW or rows < 2:
        return _sum_cols(a2, wide, kernel_threads(a2.size, _PARALLEL_MIN))
    # Few columns: view k consecutive rows as one row of k * cols, sum those columns, fold back.
    k = -(-_NARROW // cols)
    main = rows - rows % k
    folded = _sum_cols(a2[:main].reshape(main // k, k * cols), wide, kernel_threads(a2.size, _PARALLEL_MIN))
    return folded.reshape(k, cols).sum(axis=0) + a2[main:].sum(axis=0, dtype=folded.dtype)


@numba.njit(fastmath=True, cache=True, error_model="numpy")
def _block_sum(b, zero):
    # One accumulator in the input dtype; fastmath lets LLVM split it into vector lanes, so a
    # 16k-element block is summed as many short partial sums and stays accurate in float32.
    s = zero
    for i in range(b.size):
        s += b[i]
    return s


@parallel_njit(fastmath=True, parallel_from=_PARALLEL_MIN)
def _sum_rows(a2, zero, wide):
    """Row sums of a C-contiguous 2-d array; rows are split into blocks summed in parallel."""
    outer, inner = a2.shape
    per_row = max((inner + _BLOCK - 1) // _BLOCK, 1)
    parts = np.full(outer * per_row, wide)
    for k in prange(outer * per_row):
        r = k // per_row
        j = (k - r * per_row) * _BLOCK
        parts[k] = wide + _block_sum(a2[r, j : j + _BLOCK], zero)
    out = np.full(outer, wide)
    for r in range(outer):
        t = wide
        for q in range(per_row):
            t += parts[r * per_row + q]
        out[r] = t
    return out


@parallel_njit(fastmath=True, parallel_from=_PARALLEL_MIN)
def _sum_short_rows(a2, wide):
    """Row sums of a C-contiguous 2-d array with short rows, accumulated wide."""
    outer, inner = a2.shape
    out = np.full(outer, wide)
    for r in prange(outer):
        s = wide
        for j in range(inner):
            s += a2[r, j]
        out[r] = s
    return out


@parallel_njit(fastmath=True, parallel_from=_PARALLEL_MIN)
def _sum_cols(a2, wide, nthreads):
    """Column sums of a C-contiguous 2-d array; tasks split over column bands and row bands.

    Four rows are added in the input dtype before each update of the wide accumulator, which
    quarters the accumulator's loads and stores (the loop's bottleneck).
    """
    rows, cols = a2.shape
    col_bands = (cols + _COLS - 1) // _COLS
    # Few column bands: split the rows too so every thread gets work, each with its own partial sums.
    row_bands = max(1, min(rows // 64, (4 * nthreads + col_bands - 1) // col_bands))
    parts = np.full((row_bands, cols), wide)
    for k in prange(row_bands * col_bands):
        rb = k // col_bands
        c0 = (k - rb * col_bands) * _COLS
        c1 = min(c0 + _COLS, cols)
        r = rows * rb // row_bands
        r1 = rows * (rb + 1) // row_bands
        acc = parts[rb, c0:c1]
        while r + 4 <= r1:
            x0, x1, x2, x3 = a2[r, c0:c1], a2[r + 1, c0:c1], a2[r + 2, c0:c1], a2[r + 3, c0:c1]
            for j in range(c1 - c0):
                acc[j] += (x0[j] + x1[j]) + (x2[j] + x3[j])
            r += 4
        while r < r1:
            x0 = a2[r, c0:c1]
            for j in range(c1 - c0):
                acc[j] += x0[j]
            r += 1
    out = np.full(cols, wide)
    for rb in range(row_bands):
        for j in range(cols):
            out[j] += parts[rb, j]
    return out
