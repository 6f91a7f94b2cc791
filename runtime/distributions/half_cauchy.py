"""``HalfCauchy``: ``|X|`` for ``X ~ Cauchy(0, scale)``."""

import math

import yaten

from . import _folded
from .cauchy import Cauchy
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform


@_folded.folded
class HalfCauchy(TransformedDistribution):
    """The half-Cauchy distribution of ``scale``: no finite mean or variance.

    >>> d = HalfCauchy(yaten.tensor([1.0]))
    >>> d.mean.tolist(), [round(v, 4) for v in d.log_prob(yaten.tensor([1.0])).tolist()]
    ([inf], [-1.1447])
    """

    def __init__(self, scale, validate_args=None):
        super().__init__(Cauchy(0, scale, validate_args=False), AbsTransform(), validate_args=validate_args)

    @property
    def mean(self):
        return yaten.full(self._extended_shape(), math.inf, dtype=self.scale.dtype, device=self.scale.device)

    @property
    def variance(self):
        return self.mean
