"""``Gumbel``: the extreme-value distribution of location ``loc`` and scale ``scale``."""

import math
from numbers import Number

import yaten

from . import constraints
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, ExpTransform
from .uniform import Uniform
from .utils import broadcast_all, euler_constant


class Gumbel(TransformedDistribution):
    """``loc - scale * log(-log U)`` for ``U`` uniform on (0, 1).

    >>> d = Gumbel(yaten.tensor([0.0]), yaten.tensor([1.0]))
    >>> [round(v, 4) for v in d.mean.tolist()], [round(v, 4) for v in d.log_prob(yaten.tensor([0.0])).tolist()]
    ([0.5772], [-1.0])
    """

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        info = yaten.finfo(self.loc.dtype)
        if isinstance(loc, Number) and isinstance(scale, Number):
            base = Uniform(info.tiny, 1 - info.eps, validate_args=validate_args)
        else:
            low = yaten.full_like(self.loc, info.tiny)
            base = Uniform(low, yaten.full_like(self.loc, 1 - info.eps), validate_args=validate_args)
        transforms = [
            ExpTransform().inv,
            AffineTransform(loc=0, scale=-yaten.ones_like(self.scale)),
            ExpTransform().inv,
            AffineTransform(loc=self.loc, scale=-self.scale),
        ]
        super().__init__(base, transforms, validate_args=validate_args)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (self.loc - value) / self.scale
        return z - z.exp() - self.scale.log()

    @property
    def mean(self):
        return self.loc + self.scale * euler_constant

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return (math.pi / math.sqrt(6)) * self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def entropy(self):
        return self.scale.log() + (1 + euler_constant)
