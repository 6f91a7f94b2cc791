"""``TransformedDistribution``: the law of ``f(X)`` for ``X`` from a base distribution and ``f`` a
chain of transforms. Its density follows from the change of variables:
``log p(y) = log p_base(f^-1(y)) - log |det J_f(f^-1(y))|``."""

import yaten

from . import constraints
from .distribution import Distribution
from .independent import Independent
from .transforms import ComposeTransform, Transform
from .utils import _sum_rightmost


class TransformedDistribution(Distribution):
    """``base_distribution`` pushed through ``transforms`` (one Transform or a list, applied in order).

    Base dimensions that a transform consumes as its event (a stick-breaking transform's vector) are
    reinterpreted as event dimensions of the base.

    >>> from yaten.distributions import Normal, ExpTransform
    >>> d = TransformedDistribution(Normal(yaten.zeros(2), yaten.ones(2)), ExpTransform())
    >>> d.batch_shape, d.support
    (yaten.Size([2]), GreaterThan(lower_bound=0.0))
    >>> [round(v, 4) for v in d.log_prob(yaten.tensor([1.0, 2.0])).tolist()]
    [-0.9189, -1.8523]
    """

    arg_constraints = {}

    def __init__(self, base_distribution, transforms, validate_args=None):
        if isinstance(transforms, Transform):
            self.transforms = [transforms]
        elif isinstance(transforms, list):
            if not all(isinstance(t, Transform) for t in transforms):
                raise ValueError("transforms must be a Transform or a list of Transforms")
            self.transforms = transforms
        else:
            raise ValueError(f"transforms must be a Transform or list, but was {transforms}")
        chain = ComposeTransform(self.transforms)
        base_shape = base_distribution.batch_shape + base_distribution.event_shape
        base_event_dim = len(base_distribution.event_shape)
        domain_event_dim = chain.domain.event_dim
        if len(base_shape) < domain_event_dim:
            raise ValueError(
                f"base_distribution needs to have shape with size at least {domain_event_dim}, but got {base_shape}."
            )
        shape = chain.forward_shape(base_shape)
        expanded = chain.inverse_shape(shape)
        if base_shape != expanded:  # a transform's parameters broadcast the base
            base_distribution = base_distribution.expand(expanded[: len(expanded) - base_event_dim])
        if domain_event_dim > base_event_dim:
            base_distribution = Independent(base_distribution, domain_event_dim - base_event_dim)
        self.base_dist = base_distribution
        event_dim = chain.codomain.event_dim + max(base_event_dim - domain_event_dim, 0)
        cut = len(shape) - event_dim
        super().__init__(shape[:cut], shape[cut:], validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        # the generic expand broadcasts the subclass's own parameters; the base is expanded to the shape
        # the transforms pull the new batch shape back to
        new = super().expand(batch_shape, _instance)
        shape = new.batch_shape + self.event_shape
        for t in reversed(self.transforms):
            shape = t.inverse_shape(shape)
        new.base_dist = self.base_dist.expand(shape[: len(shape) - len(self.base_dist.event_shape)])
        return new

    @constraints.dependent_property(is_discrete=False)
    def support(self):
        if not self.transforms:
            return self.base_dist.support
        support = self.transforms[-1].codomain
        if len(self.event_shape) > support.event_dim:
            support = constraints.independent(support, len(self.event_shape) - support.event_dim)
        return support

    @property
    def has_rsample(self):
        return self.base_dist.has_rsample

    def _pushed(self, x):
        for t in self.transforms:
            x = t(x)
        return x

    def sample(self, sample_shape=()):
        with yaten.no_grad():
            return self._pushed(self.base_dist.sample(sample_shape))

    def rsample(self, sample_shape=()):
        return self._pushed(self.base_dist.rsample(sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        event_dim = len(self.event_shape)
        result, y = 0.0, value
        for t in reversed(self.transforms):
            x = t.inv(y)
            event_dim += t.domain.event_dim - t.codomain.event_dim
            result = result - _sum_rightmost(t.log_abs_det_jacobian(x, y), event_dim - t.domain.event_dim)
            y = x
        return result + _sum_rightmost(
            self.base_dist.log_prob(y), event_dim - len(self.base_dist.event_shape)
        )

    def _monotonize_cdf(self, value):
        """The base cdf turned into this one's: reflected about 1/2 when the chain is decreasing."""
        sign = 1
        for t in self.transforms:
            sign = sign * t.sign
        if isinstance(sign, int) and sign == 1:
            return value
        return sign * (value - 0.5) + 0.5

    def cdf(self, value):
        for t in reversed(self.transforms):
            value = t.inv(value)
        if self._validate_args:
            self.base_dist._validate_sample(value)
        return self._monotonize_cdf(self.base_dist.cdf(value))

    def icdf(self, value):
        return self._pushed(self.base_dist.icdf(self._monotonize_cdf(value)))
