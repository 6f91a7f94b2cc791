"""``VonMises``: the circular normal distribution of mean direction ``loc`` and concentration
``concentration``."""

import math

import yaten

from . import constraints
from .distribution import Distribution
from .utils import broadcast_all, parameter_property

# Abramowitz & Stegun 9.8.1-9.8.4: polynomials in t for the modified Bessel functions I0 and I1, below
# 3.75 (t = x / 3.75, of I0(x) and I1(x) / x) and above (t = 3.75 / x, of sqrt(x) exp(-x) I(x)).
_SMALL = (
    (1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.0360768, 0.0045813),
    (0.5, 0.87890594, 0.51498869, 0.15084934, 0.02658733, 0.00301532, 0.00032411),
)
_LARGE = (
    (0.39894228, 0.01328592, 0.00225319, -0.00157565, 0.00916281, -0.02057706, 0.02635537, -0.01647633, 0.00392377),
    (0.39894228, -0.03988024, -0.00362018, 0.00163801, -0.01031555, 0.02282967, -0.02895312, 0.01787654, -0.00420059),
)  # fmt: skip


def _polynomial(t, coefficients):
    result = yaten.full_like(t, coefficients[-1])
    for c in reversed(coefficients[:-1]):
        result = result * t + c
    return result


def _log_bessel_i(x, order):
    """``log I_order(x)`` (order 0 or 1) for ``x > 0``, from the polynomial approximations."""
    small = _polynomial((x / 3.75).pow(2), _SMALL[order]).log()
    if order == 1:
        small = small + x.log()
    large = x - 0.5 * x.log() + _polynomial(3.75 / x, _LARGE[order]).log()
    return yaten.where(x < 3.75, small, large)


class VonMises(Distribution):
    """The von Mises distribution on the circle, of density ``exp(k cos(x - loc)) / (2 pi I0(k))``;
    samples lie in [-pi, pi), drawn by Best and Fisher's rejection sampler.

    >>> d = VonMises(yaten.tensor([0.0]), yaten.tensor([1.0]))
    >>> [round(v, 4) for v in d.log_prob(yaten.tensor([0.0])).tolist()]
    [-1.0738]
    """

    arg_constraints = {"loc": constraints.real, "concentration": constraints.positive}
    support = constraints.real
    has_rsample = False

    def __init__(self, loc, concentration, validate_args=None):
        self.loc, self.concentration = broadcast_all(loc, concentration)
        super().__init__(self.loc.shape, validate_args=validate_args)

    mean = mode = parameter_property("loc")

    @property
    def variance(self):
        """The circular variance, ``1 - I1(k) / I0(k)``."""
        k = self.concentration
        return 1 - (_log_bessel_i(k, 1) - _log_bessel_i(k, 0)).exp()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        k = self.concentration
        return k * yaten.cos(value - self.loc) - math.log(2 * math.pi) - _log_bessel_i(k, 0)

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        with yaten.no_grad():
            k = self.concentration.to(yaten.float64).expand(shape)
            tau = 1 + (1 + 4 * k**2).sqrt()
            rho = (tau - (2 * tau).sqrt()) / (2 * k)
            r = (1 + rho**2) / (2 * rho)
            f = yaten.zeros_like(k)
            pending = yaten.ones_like(k, dtype=yaten.bool)
            while bool(pending.any()):
                u1, u2 = yaten.rand_like(k), yaten.rand_like(k)
                z = yaten.cos(math.pi * u1)
                proposal = (1 + r * z) / (r + z)
                c = k * (r - proposal)
                accept = ((c * (2 - c) - u2) > 0) | ((c / u2).log() + 1 - c >= 0)
                take = pending & accept
                f = yaten.where(take, proposal, f)
                pending = pending & ~take
            sign = (yaten.rand_like(k) - 0.5).sign()
            theta = sign * f.clamp(-1, 1).acos() + self.loc.to(yaten.float64)
            return (yaten.remainder(theta + math.pi, 2 * math.pi) - math.pi).to(self.loc.dtype)
