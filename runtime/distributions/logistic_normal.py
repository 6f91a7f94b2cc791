"""``LogisticNormal``: a point of the simplex from ``Normal(loc, scale)`` through stick-breaking."""

from . import constraints
from .normal import Normal
from .transformed_distribution import TransformedDistribution
from .transforms import StickBreakingTransform


class LogisticNormal(TransformedDistribution):
    """``StickBreakingTransform()(X)`` for ``X ~ Normal(loc, scale)``: K normal coordinates give a
    point of the (K + 1)-simplex.

    >>> import yaten
    >>> d = LogisticNormal(yaten.zeros(2), yaten.ones(2))
    >>> d.event_shape, d.support
    (yaten.Size([3]), Simplex())
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        base = Normal(loc, scale, validate_args=validate_args)
        if not base.batch_shape:
            base = base.expand([1])
        super().__init__(base, StickBreakingTransform(), validate_args=validate_args)

    @property
    def loc(self):
        return self.base_dist.base_dist.loc

    @property
    def scale(self):
        return self.base_dist.base_dist.scale
