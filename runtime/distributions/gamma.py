"""``Gamma``: the gamma distribution of shape ``concentration`` and inverse scale ``rate``."""

import yaten

from . import constraints
from .exp_family import ExponentialFamily
from .utils import broadcast_all


class Gamma(ExponentialFamily):
    """``Gamma(concentration, rate)``, of density ``rate^c x^(c-1) exp(-rate x) / Gamma(c)``;
    reparameterized through the implicit gradient of ``_standard_gamma``.

    >>> d = Gamma(yaten.tensor([2.0]), yaten.tensor([3.0]))
    >>> [round(v, 4) for v in d.mean.tolist()], [round(v, 4) for v in d.log_prob(yaten.tensor([0.5])).tolist()]
    ([0.6667], [0.0041])
    """

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, concentration, rate, validate_args=None):
        self.concentration, self.rate = broadcast_all(concentration, rate)
        super().__init__(self.concentration.shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        value = yaten._standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)
        value.detach().clamp_(
            min=yaten.finfo(value.dtype).tiny
        )  # keep draws off 0 without touching the graph
        return value

    def log_prob(self, value):
        value = yaten.as_tensor(value, dtype=self.rate.dtype, device=self.rate.device)
        if self._validate_args:
            self._validate_sample(value)
        c, r = self.concentration, self.rate
        return yaten.xlogy(c, r) + yaten.xlogy(c - 1, value) - r * value - yaten.lgamma(c)

    def entropy(self):
        c = self.concentration
        return c - yaten.log(self.rate) + yaten.lgamma(c) + (1.0 - c) * yaten.digamma(c)

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return yaten.special.gammainc(self.concentration, self.rate * value)

    @property
    def _natural_params(self):
        return self.concentration - 1, -self.rate

    def _log_normalizer(self, x, y):
        return yaten.lgamma(x + 1) + (x + 1) * yaten.log(-y.reciprocal())
