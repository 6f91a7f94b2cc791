"""Linear layers, as ``torch.nn.Identity``, ``Linear``, ``Bilinear`` and ``LazyLinear``, initialized as
PyTorch's."""

import math

import yaten

from ...autograd.grad_mode import no_grad
from .. import functional as F
from .. import init
from ..parameter import Parameter, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module

__all__ = ["Bilinear", "Identity", "LazyLinear", "Linear", "NonDynamicallyQuantizableLinear"]


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


class NonDynamicallyQuantizableLinear(Linear):
    """A ``Linear`` by another name: PyTorch names MultiheadAttention's output projection so (it keeps
    quantization tools off it), and the name shows in the module's repr."""


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


class LazyLinear(LazyModuleMixin, Linear):
    """A ``Linear`` whose ``in_features`` is the last dim of its first input; it becomes a ``Linear``
    then (see ``LazyModuleMixin``).

    >>> import yaten
    >>> m = yaten.nn.LazyLinear(2)
    >>> m
    LazyLinear(in_features=0, out_features=2, bias=True)
    >>> m(yaten.ones(4, 3)).shape
    yaten.Size([4, 2])
    >>> m, m.weight.shape
    (Linear(in_features=3, out_features=2, bias=True), yaten.Size([2, 3]))
    """

    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        # bias=False: no bias tensor that the uninitialized one would replace at once.
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:
        if self.has_uninitialized_params():
            with no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
        if self.in_features == 0:
            # Materialized by load_state_dict: in_features is the loaded weight's.
            if input.shape[-1] != self.weight.shape[-1]:
                raise AssertionError(
                    f"The in_features inferred from input: {input.shape[-1]} is not equal to in_features from "
                    f"self.weight: {self.weight.shape[-1]}"
                )
            self.in_features = input.shape[-1]
