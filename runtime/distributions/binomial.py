"""``Binomial``: the number of successes in ``total_count`` independent trials of probability ``probs``."""

import yaten
from yaten.nn.functional import softplus

from . import constraints
from .distribution import Distribution
from .utils import BinaryProbsOrLogits


class Binomial(Distribution, BinaryProbsOrLogits):
    """The binomial distribution of ``total_count`` trials, given ``probs`` or ``logits``.

    >>> d = Binomial(4, probs=yaten.tensor([0.5]))
    >>> d.log_prob(yaten.tensor([2.0])).exp().tolist(), d.mean.tolist()
    ([0.375], [2.0])
    """

    arg_constraints = {
        "total_count": constraints.nonnegative_integer,
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    has_enumerate_support = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        (self.total_count,) = self._set_probs_or_logits(probs, logits, total_count)
        super().__init__(self._param.shape, validate_args=validate_args)

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    @property
    def param_shape(self):
        return self._param.shape

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def mode(self):
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        with yaten.no_grad():
            return yaten.binomial(self.total_count.expand(shape), self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        n = self.total_count
        # log C(n, k) + k * logits - n * log(1 + exp(logits))
        log_choose = yaten.lgamma(n + 1) - yaten.lgamma(value + 1) - yaten.lgamma(n - value + 1)
        return log_choose + value * self.logits - n * softplus(self.logits)

    def _homogeneous_count(self, what):
        count = int(self.total_count.max())
        if not bool((self.total_count == count).all()):
            raise NotImplementedError(f"Inhomogeneous total count not supported by `{what}`.")
        return count

    def entropy(self):
        self._homogeneous_count("entropy")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(yaten.exp(log_prob) * log_prob).sum(0)

    def enumerate_support(self, expand=True):
        count = self._homogeneous_count("enumerate_support")
        values = yaten.arange(1 + count, dtype=self._param.dtype, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + tuple(self._batch_shape)) if expand else values
