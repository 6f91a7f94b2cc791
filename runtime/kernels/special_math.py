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


# The reparameterized gradients of the Gamma and Dirichlet samplers (_standard_gamma_grad,
# _dirichlet_grad): PyTorch's approximations (ATen's standard_gamma_grad_one, dirichlet_grad_one), so
# gradients match torch's to the float tolerance, not only the exact derivative's.

# -d/dalpha cdf(x; alpha) / pdf(x; alpha): rows u^0, u^1, u^2 of the bivariate rational approximation.
_GAMMA_UV = (
    0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1.0, 0.32668115, 0.10406089, 0.0014179084,
    0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113, -0.0035938915, -0.00058392623,
    0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642, -0.0021309326, 0.00085092367,
    -1.5247877e-07,
)  # fmt: skip

# The Dirichlet rational correction: [p or q][power of u][power of a][power of b], flattened.
_DIRICHLET_C = (
    1.003668233, -0.01061107488, -0.0657888334, 0.01201642863,
    0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033,
    -0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013,
    0.221950385, -0.3187676331, 0.01799915743, 0.01074823814,
    -0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057,
    0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05,
    -0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565,
    0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181,
    0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05,
    1.0, -0.02924021934, -0.04438342661, 0.007285809825,
    0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521,
    -0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149,
    0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273,
    0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956,
    -0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05,
    0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05,
    0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05,
    -0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06,
)  # fmt: skip


@register_jitable
def standard_gamma_grad(alpha, x):
    """-(d/dalpha cdf(x; alpha)) / pdf(x; alpha) for a sample ``x`` of the standard Gamma(``alpha``).

    >>> round(standard_gamma_grad(1.0, 0.5), 6)
    0.806978
    """
    if x < 0.8:  # a Taylor series for small x
        numer = 1.0
        denom = alpha
        series1 = numer / denom
        series2 = numer / (denom * denom)
        for i in range(1, 6):
            numer *= -x / i
            denom += 1
            series1 += numer / denom
            series2 += numer / (denom * denom)
        pow_x_alpha = x**alpha
        gamma_pdf = x ** (alpha - 1) * math.exp(-x)
        gamma_cdf = pow_x_alpha * series1
        gamma_cdf_alpha = (math.log(x) - digamma(alpha)) * gamma_cdf - pow_x_alpha * series2
        result = -gamma_cdf_alpha / gamma_pdf
        return 0.0 if result != result else result
    if alpha > 8.0:  # a Rice saddle point expansion for large alpha
        if 0.9 * alpha <= x <= 1.1 * alpha:
            numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
            numer_2 = (
                1440 * (alpha * alpha)
                + 6 * x * (53 - 120 * x)
                - 65 * x * x / alpha
                + alpha * (107 + 3600 * x)
            )
            return numer_1 * numer_2 / (1244160 * (alpha * alpha) * (alpha * alpha))
        denom = math.sqrt(8 * alpha)
        term2 = denom / (alpha - x)
        term3 = (x - alpha - alpha * math.log(x / alpha)) ** -1.5
        term23 = term2 - term3 if x < alpha else term2 + term3
        term1 = math.log(x / alpha) * term23 - math.sqrt(2 / alpha) * (alpha + x) / (
            (alpha - x) * (alpha - x)
        )
        stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
        return -stirling * x * term1 / denom
    u = math.log(x / alpha)  # a bivariate rational approximation in between
    v = math.log(alpha)
    p = 0.0
    q = 0.0
    for k in range(3, -1, -1):
        p = p * v + _GAMMA_UV[k] + u * (_GAMMA_UV[8 + k] + u * _GAMMA_UV[16 + k])
        q = q * v + _GAMMA_UV[4 + k] + u * (_GAMMA_UV[12 + k] + u * _GAMMA_UV[20 + k])
    return math.exp(p / q)


@register_jitable
def _beta_grad_alpha_small(x, alpha, beta):
    # Beta(alpha, beta)'s gradient with respect to alpha for x near 0: a Taylor expansion.
    factor = digamma(alpha) - digamma(alpha + beta) - math.log(x)
    numer = 1.0
    series = numer / alpha * (factor + 1 / alpha)
    for i in range(1, 11):
        numer *= (i - beta) * x / i
        denom = alpha + i
        series += numer / denom * (factor + 1 / denom)
    result = x * (1 - x) ** -beta * series
    return 0.0 if result != result else result


@register_jitable
def _beta_grad_beta_small(x, alpha, beta):
    # ... and with respect to beta.
    factor = digamma(alpha + beta) - digamma(beta)
    numer = 1.0
    betas = 1.0
    dbetas = 0.0
    series = factor / alpha
    for i in range(1, 9):
        numer *= -x / i
        dbetas = dbetas * (beta - i) + betas
        betas = betas * (beta - i)
        series += numer / (alpha + i) * (dbetas + factor * betas)
    result = -((1 - x) ** (1 - beta)) * series
    return 0.0 if result != result else result


@register_jitable
def _beta_grad_alpha_mid(x, alpha, beta):
    # ... with respect to alpha when alpha and beta are both large: a Rice saddle point expansion.
    total = alpha + beta
    mean = alpha / total
    std = math.sqrt(alpha * beta / (total + 1)) / total
    if mean - 0.1 * std <= x <= mean + 0.1 * std:  # the singularity at x = mean
        poly = 47 * x * (beta * beta) * (beta * beta) + alpha * (
            (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta
            + alpha
            * (
                3 * (59 + 180 * beta - 90 * x) * (beta * beta)
                + alpha
                * ((453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (8 * (1 - x) * (135 * beta - 11)))
            )
        )
        prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
        prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
        return prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / math.sqrt(2 * alpha * beta / total)
    stirling = (
        (1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
        * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
        / (1 + 1 / (12 * total) + 1 / (288 * total * total))
    )
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1 = term1_num / (math.sqrt(2 * alpha / beta) * total**1.5 * axbx * axbx)
    term2 = 0.5 * math.log(alpha / (total * x))
    term3 = math.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4 = (beta * math.log(beta / (total * (1 - x))) + alpha * math.log(alpha / (total * x))) ** -1.5
    return stirling * prefactor * (term1 + term2 * (term3 + (term4 if x < mean else -term4)))


@register_jitable
def dirichlet_grad(x, alpha, total):
    """-(d/dalpha cdf(x; alpha, total - alpha)) / pdf(x; alpha, total - alpha) / (1 - x) for a sample ``x``
    of Beta(``alpha``, ``total - alpha``): the Dirichlet sampler's gradient, one coordinate at a time.

    >>> round(dirichlet_grad(0.3, 1.0, 2.0), 6)
    0.515988
    """
    beta = total - alpha
    boundary = total * x * (1 - x)
    if x <= 0.5 and boundary < 2.5:  # x close to 0
        return _beta_grad_alpha_small(x, alpha, beta)
    if x >= 0.5 and boundary < 0.75:  # x close to 1
        return -_beta_grad_beta_small(1 - x, beta, alpha)
    if alpha > 6 and beta > 6:
        return _beta_grad_alpha_mid(x, alpha, beta)
    u = math.log(x)  # a rational correction to an analytic approximation
    a = math.log(alpha) - u
    b = math.log(total) - a
    p = 0.0
    q = 0.0
    for i in range(3):
        for j in range(3):
            ua = u**i * a**j
            k = (i * 3 + j) * 4
            p += ua * (
                _DIRICHLET_C[k]
                + b * (_DIRICHLET_C[k + 1] + b * (_DIRICHLET_C[k + 2] + b * _DIRICHLET_C[k + 3]))
            )
            k += 36
            q += ua * (
                _DIRICHLET_C[k]
                + b * (_DIRICHLET_C[k + 1] + b * (_DIRICHLET_C[k + 2] + b * _DIRICHLET_C[k + 3]))
            )
    return p / q * x * (digamma(total) - digamma(alpha)) / beta


# The regularized incomplete gamma functions P(a, x) (igamma) and Q(a, x) = 1 - P (igammac), with
# torch's answers at the edges: a power series where it converges fast (x < a + 1), a continued
# fraction (modified Lentz) elsewhere, each to double precision.


@register_jitable
def _igamma_series(a, x):
    term = 1.0 / a
    total = term
    n = a
    for _ in range(2000):
        n += 1
        term *= x / n
        total += term
        if abs(term) < abs(total) * 1e-17:
            break
    return total * math.exp(a * math.log(x) - x - math.lgamma(a))


@register_jitable
def _igammac_fraction(a, x):
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 2000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-17:
            break
    return h * math.exp(a * math.log(x) - x - math.lgamma(a))


@register_jitable
def _regularized_gamma(a, x, upper):
    # P(a, x), or Q(a, x) = 1 - P(a, x) when ``upper``: each expansion gives the one it converges to
    # (the series P below a + 1, the continued fraction Q above) and the other as its complement.
    if x < 0 or a < 0:
        return math.nan
    if a == 0:
        p = 1.0 if x > 0 else math.nan
    elif x == 0:
        p = 0.0
    elif math.isinf(a):
        p = math.nan if math.isinf(x) else 0.0
    elif math.isinf(x):
        p = 1.0
    elif x != x or a != a:
        return math.nan
    elif x < a + 1:
        p = _igamma_series(a, x)
    else:
        q = _igammac_fraction(a, x)
        return q if upper else 1 - q
    return 1 - p if upper else p


@register_jitable
def igamma(a, x):
    """The regularized lower incomplete gamma function P(``a``, ``x``).

    >>> round(igamma(1.0, 1.0), 12)  # 1 - exp(-1)
    0.632120558829
    """
    return _regularized_gamma(a, x, False)


@register_jitable
def igammac(a, x):
    """The regularized upper incomplete gamma function Q(``a``, ``x``) = 1 - P(``a``, ``x``).

    >>> round(igammac(1.0, 1.0), 12)  # exp(-1)
    0.367879441171
    """
    return _regularized_gamma(a, x, True)
