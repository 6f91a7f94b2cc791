"""Matrix products over host arrays: mm, bmm, addmm, dot, mv.

Floating products go to BLAS through ``np.matmul``, on the threads ``yaten._threads`` gives their
size. Arrays BLAS can read as they are (C- or Fortran-ordered, or rows with a leading-dimension
stride) are passed without a copy; only other layouts (negative, zero or scattered strides) are made
contiguous first, because NumPy would otherwise fall back to its slow non-BLAS loop. Half precision
is multiplied in float32 and rounded back; integer products use NumPy's integer matmul and wrap on
overflow like PyTorch's.
Checks run in PyTorch's order and raise its messages; they read only shapes and dtypes, so the
CUDA kernels (``kernels/cuda/linalg.py``) call the same ``check_*`` functions.
"""

import math

import numpy as np

from ..._dtype import LEGACY_NAME, TYPEID_NAME
from ..._threads import blas_matmul
from .convert import HALVES, compute_dtype, is_floating

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_BOOL = np.dtype(np.bool_)

# PyTorch's legacy scalar-type names, as its error messages print them.
_LEGACY_NAMES = {d.np: name for d, name in LEGACY_NAME.items()}

# The C++ type names some of PyTorch's dtype checks print.
_CPP_NAMES = {d.np: name for d, name in TYPEID_NAME.items()}

# The type names PyTorch's scalar overflow check prints (half scalars are checked as float).
_SCALAR_NAMES = {
    np.dtype(np.uint8): "uint8_t",
    np.dtype(np.int8): "int8_t",
    np.dtype(np.int16): "int16_t",
    np.dtype(np.int32): "int",
    np.dtype(np.int64): "int64_t",
    np.dtype(np.float16): "float",
    np.dtype(np.float32): "float",
    np.dtype(np.float64): "double",
}


def _name(dtype) -> str:
    return _LEGACY_NAMES.get(np.dtype(dtype), str(dtype))


def _not_implemented(kernel: str, dtype):
    return NotImplementedError(f"\"{kernel}\" not implemented for '{_name(dtype)}'")


def _blas_ready(a: np.ndarray) -> np.ndarray:
    """``a`` itself when BLAS can read its (last two) axes in place, else a C-contiguous copy.

    Vectors are simply made contiguous: copying one costs no more than reading it.
    """
    if a.ndim < 2:
        return np.ascontiguousarray(a)
    if a.flags.c_contiguous or (a.ndim == 2 and a.flags.f_contiguous):
        return a
    item = a.itemsize
    (r, c), (sr, sc) = a.shape[-2:], a.strides[-2:]
    rows = sc == item and sr % item == 0 and sr >= max(c, 1) * item
    cols = sr == item and sc % item == 0 and sc >= max(r, 1) * item
    batch_ok = a.ndim == 2 or a.strides[0] % item == 0
    return a if (rows or cols) and batch_ok else np.ascontiguousarray(a)


def _product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` (matrices, stacks of them, or matrix @ vector) in the dtype the op computes in.

    That is float32 for half and bfloat16 inputs; the caller rounds the result back.
    """
    if a.dtype in HALVES:
        a, b = a.astype(_F32), b.astype(_F32)
    if a.dtype.kind == "f":
        return blas_matmul(_blas_ready(a), _blas_ready(b))
    return np.matmul(a, b)


def _cast(a: np.ndarray, dtype) -> np.ndarray:
    """``a`` in ``dtype``; float32 results beyond half's range become inf without a NumPy warning."""
    if a.dtype == dtype:
        return a  # (the usual case: errstate alone costs a microsecond)
    with np.errstate(over="ignore"):
        return a.astype(dtype, copy=False)


def _matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` in ``a``'s dtype, as a new C-contiguous array."""
    return _cast(_product(a, b), a.dtype)


def check_mm(self, mat2) -> None:
    """PyTorch's checks of ``mm(self, mat2)``, in its order, on any device's arrays.

    >>> check_mm(np.ones((2, 3)), np.ones((2, 3)))
    Traceback (most recent call last):
    RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)
    """
    if self.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if mat2.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if self.shape[1] != mat2.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({self.shape[0]}x{self.shape[1]} and "
            f"{mat2.shape[0]}x{mat2.shape[1]})"
        )
    if self.dtype != mat2.dtype:
        raise RuntimeError(
            "expected m1 and m2 to have the same dtype, but got: "
            f"{_CPP_NAMES[self.dtype]} != {_CPP_NAMES[mat2.dtype]}"
        )
    if self.dtype == _BOOL:
        raise _not_implemented("addmm_impl_cpu_", self.dtype)


def mm(self, mat2):
    """Matrix product of two 2-d arrays of the same dtype.

    >>> mm(np.array([[1.0, 2.0]]), np.array([[3.0], [4.0]]))
    array([[11.]])
    """
    check_mm(self, mat2)
    return _matmul(self, mat2)


def check_bmm(self, mat2) -> None:
    """PyTorch's checks of ``bmm(self, mat2)``, in its order, on any device's arrays."""
    if self.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if mat2.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    b, _, k = self.shape
    if mat2.shape[:2] != (b, k):
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {k}] but got: "
            f"[{mat2.shape[0]}, {mat2.shape[1]}]."
        )
    if self.dtype != mat2.dtype:
        raise RuntimeError(f"expected scalar type {_name(self.dtype)} but found {_name(mat2.dtype)}")
    if self.dtype == _BOOL:
        raise _not_implemented("bmm", self.dtype)


def bmm(self, mat2):
    """Batched matrix product of two 3-d arrays: ``(b, n, k) @ (b, k, m) -> (b, n, m)``.

    >>> bmm(np.ones((2, 1, 3)), np.ones((2, 3, 1))).shape
    (2, 1, 1)
    """
    check_bmm(self, mat2)
    return _matmul(self, mat2)


def _shape_str(shape) -> str:
    return "[" + ", ".join(str(n) for n in shape) + "]"


def _check_expand(a, shape: tuple) -> None:
    """The errors of PyTorch's ``expand`` of ``a`` to ``shape``."""
    have = tuple(a.shape)  # (a plain tuple: the CUDA simulator's shapes refuse negative indices)
    if len(have) > len(shape):
        raise RuntimeError(
            f"expand(torch.{_name(a.dtype)}Tensor{{{_shape_str(have)}}}, size={_shape_str(shape)}): "
            f"the number of sizes provided ({len(shape)}) must be greater or equal to the number of "
            f"dimensions in the tensor ({len(have)})"
        )
    for i in range(1, len(have) + 1):
        if have[-i] != 1 and have[-i] != shape[-i]:
            raise RuntimeError(
                f"The expanded size of the tensor ({shape[-i]}) must match the existing size "
                f"({have[-i]}) at non-singleton dimension {len(shape) - i}.  "
                f"Target sizes: {_shape_str(shape)}.  Tensor sizes: {_shape_str(have)}"
            )


def scalar_operand(value, dtype):
    """A Python number converted to ``dtype`` as PyTorch converts alpha and beta, overflow checked.

    Floats truncate towards zero for integer dtypes; negative Python ints wrap into unsigned ones.
    Half arithmetic runs in float32 here, so half scalars are checked against float32's range.

    >>> scalar_operand(-1, np.dtype(np.uint8)), scalar_operand(2.7, np.dtype(np.int32))
    (array(255, dtype=uint8), array(2, dtype=int32))
    """
    if value.__class__ is int and value == 1:
        return 1  # the default, exact in every dtype (checked first: this runs on every linear layer)
    if np.dtype(dtype).kind == "c":
        return complex(value)
    if isinstance(value, complex):  # PyTorch's message for a complex number into a real dtype
        raise _overflow(dtype)
    if is_floating(dtype):
        try:
            v = float(value)
        except OverflowError:
            raise _overflow(dtype) from None
        if dtype != _F64 and math.isfinite(v) and abs(v) > _F32_MAX:
            raise _overflow(dtype)
        return v
    info = np.iinfo(dtype)
    if isinstance(value, float) and (math.isnan(value) or value < info.min or value > info.max):
        raise _overflow(dtype)
    value = int(value)
    if value > info.max or (value < info.min and not (info.min == 0 and -value <= info.max)):
        raise _overflow(dtype)
    return np.array(value % (1 << info.bits), np.uint64).astype(dtype)


_F32_MAX = float(np.finfo(np.float32).max)


def _overflow(dtype) -> RuntimeError:
    return RuntimeError(f"value cannot be converted to type {_SCALAR_NAMES[dtype]} without overflow")


def check_addmm(self, mat1, mat2) -> tuple:
    """PyTorch's checks of ``addmm(self, mat1, mat2)``, in its order, on any device's arrays;
    returns the product's shape, which ``self`` broadcasts to. (``beta`` and ``alpha`` are checked
    after these, by ``scalar_operand``.)

    >>> check_addmm(np.ones(3), np.ones((2, 4)), np.ones((4, 3)))
    (2, 3)
    """
    if self.dtype != mat2.dtype:
        raise RuntimeError(
            f"self and mat2 must have the same dtype, but got {_name(self.dtype)} and {_name(mat2.dtype)}"
        )
    if mat1.dtype != mat2.dtype:
        raise RuntimeError(
            f"mat1 and mat2 must have the same dtype, but got {_name(mat1.dtype)} and {_name(mat2.dtype)}"
        )
    for name, m in (("mat1", mat1), ("mat2", mat2)):
        if m.ndim != 2:
            raise RuntimeError(f"{name} must be a matrix, got {m.ndim}-D tensor")
    if mat1.shape[1] != mat2.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({mat1.shape[0]}x{mat1.shape[1]} and "
            f"{mat2.shape[0]}x{mat2.shape[1]})"
        )
    shape = (mat1.shape[0], mat2.shape[1])
    if self.shape != shape and self.shape != shape[1:]:
        _check_expand(self, shape)
    if self.dtype == _BOOL:
        raise _not_implemented("addmm_impl_cpu_", self.dtype)
    return shape


def addmm(self, mat1, mat2, beta, alpha):
    """``beta * self + alpha * (mat1 @ mat2)``; ``self`` broadcasts to the product's shape.

    With ``beta == 0`` ``self`` is not read (its NaNs do not leak), and with ``alpha == 0`` the
    product is not computed, as in BLAS and PyTorch; PyTorch's half kernel is not BLAS and multiplies
    anyway (NaN * 0 stays NaN), so half does too.

    >>> addmm(np.ones((1, 2)), np.eye(2), np.array([[1.0, 2.0], [3.0, 4.0]]), 1, 2)
    array([[3., 5.],
           [7., 9.]])
    """
    shape = check_addmm(self, mat1, mat2)
    bias = self if self.shape == shape or self.shape == shape[1:] else np.broadcast_to(self, shape)
    dtype = self.dtype
    beta, alpha = scalar_operand(beta, dtype), scalar_operand(alpha, dtype)
    work = compute_dtype(dtype)
    if alpha == 0 and dtype not in HALVES:
        out = np.zeros(shape, work)
    else:
        out = _product(mat1, mat2)
        if alpha != 1:
            out *= alpha
    if beta == 1:
        out += bias
    elif beta != 0:
        out += bias.astype(work, copy=False) * beta
    return _cast(out, dtype)


def check_dot(self, tensor) -> None:
    """PyTorch's checks of ``dot(self, tensor)``, in its order, on any device's arrays."""
    if self.ndim != 1 or tensor.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {self.ndim}D and {tensor.ndim}D tensors")
    if self.dtype != tensor.dtype:
        raise RuntimeError(
            "dot : expected both vectors to have same dtype, but found "
            f"{_name(self.dtype)} and {_name(tensor.dtype)}"
        )
    if self.shape[0] != tensor.shape[0]:
        n, m = self.shape[0], tensor.shape[0]
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same number of "
            f"elements, but got {n} and {m} elements respectively"
        )
    if self.dtype == _BOOL:
        raise _not_implemented("dot", self.dtype)


def dot(self, tensor):
    """Inner product of two 1-d arrays of the same dtype and length, as a 0-d array.

    >>> dot(np.array([1, 2, 3]), np.array([4, 5, 6]))
    array(32)
    """
    check_dot(self, tensor)
    return _cast(np.asarray(_product(self, tensor)), self.dtype)


def check_mv(self, vec) -> None:
    """PyTorch's checks of ``mv(self, vec)``, in its order, on any device's arrays."""
    if self.ndim != 2 or vec.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {self.ndim}, {vec.ndim}")
    if self.shape[1] != vec.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({self.shape[0]}), mat ({self.shape[0]}x{self.shape[1]}), "
            f"vec ({vec.shape[0]})"
        )
    if self.dtype != vec.dtype:
        # PyTorch's mv runs addmv on an output made like ``vec``, hence vec's dtype twice.
        raise RuntimeError(
            "addmv input tensors must have the same dtype, but got "
            f"{_name(vec.dtype)}, {_name(self.dtype)}, and {_name(vec.dtype)}"
        )
    if self.dtype == _BOOL:
        raise _not_implemented("addmv_impl_cpu", self.dtype)


def mv(self, vec):
    """Matrix-vector product: ``(n, k) @ (k,) -> (n,)``.

    >>> mv(np.array([[1, 2], [3, 4]]), np.array([1, 1]))
    array([3, 7])
    """
    check_mv(self, vec)
    return _matmul(self, vec)
