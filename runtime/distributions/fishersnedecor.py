"""``FisherSnedecor``: the F distribution, the ratio of two scaled chi-squared variables."""

import math

import yaten

from . import constraints
from .distribution import Distribution
from .gamma import Gamma
from .utils import broadcast_all


class FisherSnedecor(Distribution):
    """``(X1 / df1) / (X2 / df2)`` for independent ``X1 ~ Chi2(df1)``, ``X2 ~ Chi2(df2)``.

    >>> FisherSnedecor(yaten.tensor([3.0]), yaten.tensor([5.0])).mean.tolist()
    [1.6666666269302368]
    """

    arg_constraints = {"df1": constraints.positive, "df2": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, df1, df2, validate_args=None):
        self.df1, self.df2 = broadcast_all(df1, df2)
        self._gamma1 = Gamma(self.df1 * 0.5, self.df1)
        self._gamma2 = Gamma(self.df2 * 0.5, self.df2)
        super().__init__(self.df1.shape, validate_args=validate_args)

    @property
    def mean(self):
        df2 = self.df2.clone()
        df2[df2 <= 2] = math.nan
        return df2 / (df2 - 2)

    @property
    def mode(self):
        mode = (self.df1 - 2) / self.df1 * self.df2 / (self.df2 + 2)
        mode[self.df1 <= 2] = math.nan
        return mode

    @property
    def variance(self):
        df2 = self.df2.clone()
        df2[df2 <= 4] = math.nan
        return 2 * df2.pow(2) * (self.df1 + df2 - 2) / (self.df1 * (df2 - 2).pow(2) * (df2 - 4))

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        # the gammas have rates df (not 1/2), so their ratio is already the scaled one
        x1 = self._gamma1.rsample(sample_shape).view(shape)
        x2 = self._gamma2.rsample(sample_shape).view(shape)
        tiny = yaten.finfo(x2.dtype).tiny
        x2.detach().clamp_(min=tiny)
        y = x1 / x2
        y.detach().clamp_(min=tiny)
        return y

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        half1, half2 = self.df1 * 0.5, self.df2 * 0.5
        log_beta = yaten.lgamma(half1) + yaten.lgamma(half2) - yaten.lgamma(half1 + half2)
        ratio = self.df1 / self.df2
        return (
            half1 * ratio.log()
            + (half1 - 1) * value.log()
            - (half1 + half2) * (1 + ratio * value).log()
            - log_beta
        )
