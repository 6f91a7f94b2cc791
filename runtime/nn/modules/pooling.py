"""Pooling layers, as ``torch.nn.MaxPool2d``, ``AvgPool2d`` and ``AdaptiveAvgPool2d``."""

from .. import functional as F
from .module import Module

__all__ = ["AdaptiveAvgPool2d", "AvgPool2d", "MaxPool2d"]


class MaxPool2d(Module):
    """2-d max pooling; ``return_indices=True`` also returns the argmax positions.

    >>> import yaten
    >>> yaten.nn.MaxPool2d(2)
    MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
    >>> yaten.nn.MaxPool2d(2)(yaten.arange(16.0).reshape(1, 1, 4, 4)).tolist()
    [[[[5.0, 7.0], [13.0, 15.0]]]]
    """

    def __init__(
        self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False
    ):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
            f"dilation={self.dilation}, ceil_mode={self.ceil_mode}"
        )

    def forward(self, input):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)  # fmt: skip


class AvgPool2d(Module):
    """2-d average pooling.

    >>> import yaten
    >>> yaten.nn.AvgPool2d(3, stride=2, padding=1)
    AvgPool2d(kernel_size=3, stride=2, padding=1)
    """

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):  # fmt: skip
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"

    def forward(self, input):
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)  # fmt: skip


class AdaptiveAvgPool2d(Module):
    """Average pooling to a fixed output size (None keeps the input's size on that axis).

    >>> import yaten
    >>> yaten.nn.AdaptiveAvgPool2d((1, 1))
    AdaptiveAvgPool2d(output_size=(1, 1))
    >>> yaten.nn.AdaptiveAvgPool2d(1)(yaten.ones(2, 3, 5, 5)).shape
    yaten.Size([2, 3, 1, 1])
    """

    def __init__(self, output_size) -> None:
        super().__init__()
        self.output_size = output_size

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"

    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)
