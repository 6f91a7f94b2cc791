"""``Normal``: the Gaussian of mean ``loc`` and standard deviation ``scale``."""

import math

import yaten

from . import constraints
from .exp_family import ExponentialFamily
from .utils import _standard_normal, broadcast_all, parameter_property


class Normal(ExponentialFamily):
    """The normal distribution ``N(loc, scale**2)``, reparameterized.

    >>> d = Normal(yaten.tensor([0.0, 1.0]), yaten.tensor([1.0, 2.0]))
    >>> [round(v, 4) for v in d.log_prob(yaten.tensor([0.0, 1.0])).tolist()]
    [-0.9189, -1.6121]
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        super().__init__(self.loc.shape, validate_args=validate_args)

    mean = mode = parameter_property("loc")

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return self.scale.pow(2)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        return self.loc + _standard_normal(shape, self.loc.dtype, self.loc.device) * self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (
            -((value - self.loc) ** 2) / (2 * self.variance)
            - self.scale.log()
            - math.log(math.sqrt(2 * math.pi))
        )

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + yaten.erf((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)))

    def icdf(self, value):
        return self.loc + self.scale * yaten.erfinv(2 * value - 1) * math.sqrt(2)

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + yaten.log(self.scale)

    @property
    def _natural_params(self):
        return self.loc / self.scale.pow(2), -0.5 * self.scale.pow(2).reciprocal()

    def _log_normalizer(self, x, y):
        return -0.25 * x.pow(2) / y + 0.5 * yaten.log(-math.pi / y)
