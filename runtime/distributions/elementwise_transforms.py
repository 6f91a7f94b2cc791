"""Transforms applied to each element on its own: exp, powers, sigmoid, tanh, softplus, abs, affine
maps, and a distribution's cdf. Their log-det-Jacobian is elementwise (an affine map with
``event_dim`` sums it over the event)."""

import math
from numbers import Number

import yaten
import yaten.nn.functional as F

from . import constraints
from .transform import Transform, _Parameterless
from .utils import _sum_rightmost


def _clipped_sigmoid(x):
    """The sigmoid kept inside the open interval (tiny, 1 - eps) of ``x``'s dtype, so its log and its
    inverse stay finite."""
    info = yaten.finfo(x.dtype)
    return yaten.clamp(yaten.sigmoid(x), min=info.tiny, max=1.0 - info.eps)


def _same_parameter(a, b):
    """Whether two parameters (numbers or tensors) are equal everywhere."""
    if isinstance(a, Number) and isinstance(b, Number):
        return a == b
    return bool((a == b).all())


class ExpTransform(_Parameterless):
    """``y = exp(x)``.

    >>> ExpTransform()(yaten.tensor([0.0])).tolist()
    [1.0]
    """

    domain = constraints.real
    codomain = constraints.positive
    bijective = True
    sign = +1

    def _call(self, x):
        return x.exp()

    def _inverse(self, y):
        return y.log()

    def log_abs_det_jacobian(self, x, y):
        return x


class PowerTransform(Transform):
    """``y = x ** exponent`` on the positive numbers.

    >>> PowerTransform(2.0)(yaten.tensor([3.0])).tolist()
    [9.0]
    """

    domain = constraints.positive
    codomain = constraints.positive
    bijective = True

    def __init__(self, exponent, cache_size=0):
        super().__init__(cache_size=cache_size)
        self.exponent = exponent if yaten.is_tensor(exponent) else yaten.tensor(float(exponent))

    def with_cache(self, cache_size=1):
        return (
            self if self._cache_size == cache_size else PowerTransform(self.exponent, cache_size=cache_size)
        )

    @property
    def sign(self):
        return self.exponent.sign()

    def __eq__(self, other):
        return isinstance(other, PowerTransform) and bool(self.exponent.eq(other.exponent).all())

    def _call(self, x):
        return x.pow(self.exponent)

    def _inverse(self, y):
        return y.pow(1 / self.exponent)

    def log_abs_det_jacobian(self, x, y):
        return (self.exponent * y / x).abs().log()

    def forward_shape(self, shape):
        return yaten.broadcast_shapes(shape, self.exponent.shape)

    inverse_shape = forward_shape


class SigmoidTransform(_Parameterless):
    """``y = 1 / (1 + exp(-x))``, kept strictly inside (0, 1).

    >>> SigmoidTransform()(yaten.tensor([0.0])).tolist()
    [0.5]
    """

    domain = constraints.real
    codomain = constraints.unit_interval
    bijective = True
    sign = +1

    def _call(self, x):
        return _clipped_sigmoid(x)

    def _inverse(self, y):
        info = yaten.finfo(y.dtype)
        y = y.clamp(min=info.tiny, max=1.0 - info.eps)
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x, y):
        return -F.softplus(-x) - F.softplus(x)


class SoftplusTransform(_Parameterless):
    """``y = log(1 + exp(x))``.

    >>> round(SoftplusTransform()(yaten.tensor([0.0])).item(), 4)
    0.6931
    """

    domain = constraints.real
    codomain = constraints.positive
    bijective = True
    sign = +1

    def _call(self, x):
        return F.softplus(x)

    def _inverse(self, y):
        return (-y).expm1().neg().log() + y

    def log_abs_det_jacobian(self, x, y):
        return -F.softplus(-x)


class TanhTransform(_Parameterless):
    """``y = tanh(x)``; its inverse is ``atanh``, infinite at -1 and 1 (cache the transform to get
    the original ``x`` back from saturated values).

    >>> TanhTransform()(yaten.tensor([0.0])).tolist()
    [0.0]
    """

    domain = constraints.real
    codomain = constraints.interval(-1.0, 1.0)
    bijective = True
    sign = +1

    def _call(self, x):
        return x.tanh()

    def _inverse(self, y):
        return y.atanh()

    def log_abs_det_jacobian(self, x, y):
        # log(1 - tanh(x)^2) written to stay accurate for large |x|
        return 2.0 * (math.log(2.0) - x - F.softplus(-2.0 * x))


class AbsTransform(_Parameterless):
    """``y = |x|``: not injective, its "inverse" returns ``y``.

    >>> AbsTransform()(yaten.tensor([-2.0])).tolist()
    [2.0]
    """

    domain = constraints.real
    codomain = constraints.positive

    def _call(self, x):
        return x.abs()

    def _inverse(self, y):
        return y


class AffineTransform(Transform):
    """``y = loc + scale * x``; with ``event_dim`` the rightmost dimensions form one event and the
    log-det-Jacobian sums over them.

    >>> AffineTransform(1.0, 2.0)(yaten.tensor([3.0])).tolist()
    [7.0]
    """

    bijective = True

    def __init__(self, loc, scale, event_dim=0, cache_size=0):
        super().__init__(cache_size=cache_size)
        self.loc = loc
        self.scale = scale
        self._event_dim = event_dim

    @property
    def event_dim(self):
        return self._event_dim

    @property
    def domain(self):
        return (
            constraints.real
            if self._event_dim == 0
            else constraints.independent(constraints.real, self._event_dim)
        )

    codomain = domain

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return AffineTransform(self.loc, self.scale, self._event_dim, cache_size=cache_size)

    def __eq__(self, other):
        return (
            isinstance(other, AffineTransform)
            and _same_parameter(self.loc, other.loc)
            and _same_parameter(self.scale, other.scale)
        )

    @property
    def sign(self):
        if isinstance(self.scale, Number):
            return (self.scale > 0) - (self.scale < 0)
        return self.scale.sign()

    def _call(self, x):
        return self.loc + self.scale * x

    def _inverse(self, y):
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x, y):
        if isinstance(self.scale, Number):
            result = yaten.full_like(x, math.log(abs(self.scale)))
        else:
            result = self.scale.abs().log()
        shape = x.shape
        if self._event_dim:
            result = _sum_rightmost(result, self._event_dim)
            shape = shape[: len(shape) - self._event_dim]
        return result.expand(shape)

    def forward_shape(self, shape):
        return yaten.broadcast_shapes(shape, getattr(self.loc, "shape", ()), getattr(self.scale, "shape", ()))

    inverse_shape = forward_shape


class CumulativeDistributionTransform(Transform):
    """``y = distribution.cdf(x)``: maps the distribution's support onto the unit interval (its
    log-det-Jacobian is the distribution's log density).

    >>> d = yaten.distributions.Normal(0.0, 1.0)
    >>> CumulativeDistributionTransform(d)(yaten.tensor([0.0])).tolist()
    [0.5]
    """

    bijective = True
    codomain = constraints.unit_interval
    sign = +1

    def __init__(self, distribution, cache_size=0):
        super().__init__(cache_size=cache_size)
        self.distribution = distribution

    @property
    def domain(self):
        return self.distribution.support

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return CumulativeDistributionTransform(self.distribution, cache_size=cache_size)

    def _call(self, x):
        return self.distribution.cdf(x)

    def _inverse(self, y):
        return self.distribution.icdf(y)

    def log_abs_det_jacobian(self, x, y):
        return self.distribution.log_prob(x)
