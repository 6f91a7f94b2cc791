"""Activation layers, as ``torch.nn.ReLU``, ``LeakyReLU``, ``ELU``, ``GELU``, ``SiLU``, ``Sigmoid``,
``Tanh``, ``Softmax``, ``LogSoftmax``, ``Softplus``, ``Hardtanh``, ``ReLU6``, ``Hardswish``, ``Hardsigmoid``,
``Mish``, ``SELU``, ``CELU``, ``Softsign``, ``LogSigmoid``, ``Threshold``, ``Hardshrink``, ``Softshrink``,
``Tanhshrink`` and ``PReLU`` (the one with a learned slope): each calls its functional form."""

import yaten

from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["CELU", "ELU", "GELU", "SELU", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh", "LeakyReLU",
           "LogSigmoid", "LogSoftmax", "Mish", "PReLU", "ReLU", "ReLU6", "SiLU", "Sigmoid", "Softmax", "Softplus",
           "Softshrink", "Softsign", "Tanh", "Tanhshrink", "Threshold"]  # fmt: skip


class ReLU(Module):
    """max(0, x) elementwise.

    >>> import yaten
    >>> yaten.nn.ReLU()(yaten.tensor([-1.0, 2.0]))
    tensor([0., 2.])
    """

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    """x for x > 0, else ``negative_slope * x``.

    >>> import yaten
    >>> yaten.nn.LeakyReLU(0.1)
    LeakyReLU(negative_slope=0.1)
    """

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class ELU(Module):
    """x for x > 0, else ``alpha * (exp(x) - 1)``.

    >>> import yaten
    >>> yaten.nn.ELU()
    ELU(alpha=1.0)
    """

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class GELU(Module):
    """x * Phi(x), or its tanh approximation (``approximate='tanh'``).

    >>> import yaten
    >>> yaten.nn.GELU()
    GELU(approximate='none')
    """

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class SiLU(Module):
    """x * sigmoid(x).

    >>> import yaten
    >>> yaten.nn.SiLU()(yaten.tensor([0.0]))
    tensor([0.])
    """

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Sigmoid(Module):
    """1 / (1 + exp(-x)).

    >>> import yaten
    >>> yaten.nn.Sigmoid()(yaten.tensor([0.0]))
    tensor([0.5000])
    """

    def forward(self, input):
        return F.sigmoid(input)


class Tanh(Module):
    """Hyperbolic tangent.

    >>> import yaten
    >>> yaten.nn.Tanh()(yaten.tensor([0.0]))
    tensor([0.])
    """

    def forward(self, input):
        return F.tanh(input)


class Softmax(Module):
    """Softmax along ``dim`` (None: PyTorch's implicit choice, with its deprecation warning).

    >>> import yaten
    >>> yaten.nn.Softmax(dim=1)
    Softmax(dim=1)
    """

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """log(softmax(x)) along ``dim``.

    >>> import yaten
    >>> yaten.nn.LogSoftmax(dim=1)
    LogSoftmax(dim=1)
    """

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softplus(Module):
    """log(1 + exp(beta x)) / beta, linear above ``threshold``.

    >>> import yaten
    >>> yaten.nn.Softplus()
    Softplus(beta=1.0, threshold=20.0)
    """

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class Hardtanh(Module):
    """x clamped to [min_val, max_val].

    >>> import yaten
    >>> yaten.nn.Hardtanh()
    Hardtanh(min_val=-1.0, max_val=1.0)
    """

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError(f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})")

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        return f"min_val={self.min_val}, max_val={self.max_val}" + (", inplace=True" if self.inplace else "")


class ReLU6(Hardtanh):
    """min(max(0, x), 6): a ``Hardtanh(0, 6)``, as PyTorch's.

    >>> import yaten
    >>> yaten.nn.ReLU6()(yaten.tensor([-1.0, 7.0]))
    tensor([0., 6.])
    """

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class _InplaceActivation(Module):
    """An activation whose only argument is ``inplace`` (shown in the repr where PyTorch shows it)."""

    _function = None
    _repr_inplace = True

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return type(self)._function(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace and self._repr_inplace else ""


class Hardswish(_InplaceActivation):
    """x * relu6(x + 3) / 6.

    >>> import yaten
    >>> yaten.nn.Hardswish()(yaten.tensor([4.0]))
    tensor([4.])
    """

    _function = F.hardswish
    _repr_inplace = False


class Hardsigmoid(_InplaceActivation):
    """relu6(x + 3) / 6.

    >>> import yaten
    >>> yaten.nn.Hardsigmoid()(yaten.tensor([0.0]))
    tensor([0.5000])
    """

    _function = F.hardsigmoid
    _repr_inplace = False


class Mish(_InplaceActivation):
    """x * tanh(softplus(x)).

    >>> import yaten
    >>> yaten.nn.Mish(inplace=True)
    Mish(inplace=True)
    """

    _function = F.mish


class SELU(_InplaceActivation):
    """scale * elu(x, alpha) with the self-normalising constants.

    >>> import yaten
    >>> yaten.nn.SELU()(yaten.tensor([0.0]))
    tensor([0.])
    """

    _function = F.selu


class Softsign(Module):
    """x / (1 + |x|).

    >>> import yaten
    >>> yaten.nn.Softsign()(yaten.tensor([1.0]))
    tensor([0.5000])
    """

    def forward(self, input):
        return F.softsign(input)


class LogSigmoid(Module):
    """log(sigmoid(x)).

    >>> import yaten
    >>> yaten.nn.LogSigmoid()(yaten.tensor([0.0]))
    tensor([-0.6931])
    """

    def forward(self, input):
        return F.logsigmoid(input)


class CELU(Module):
    """x for x > 0, else ``alpha * (exp(x / alpha) - 1)``.

    >>> import yaten
    >>> yaten.nn.CELU(0.5)
    CELU(alpha=0.5)
    """

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class Threshold(Module):
    """x where x > threshold, else ``value``.

    >>> import yaten
    >>> yaten.nn.Threshold(0.1, 20.0)
    Threshold(threshold=0.1, value=20.0)
    """

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        return f"threshold={self.threshold}, value={self.value}" + (", inplace=True" if self.inplace else "")


class Hardshrink(Module):
    """0 where |x| <= lambd, else x.

    >>> import yaten
    >>> yaten.nn.Hardshrink(0.3)
    Hardshrink(0.3)
    """

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.hardshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """x shrunk towards 0 by lambd, and 0 where |x| <= lambd.

    >>> import yaten
    >>> yaten.nn.Softshrink()
    Softshrink(0.5)
    """

    def forward(self, input):
        return F.softshrink(input, self.lambd)


class Tanhshrink(Module):
    """x - tanh(x).

    >>> import yaten
    >>> yaten.nn.Tanhshrink()(yaten.tensor([0.0]))
    tensor([0.])
    """

    def forward(self, input):
        return F.tanhshrink(input)


class PReLU(Module):
    """max(0, x) + weight * min(0, x), with a learned ``weight``: one slope, or one per channel (dim 1)
    when ``num_parameters`` is the number of channels; every slope starts at ``init``.

    >>> import yaten
    >>> m = yaten.nn.PReLU(3, init=0.1)
    >>> m, list(m.state_dict())
    (PReLU(num_parameters=3), ['weight'])
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device=None, dtype=None):
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(yaten.empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.constant_(self.weight, self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"
