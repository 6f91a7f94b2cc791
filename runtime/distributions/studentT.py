"""``StudentT``: the location-scale Student's t distribution of ``df`` degrees of freedom."""

import math

import yaten

from . import constraints
from .distribution import Distribution
from .utils import _standard_normal, broadcast_all, parameter_property


class StudentT(Distribution):
    """Student's t of ``df`` degrees of freedom, shifted by ``loc`` and scaled by ``scale``;
    reparameterized (a normal over the root of a scaled chi-squared, both differentiable).

    >>> d = StudentT(yaten.tensor([3.0]))
    >>> d.variance.tolist(), [round(v, 4) for v in d.log_prob(yaten.tensor([0.0])).tolist()]
    ([3.0], [-1.0009])
    """

    arg_constraints = {"df": constraints.positive, "loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None):
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        super().__init__(self.df.shape, validate_args=validate_args)

    mode = parameter_property("loc")

    @property
    def mean(self):
        return self.loc.masked_fill(self.df <= 1, float("nan"))

    @property
    def variance(self):
        var = self.scale.pow(2) * self.df / (self.df - 2)
        return var.masked_fill((self.df <= 2) & (self.df > 1), float("inf")).masked_fill(
            self.df <= 1, float("nan")
        )

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        normal = _standard_normal(shape, self.df.dtype, self.df.device)
        chi2 = 2 * yaten._standard_gamma(0.5 * self.df.expand(shape))
        return self.loc + self.scale * normal * yaten.rsqrt(chi2 / self.df)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        log_norm = (
            self.scale.log()
            + 0.5 * self.df.log()
            + 0.5 * math.log(math.pi)
            + yaten.lgamma(0.5 * self.df)
            - yaten.lgamma(0.5 * (self.df + 1.0))
        )
        return -0.5 * (self.df + 1.0) * yaten.log1p(y**2 / self.df) - log_norm

    def entropy(self):
        half, half_next = 0.5 * self.df, 0.5 * (self.df + 1)
        log_beta = yaten.lgamma(half) + math.lgamma(0.5) - yaten.lgamma(half_next)
        return (
            self.scale.log()
            + half_next * (yaten.digamma(half_next) - yaten.digamma(half))
            + 0.5 * self.df.log()
            + log_beta
        )
