"""``Poisson``: counts of events arriving at rate ``rate``."""

import yaten

from . import constraints
from .exp_family import ExponentialFamily
from .utils import broadcast_all, parameter_property


class Poisson(ExponentialFamily):
    """The Poisson distribution of mass ``rate**k exp(-rate) / k!`` on ``k = 0, 1, ...``.

    >>> d = Poisson(yaten.tensor([2.0]))
    >>> [round(v, 4) for v in d.log_prob(yaten.tensor([0.0])).exp().tolist()]
    [0.1353]
    """

    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        super().__init__(self.rate.shape, validate_args=validate_args)

    mean = variance = parameter_property("rate")

    @property
    def mode(self):
        return self.rate.floor()

    def sample(self, sample_shape=()):
        with yaten.no_grad():
            return yaten.poisson(self.rate.expand(self._extended_shape(sample_shape)))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, rate = broadcast_all(value, self.rate)
        return yaten.xlogy(value, rate) - rate - yaten.lgamma(value + 1)

    @property
    def _natural_params(self):
        return (yaten.log(self.rate),)

    def _log_normalizer(self, x):
        return yaten.exp(x)
