"""``MixtureSameFamily``: a finite mixture whose components are the last batch dimension of one
distribution, weighted by a ``Categorical``."""

import yaten

from . import constraints
from .categorical import Categorical
from .distribution import Distribution


class MixtureSameFamily(Distribution):
    """Draw a component index from ``mixture_distribution``, then a value from that component of
    ``component_distribution`` (whose rightmost batch dimension indexes the components).

    >>> mix = Categorical(probs=yaten.tensor([0.5, 0.5]))
    >>> comp = yaten.distributions.Normal(yaten.tensor([-1.0, 1.0]), yaten.tensor([1.0, 1.0]))
    >>> d = MixtureSameFamily(mix, comp)
    >>> d.mean.item(), d.variance.item()
    (0.0, 2.0)
    """

    arg_constraints = {}
    has_rsample = False

    def __init__(self, mixture_distribution, component_distribution, validate_args=None):
        if not isinstance(mixture_distribution, Categorical):
            raise ValueError(
                " The Mixture distribution needs to be an  instance of torch.distributions.Categorical"
            )
        if not isinstance(component_distribution, Distribution):
            raise ValueError(
                "The Component distribution needs to be an instance of torch.distributions.Distribution"
            )
        self._mixture_distribution = mixture_distribution
        self._component_distribution = component_distribution
        mix_batch = mixture_distribution.batch_shape
        comp_batch = component_distribution.batch_shape[:-1]
        if any(a != 1 and b != 1 and a != b for a, b in zip(reversed(mix_batch), reversed(comp_batch))):
            raise ValueError(
                f"`mixture_distribution.batch_shape` ({mix_batch}) is not compatible with "
                f"`component_distribution.batch_shape`({comp_batch})"
            )
        k_mix = mixture_distribution.logits.shape[-1]
        k_comp = component_distribution.batch_shape[-1]
        if k_mix != k_comp:
            raise ValueError(
                f"`mixture_distribution component` ({k_mix}) does not equal "
                f"`component_distribution.batch_shape[-1]` ({k_comp})"
            )
        self._num_component = k_mix
        self._event_ndims = len(component_distribution.event_shape)
        super().__init__(comp_batch, component_distribution.event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = _instance if _instance is not None else type(self).__new__(type(self))
        batch_shape = yaten.Size(batch_shape)
        new._component_distribution = self._component_distribution.expand(
            batch_shape + (self._num_component,)
        )
        new._mixture_distribution = self._mixture_distribution.expand(batch_shape)
        new._num_component = self._num_component
        new._event_ndims = self._event_ndims
        Distribution.__init__(new, batch_shape, self._event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property
    def support(self):
        return constraints.MixtureSameFamilyConstraint(self._component_distribution.support)

    @property
    def mixture_distribution(self):
        return self._mixture_distribution

    @property
    def component_distribution(self):
        return self._component_distribution

    def _component_dim(self):
        return -1 - self._event_ndims

    def _weights(self, x):
        """Mixture probabilities (or log-probabilities) ``x`` shaped to broadcast against the
        components' batch and event dimensions."""
        pad = 0 if len(self._mixture_distribution.batch_shape) == 1 else (
            len(self._batch_shape) - len(self._mixture_distribution.batch_shape))  # fmt: skip
        shape = tuple(x.shape)
        return x.reshape(shape[:-1] + (1,) * pad + shape[-1:] + (1,) * self._event_ndims)

    @property
    def mean(self):
        probs = self._weights(self._mixture_distribution.probs)
        return (probs * self._component_distribution.mean).sum(self._component_dim())

    @property
    def variance(self):
        # the law of total variance: E[Var(X | k)] + Var(E[X | k])
        probs = self._weights(self._mixture_distribution.probs)
        comp = self._component_distribution
        within = (probs * comp.variance).sum(self._component_dim())
        between = (probs * (comp.mean - self.mean.unsqueeze(self._component_dim())).pow(2)).sum(
            self._component_dim()
        )
        return within + between

    def cdf(self, x):
        cdf_x = self._component_distribution.cdf(x.unsqueeze(self._component_dim()))
        return (cdf_x * self._mixture_distribution.probs).sum(-1)

    def log_prob(self, x):
        if self._validate_args:
            self._validate_sample(x)
        log_prob_x = self._component_distribution.log_prob(x.unsqueeze(self._component_dim()))
        log_weights = yaten.log_softmax(self._mixture_distribution.logits, dim=-1)
        return yaten.logsumexp(log_prob_x + log_weights, dim=-1)

    def sample(self, sample_shape=()):
        with yaten.no_grad():
            gather_dim = len(sample_shape) + len(self._batch_shape)
            index = self._mixture_distribution.sample(sample_shape)
            values = self._component_distribution.sample(sample_shape)
            event = tuple(self._event_shape)
            index = index.reshape(tuple(index.shape) + (1,) * (len(event) + 1))
            index = index.expand(tuple(index.shape[: gather_dim + 1]) + event)
            return yaten.gather(values, gather_dim, index).squeeze(gather_dim)

    def __repr__(self):
        return (
            f"{type(self).__name__}(\n  {self._mixture_distribution!r},\n  {self._component_distribution!r})"
        )
