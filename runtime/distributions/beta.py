"""``Beta``: the distribution on (0, 1) of density proportional to ``x^(a - 1) (1 - x)^(b - 1)``,
the two-coordinate ``Dirichlet``."""

from numbers import Number

import yaten

from . import constraints
from .dirichlet import Dirichlet
from .exp_family import ExponentialFamily
from .utils import broadcast_all


class Beta(ExponentialFamily):
    """``Beta(concentration1, concentration0)``: the first coordinate of
    ``Dirichlet([concentration1, concentration0])``.

    >>> d = Beta(yaten.tensor([2.0]), yaten.tensor([2.0]))
    >>> d.mean.tolist(), [round(v, 4) for v in d.log_prob(yaten.tensor([0.5])).tolist()]
    ([0.5], [0.4055])
    """

    arg_constraints = {"concentration1": constraints.positive, "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        if isinstance(concentration1, Number) and isinstance(concentration0, Number):
            both = yaten.tensor([float(concentration1), float(concentration0)])
        else:
            both = yaten.stack(broadcast_all(concentration1, concentration0), -1)
        self._dirichlet = Dirichlet(both, validate_args=validate_args)
        super().__init__(self._dirichlet._batch_shape, validate_args=validate_args)

    @property
    def concentration1(self):
        return self._dirichlet.concentration[..., 0]

    @property
    def concentration0(self):
        return self._dirichlet.concentration[..., 1]

    @property
    def mean(self):
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self):
        return self._dirichlet.mode[..., 0]

    @property
    def variance(self):
        a, b = self.concentration1, self.concentration0
        total = a + b
        return a * b / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape=()):
        return self._dirichlet.rsample(sample_shape).select(-1, 0)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self._dirichlet.log_prob(yaten.stack([value, 1.0 - value], -1))

    def entropy(self):
        return self._dirichlet.entropy()

    @property
    def _natural_params(self):
        return self.concentration1, self.concentration0

    def _log_normalizer(self, x, y):
        return yaten.lgamma(x) + yaten.lgamma(y) - yaten.lgamma(x + y)
