"""Closeness and equality of two tensors: isclose, allclose, equal (torch's definitions and checks)."""

import yaten

from .._dtype import LEGACY_NAME


def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``|self - other| <= atol + rtol * |other|`` where finite, equality elsewhere (infinities), and
    NaN close to NaN when ``equal_nan``."""
    if self.dtype != other.dtype:
        raise RuntimeError(f"{LEGACY_NAME[self.dtype]} did not match {LEGACY_NAME[other.dtype]}")
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol:g}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol:g}")
    close = self == other
    if equal_nan and self.is_floating_point():
        close = close | (self.isnan() & other.isnan())
    if rtol == 0 and atol == 0:
        return close
    if not (self.is_floating_point() or self.is_complex()):  # integers' errors: in the default dtype
        self, other = self.to(yaten.get_default_dtype()), other.to(yaten.get_default_dtype())
    allowed = atol + (rtol * other).abs()
    actual = (self - other).abs()
    return close | (actual.isfinite() & (actual <= allowed))


def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(isclose(self, other, rtol, atol, equal_nan).all())


def equal(self, other):
    """The same shape and the same values (any dtypes, compared after promotion; NaN is unequal)."""
    if self.device != other.device:
        raise RuntimeError(
            "Expected all tensors to be on the same device, but found at least two devices, "
            f"{self.device} and {other.device}!"
        )
    return self.shape == other.shape and bool((self == other).all())
