"""``ContinuousBernoulli``: the density on [0, 1] proportional to ``p**x (1 - p)**(1 - x)``."""

import math

import yaten
from yaten.nn.functional import binary_cross_entropy_with_logits

from . import constraints
from .exp_family import ExponentialFamily
from .utils import (
    broadcast_all,
    clamp_probs,
    icdf_sample,
    lazy_property,
    logits_to_probs,
    probs_or_logits,
    probs_to_logits,
)


class ContinuousBernoulli(ExponentialFamily):
    """The continuous Bernoulli of parameter ``probs`` (or ``logits``), reparameterized. Its closed forms
    divide by ``1 - 2 probs``: within ``lims`` of 1/2 the moments and normalizer are Taylor series.

    >>> d = ContinuousBernoulli(probs=yaten.tensor([0.5]))
    >>> d.mean.tolist(), d.log_prob(yaten.tensor([0.3])).exp().tolist()
    ([0.5], [1.0])
    """

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, probs=None, logits=None, lims=(0.499, 0.501), validate_args=None):
        name, param = probs_or_logits(probs, logits)
        (value,) = broadcast_all(param)
        self.__dict__[name] = value
        super().__init__(value.shape, validate_args=validate_args)
        if name == "probs":  # validated first, then kept away from 0 and 1
            self.probs = clamp_probs(self.probs)
        self._param = self.__dict__[name]
        self._lims = lims

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return clamp_probs(logits_to_probs(self.logits, is_binary=True))

    @property
    def param_shape(self):
        return self._param.shape

    def _stable(self):
        """Where ``probs`` is far enough from 1/2 for the closed forms."""
        return (self.probs <= self._lims[0]) | (self.probs >= self._lims[1])

    def _split(self, closed_form, series):
        """``closed_form(p)`` where stable, ``series(p - 1/2)`` elsewhere (the closed form then sees a
        stable stand-in, so that neither branch's gradient is nan)."""
        stable = self._stable()
        safe = yaten.where(stable, self.probs, self._lims[0] * yaten.ones_like(self.probs))
        return yaten.where(stable, closed_form(safe), series(self.probs - 0.5))

    def _log_norm(self):
        """``log C(p)``, ``C(p) = log((1 - p) / p) / (1 - 2 p)`` normalizing the density."""
        return self._split(
            lambda p: (yaten.log1p(-p) - p.log()).abs().log() - (1 - 2 * p).abs().log(),
            lambda x: math.log(2.0) + 4 / 3 * x**2 + 104 / 45 * x**4,
        )

    @property
    def mean(self):
        return self._split(
            lambda p: p / (2 * p - 1) + 1 / (yaten.log1p(-p) - p.log()),
            lambda x: 0.5 + x / 3 + 16 / 45 * x**3,
        )

    @property
    def variance(self):
        return self._split(
            lambda p: p * (p - 1) / (1 - 2 * p).pow(2) + 1 / (yaten.log1p(-p) - p.log()).pow(2),
            lambda x: 1 / 12 - x**2 / 15 - 128 / 945 * x**4,
        )

    @property
    def stddev(self):
        return self.variance.sqrt()

    def rsample(self, sample_shape=()):
        return icdf_sample(self, sample_shape, self.probs)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -binary_cross_entropy_with_logits(logits, value, reduction="none") + self._log_norm()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        stable = self._stable()
        p = yaten.where(stable, self.probs, self._lims[0] * yaten.ones_like(self.probs))
        closed = (p.pow(value) * (1 - p).pow(1 - value) + p - 1) / (2 * p - 1)
        cdf = yaten.where(stable, closed, value)
        return yaten.where(
            value <= 0, yaten.zeros_like(cdf), yaten.where(value >= 1, yaten.ones_like(cdf), cdf)
        )

    def icdf(self, value):
        stable = self._stable()
        p = yaten.where(stable, self.probs, self._lims[0] * yaten.ones_like(self.probs))
        closed = (yaten.log1p(-p + value * (2 * p - 1)) - yaten.log1p(-p)) / (p.log() - yaten.log1p(-p))
        return yaten.where(stable, closed, value)

    def entropy(self):
        mean = self.mean
        return -(self._log_norm() + mean * self.probs.log() + (1 - mean) * yaten.log1p(-self.probs))

    @property
    def _natural_params(self):
        return (self.logits,)
