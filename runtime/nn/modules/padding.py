"""The padding layers of ``torch.nn.modules.padding``: constant (and zero), reflection, replication and
circular padding in 1-3 dimensions, over ``nn.functional.pad``."""

from .. import functional as F
from .module import Module

__all__ = [
    "CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
    "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
    "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
]  # fmt: skip


def _expand(padding, width):
    """PyTorch's ``_ntuple(width)``: a sequence as a tuple, a number repeated."""
    return tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * width


class _ConstantPadNd(Module):
    _width = 0

    def __init__(self, padding, value):
        super().__init__()
        self.padding = _expand(padding, self._width)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pad the last dimension with ``value``.

    >>> import yaten
    >>> yaten.nn.ConstantPad1d((1, 2), 3.5)(yaten.zeros(1, 1)).tolist()
    [[3.5, 0.0, 3.5, 3.5]]
    """

    _width = 2


class ConstantPad2d(_ConstantPadNd):
    """Pad the last 2 dimensions with ``value``.

    >>> import yaten
    >>> yaten.nn.ConstantPad2d(1, 1.0)(yaten.zeros(1, 1, 1)).sum().item()
    8.0
    """

    _width = 4


class ConstantPad3d(_ConstantPadNd):
    """Pad the last 3 dimensions with ``value``.

    >>> import yaten
    >>> yaten.nn.ConstantPad3d(1, 1.0)(yaten.zeros(1, 1, 1, 1)).shape
    yaten.Size([1, 3, 3, 3])
    """

    _width = 6


class _ZeroPad:
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad1d(_ZeroPad, ConstantPad1d):
    """Pad the last dimension with zeros.

    >>> import yaten
    >>> yaten.nn.ZeroPad1d(1)(yaten.ones(1, 2)).tolist()
    [[0.0, 1.0, 1.0, 0.0]]
    """


class ZeroPad2d(_ZeroPad, ConstantPad2d):
    """Pad the last 2 dimensions with zeros.

    >>> import yaten
    >>> yaten.nn.ZeroPad2d((1, 0, 0, 1))(yaten.ones(1, 1, 1)).tolist()
    [[[0.0, 1.0], [0.0, 0.0]]]
    """


class ZeroPad3d(_ZeroPad, ConstantPad3d):
    """Pad the last 3 dimensions with zeros.

    >>> import yaten
    >>> yaten.nn.ZeroPad3d(1)(yaten.ones(1, 1, 1, 1)).sum().item()
    1.0
    """


class _ModePadNd(Module):
    _width = 0
    _mode = ""

    def __init__(self, padding):
        super().__init__()
        self.padding = _expand(padding, self._width)

    def forward(self, input):
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ReflectionPad1d(_ModePadNd):
    """Pad the last dimension with its reflection.

    >>> import yaten
    >>> yaten.nn.ReflectionPad1d(2)(yaten.tensor([[1.0, 2.0, 3.0]])).tolist()
    [[3.0, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0]]
    """

    _width, _mode = 2, "reflect"


class ReflectionPad2d(_ModePadNd):
    """Pad the last 2 dimensions with their reflection.

    >>> import yaten
    >>> yaten.nn.ReflectionPad2d(1)(yaten.ones(1, 2, 2)).shape
    yaten.Size([1, 4, 4])
    """

    _width, _mode = 4, "reflect"


class ReflectionPad3d(_ModePadNd):
    """Pad the last 3 dimensions with their reflection.

    >>> import yaten
    >>> yaten.nn.ReflectionPad3d(1)(yaten.ones(1, 2, 2, 2)).shape
    yaten.Size([1, 4, 4, 4])
    """

    _width, _mode = 6, "reflect"


class ReplicationPad1d(_ModePadNd):
    """Pad the last dimension by repeating its edge values.

    >>> import yaten
    >>> yaten.nn.ReplicationPad1d((1, 2))(yaten.tensor([[1.0, 2.0]])).tolist()
    [[1.0, 1.0, 2.0, 2.0, 2.0]]
    """

    _width, _mode = 2, "replicate"


class ReplicationPad2d(_ModePadNd):
    """Pad the last 2 dimensions by repeating their edge values.

    >>> import yaten
    >>> yaten.nn.ReplicationPad2d(1)(yaten.ones(1, 2, 2)).sum().item()
    16.0
    """

    _width, _mode = 4, "replicate"


class ReplicationPad3d(_ModePadNd):
    """Pad the last 3 dimensions by repeating their edge values.

    >>> import yaten
    >>> yaten.nn.ReplicationPad3d(1)(yaten.ones(1, 1, 1, 1)).sum().item()
    27.0
    """

    _width, _mode = 6, "replicate"


class _CircularPadNd(_ModePadNd):
    _mode = "circular"

    def forward(self, input):
        n = self._width // 2
        if input.dim() not in (n + 1, n + 2):
            raise ValueError(f"expected {n + 1}D or {n + 2}D input (got {input.dim()}D input)")
        return super().forward(input)


class CircularPad1d(_CircularPadNd):
    """Pad the last dimension by wrapping around.

    >>> import yaten
    >>> yaten.nn.CircularPad1d(1)(yaten.tensor([[1.0, 2.0, 3.0]])).tolist()
    [[3.0, 1.0, 2.0, 3.0, 1.0]]
    """

    _width = 2


class CircularPad2d(_CircularPadNd):
    """Pad the last 2 dimensions by wrapping around.

    >>> import yaten
    >>> yaten.nn.CircularPad2d(1)(yaten.ones(1, 2, 2)).shape
    yaten.Size([1, 4, 4])
    """

    _width = 4


class CircularPad3d(_CircularPadNd):
    """Pad the last 3 dimensions by wrapping around.

    >>> import yaten
    >>> yaten.nn.CircularPad3d(1)(yaten.ones(1, 2, 2, 2)).shape
    yaten.Size([1, 4, 4, 4])
    """

    _width = 6
