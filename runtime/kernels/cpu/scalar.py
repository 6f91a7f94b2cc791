"""The functions a ``pointwise:`` expression may call, as Numba scalar functions (CPU).

Each is inlined into the ufunc built from an expression. The CUDA twin of this file,
``kernels/cuda/scalar.py``, defines the same names with the same meaning.
"""

import math

import numpy as np
from numba import njit

from .. import special_math as _special

_jit = njit(cache=True, inline="always")


@_jit
def exp(x):
    return math.exp(x)


@_jit
def expm1(x):
    return math.expm1(x)


@_jit
def log(x):
    return np.log(x)


@_jit
def log2(x):
    return np.log2(x)


@_jit
def log10(x):
    return np.log10(x)


@_jit
def log1p(x):
    return np.log1p(x)


@_jit
def sqrt(x):
    return np.sqrt(x)


@_jit
def rsqrt(x):
    return 1 / np.sqrt(x)


@_jit
def reciprocal(x):
    return 1 / x


@_jit
def sin(x):
    return math.sin(x)


@_jit
def cos(x):
    return math.cos(x)


@_jit
def tan(x):
    return math.tan(x)


@_jit
def atan(x):
    return math.atan(x)


@_jit
def atan2(y, x):
    return math.atan2(y, x)


@_jit
def tanh(x):
    return math.tanh(x)


@_jit
def sigmoid(x):
    # Stable on both tails: exp of a non-positive number only.
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    z = math.exp(x)
    return z / (1 + z)


@_jit
def erf(x):
    return math.erf(x)


@_jit
def floor(x):
    return np.floor(x)


@_jit
def ceil(x):
    return np.ceil(x)


@_jit
def round(x):
    # Half to even, as np.rint, but from floor: an integer stays an exact integer (np.rint goes
    # through float64, which loses int64 above 2**53). -((-r) - 1) is r + 1 keeping rint's -0.0.
    r = np.floor(x)
    d = x - r
    if d > 0.5 or (d == 0.5 and r % 2 != 0):
        return -((-r) - 1)
    return r


@_jit
def trunc(x):
    return np.trunc(x)


@_jit
def sign(x):
    return (x > 0) - (x < 0)


@_jit
def abs(x):
    return np.abs(x)


@_jit
def isnan(x):
    return x != x


@_jit
def isinf(x):
    return x == np.inf or x == -np.inf


@_jit
def isfinite(x):
    return not (x != x or x == np.inf or x == -np.inf)


@_jit
def where(cond, a, b):
    return a if cond else b


@_jit
def maximum(a, b):
    if a != a:
        return a
    if b != b:
        return b
    return max(b, a)


@_jit
def minimum(a, b):
    if a != a:
        return a
    if b != b:
        return b
    return min(b, a)


@_jit
def pow(a, b):
    return a**b


@_jit
def fmod_py(a, b):
    # Python's remainder (Numba keeps Python semantics): the sign of the divisor, as torch.remainder.
    return a % b


@_jit
def fmod(a, b):
    # C's fmod (the sign of the dividend), as torch.fmod, from Python's remainder: exact on
    # integers, where Numba's np.fmod is not.
    r = a % b
    if r == 0:
        return a * 0  # zero signed like the dividend
    if (r < 0) != (a < 0):
        if b - b != 0:  # an infinite divisor (never an integer): fmod(a, inf) is a
            return a
        return r - b
    return r


@_jit
def floordiv(a, b):
    return a // b


@_jit
def truediv(a, b):
    return a / b


@_jit
def gelu_erf(x):
    return 0.5 * x * (1 + math.erf(x * 0.7071067811865476))


@_jit
def gelu_tanh(x):
    return 0.5 * x * (1 + math.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))


@_jit
def silu(x):
    return x * sigmoid(x)


@_jit
def relu(x):
    # NaN passes through and -0.0 stays -0.0, as torch.relu (max(0, x) would turn NaN into 0).
    if x < 0:
        return 0
    return x


@_jit
def logical_xor(a, b):
    return (a != 0) != (b != 0)


@_jit
def asin(x):
    return np.arcsin(x)


@_jit
def acos(x):
    return np.arccos(x)


@_jit
def sinh(x):
    return np.sinh(x)


@_jit
def cosh(x):
    return np.cosh(x)


@_jit
def asinh(x):
    return np.arcsinh(x)


@_jit
def acosh(x):
    return np.arccosh(x)


@_jit
def atanh(x):
    return np.arctanh(x)


@_jit
def erfc(x):
    return math.erfc(x)


@_jit
def lgamma(x):
    return math.lgamma(x)


@_jit
def hypot(a, b):
    return np.hypot(a, b)


@_jit
def copysign(a, b):
    return np.copysign(a, b)


@_jit
def signbit(x):
    return np.signbit(x)


@_jit
def logaddexp(a, b):
    return np.logaddexp(a, b)


@_jit
def logaddexp2(a, b):
    return np.logaddexp2(a, b)


@_jit
def xlogy(a, b):
    # 0 * log(0) is 0 (but NaN stays NaN), as torch.xlogy.
    if b != b:
        return b
    if a == 0:
        return a - a  # +0.0, also for a = -0.0
    return a * np.log(b)


@_jit
def sinc(x):
    if x == 0:
        return x * 0 + 1
    y = np.pi * x
    return np.sin(y) / y


@_jit
def frac(x):
    return x - np.trunc(x)


@_jit
def lshift(a, b):
    # A shift by a negative count or by the width or more gives 0, as PyTorch's (C leaves it undefined).
    if b < 0 or b >= 64:
        return a * 0
    return a << b


@_jit
def rshift(a, b):
    # ... and the sign's fill: 0 or -1.
    if b < 0 or b >= 64:
        return a >> 63
    return a >> b


# The special functions: one implementation for both libraries (kernels/special_math.py).


@_jit
def digamma(x):
    return _special.digamma(x)


@_jit
def trigamma(x):
    return _special.trigamma(x)


@_jit
def zeta(x, q):
    return _special.zeta(x, q)


@_jit
def polygamma(n, x):
    return _special.polygamma(n, x)


@_jit
def erfinv(y):
    return _special.erfinv(y)
