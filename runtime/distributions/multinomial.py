"""``Multinomial``: the counts per class of ``total_count`` independent ``Categorical`` draws."""

import yaten
from yaten.nn.functional import one_hot

from . import constraints
from .binomial import Binomial
from .categorical import Categorical, _ViaCategorical
from .distribution import Distribution
from .utils import broadcast_all


class Multinomial(Distribution, _ViaCategorical):
    """Vectors of ``K`` counts summing to ``total_count`` (an int), given ``probs`` or ``logits``.

    >>> d = Multinomial(2, probs=yaten.tensor([0.5, 0.5]))
    >>> d.log_prob(yaten.tensor([1.0, 1.0])).exp().item(), d.mean.tolist()
    (0.5, [1.0, 1.0])
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.independent(constraints.real, 1)}

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        self._binomial = Binomial(total_count=total_count, probs=self.probs)
        param = self._categorical.param_shape
        super().__init__(param[:-1], param[-1:], validate_args=validate_args)

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self):
        return constraints.multinomial(self.total_count)

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        draws = self._categorical.sample((self.total_count,) + tuple(sample_shape))
        return one_hot(draws, self._event_shape[0]).sum(0).to(self.probs)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        # 0 * log(0) counts as 0: a class of probability 0 drawn 0 times
        powers = (logits.masked_fill((value == 0) & (logits == float("-inf")), 0) * value).sum(-1)
        return yaten.lgamma(value.sum(-1) + 1) - yaten.lgamma(value + 1).sum(-1) + powers

    def entropy(self):
        # -log n! + n H(categorical) + sum over classes of E[log x_i!], x_i ~ Binomial(n, p_i)
        n = yaten.tensor(self.total_count)  # an int64 tensor: torch takes log n! in the default dtype
        counts = self._binomial.enumerate_support(expand=False)[1:]
        expected_log_factorials = (self._binomial.log_prob(counts).exp() * yaten.lgamma(counts + 1)).sum(
            [0, -1]
        )
        return n * self._categorical.entropy() - yaten.lgamma(n + 1) + expected_log_factorials
