"""``Geometric``: the number of failures before the first success in trials of probability ``probs``."""

import yaten
from yaten.nn.functional import binary_cross_entropy_with_logits

from . import constraints
from .distribution import Distribution
from .utils import BinaryProbsOrLogits, broadcast_all


class Geometric(Distribution, BinaryProbsOrLogits):
    """The geometric distribution of mass ``(1 - p)**k p`` on ``k = 0, 1, ...``.

    >>> d = Geometric(probs=yaten.tensor([0.5]))
    >>> d.log_prob(yaten.tensor([1.0])).exp().tolist(), d.mean.tolist()
    ([0.25], [1.0])
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, probs=None, logits=None, validate_args=None):
        self._set_probs_or_logits(probs, logits)
        super().__init__(self._param.shape, validate_args=validate_args)
        if self._validate_args and probs is not None and not bool((self.probs > 0).all()):
            raise ValueError(
                f"Expected parameter probs (Tensor of shape {tuple(self.probs.shape)}) of distribution {self!r} "
                f"to be positive but found invalid values:\n{self.probs[self.probs <= 0]}"
            )

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def mode(self):
        return yaten.zeros_like(self.probs)

    @property
    def variance(self):
        return (1.0 / self.probs - 1.0) / self.probs

    def sample(self, sample_shape=()):
        # inverse cdf: floor(log(u) / log(1 - p)) for u uniform on (tiny, 1)
        shape = self._extended_shape(sample_shape)
        with yaten.no_grad():
            u = yaten.rand(shape, dtype=self.probs.dtype, device=self.probs.device)
            u = u.clamp(min=yaten.finfo(u.dtype).tiny)
            return (u.log() / yaten.log1p(-self.probs)).floor()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        return yaten.xlogy(value, 1 - probs) + probs.log()

    def entropy(self):
        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none") / self.probs
