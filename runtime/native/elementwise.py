"""Elementwise ops PyTorch writes as compositions: nan_to_num, logit, positive, float_power."""

import yaten

from .._dtype import LEGACY_NAME


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
