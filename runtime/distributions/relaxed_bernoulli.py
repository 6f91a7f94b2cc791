"""``RelaxedBernoulli`` and ``LogitRelaxedBernoulli``: the binary Concrete (Gumbel-softmax)
relaxation of a coin flip, a reparameterized value in (0, 1) that concentrates on {0, 1} as the
``temperature`` goes to 0."""

import yaten

from . import constraints
from .distribution import Distribution
from .transformed_distribution import TransformedDistribution
from .transforms import SigmoidTransform
from .utils import BinaryProbsOrLogits, broadcast_all, clamp_probs, probs_or_logits


class LogitRelaxedBernoulli(Distribution, BinaryProbsOrLogits):
    """The logit of a relaxed Bernoulli: ``(logit(U) + logits) / temperature`` for ``U`` uniform.

    >>> d = LogitRelaxedBernoulli(yaten.tensor(0.5), probs=yaten.tensor([0.5]))
    >>> [round(v, 4) for v in d.log_prob(yaten.tensor([0.0])).tolist()]
    [-2.0794]
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.real
    has_rsample = True
    _shared_over_batch = ("temperature",)

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        self.temperature = temperature
        name, param = probs_or_logits(probs, logits)
        (self.__dict__[name],) = broadcast_all(param)
        self._param = self.__dict__[name]
        super().__init__(self._param.shape, validate_args=validate_args)

    @property
    def param_shape(self):
        return self._param.shape

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        probs = clamp_probs(self.probs.expand(shape))
        u = clamp_probs(yaten.rand(shape, dtype=probs.dtype, device=probs.device))
        return (u.log() - (-u).log1p() + probs.log() - (-probs).log1p()) / self.temperature

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diff = self.logits - value * self.temperature
        return self.temperature.log() + diff - 2 * diff.exp().log1p()


class _RelaxedParameters:
    """The parameters of a relaxed distribution, read from the base it transforms."""

    @property
    def temperature(self):
        return self.base_dist.temperature

    @property
    def logits(self):
        return self.base_dist.logits

    @property
    def probs(self):
        return self.base_dist.probs


class RelaxedBernoulli(TransformedDistribution, _RelaxedParameters):
    """A relaxed coin flip in (0, 1): the sigmoid of ``LogitRelaxedBernoulli``.

    >>> d = RelaxedBernoulli(yaten.tensor(0.5), probs=yaten.tensor([0.3]))
    >>> d.support, d.batch_shape
    (Interval(lower_bound=0.0, upper_bound=1.0), yaten.Size([1]))
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        base = LogitRelaxedBernoulli(temperature, probs, logits)
        super().__init__(base, SigmoidTransform(), validate_args=validate_args)
