"""Linear layers, as ``torch.nn.Identity``, ``Linear`` and ``Bilinear``, initialized as PyTorch's."""

import math

import yaten

from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["Bilinear", "Identity", "Linear"]


class Identity(Module):
    """Returns its input; takes (and ignores) any constructor arguments.

    >>> import yaten
    >>> x = yaten.ones(2)
    >>> yaten.nn.Identity(54, unused=0.1)(x) is x
    True
    """

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """``y = x @ weight.T + bias``; weight (out_features, in_features) from kaiming_uniform_(a=sqrt(5)),
    bias from U(-1/sqrt(in_features), 1/sqrt(in_features)), as PyTorch.

    >>> import yaten
    >>> m = yaten.nn.Linear(3, 2)
    >>> m
    Linear(in_features=3, out_features=2, bias=True)
    >>> m(yaten.ones(4, 3)).shape
    yaten.Size([4, 2])
    """

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(yaten.empty((out_features, in_features), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(yaten.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"
        )


class Bilinear(Module):
    """``y = x1 @ weight[o] @ x2 + bias[o]``; weight (out, in1, in2) and bias from
    U(-1/sqrt(in1_features), 1/sqrt(in1_features)), as PyTorch.

    >>> import yaten
    >>> m = yaten.nn.Bilinear(2, 3, 4)
    >>> m
    Bilinear(in1_features=2, in2_features=3, out_features=4, bias=True)
    >>> m(yaten.ones(5, 2), yaten.ones(5, 3)).shape
    yaten.Size([5, 4])
    """

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(
            yaten.empty((out_features, in1_features, in2_features), device=device, dtype=dtype)
        )
        if bias:
            self.bias = Parameter(yaten.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1 / math.sqrt(self.weight.shape[1])
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
            f"out_features={self.out_features}, bias={self.bias is not None}"
        )
