"""What HalfNormal and HalfCauchy share: the law of ``|X|`` for ``X`` symmetric about 0, whose density
is twice the base's on the nonnegative half-line."""

import math

import yaten

from . import constraints


def log_prob(self, value):
    """Twice the base density at ``value`` (minus infinity below 0)."""
    if self._validate_args:
        self._validate_sample(value)
    result = self.base_dist.log_prob(value) + math.log(2)
    return yaten.where(value >= 0, result, -math.inf)


def cdf(self, value):
    if self._validate_args:
        self._validate_sample(value)
    return 2 * self.base_dist.cdf(value) - 1


def icdf(self, prob):
    return self.base_dist.icdf((prob + 1) / 2)


def entropy(self):
    return self.base_dist.entropy() - math.log(2)


def mode(self):
    return yaten.zeros_like(self.scale)


def scale(self):
    return self.base_dist.scale


def folded(cls):
    """Class decorator: gives a ``TransformedDistribution`` of ``|X|`` (its base X symmetric about 0,
    parameterized by ``scale``) the density, cdf, icdf, entropy, mode and parameters of the fold."""
    cls.arg_constraints = {"scale": constraints.positive}
    cls.support = constraints.nonnegative
    cls.has_rsample = True
    cls.scale = property(scale)
    cls.mode = property(mode)
    for fn in (log_prob, cdf, icdf, entropy):
        setattr(cls, fn.__name__, fn)
    return cls
