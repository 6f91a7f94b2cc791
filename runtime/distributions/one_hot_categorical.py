"""``OneHotCategorical``: a ``Categorical`` whose values are one-hot vectors, and its straight-through
variant, whose samples pass the gradient of the probabilities."""

import yaten
from yaten.nn.functional import one_hot

from . import constraints
from .categorical import Categorical, _ViaCategorical
from .distribution import Distribution


class OneHotCategorical(Distribution, _ViaCategorical):
    """One-hot vectors of length ``K``, drawn as ``Categorical(probs, logits)``.

    >>> d = OneHotCategorical(probs=yaten.tensor([0.25, 0.75]))
    >>> d.log_prob(yaten.tensor([0.0, 1.0])).exp().item(), d.mode.tolist()
    (0.75, [0.0, 1.0])
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.independent(constraints.real, 1)}
    support = constraints.one_hot
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        self._categorical = Categorical(probs, logits)
        param = self._categorical.param_shape
        super().__init__(param[:-1], param[-1:], validate_args=validate_args)

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        return one_hot(self.probs.argmax(dim=-1), self._event_shape[0]).to(self.probs)

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        index = self._categorical.sample(sample_shape)
        return one_hot(index, self._event_shape[0]).to(self.probs)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self._categorical.log_prob(value.max(-1)[1])

    def entropy(self):
        return self._categorical.entropy()

    def enumerate_support(self, expand=True):
        n = self._event_shape[0]
        values = yaten.eye(n, dtype=self._param.dtype, device=self._param.device)
        values = values.view((n,) + (1,) * len(self._batch_shape) + (n,))
        return values.expand((n,) + tuple(self._batch_shape) + (n,)) if expand else values


class OneHotCategoricalStraightThrough(OneHotCategorical):
    """``OneHotCategorical`` whose ``rsample`` is the one-hot draw in value and differentiates as the
    probabilities (the straight-through estimator).

    >>> d = OneHotCategoricalStraightThrough(logits=yaten.zeros(3, requires_grad=True))
    >>> d.rsample().sum().backward()
    """

    has_rsample = True

    def rsample(self, sample_shape=()):
        draws = self.sample(sample_shape)
        probs = self._categorical.probs
        return draws + (probs - probs.detach())
