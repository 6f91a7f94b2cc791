"""``torch.nn.Fold`` and ``torch.nn.Unfold`` (sliding blocks to columns and back)."""

from .. import functional as F
from .module import Module

__all__ = ["Fold", "Unfold"]


class Fold(Module):
    """Sum columns (N, C * prod(kernel_size), L) back into an image of ``output_size``.

    >>> import yaten
    >>> yaten.nn.Fold((3, 3), 2)(yaten.ones(1, 4, 4)).shape
    yaten.Size([1, 1, 3, 3])
    """

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (
            f"output_size={self.output_size}, kernel_size={self.kernel_size}, dilation={self.dilation}, "
            f"padding={self.padding}, stride={self.stride}"
        )


class Unfold(Module):
    """The sliding blocks of an (N, C, H, W) input as columns (N, C * prod(kernel_size), L).

    >>> import yaten
    >>> yaten.nn.Unfold(2)(yaten.ones(1, 1, 3, 3)).shape
    yaten.Size([1, 4, 4])
    """

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
            f"stride={self.stride}"
        )
