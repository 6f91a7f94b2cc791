"""``NegativeBinomial``: the number of successes before ``total_count`` failures, each trial a success
with probability ``probs``."""

import yaten
from yaten.nn.functional import logsigmoid

from . import constraints
from .distribution import Distribution
from .utils import BinaryProbsOrLogits


class NegativeBinomial(Distribution, BinaryProbsOrLogits):
    """The negative binomial of mass ``C(k + r - 1, k) p**k (1 - p)**r`` (``r = total_count``, real),
    drawn as a Poisson of Gamma-distributed rate.

    >>> d = NegativeBinomial(2.0, probs=yaten.tensor([0.5]))
    >>> d.mean.tolist(), d.log_prob(yaten.tensor([0.0])).exp().tolist()
    ([2.0], [0.25])
    """

    arg_constraints = {
        "total_count": constraints.greater_than_eq(0),
        "probs": constraints.half_open_interval(0.0, 1.0),
        "logits": constraints.real,
    }
    support = constraints.nonnegative_integer

    def __init__(self, total_count, probs=None, logits=None, validate_args=None):
        (self.total_count,) = self._set_probs_or_logits(probs, logits, total_count)
        super().__init__(self._param.shape, validate_args=validate_args)

    @property
    def param_shape(self):
        return self._param.shape

    @property
    def mean(self):
        return self.total_count * yaten.exp(self.logits)

    @property
    def mode(self):
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self):
        return self.mean / yaten.sigmoid(-self.logits)

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        with yaten.no_grad():
            rate = yaten._standard_gamma(self.total_count.expand(shape)) * self.logits.exp()
            return yaten.poisson(rate)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        r = self.total_count
        log_unnormalized = r * logsigmoid(-self.logits) + value * logsigmoid(self.logits)
        # log C(k + r - 1, k); 0 for r = k = 0, where the lgammas are both infinite
        log_choose = yaten.lgamma(r + value) - yaten.lgamma(1.0 + value) - yaten.lgamma(r)
        return log_unnormalized + log_choose.masked_fill(r + value == 0, 0.0)
