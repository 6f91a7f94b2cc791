"""c10's conversions for the CPU kernels: scalars to a dtype with overflow checks, array casts.

They differ from NumPy's in two places: float64 -> float16 and -> bfloat16 round via float32
(``c10::Half`` and ``c10::BFloat16`` are built from a float), and float -> uint8 goes through int64
(so -1.5 -> 255). A complex value goes to a real dtype by its real part, with torch's warning (to bool:
nonzero in either part).
"""

import math
import warnings

import ml_dtypes
import numpy as np

from ..._dtype import C10_NAME

# The NumPy dtypes the CPU kernels compare against (shared by index.py and shape.py).
BOOL = np.dtype(np.bool_)
U8 = np.dtype(np.uint8)
F16 = np.dtype(np.float16)
BF16 = np.dtype(ml_dtypes.bfloat16)
HALVES = (F16, BF16)  # the 16-bit floats: computed in float32, moved by Numba as uint16 bits
F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)


def compute_dtype(dtype) -> np.dtype:
    """The dtype a floating kernel computes in: float32 for half and bfloat16 (as PyTorch's CPU
    kernels' opmath), else the dtype itself.

    >>> compute_dtype(np.float16), compute_dtype(BF16), compute_dtype(np.int64)
    (dtype('float32'), dtype('float32'), dtype('int64'))
    """
    d = np.dtype(dtype)
    return F32 if d in HALVES else d


def is_floating(dtype) -> bool:
    """Whether ``dtype`` is a floating dtype (NumPy's kind of ml_dtypes' bfloat16 is "V").

    >>> is_floating(BF16), is_floating(np.int8)
    (True, False)
    """
    d = np.dtype(dtype)
    return d.kind == "f" or d == BF16


# c10's C++ names for a dtype, as its "value cannot be converted" messages print them.
C_NAME = {d.name: name for d, name in C10_NAME.items()}


def c_contiguous(a: np.ndarray) -> np.ndarray:
    """``a`` as a C-contiguous array (np.ascontiguousarray turns 0-d into 1-d)."""
    return a if a.flags.c_contiguous else a.copy(order="C")


COMPLEX_TO_REAL_WARNING = "Casting complex values to real discards the imaginary part"


def cast(src: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``src`` converted to ``dtype`` as c10 converts (no copy when the dtype already matches)."""
    if src.dtype == dtype:
        return src
    if src.dtype.kind == "c" and dtype.kind != "c":
        if dtype == BOOL:
            return src != 0
        warnings.warn(COMPLEX_TO_REAL_WARNING, UserWarning, stacklevel=2)
        src = src.real
    with np.errstate(invalid="ignore", over="ignore"):  # NaN and inf to an integer: as C gives
        if (dtype in HALVES and src.dtype == F64) or BF16 in (src.dtype, dtype):
            src = src.astype(F32)  # c10 converts bfloat16 to and from everything through float
        if dtype == U8 and src.dtype.kind == "f":
            src = src.astype(np.int64)
        return src.astype(dtype)


def overflow(dtype: np.dtype) -> RuntimeError:
    return RuntimeError(f"value cannot be converted to type {C_NAME[dtype.name]} without overflow")


def scalar_to(value, dtype: np.dtype):
    """A Python number (or 0-d array) as a NumPy scalar of ``dtype``, with c10's overflow checks."""
    if isinstance(value, (np.ndarray, np.generic)):
        value = value.item()
    if isinstance(value, int) and not isinstance(value, bool):
        check_int64_range(value)
    if dtype == BOOL:
        return np.bool_(value != 0)
    if dtype.kind == "c":
        z = complex(value)
        limit = float(np.finfo(dtype).max)
        if any(math.isfinite(p) and abs(p) > limit for p in (z.real, z.imag)):
            raise overflow(dtype)
        return dtype.type(z)
    if isinstance(value, complex):
        if value.imag != 0:
            raise overflow(dtype)
        value = value.real
    if isinstance(value, bool):
        return np.array(int(value)).astype(dtype)[()]
    if isinstance(value, int):
        if dtype.kind in "iu":
            info = np.iinfo(dtype)
            # c10 lets a negative int wrap into an unsigned type when its magnitude fits (uint8: -255..255).
            ok = -info.max <= value <= info.max if dtype.kind == "u" else info.min <= value <= info.max
            if not ok:
                raise overflow(dtype)
            return np.array(value % (1 << (8 * dtype.itemsize)) if value < 0 else value).astype(dtype)[()]
        if abs(value) > float(ml_dtypes.finfo(dtype).max):
            raise overflow(dtype)
        src = np.array(value, np.int64 if value < 2**63 else np.uint64)
        return cast(src.astype(F32) if dtype == F16 else src, dtype)[()]
    f = float(value)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        if math.isnan(f) or math.isinf(f) or f < float(info.min) or f > float(info.max):
            raise overflow(dtype)
        return cast(np.array(f), dtype)[()]
    if math.isfinite(f) and abs(f) > float(ml_dtypes.finfo(dtype).max):
        raise overflow(dtype)
    return cast(np.array(f), dtype)[()]


def check_int64_range(value: int) -> None:
    # Python ints reach torch as int64 or uint64; beyond that the argument parser refuses them.
    if value < -(2**63):
        raise OverflowError("can't convert negative int to unsigned")
    if value >= 2**64:
        raise OverflowError("int too big to convert")
