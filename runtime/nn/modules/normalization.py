"""Layer, group, RMS and local response normalization, as ``torch.nn.LayerNorm``, ``GroupNorm``,
``RMSNorm``, ``LocalResponseNorm`` and the legacy ``CrossMapLRN2d``."""

import numbers

import yaten

from .. import functional as F
from .. import init
from ..parameter import Parameter
from ._functions import CrossMapLRN2d as _cross_map_lrn2d
from .module import Module

__all__ = ["CrossMapLRN2d", "GroupNorm", "LayerNorm", "LocalResponseNorm", "RMSNorm"]


class LayerNorm(Module):
    """Normalize over the last dims (``normalized_shape``), with an elementwise affine transform.

    >>> import yaten
    >>> ln = yaten.nn.LayerNorm(4)
    >>> ln
    LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)
    >>> ln(yaten.tensor([[1.0, 2.0, 3.0, 4.0]])).shape
    yaten.Size([1, 4])
    """

    def __init__(
        self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None
    ):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(yaten.empty(self.normalized_shape, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(yaten.empty(self.normalized_shape, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
            f"bias={self.bias is not None}"
        )


class GroupNorm(Module):
    """Normalize each of ``num_groups`` groups of channels, with a per-channel affine transform.

    >>> import yaten
    >>> yaten.nn.GroupNorm(2, 4)
    GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)
    """

    def __init__(
        self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None, *, bias=True
    ):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if affine:
            self.weight = Parameter(yaten.empty(num_channels, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(yaten.empty(num_channels, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, bias={self.bias is not None}"


class RMSNorm(Module):
    """Divide by the root mean square over the last dims (``normalized_shape``), with an elementwise scale.

    >>> import yaten
    >>> yaten.nn.RMSNorm([2, 3], eps=1e-6)
    RMSNorm((2, 3), eps=1e-06, elementwise_affine=True)
    """

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(yaten.empty(self.normalized_shape, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x):
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class _CrossChannelNorm(Module):
    """What the two local response norms keep: the window ``size`` and ``alpha``, ``beta``, ``k``."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class LocalResponseNorm(_CrossChannelNorm):
    """Divide each channel by a power of the mean square of its ``size`` neighbouring channels
    (``F.local_response_norm``).

    >>> import yaten
    >>> lrn = yaten.nn.LocalResponseNorm(2)
    >>> lrn
    LocalResponseNorm(2, alpha=0.0001, beta=0.75, k=1.0)
    >>> lrn(yaten.randn(2, 5, 3, 3)).shape
    yaten.Size([2, 5, 3, 3])
    """

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)


class CrossMapLRN2d(_CrossChannelNorm):
    """The legacy (Lua torch) cross-channel local response normalization of a 4-d input, with torch's
    own forward window and backward formula (``nn.modules._functions.CrossMapLRN2d``).

    >>> import yaten
    >>> m = yaten.nn.CrossMapLRN2d(3, alpha=1.0, beta=1.0, k=1.0)
    >>> m
    CrossMapLRN2d(3, alpha=1.0, beta=1.0, k=1.0)
    >>> m(yaten.ones(1, 1, 1, 1)).item()
    0.75
    """

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1):
        super().__init__(size, alpha, beta, k)  # torch's default k is the int 1 here (its repr shows it)

    def forward(self, input):
        return _cross_map_lrn2d.apply(input, self.size, self.alpha, self.beta, self.k)
