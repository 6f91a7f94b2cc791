"""The functions a ``pointwise:`` expression may call, as numba.cuda device functions.

Same names and meaning as ``kernels/cpu/scalar.py``; the generated CUDA kernels import them with
``from yaten.kernels.cuda.scalar import *``. Results follow PyTorch on NaN, infinities and signed
zeros; floor, ceil, trunc and round keep a float a float and an integer an integer.

The functions are written once, over a few math primitives (``_exp``, ``_floor``, ...) chosen at
import. On a GPU they are ``math``'s functions, which numba.cuda types float-preserving (float32 in,
float32 out) and computes as IEEE does (``log(0)`` is ``-inf``), plus Numba overloads where the
result type depends on the argument type. Under Numba's CUDA simulator a device function runs as
Python on NumPy scalars, where ``math.log(0)`` raises and ``math.floor`` returns an int, so there
the primitives are NumPy's ufuncs, which give a GPU's results.
"""

import builtins
import math

import numpy as np
from numba import config, cuda

from .. import special_math as _special

__all__ = [  # the names a pointwise expression may call, sorted
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "copysign", "cos", "cosh",
    "digamma", "dirichlet_grad", "erf", "erfc", "erfinv", "exp", "expm1", "floor", "floordiv", "fmod", "fmod_py", "frac", "gcd", "gelu_erf",
    "gelu_tanh", "hypot", "i0", "i1", "igamma", "igammac", "isfinite", "isinf", "isnan", "lcm", "lgamma", "log", "log1p", "log2", "log10",
    "logaddexp", "logaddexp2", "logical_xor", "lshift", "maximum", "minimum", "polygamma", "pow", "reciprocal",
    "relu", "round", "rshift", "rsqrt", "sigmoid", "sign", "signbit", "silu", "sin", "sinc", "sinh", "sqrt", "standard_gamma_grad", "tan",
    "tanh", "trigamma", "truediv", "trunc", "where", "xlogy", "zeta",
]  # fmt: skip

_abs = builtins.abs  # the module's own ``abs`` shadows the builtin
_erf = math.erf  # Python's never raises (NaN and infinities included), so it serves both targets


# --- primitives whose result type follows the argument's: an integer stays as it is ------------
# The Python bodies run in the simulator; on a GPU the overloads registered below replace them.


def _integral(x) -> bool:
    return isinstance(x, (int, np.integer, np.bool_))


def _floor(x):
    return x if _integral(x) else np.floor(x)


def _ceil(x):
    return x if _integral(x) else np.ceil(x)


def _trunc(x):
    return x if _integral(x) else np.trunc(x)


def _rint(x):
    return x if _integral(x) else np.rint(x)


if config.ENABLE_CUDASIM:
    _exp, _expm1, _log1p = np.exp, np.expm1, np.log1p
    _log, _log2, _log10, _sqrt = np.log, np.log2, np.log10, np.sqrt
    _sin, _cos, _tan = np.sin, np.cos, np.tan
    _atan, _atan2, _tanh = np.arctan, np.arctan2, np.tanh
    _asin, _acos, _sinh, _cosh = np.arcsin, np.arccos, np.sinh, np.cosh
    _asinh, _acosh, _atanh = np.arcsinh, np.arccosh, np.arctanh
    _hypot, _copysign = np.hypot, np.copysign
else:
    _exp, _expm1, _log1p = math.exp, math.expm1, math.log1p
    _log, _log2, _log10, _sqrt = math.log, math.log2, math.log10, math.sqrt
    _sin, _cos, _tan = math.sin, math.cos, math.tan
    _atan, _atan2, _tanh = math.atan, math.atan2, math.tanh
    _asin, _acos, _sinh, _cosh = math.asin, math.acos, math.sinh, math.cosh
    _asinh, _acosh, _atanh = math.asinh, math.acosh, math.atanh
    _hypot, _copysign = math.hypot, math.copysign

    from numba.core import types
    from numba.core.extending import overload
    from numba.cuda import libdevice

    def _integral_identity(stub, float_impl):
        """On CUDA, ``stub(x)`` is ``float_impl(type of x)(x)`` for a float, ``x`` for anything else."""

        @overload(stub, target="cuda")
        def _typed(x):
            return float_impl(x) if isinstance(x, types.Float) else (lambda x: x)

    def _rintf(x):
        return libdevice.rintf(x)

    def _rintd(x):
        return libdevice.rint(x)

    # numba.cuda types math.floor & co. float-preserving: float32 in, float32 out.
    _integral_identity(_floor, lambda t: lambda x: math.floor(x))
    _integral_identity(_ceil, lambda t: lambda x: math.ceil(x))
    _integral_identity(_trunc, lambda t: lambda x: math.trunc(x))
    _integral_identity(_rint, lambda t: _rintf if t == types.float32 else _rintd)


_device = cuda.jit(device=True)


# --- exponentials, logarithms, roots -----------------------------------------------------------


@_device
def exp(x):
    return _exp(x)


@_device
def expm1(x):
    return _expm1(x)


@_device
def log(x):
    return _log(x)


@_device
def log2(x):
    return _log2(x)


@_device
def log10(x):
    return _log10(x)


@_device
def log1p(x):
    return _log1p(x)


@_device
def sqrt(x):
    return _sqrt(x)


@_device
def rsqrt(x):
    return 1 / _sqrt(x)


@_device
def reciprocal(x):
    return 1 / x


# --- trigonometric and friends -------------------------------------------------------------------


@_device
def sin(x):
    return _sin(x)


@_device
def cos(x):
    return _cos(x)


@_device
def tan(x):
    return _tan(x)


@_device
def atan(x):
    return _atan(x)


@_device
def atan2(y, x):
    return _atan2(y, x)


@_device
def tanh(x):
    return _tanh(x)


@_device
def sigmoid(x):
    # Stable on both tails: exp of a non-positive number only.
    if x >= 0:
        return 1 / (1 + _exp(-x))
    z = _exp(x)
    return z / (1 + z)


@_device
def erf(x):
    return _erf(x)


# --- rounding, sign, classification --------------------------------------------------------------


@_device
def floor(x):
    return _floor(x)


@_device
def ceil(x):
    return _ceil(x)


@_device
def round(x):  # half to even, as torch.round
    return _rint(x)


@_device
def trunc(x):
    return _trunc(x)


@_device
def sign(x):
    # NaN and both zeros give 0, as torch.sign; the store into the output makes it a float.
    if x > 0:
        return 1
    if x < 0:
        return -1
    return 0


@_device
def abs(x):
    return _abs(x)


@_device
def isnan(x):
    return math.isnan(x)


@_device
def isinf(x):
    return math.isinf(x)


@_device
def isfinite(x):
    return math.isfinite(x)


# --- selection and comparison --------------------------------------------------------------------


@_device
def where(cond, a, b):
    return a if cond else b


@_device
def maximum(a, b):
    # NaN wins, as torch.maximum.
    if math.isnan(a) or a > b:
        return a
    return b


@_device
def minimum(a, b):
    if math.isnan(a) or a < b:
        return a
    return b


@_device
def logical_xor(a, b):
    return (a != 0) != (b != 0)


# --- arithmetic ------------------------------------------------------------------------------------


@_device
def pow(a, b):
    return a**b


@_device
def fmod_py(a, b):
    # Python's remainder (the sign of the divisor), as torch.remainder; Numba on a GPU and NumPy in
    # the simulator both keep Python's semantics, and give NaN (floats) or 0 (ints) for b == 0.
    r = a % b
    if r == 0:
        # torch keeps fmod's zero, signed like the dividend; Python signs it like the divisor.
        return a * 0
    return r


@_device
def fmod(a, b):
    # C's fmod (the sign of the dividend), as torch.fmod, from Python's remainder, which both
    # targets keep (exact on integers).
    r = a % b
    if r == 0:
        return a * 0  # zero signed like the dividend
    if (r < 0) != (a < 0):
        if b - b != 0:  # an infinite divisor (never an integer): fmod(a, inf) is a
            return a
        return r - b
    return r


@_device
def floordiv(a, b):
    return a // b


@_device
def truediv(a, b):
    return a / b


# --- activations -------------------------------------------------------------------------------------


@_device
def gelu_erf(x):
    return 0.5 * x * (1 + _erf(x * 0.7071067811865476))


@_device
def gelu_tanh(x):
    return 0.5 * x * (1 + _tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))


@_device
def silu(x):
    return x * sigmoid(x)


@_device
def relu(x):
    # NaN passes through and -0.0 stays -0.0, as torch.relu.
    if x < 0:
        return 0
    return x


# --- inverse and hyperbolic trigonometric, special functions ----------------------------------------


@_device
def asin(x):
    return _asin(x)


@_device
def acos(x):
    return _acos(x)


@_device
def sinh(x):
    return _sinh(x)


@_device
def cosh(x):
    return _cosh(x)


@_device
def asinh(x):
    return _asinh(x)


@_device
def acosh(x):
    if x < 1:  # math.acosh raises in the simulator; a GPU gives NaN
        return (x - x) / (x - x)
    return _acosh(x)


@_device
def atanh(x):
    if x < -1 or x > 1:
        return (x - x) / (x - x)
    if x == 1 or x == -1:
        return x / (x - x)
    return _atanh(x)


@_device
def erfc(x):
    return math.erfc(x)


@_device
def lgamma(x):
    if x <= 0 and _floor(x) == x:  # a pole: math.lgamma raises in the simulator
        return math.inf
    return math.lgamma(x)


@_device
def hypot(a, b):
    return _hypot(a, b)


@_device
def copysign(a, b):
    return _copysign(a, b)


@_device
def signbit(x):
    return _copysign(1.0, x) < 0


@_device
def logaddexp(a, b):
    if a == b and a - a != 0 and a == a:  # equal infinities: inf - inf would be NaN
        return a
    m = maximum(a, b)
    return m + _log1p(_exp(-_abs(a - b)))


@_device
def logaddexp2(a, b):
    if a == b and a - a != 0 and a == a:
        return a
    m = maximum(a, b)
    return m + _log1p(2.0 ** (-_abs(a - b))) * 1.4426950408889634


@_device
def xlogy(a, b):
    # 0 * log(0) is 0 (but NaN stays NaN), as torch.xlogy.
    if b != b:
        return b
    if a == 0:
        return a - a  # +0.0, also for a = -0.0
    return a * _log(b)


@_device
def sinc(x):
    if x == 0:
        return x * 0 + 1
    y = 3.141592653589793 * x
    return _sin(y) / y


@_device
def frac(x):
    return x - _trunc(x)


# --- shifts ---------------------------------------------------------------------------------------


@_device
def lshift(a, b):
    # A shift by a negative count or by the width or more gives 0, as PyTorch's (C leaves it undefined).
    if b < 0 or b >= 64:
        return a * 0
    return a << b


@_device
def rshift(a, b):
    # ... and the sign's fill: 0 or -1.
    if b < 0 or b >= 64:
        return a >> 63
    return a >> b


# The special functions: one implementation for both libraries (kernels/special_math.py).


@_device
def digamma(x):
    return _special.digamma(x)


@_device
def trigamma(x):
    return _special.trigamma(x)


@_device
def zeta(x, q):
    return _special.zeta(x, q)


@_device
def polygamma(n, x):
    return _special.polygamma(n, x)


@_device
def erfinv(y):
    return _special.erfinv(y)


@_device
def gcd(a, b):
    return _special.gcd(a, b)


@_device
def lcm(a, b):
    return _special.lcm(a, b)


@_device
def i0(x):
    return _special.i0(x)


@_device
def i1(x):
    return _special.i1(x)


@_device
def standard_gamma_grad(alpha, x):
    return _special.standard_gamma_grad(alpha, x)


@_device
def dirichlet_grad(x, alpha, total):
    return _special.dirichlet_grad(x, alpha, total)


@_device
def igamma(a, x):
    return _special.igamma(a, x)


@_device
def igammac(a, x):
    return _special.igammac(a, x)
