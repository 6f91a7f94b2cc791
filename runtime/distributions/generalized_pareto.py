"""``GeneralizedPareto``: the peaks-over-threshold law of location ``loc``, scale ``scale`` and shape
``concentration`` (heavy tailed above 0, bounded below 0, exponential at 0)."""

import yaten

from . import constraints
from .distribution import Distribution
from .utils import broadcast_all, icdf_sample, parameter_property


class GeneralizedPareto(Distribution):
    """The generalized Pareto distribution, reparameterized through its inverse cdf.

    >>> d = GeneralizedPareto(yaten.tensor([0.0]), yaten.tensor([1.0]), yaten.tensor([0.0]))
    >>> d.cdf(yaten.tensor([0.0])).tolist(), d.mean.tolist()
    ([0.0], [1.0])
    """

    arg_constraints = {
        "loc": constraints.real,
        "scale": constraints.positive,
        "concentration": constraints.real,
    }
    has_rsample = True

    def __init__(self, loc, scale, concentration, validate_args=None):
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        super().__init__(self.loc.shape, validate_args=validate_args)

    def _by_shape(self, exponential, general):
        """``exponential()`` where the concentration is 0, else ``general(xi)`` (given 1 there, so that
        neither branch divides by 0)."""
        zero = self.concentration == 0
        xi = yaten.where(zero, yaten.ones_like(self.concentration), self.concentration)
        return yaten.where(zero, exponential(), general(xi))

    mode = parameter_property("loc")

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        upper = yaten.where(
            self.concentration < 0,
            self.loc - self.scale / self.concentration,
            yaten.full_like(self.loc, float("inf")),
        )
        return constraints.interval(self.loc, upper)

    @property
    def mean(self):
        mean = self.loc + self.scale / (1 - self.concentration)
        return mean.masked_fill(self.concentration >= 1, float("inf"))

    @property
    def variance(self):
        xi = self.concentration
        variance = self.scale.pow(2) / ((1 - xi).pow(2) * (1 - 2 * xi))
        return variance.masked_fill(xi >= 0.5, float("nan"))

    def rsample(self, sample_shape=()):
        return icdf_sample(self, sample_shape, self.loc)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        return -self.scale.log() - self._by_shape(lambda: z, lambda xi: (1 + 1 / xi) * yaten.log1p(xi * z))

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        survival = self._by_shape(lambda: yaten.exp(-z), lambda xi: (1 + xi * z).pow(-1 / xi))
        return 1 - survival

    def icdf(self, value):
        return self.loc + self.scale * self._by_shape(
            lambda: -yaten.log1p(-value), lambda xi: ((1 - value).pow(-xi) - 1) / xi
        )

    def entropy(self):
        return self.scale.log() + self.concentration + 1
