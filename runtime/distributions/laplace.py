"""``Laplace``: the double exponential of location ``loc`` and scale ``scale``."""

import math

import yaten

from . import constraints
from .distribution import Distribution
from .utils import broadcast_all, parameter_property


class Laplace(Distribution):
    """The Laplace distribution of density ``exp(-|x - loc| / scale) / (2 scale)``, reparameterized.

    >>> d = Laplace(yaten.tensor([0.0]), yaten.tensor([1.0]))
    >>> d.cdf(yaten.tensor([0.0])).tolist(), d.variance.tolist()
    ([0.5], [2.0])
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        super().__init__(self.loc.shape, validate_args=validate_args)

    mean = mode = parameter_property("loc")

    @property
    def variance(self):
        return 2 * self.scale.pow(2)

    @property
    def stddev(self):
        return math.sqrt(2) * self.scale

    def rsample(self, sample_shape=()):
        # u uniform on (-1, 1), away from -1 so that log1p(-|u|) stays finite
        u = yaten.empty(self._extended_shape(sample_shape), dtype=self.loc.dtype, device=self.loc.device)
        u = u.uniform_(yaten.finfo(u.dtype).eps - 1, 1)
        return self.loc - self.scale * u.sign() * yaten.log1p(-u.abs())

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -yaten.log(2 * self.scale) - (value - self.loc).abs() / self.scale

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = value - self.loc
        return 0.5 - 0.5 * z.sign() * yaten.expm1(-z.abs() / self.scale)

    def icdf(self, value):
        centred = value - 0.5
        return self.loc - self.scale * centred.sign() * yaten.log1p(-2 * centred.abs())

    def entropy(self):
        return 1 + yaten.log(2 * self.scale)
