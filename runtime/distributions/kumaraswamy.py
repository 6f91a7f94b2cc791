"""``Kumaraswamy``: a Beta-like law on (0, 1) with a closed-form cdf,
``(1 - (1 - U) ** (1 / concentration0)) ** (1 / concentration1)`` for ``U`` uniform."""

import math

import yaten

from . import constraints
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, PowerTransform
from .uniform import Uniform
from .utils import broadcast_all, euler_constant


def _moment(a, b, n):
    """``E[X^n] = b B(1 + n / a, b)``."""
    arg = 1 + n / a
    return b * yaten.exp(yaten.lgamma(arg) + yaten.lgamma(b) - yaten.lgamma(arg + b))


class Kumaraswamy(TransformedDistribution):
    """The Kumaraswamy distribution of ``concentration1`` (a) and ``concentration0`` (b).

    >>> [round(v, 4) for v in Kumaraswamy(yaten.tensor([1.0]), yaten.tensor([1.0])).mean.tolist()]
    [0.5]
    """

    arg_constraints = {"concentration1": constraints.positive, "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        self.concentration1, self.concentration0 = broadcast_all(concentration1, concentration0)
        zero = yaten.full_like(self.concentration0, 0)
        base = Uniform(zero, yaten.full_like(self.concentration0, 1), validate_args=validate_args)
        transforms = [
            PowerTransform(exponent=self.concentration0.reciprocal()),
            AffineTransform(loc=1.0, scale=-1.0),
            PowerTransform(exponent=self.concentration1.reciprocal()),
        ]
        super().__init__(base, transforms, validate_args=validate_args)

    @property
    def mean(self):
        return _moment(self.concentration1, self.concentration0, 1)

    @property
    def mode(self):
        # torch 2.13's formula: the exponent and the numerator's parameter are concentration0, so the
        # result is NaN unless concentration0 < 1 (then masked to NaN too); kept for parity
        a, b = self.concentration1, self.concentration0
        log_mode = b.reciprocal() * (yaten.log1p(-b) - yaten.log(b * a - 1))
        return yaten.where((b < 1) | (a < 1), math.nan, log_mode).exp()

    @property
    def variance(self):
        a, b = self.concentration1, self.concentration0
        return _moment(a, b, 2) - _moment(a, b, 1).pow(2)

    def entropy(self):
        a, b = self.concentration1, self.concentration0
        harmonic_b = yaten.digamma(b + 1) + euler_constant
        return (1 - a.reciprocal()) * harmonic_b + (1 - b.reciprocal()) - yaten.log(a) - yaten.log(b)
