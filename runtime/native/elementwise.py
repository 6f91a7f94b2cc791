"""Elementwise ops PyTorch writes as compositions: nan_to_num, logit, positive, float_power, fill, ldexp."""

import math

import yaten

from .._dtype import LEGACY_NAME
from .._pointwise_checks import sub_check


def nan_to_num(self, nan=None, posinf=None, neginf=None):
    """NaN, +inf and -inf replaced (by 0 and the dtype's largest and lowest finite values by default)."""
    if not self.is_floating_point():
        return self.clone()
    info = yaten.finfo(self.dtype)
    out = self.masked_fill(self.isnan(), 0.0 if nan is None else nan)
    out = out.masked_fill(self == float("inf"), info.max if posinf is None else posinf)
    return out.masked_fill(self == float("-inf"), info.min if neginf is None else neginf)


def nan_to_num_(self, nan=None, posinf=None, neginf=None):
    return self.copy_(nan_to_num(self, nan, posinf, neginf))


def logit(self, eps=None):
    """log(p / (1 - p)), with p clamped to [eps, 1 - eps] when eps is given."""
    p = self if eps is None else self.clamp(eps, 1 - eps)
    return (p / (1 - p)).log()


def logit_(self, eps=None):
    return self.copy_(logit(self, eps))


def positive(self):
    if self.dtype is yaten.bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return self


def _double(x):
    return x.to(yaten.float64) if isinstance(x, yaten.Tensor) else float(x)


def float_power(self, exponent):
    """``pow`` computed in float64, whatever the inputs' dtypes (float_power.Tensor_Tensor, .Scalar and
    .Tensor_Scalar share it)."""
    return yaten.pow(_double(self), _double(exponent))


def float_power_(self, exponent):
    if self.dtype is not yaten.float64:
        raise RuntimeError(
            f"the base given to float_power_ has dtype {LEGACY_NAME[self.dtype]} but the operation's result "
            "requires dtype Double"
        )
    return self.pow_(_double(exponent))


def fill(self, value):
    """A tensor like ``self`` filled with ``value`` (a number or a 0-d tensor): the in-place fill of a
    copy, so ``self`` gets a zero gradient and a tensor ``value`` the sum of the gradient, as torch's."""
    return self.clone().fill_(value)


def ldexp(self, other):
    """``self * 2 ** other``, computed as ATen's (``pow(2.0, other)``, so integer inputs give floats)."""
    return self * yaten.pow(2.0, other)


def ldexp_(self, other):
    return self.mul_(yaten.pow(2.0, other))


def rsub(self, other, alpha=1):
    """``other - alpha * self`` (torch's reversed subtraction; a number ``other`` takes part in type
    promotion as a number, not as a tensor)."""
    if isinstance(other, yaten.Tensor):
        return yaten.sub(other, self, alpha=alpha)
    sub_check(yaten.bool if isinstance(other, bool) else None, self.dtype)
    return self * -alpha + other


def polygamma_(self, n):
    return self.copy_(yaten.polygamma(n, self))


def mvlgamma(self, p):
    """The log of the multivariate gamma function of dimension ``p``:
    ``sum_i lgamma(self - i / 2) + p (p - 1) / 4 log(pi)``, i = 0 .. p - 1."""
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    x = self if self.dtype.is_floating_point else self.to(yaten.get_default_dtype())
    halves = yaten.arange(p, dtype=x.dtype, device=x.device) * -0.5
    return (x.unsqueeze(-1) + halves).lgamma().sum(-1) + p * (p - 1) / 4 * math.log(math.pi)


def mvlgamma_(self, p):
    if not self.dtype.is_floating_point:
        raise RuntimeError(
            f"mvlgamma: result type {LEGACY_NAME[self.dtype]} can't be cast to the desired output type "
            f"{LEGACY_NAME[yaten.get_default_dtype()]}"
        )
    return self.copy_(mvlgamma(self, p))
