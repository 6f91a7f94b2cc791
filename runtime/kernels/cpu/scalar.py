"""The functions a ``pointwise:`` expression may call, as Numba scalar functions (CPU).

Each is inlined into the ufunc built from an expression. The CUDA twin of this file,
``kernels/cuda/scalar.py``, defines the same names with the same meaning.

The functions of the ops that take complex numbers (``complex: true`` in the spec) have a complex
twin where the real body does not serve both (``math.exp`` is real-only; Numba's complex ``/``
raises on a zero divisor where PyTorch gives inf/NaN): Numba compiles the body that fits the
argument's type.
"""

import cmath
import functools
import math

import numpy as np
from numba import njit
from numba.core import types
from numba.extending import overload

from .. import special_math as _special

_jit = njit(cache=True, inline="always")


def _complex_twin(complex_fn):
    """Decorator: the scalar function computes ``complex_fn`` when an argument is complex."""
    complex_fn = getattr(complex_fn, "py_func", complex_fn)  # an overload returns Python functions

    def wrap(jitted):
        real_fn = jitted.py_func

        def is_complex(x):
            return isinstance(x, (complex, np.complexfloating))

        if real_fn.__code__.co_argcount == 1:

            def fn(x):
                return (complex_fn if is_complex(x) else real_fn)(x)

            def typed(x):
                return complex_fn if isinstance(x, types.Complex) else real_fn
        else:

            def fn(a, b):
                return (complex_fn if is_complex(a) or is_complex(b) else real_fn)(a, b)

            def typed(a, b):
                return complex_fn if isinstance(a, types.Complex) or isinstance(b, types.Complex) else real_fn

        overload(fn, inline="always")(typed)
        return functools.wraps(real_fn)(fn)

    return wrap


@_jit
def _cdiv(a, b):
    # NumPy's (and c10's) complex division: scaled by the larger part of b; a zero divisor gives a
    # complex inf or NaN (a float division by zero), not Numba's ZeroDivisionError.
    a = complex(a)
    br, bi = b.real, b.imag
    if abs(br) >= abs(bi):
        if br == 0 and bi == 0:
            return complex(a.real / abs(br), a.imag / abs(bi))
        rat = bi / br
        scl = 1.0 / (br + bi * rat)
        return complex((a.real + a.imag * rat) * scl, (a.imag - a.real * rat) * scl)
    rat = br / bi
    scl = 1.0 / (bi + br * rat)
    return complex((a.real * rat + a.imag) * scl, (a.imag * rat - a.real) * scl)


@_jit
def _csigmoid(x):
    return _cdiv(1.0, 1.0 + cmath.exp(-x))


@_jit
def _csgn(x):
    # torch.sgn: x / |x|, and 0 at 0.
    if x == 0:
        return x * 0
    return x / abs(x)


@_jit
def _cisinf(x):
    return math.isinf(x.real) or math.isinf(x.imag)


@_jit
def _cisfinite(x):
    return math.isfinite(x.real) and math.isfinite(x.imag)


@_jit
def _clogaddexp(a, b):
    # log(exp(a) + exp(b)) from the operand of the larger real part, as PyTorch's complex kernel.
    if a.real < b.real:
        a, b = b, a
    return a + np.log1p(np.exp(b - a))


@_complex_twin(lambda x: cmath.exp(x))
@_jit
def exp(x):
    return math.exp(x)


@_complex_twin(lambda x: np.expm1(x))
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


@_complex_twin(lambda x: _cdiv(1.0, cmath.sqrt(x)))
@_jit
def rsqrt(x):
    return 1 / np.sqrt(x)


@_complex_twin(lambda x: _cdiv(1.0, x))
@_jit
def reciprocal(x):
    return 1 / x


@_complex_twin(lambda x: cmath.sin(x))
@_jit
def sin(x):
    return math.sin(x)


@_complex_twin(lambda x: cmath.cos(x))
@_jit
def cos(x):
    return math.cos(x)


@_complex_twin(lambda x: cmath.tan(x))
@_jit
def tan(x):
    return math.tan(x)


@_complex_twin(lambda x: cmath.atan(x))
@_jit
def atan(x):
    return math.atan(x)


@_jit
def atan2(y, x):
    return math.atan2(y, x)


@_complex_twin(lambda x: cmath.tanh(x))
@_jit
def tanh(x):
    return math.tanh(x)


@_complex_twin(_csigmoid)
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


@_complex_twin(_csgn)
@_jit
def sign(x):
    return (x > 0) - (x < 0)


@_jit
def abs(x):
    return np.abs(x)


@_jit
def isnan(x):
    return x != x


@_complex_twin(_cisinf)
@_jit
def isinf(x):
    return x == np.inf or x == -np.inf


@_complex_twin(_cisfinite)
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


@_complex_twin(_cdiv)
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


@_complex_twin(_clogaddexp)
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


@_jit
def gcd(a, b):
    return _special.gcd(a, b)


@_jit
def lcm(a, b):
    return _special.lcm(a, b)


@_jit
def i0(x):
    return _special.i0(x)


@_jit
def i1(x):
    return _special.i1(x)


@_jit
def standard_gamma_grad(alpha, x):
    return _special.standard_gamma_grad(alpha, x)


@_jit
def dirichlet_grad(x, alpha, total):
    return _special.dirichlet_grad(x, alpha, total)


@_jit
def igamma(a, x):
    return _special.igamma(a, x)


@_jit
def igammac(a, x):
    return _special.igammac(a, x)
