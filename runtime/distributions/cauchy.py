"""``Cauchy``: the Lorentz distribution of median ``loc`` and half width ``scale``."""

import math

import yaten

from . import constraints
from .distribution import Distribution
from .utils import broadcast_all, icdf_sample, parameter_property


class Cauchy(Distribution):
    """The Cauchy distribution of density ``1 / (pi scale (1 + ((x - loc) / scale)**2))``, reparameterized;
    its mean is undefined and its variance infinite.

    >>> d = Cauchy(yaten.tensor([0.0]), yaten.tensor([1.0]))
    >>> d.cdf(yaten.tensor([1.0])).tolist(), d.icdf(yaten.tensor([0.5])).tolist()
    ([0.75], [0.0])
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        super().__init__(self.loc.shape, validate_args=validate_args)

    mode = parameter_property("loc")

    @property
    def mean(self):
        return yaten.full(self._extended_shape(), float("nan"), dtype=self.loc.dtype, device=self.loc.device)

    @property
    def variance(self):
        return yaten.full(self._extended_shape(), float("inf"), dtype=self.loc.dtype, device=self.loc.device)

    def rsample(self, sample_shape=()):
        return icdf_sample(self, sample_shape, self.loc)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -math.log(math.pi) - self.scale.log() - (((value - self.loc) / self.scale) ** 2).log1p()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return yaten.atan((value - self.loc) / self.scale) / math.pi + 0.5

    def icdf(self, value):
        return yaten.tan(math.pi * (value - 0.5)) * self.scale + self.loc

    def entropy(self):
        return math.log(4 * math.pi) + self.scale.log()
