"""``Exponential``: waiting times of rate ``rate``."""

import yaten

from . import constraints
from .exp_family import ExponentialFamily
from .utils import broadcast_all


class Exponential(ExponentialFamily):
    """The exponential distribution of density ``rate * exp(-rate * x)`` on ``x >= 0``, reparameterized.

    >>> d = Exponential(yaten.tensor([2.0]))
    >>> d.mean.tolist(), d.cdf(yaten.tensor([0.0])).tolist()
    ([0.5], [0.0])
    """

    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        super().__init__(self.rate.shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.rate.reciprocal()

    @property
    def mode(self):
        return yaten.zeros_like(self.rate)

    @property
    def stddev(self):
        return self.rate.reciprocal()

    @property
    def variance(self):
        return self.rate.pow(-2)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        return yaten.empty(shape, dtype=self.rate.dtype, device=self.rate.device).exponential_() / self.rate

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 1 - yaten.exp(-self.rate * value)

    def icdf(self, value):
        return -yaten.log1p(-value) / self.rate

    def entropy(self):
        return 1.0 - yaten.log(self.rate)

    @property
    def _natural_params(self):
        return (-self.rate,)

    def _log_normalizer(self, x):
        return -yaten.log(-x)
