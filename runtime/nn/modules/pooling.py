"""Pooling layers, as ``torch.nn.MaxPool1d``/``2d``/``3d``, ``AvgPool*d``, ``AdaptiveAvgPool*d``,
``AdaptiveMaxPool*d``, ``MaxUnpool*d``, ``LPPool*d`` and ``FractionalMaxPool2d/3d``: one base class per
kind, the dimension picking the functional."""

from .. import functional as F
from .module import Module
from .utils import _pair, _single, _triple

__all__ = [
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
    "AdaptiveMaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "FractionalMaxPool2d", "FractionalMaxPool3d",
    "LPPool1d", "LPPool2d", "LPPool3d", "MaxPool1d",
    "MaxPool2d", "MaxPool3d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d",
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


class _MaxUnpoolNd(Module):
    _fn = None
    _tuple = None

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = type(self)._tuple(kernel_size)
        self.stride = type(self)._tuple(stride if (stride is not None) else kernel_size)
        self.padding = type(self)._tuple(padding)

    def forward(self, input, indices, output_size=None):
        return type(self)._fn(input, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    """The partial inverse of ``MaxPool1d``: each value back at its ``indices`` position, zeros elsewhere.

    >>> import yaten
    >>> pool, unpool = yaten.nn.MaxPool1d(2, return_indices=True), yaten.nn.MaxUnpool1d(2)
    >>> unpool(*pool(yaten.tensor([[[1.0, 3.0, 2.0, 0.0]]])))
    tensor([[[0., 3., 2., 0.]]])
    """

    _fn = F.max_unpool1d
    _tuple = _single


class MaxUnpool2d(_MaxUnpoolNd):
    """The partial inverse of ``MaxPool2d``; ``output_size`` settles the ambiguous output shapes.

    >>> import yaten
    >>> m = yaten.nn.MaxUnpool2d(2)
    >>> m
    MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))
    >>> out, idx = yaten.nn.MaxPool2d(2, return_indices=True)(yaten.arange(16.0).view(1, 1, 4, 4))
    >>> m(out, idx, output_size=(5, 5)).shape
    yaten.Size([1, 1, 5, 5])
    """

    _fn = F.max_unpool2d
    _tuple = _pair


class MaxUnpool3d(_MaxUnpoolNd):
    """The partial inverse of ``MaxPool3d``.

    >>> import yaten
    >>> out, idx = yaten.nn.MaxPool3d(2, return_indices=True)(yaten.arange(8.0).view(1, 1, 2, 2, 2))
    >>> yaten.nn.MaxUnpool3d(2)(out, idx).flatten().tolist()
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 7.0]
    """

    _fn = F.max_unpool3d
    _tuple = _triple


class _LPPoolNd(Module):
    _fn = None

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def forward(self, input):
        return type(self)._fn(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)

    def extra_repr(self) -> str:
        return (
            f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
            f"ceil_mode={self.ceil_mode}"
        )


class LPPool1d(_LPPoolNd):
    """Power-average pooling over (N, C, L): the ``norm_type``-norm of each window.

    >>> import yaten
    >>> m = yaten.nn.LPPool1d(2, 2)
    >>> m, m(yaten.tensor([[[3.0, 4.0]]]))
    (LPPool1d(norm_type=2, kernel_size=2, stride=None, ceil_mode=False), tensor([[[5.]]]))
    """

    _fn = F.lp_pool1d


class LPPool2d(_LPPoolNd):
    """Power-average pooling over (N, C, H, W).

    >>> import yaten
    >>> yaten.nn.LPPool2d(1, 2)(yaten.ones(1, 1, 4, 4)).flatten().tolist()
    [4.0, 4.0, 4.0, 4.0]
    """

    _fn = F.lp_pool2d


class LPPool3d(_LPPoolNd):
    """Power-average pooling over (N, C, D, H, W).

    >>> import yaten
    >>> yaten.nn.LPPool3d(1, 2)(yaten.ones(1, 1, 2, 2, 2)).flatten().tolist()
    [8.0]
    """

    _fn = F.lp_pool3d


class _FractionalMaxPoolNd(Module):
    """Fractional max pooling to ``output_size`` or ``output_ratio`` of the input; ``_random_samples``
    (a buffer, None unless given) fixes the window placement, otherwise drawn at every call."""

    _dims: int
    _tuple = None
    _fn = None

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):  # fmt: skip
        super().__init__()
        to_tuple = type(self)._tuple
        if self._dims == 3 and ((isinstance(kernel_size, int) and kernel_size <= 0) or (
                isinstance(kernel_size, (tuple, list)) and not all(k > 0 for k in kernel_size))):  # fmt: skip
            raise ValueError(f"kernel_size must be greater than 0, but got {kernel_size}")
        self.kernel_size = to_tuple(kernel_size)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = to_tuple(output_size) if output_size is not None else None
        self.output_ratio = to_tuple(output_ratio) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(
                f"{type(self).__name__} requires specifying either an output size, or a pooling ratio"
            )
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio[: self._dims]):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input):
        return type(self)._fn(input, self.kernel_size, self.output_size, self.output_ratio, self.return_indices,
                              _random_samples=self._random_samples)  # fmt: skip


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """Fractional max pooling (Graham, 2014) over (N, C, H, W) or (C, H, W) inputs.

    >>> import yaten
    >>> m = yaten.nn.FractionalMaxPool2d(3, output_ratio=(0.5, 0.5))
    >>> m, m(yaten.randn(2, 4, 10, 10)).shape
    (FractionalMaxPool2d(), yaten.Size([2, 4, 5, 5]))
    """

    _dims = 2
    _tuple = _pair
    _fn = F.fractional_max_pool2d


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """Fractional max pooling over (N, C, T, H, W) or (C, T, H, W) inputs.

    >>> import yaten
    >>> out, idx = yaten.nn.FractionalMaxPool3d(2, output_size=3, return_indices=True)(yaten.randn(1, 2, 6, 6, 6))
    >>> out.shape, idx.shape
    (yaten.Size([1, 2, 3, 3, 3]), yaten.Size([1, 2, 3, 3, 3]))
    """

    _dims = 3
    _tuple = _triple
    _fn = F.fractional_max_pool3d
