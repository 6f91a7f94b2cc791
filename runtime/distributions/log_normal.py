"""``LogNormal``: ``exp(X)`` for ``X ~ Normal(loc, scale)``."""

from . import constraints
from .normal import Normal
from .transformed_distribution import TransformedDistribution
from .transforms import ExpTransform


class LogNormal(TransformedDistribution):
    """The log-normal distribution: its logarithm is ``Normal(loc, scale)``.

    >>> import yaten
    >>> d = LogNormal(yaten.tensor([0.0]), yaten.tensor([1.0]))
    >>> [round(v, 4) for v in d.mean.tolist()], [round(v, 4) for v in d.log_prob(yaten.tensor([1.0])).tolist()]
    ([1.6487], [-0.9189])
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        super().__init__(
            Normal(loc, scale, validate_args=validate_args), ExpTransform(), validate_args=validate_args
        )

    @property
    def loc(self):
        return self.base_dist.loc

    @property
    def scale(self):
        return self.base_dist.scale

    @property
    def mean(self):
        return (self.loc + self.scale.pow(2) / 2).exp()

    @property
    def mode(self):
        return (self.loc - self.scale.square()).exp()

    @property
    def variance(self):
        s2 = self.scale.pow(2)
        return s2.expm1() * (2 * self.loc + s2).exp()

    def entropy(self):
        return self.base_dist.entropy() + self.loc
