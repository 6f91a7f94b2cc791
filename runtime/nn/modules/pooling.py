"""Pooling layers, as ``torch.nn.MaxPool1d``/``2d``/``3d``, ``AvgPool*d``, ``AdaptiveAvgPool*d`` and
``AdaptiveMaxPool*d``: one base class per kind, the dimension picking the functional."""

from .. import functional as F
from .module import Module

__all__ = [
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
    "AdaptiveMaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "MaxPool1d", "MaxPool2d", "MaxPool3d",
]  # fmt: skip


class _MaxPoolNd(Module):
    _fn = None

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
        return type(self)._fn(input, self.kernel_size, self.stride, self.padding, self.dilation,
                              ceil_mode=self.ceil_mode, return_indices=self.return_indices)  # fmt: skip


class MaxPool1d(_MaxPoolNd):
    """1-d max pooling; ``return_indices=True`` also returns the argmax positions.

    >>> import yaten
    >>> yaten.nn.MaxPool1d(2)(yaten.tensor([[[1.0, 3.0, 2.0, 0.0]]])).tolist()
    [[[3.0, 2.0]]]
    """

    _fn = F.max_pool1d


class MaxPool2d(_MaxPoolNd):
    """2-d max pooling; ``return_indices=True`` also returns the argmax positions.

    >>> import yaten
    >>> yaten.nn.MaxPool2d(2)
    MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
    >>> yaten.nn.MaxPool2d(2)(yaten.arange(16.0).reshape(1, 1, 4, 4)).tolist()
    [[[[5.0, 7.0], [13.0, 15.0]]]]
    """

    _fn = F.max_pool2d


class MaxPool3d(_MaxPoolNd):
    """3-d max pooling; ``return_indices=True`` also returns the argmax positions.

    >>> import yaten
    >>> yaten.nn.MaxPool3d(2)(yaten.arange(8.0).reshape(1, 1, 2, 2, 2)).flatten().tolist()
    [7.0]
    """

    _fn = F.max_pool3d


class _AvgPoolBase(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolBase):
    """1-d average pooling.

    >>> import yaten
    >>> yaten.nn.AvgPool1d(2)(yaten.tensor([[[1.0, 3.0, 2.0, 0.0]]])).tolist()
    [[[2.0, 1.0]]]
    """

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        one = lambda v: tuple(v) if isinstance(v, (tuple, list)) else (v,)  # torch keeps 1-tuples here
        super().__init__(one(kernel_size), one(stride if stride is not None else kernel_size), one(padding),
                         ceil_mode, count_include_pad)  # fmt: skip

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)  # fmt: skip


class _AvgPoolNd(_AvgPoolBase):
    _fn = None

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):  # fmt: skip
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad)
        self.divisor_override = divisor_override

    def forward(self, input):
        return type(self)._fn(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                              self.count_include_pad, self.divisor_override)  # fmt: skip


class AvgPool2d(_AvgPoolNd):
    """2-d average pooling.

    >>> import yaten
    >>> yaten.nn.AvgPool2d(3, stride=2, padding=1)
    AvgPool2d(kernel_size=3, stride=2, padding=1)
    """

    _fn = F.avg_pool2d


class AvgPool3d(_AvgPoolNd):
    """3-d average pooling.

    >>> import yaten
    >>> yaten.nn.AvgPool3d(2)(yaten.arange(8.0).reshape(1, 1, 2, 2, 2)).flatten().tolist()
    [3.5]
    """

    _fn = F.avg_pool3d


class _AdaptivePoolNd(Module):
    _fn = None

    def __init__(self, output_size) -> None:
        super().__init__()
        self.output_size = output_size

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"

    def forward(self, input):
        return type(self)._fn(input, self.output_size)


class AdaptiveAvgPool1d(_AdaptivePoolNd):
    """Average pooling of (N, C, L) or (C, L) inputs to a fixed length.

    >>> import yaten
    >>> yaten.nn.AdaptiveAvgPool1d(2)(yaten.arange(6.0).reshape(1, 1, 6)).tolist()
    [[[1.0, 4.0]]]
    """

    _fn = F.adaptive_avg_pool1d


class AdaptiveAvgPool2d(_AdaptivePoolNd):
    """Average pooling to a fixed output size (None keeps the input's size on that axis).

    >>> import yaten
    >>> yaten.nn.AdaptiveAvgPool2d((1, 1))
    AdaptiveAvgPool2d(output_size=(1, 1))
    >>> yaten.nn.AdaptiveAvgPool2d(1)(yaten.ones(2, 3, 5, 5)).shape
    yaten.Size([2, 3, 1, 1])
    """

    _fn = F.adaptive_avg_pool2d


class AdaptiveAvgPool3d(_AdaptivePoolNd):
    """Average pooling of (N, C, D, H, W) or (C, D, H, W) inputs to a fixed output size.

    >>> import yaten
    >>> yaten.nn.AdaptiveAvgPool3d(1)(yaten.ones(1, 2, 3, 3, 3)).shape
    yaten.Size([1, 2, 1, 1, 1])
    """

    _fn = F.adaptive_avg_pool3d


class _AdaptiveMaxPoolNd(_AdaptivePoolNd):
    def __init__(self, output_size, return_indices=False) -> None:
        super().__init__(output_size)
        self.return_indices = return_indices

    def forward(self, input):
        return type(self)._fn(input, self.output_size, self.return_indices)


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """Max pooling of (N, C, L) or (C, L) inputs to a fixed length.

    >>> import yaten
    >>> yaten.nn.AdaptiveMaxPool1d(2)(yaten.tensor([[[1.0, 3.0, 2.0, 0.0]]])).tolist()
    [[[3.0, 2.0]]]
    """

    _fn = F.adaptive_max_pool1d


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """Max pooling to a fixed output size (None keeps the input's size on that axis).

    >>> import yaten
    >>> yaten.nn.AdaptiveMaxPool2d(1)(yaten.arange(4.0).reshape(1, 1, 2, 2)).flatten().tolist()
    [3.0]
    """

    _fn = F.adaptive_max_pool2d


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """Max pooling of (N, C, D, H, W) or (C, D, H, W) inputs to a fixed output size.

    >>> import yaten
    >>> yaten.nn.AdaptiveMaxPool3d(1)(yaten.arange(8.0).reshape(1, 1, 2, 2, 2)).flatten().tolist()
    [7.0]
    """

    _fn = F.adaptive_max_pool3d
