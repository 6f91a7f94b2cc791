"""``Weibull``: the distribution of ``scale * X ** (1 / concentration)`` for ``X ~ Exponential(1)``."""

import yaten

from . import constraints
from .exponential import Exponential
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, PowerTransform
from .utils import broadcast_all, euler_constant


class Weibull(TransformedDistribution):
    """The two-parameter Weibull distribution.

    >>> [round(v, 4) for v in Weibull(yaten.tensor([1.0]), yaten.tensor([1.0])).mean.tolist()]
    [1.0]
    """

    arg_constraints = {"scale": constraints.positive, "concentration": constraints.positive}
    support = constraints.positive

    def __init__(self, scale, concentration, validate_args=None):
        self.scale, self.concentration = broadcast_all(scale, concentration)
        self.concentration_reciprocal = self.concentration.reciprocal()
        base = Exponential(yaten.ones_like(self.scale), validate_args=validate_args)
        transforms = [
            PowerTransform(exponent=self.concentration_reciprocal),
            AffineTransform(loc=0, scale=self.scale),
        ]
        super().__init__(base, transforms, validate_args=validate_args)

    @property
    def mean(self):
        return self.scale * yaten.exp(yaten.lgamma(1 + self.concentration_reciprocal))

    @property
    def mode(self):
        k = self.concentration
        return self.scale * ((k - 1) / k) ** self.concentration_reciprocal

    @property
    def variance(self):
        k = self.concentration
        return self.scale.pow(2) * (
            yaten.exp(yaten.lgamma(1 + 2 / k))
            - yaten.exp(2 * yaten.lgamma(1 + self.concentration_reciprocal))
        )

    def entropy(self):
        return (
            euler_constant * (1 - self.concentration_reciprocal)
            + yaten.log(self.scale * self.concentration_reciprocal)
            + 1
        )
