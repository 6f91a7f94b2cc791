"""``Categorical``: one of ``K`` classes, given by probabilities or logits over the last dimension."""

import yaten

from . import constraints
from .distribution import Distribution
from .utils import lazy_property, logits_to_probs, probs_or_logits, probs_to_logits


class Categorical(Distribution):
    """A distribution over ``{0, ..., K - 1}``: ``probs`` (normalised over the last dimension) or
    ``logits`` (unnormalised log-probabilities).

    >>> d = Categorical(probs=yaten.tensor([1.0, 1.0, 2.0]))
    >>> d.probs.tolist(), d.log_prob(yaten.tensor(2)).exp().item()
    ([0.25, 0.25, 0.5], 0.5)
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.independent(constraints.real, 1)}
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        name, param = probs_or_logits(probs, logits)
        if param.dim() < 1:
            raise ValueError(f"`{name}` parameter must be at least one-dimensional.")
        if name == "probs":
            self.probs = param / param.sum(-1, keepdim=True)
        else:
            self.logits = param - param.logsumexp(dim=-1, keepdim=True)
        self._param = self.__dict__[name]
        self._num_events = self._param.shape[-1]
        super().__init__(self._param.shape[:-1], validate_args=validate_args)

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits)

    @property
    def param_shape(self):
        return self._param.shape

    @property
    def mean(self):
        return yaten.full(
            self._extended_shape(), float("nan"), dtype=self.probs.dtype, device=self.probs.device
        )

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    @property
    def variance(self):
        return self.mean

    def sample(self, sample_shape=()):
        n = yaten.Size(sample_shape).numel()
        rows = self.probs.reshape(-1, self._num_events)
        return yaten.multinomial(rows, n, True).T.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        index, logits = yaten.broadcast_tensors(value.long().unsqueeze(-1), self.logits)
        return logits.gather(-1, index[..., :1]).squeeze(-1)

    def entropy(self):
        logits = self.logits.clamp(min=yaten.finfo(self.logits.dtype).min)
        return -(logits * self.probs).sum(-1)

    def enumerate_support(self, expand=True):
        values = yaten.arange(self._num_events, dtype=yaten.long, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + tuple(self._batch_shape)) if expand else values


class _ViaCategorical:
    """The parameters of a distribution built on a ``Categorical`` held as ``_categorical``
    (``OneHotCategorical``, ``Multinomial``)."""

    @property
    def _param(self):
        return self._categorical._param

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def param_shape(self):
        return self._categorical.param_shape
