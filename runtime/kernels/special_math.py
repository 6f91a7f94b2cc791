"""The special functions of the pointwise libraries (digamma, trigamma, the Hurwitz zeta function,
polygamma, erfinv), written once over ``math`` for both targets.

``register_jitable`` makes each one callable from Numba's CPU code and from numba.cuda device code,
and leaves it a plain Python function, which is what Numba's CUDA simulator runs. The libraries
``cpu/scalar.py`` and ``cuda/scalar.py`` wrap them under the names a pointwise expression calls.
"""

import math

from numba.extending import register_jitable

# digamma, trigamma and the Hurwitz zeta function, as PyTorch computes them (Cephes' series).


@register_jitable
def digamma(x):
    if x == 0:
        return math.copysign(math.inf, -x)
    result = 0.0
    if x < 0:
        if x - x != 0 or x == math.floor(x):  # -inf first: math.floor(-inf) raises in plain Python
            return (x - x) / (x - x)  # NaN at -inf and the negative integers
        # reflection: digamma(x) = digamma(1 - x) - pi / tan(pi x)
        result = -3.141592653589793 / math.tan(3.141592653589793 * x)
        x = 1 - x
    while x < 10:
        result -= 1 / x
        x += 1
    if x == 10:
        return result + 2.25175258906672110764
    y = 0.0
    if x < 1.0e17:
        z = 1 / (x * x)
        y = z * (
            8.33333333333333333333e-2
            + z
            * (
                -8.33333333333333333333e-3
                + z
                * (
                    3.96825396825396825397e-3
                    + z
                    * (
                        -4.16666666666666666667e-3
                        + z
                        * (
                            7.57575757575757575758e-3
                            + z * (-2.10927960927960927961e-2 + z * 8.33333333333333333333e-2)
                        )
                    )
                )
            )
        )
    return result + math.log(x) - 0.5 / x - y


@register_jitable
def trigamma(x):
    sign = 1.0
    result = 0.0
    if x < 0.5:
        sign = -1.0
        if x - x != 0:
            return x - x  # NaN at -inf (math.sin(-inf) raises in plain Python)
        s = math.sin(3.141592653589793 * x)
        if s == 0:
            return math.inf  # the pole at 0
        result -= 9.869604401089358 / (s * s)
        x = 1 - x
    for _ in range(6):
        result += 1 / (x * x)
        x += 1
    ixx = 1 / (x * x)
    result += (1 + 1 / (2 * x) + ixx * (1.0 / 6 - ixx * (1.0 / 30 - ixx * (1.0 / 42)))) / x
    return sign * result


@register_jitable
def zeta(x, q):
    """Hurwitz zeta(x, q) = sum over k >= 0 of (k + q)^-x."""
    if x == 1:
        return math.inf
    if x < 1:
        return (x - x) / (x - x)
    if q <= 0:
        if q - q != 0 or q == math.floor(q):
            return math.inf
        if x != math.floor(x):
            return (x - x) / (x - x)
    s = q**-x
    a = q
    i = 0
    b = 0.0
    while i < 9 or a <= 9.0:
        i += 1
        a += 1.0
        b = a**-x
        s += b
        if -1.1102230246251565e-16 < b / s < 1.1102230246251565e-16:
            return s
    w = a
    s += b * w / (x - 1)
    s -= 0.5 * b
    a = 1.0
    k = 0.0
    coefs = (
        12.0,
        -720.0,
        30240.0,
        -1209600.0,
        47900160.0,
        -1.8924375803183791606e9,
        7.47242496e10,
        -2.950130727918164224e12,
        1.1646782814350067249e14,
        -4.5979787224074726105e15,
        1.8152105401943546773e17,
        -7.1661652561756670113e18,
    )
    for j in range(12):
        a *= x + k
        b /= w
        t = a * b / coefs[j]
        s = s + t
        if -1.1102230246251565e-16 < t / s < 1.1102230246251565e-16:
            return s
        k += 1.0
        a *= x + k
        b /= w
        k += 1.0
    return s


@register_jitable
def polygamma(n, x):
    if n == 0:
        return digamma(x)
    if n == 1:
        return trigamma(x)
    # (-1)^(n+1) n! zeta(n + 1, x)
    fact = 1.0
    k = 2.0
    while k <= n:
        fact *= k
        k += 1.0
    return (-1.0 if n % 2 == 0 else 1.0) * fact * zeta(n + 1.0, x)


@register_jitable
def erfinv(y):
    # Giles' single-precision approximation, refined by two Newton steps on erf (as PyTorch refines its own).
    if y <= -1 or y >= 1:
        if y == 1 or y == -1:
            return y * math.inf
        return (y - y) / (y - y)  # NaN outside [-1, 1]
    w = -math.log((1.0 - y) * (1.0 + y))
    if w < 5.0:
        w -= 2.5
        p = 2.81022636e-08
        p = 3.43273939e-07 + p * w
        p = -3.5233877e-06 + p * w
        p = -4.39150654e-06 + p * w
        p = 0.00021858087 + p * w
        p = -0.00125372503 + p * w
        p = -0.00417768164 + p * w
        p = 0.246640727 + p * w
        p = 1.50140941 + p * w
    else:
        w = math.sqrt(w) - 3.0
        p = -0.000200214257
        p = 0.000100950558 + p * w
        p = 0.00134934322 + p * w
        p = -0.00367342844 + p * w
        p = 0.00573950773 + p * w
        p = -0.0076224613 + p * w
        p = 0.00943887047 + p * w
        p = 1.00167406 + p * w
        p = 2.83297682 + p * w
    x = p * y
    x -= (math.erf(x) - y) / (1.1283791670955126 * math.exp(-x * x))
    x -= (math.erf(x) - y) / (1.1283791670955126 * math.exp(-x * x))
    return x


# Integer number theory, as ATen's calc_gcd: Euclid's algorithm on the magnitudes.


@register_jitable
def gcd(a, b):
    a, b = abs(a), abs(b)
    while a != 0:
        a, b = b % a, a
    return b


@register_jitable
def lcm(a, b):
    g = gcd(a, b)
    return 0 * a if g == 0 else abs(a // g * b)


# The modified Bessel functions of the first kind, orders 0 and 1, by their power series
# sum_k (x^2/4)^k / (k! (k + n)!) (times (x/2)^n), in float64 whatever the input: every term is positive,
# so the sum keeps its relative precision (n eps after n terms; ~450 terms where i0 nears float64's top).


@register_jitable
def _bessel_i_series(x, order):
    q = 0.25 * x * x
    term = 1.0
    total = 1.0
    k = 0
    while term > 1e-17 * total:
        k += 1
        term *= q / (k * (k + order))
        total += term
    return total


@register_jitable
def i0(x):
    x = abs(x * 1.0)
    if x - x != 0:  # NaN at +-inf too, as torch's (Cephes' Chebyshev expansions give NaN there)
        return x - x
    return _bessel_i_series(x, 0)


@register_jitable
def i1(x):
    x = x * 1.0
    if x - x != 0:
        return x - x
    r = 0.5 * abs(x) * _bessel_i_series(x, 1)
    return -r if x < 0 else r  # odd, with i1(-0.0) = +0.0 as torch's
