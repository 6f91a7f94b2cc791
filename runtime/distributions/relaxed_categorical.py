"""``RelaxedOneHotCategorical`` and ``ExpRelaxedCategorical``: the Concrete (Gumbel-softmax)
relaxation of a one-hot draw, a reparameterized point of the simplex that concentrates on its
vertices as the ``temperature`` goes to 0."""

import yaten

from . import constraints
from .categorical import Categorical, _ViaCategorical
from .distribution import Distribution
from .relaxed_bernoulli import _RelaxedParameters
from .transformed_distribution import TransformedDistribution
from .transforms import ExpTransform
from .utils import clamp_probs


class ExpRelaxedCategorical(_ViaCategorical, Distribution):
    """The log of a relaxed one-hot draw: ``log_softmax((logits + Gumbel noise) / temperature)``.

    >>> d = ExpRelaxedCategorical(yaten.tensor(1.0), probs=yaten.tensor([0.5, 0.5]))
    >>> d.event_shape, tuple(d.rsample((4,)).shape)
    (yaten.Size([2]), (4, 2))
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.real_vector
    has_rsample = True
    _shared_over_batch = ("temperature",)

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        self._categorical = Categorical(probs, logits)
        self.temperature = temperature
        shape = self._categorical.param_shape
        super().__init__(self._categorical.batch_shape, shape[-1:], validate_args=validate_args)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        u = clamp_probs(yaten.rand(shape, dtype=self.logits.dtype, device=self.logits.device))
        scores = (self.logits - (-u.log()).log()) / self.temperature
        return scores - scores.logsumexp(dim=-1, keepdim=True)

    def log_prob(self, value):
        k = self._categorical._num_events
        if self._validate_args:
            self._validate_sample(value)
        log_scale = yaten.full_like(self.temperature, float(k)).lgamma() + self.temperature.log() * (k - 1)
        score = self.logits - value * self.temperature
        return (score - score.logsumexp(dim=-1, keepdim=True)).sum(-1) + log_scale


class RelaxedOneHotCategorical(TransformedDistribution, _RelaxedParameters):
    """A relaxed one-hot draw on the simplex: the exponential of ``ExpRelaxedCategorical``.

    >>> d = RelaxedOneHotCategorical(yaten.tensor(0.7), probs=yaten.tensor([0.2, 0.3, 0.5]))
    >>> d.support, d.event_shape
    (Simplex(), yaten.Size([3]))
    """

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        base = ExpRelaxedCategorical(temperature, probs, logits, validate_args=validate_args)
        super().__init__(base, ExpTransform(), validate_args=validate_args)
