"""The activations that take more than one elementwise operand, as CompositeImplicitAutograd ops:
``glu`` (one half of the input gates the other) and ``prelu`` (a learned slope per channel)."""

import yaten

from .._dims import wrap_dim
from .._dtype import LEGACY_NAME


def glu(self, dim=-1):
    """``a * sigmoid(b)`` of the two halves ``a``, ``b`` of ``self`` along ``dim``."""
    if self.ndim == 0:
        raise RuntimeError("glu does not support 0-dimensional tensors")
    dim = wrap_dim(dim, self.ndim)
    size = self.shape[dim]
    if size % 2 != 0:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size {size}")
    a, b = self.chunk(2, dim)
    return a * b.sigmoid()


def prelu(self, weight):
    """``self`` where positive, ``weight * self`` elsewhere; ``weight`` has one element or one per channel
    (dimension 1)."""
    if weight.ndim > 1:
        raise RuntimeError(
            f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.ndim}"
        )
    channels = self.shape[1] if self.ndim >= 2 else 1
    if weight.numel() != 1 and weight.numel() != channels:
        raise RuntimeError(
            "Mismatch of parameter numbers and input channel size. Found parameter numbers = "
            f"{weight.numel()} and channel size = {channels}."
        )
    if self.dtype is not weight.dtype:
        raise RuntimeError(
            f"prelu: Type promoting not supported. Got {LEGACY_NAME[self.dtype]} and {LEGACY_NAME[weight.dtype]}"
        )
    if not self.dtype.is_floating_point:
        raise NotImplementedError(f"\"prelu_cpu\" not implemented for '{LEGACY_NAME[self.dtype]}'")
    if weight.numel() == channels and self.ndim >= 2:
        weight = weight.reshape(channels, *[1] * (self.ndim - 2))
    return yaten.where(self > 0, self, weight * self)
