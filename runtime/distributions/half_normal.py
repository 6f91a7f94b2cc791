"""``HalfNormal``: ``|X|`` for ``X ~ Normal(0, scale)``."""

import math

from . import _folded
from .normal import Normal
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform


@_folded.folded
class HalfNormal(TransformedDistribution):
    """The half-normal distribution of ``scale``.

    >>> import yaten
    >>> d = HalfNormal(yaten.tensor([1.0]))
    >>> [round(v, 4) for v in d.log_prob(yaten.tensor([0.5])).tolist()]
    [-0.3508]
    """

    def __init__(self, scale, validate_args=None):
        super().__init__(Normal(0, scale, validate_args=False), AbsTransform(), validate_args=validate_args)

    @property
    def mean(self):
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def variance(self):
        return self.scale.pow(2) * (1 - 2 / math.pi)
