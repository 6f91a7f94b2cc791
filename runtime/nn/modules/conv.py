"""Convolution layers, as ``torch.nn.Conv1d``/``2d``/``3d`` and ``ConvTranspose1d``/``2d``/``3d``.

Parameters start as PyTorch's do: the weight kaiming-uniform with ``a=sqrt(5)`` (U(-b, b) with
b = 1/sqrt(fan_in)), the bias U(-1/sqrt(fan_in), 1/sqrt(fan_in)). A ``padding_mode`` other than
'zeros' pads the input first (``F.pad``: reflect, replicate or circular) and convolves without
padding, as PyTorch's ``_conv_forward``. The ``Lazy*`` classes take ``in_channels`` from their first
input (``LazyModuleMixin``).
"""

import math

import yaten

from .. import functional as F
from .. import init
from ..parameter import Parameter, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module
from .utils import _pair, _reverse_repeat_tuple, _single, _triple

__all__ = [
    "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
    "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d",
]  # fmt: skip


class _ConvNd(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed, output_padding,
                 groups, bias, padding_mode, device=None, dtype=None):  # fmt: skip
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        valid_padding_strings = {"same", "valid"}
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError(
                    f"Invalid padding string {padding!r}, should be one of {valid_padding_strings}"
                )
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in valid_padding_modes:
            raise ValueError(
                f"padding_mode must be one of {valid_padding_modes}, but got padding_mode='{padding_mode}'"
            )
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = output_padding
        self.groups = groups
        self.padding_mode = padding_mode
        if isinstance(self.padding, str):
            self._reversed_padding_repeated_twice = [0, 0] * len(kernel_size)
            if padding == "same":
                for d, k, i in zip(dilation, kernel_size, range(len(kernel_size) - 1, -1, -1)):
                    total = d * (k - 1)
                    self._reversed_padding_repeated_twice[2 * i] = total // 2
                    self._reversed_padding_repeated_twice[2 * i + 1] = total - total // 2
        else:
            self._reversed_padding_repeated_twice = _reverse_repeat_tuple(self.padding, 2)
        factory = {"device": device, "dtype": dtype}
        if transposed:
            shape = (in_channels, out_channels // groups, *kernel_size)
        else:
            shape = (out_channels, in_channels // groups, *kernel_size)
        self.weight = Parameter(yaten.empty(shape, **factory))
        if bias:
            self.bias = Parameter(yaten.empty(out_channels, **factory))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * len(self.padding):
            s += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation={dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += ", output_padding={output_padding}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(**self.__dict__)

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "padding_mode"):
            self.padding_mode = "zeros"


class Conv1d(_ConvNd):
    """1-d convolution over (N, C_in, L) or (C_in, L) inputs.

    >>> import yaten
    >>> yaten.nn.Conv1d(3, 8, 5, stride=2, padding=1)
    Conv1d(3, 8, kernel_size=(5,), stride=(2,), padding=(1,))
    >>> yaten.nn.Conv1d(3, 8, 3)(yaten.randn(2, 3, 10)).shape
    yaten.Size([2, 8, 8])
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):  # fmt: skip
        super().__init__(
            in_channels, out_channels, _single(kernel_size), _single(stride),
            padding if isinstance(padding, str) else _single(padding), _single(dilation), False, _single(0),
            groups, bias, padding_mode, device, dtype,
        )  # fmt: skip

    def _conv_forward(self, input, weight, bias):
        if self.padding_mode != "zeros":
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return F.conv1d(padded, weight, bias, self.stride, _single(0), self.dilation, self.groups)
        return F.conv1d(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class Conv2d(_ConvNd):
    """2-d convolution over (N, C_in, H, W) or (C_in, H, W) inputs.

    >>> import yaten
    >>> yaten.nn.Conv2d(3, 8, 3, padding=1)
    Conv2d(3, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))
    >>> yaten.nn.Conv2d(3, 8, 3, padding="same")(yaten.randn(1, 3, 5, 5)).shape
    yaten.Size([1, 8, 5, 5])
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):  # fmt: skip
        super().__init__(
            in_channels, out_channels, _pair(kernel_size), _pair(stride),
            padding if isinstance(padding, str) else _pair(padding), _pair(dilation), False, _pair(0),
            groups, bias, padding_mode, device, dtype,
        )  # fmt: skip

    def _conv_forward(self, input, weight, bias):
        if self.padding_mode != "zeros":
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return F.conv2d(padded, weight, bias, self.stride, _pair(0), self.dilation, self.groups)
        return F.conv2d(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class Conv3d(_ConvNd):
    """3-d convolution over (N, C_in, D, H, W) or (C_in, D, H, W) inputs.

    >>> import yaten
    >>> yaten.nn.Conv3d(2, 4, 3, padding=1)
    Conv3d(2, 4, kernel_size=(3, 3, 3), stride=(1, 1, 1), padding=(1, 1, 1))
    >>> yaten.nn.Conv3d(2, 4, 3, padding="same")(yaten.randn(1, 2, 3, 4, 4)).shape
    yaten.Size([1, 4, 3, 4, 4])
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):  # fmt: skip
        super().__init__(
            in_channels, out_channels, _triple(kernel_size), _triple(stride),
            padding if isinstance(padding, str) else _triple(padding), _triple(dilation), False, _triple(0),
            groups, bias, padding_mode, device, dtype,
        )  # fmt: skip

    def _conv_forward(self, input, weight, bias):
        if self.padding_mode != "zeros":
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return F.conv3d(padded, weight, bias, self.stride, _triple(0), self.dilation, self.groups)
        return F.conv3d(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class _ConvTransposeNd(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed, output_padding,
                 groups, bias, padding_mode, device=None, dtype=None):  # fmt: skip
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {self.__class__.__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                         output_padding, groups, bias, padding_mode, device, dtype)  # fmt: skip

    def _output_padding(
        self, input, output_size, stride, padding, kernel_size, num_spatial_dims, dilation=None
    ):
        """The output_padding that makes the output ``output_size`` (PyTorch's rule and messages)."""
        if output_size is None:
            return tuple(self.output_padding)
        has_batch_dim = input.dim() == num_spatial_dims + 2
        num_non_spatial_dims = 2 if has_batch_dim else 1
        output_size = list(output_size)
        if len(output_size) == num_non_spatial_dims + num_spatial_dims:
            output_size = output_size[num_non_spatial_dims:]
        if len(output_size) != num_spatial_dims:
            raise ValueError(
                f"ConvTranspose{num_spatial_dims}D: for {input.dim()}D input, output_size must have "
                f"{num_spatial_dims} or {num_non_spatial_dims + num_spatial_dims} elements (got {len(output_size)})"
            )
        min_sizes, max_sizes = [], []
        for d in range(num_spatial_dims):
            dim_size = ((input.size(d + num_non_spatial_dims) - 1) * stride[d] - 2 * padding[d]
                        + (dilation[d] if dilation is not None else 1) * (kernel_size[d] - 1) + 1)  # fmt: skip
            min_sizes.append(dim_size)
            max_sizes.append(dim_size + stride[d] - 1)
        for size, lo, hi in zip(output_size, min_sizes, max_sizes):
            if size < lo or size > hi:
                raise ValueError(
                    f"requested an output size of {output_size}, but valid sizes range from {min_sizes} to "
                    f"{max_sizes} (for an input of {input.size()[2:]})"
                )
        return tuple(output_size[d] - min_sizes[d] for d in range(num_spatial_dims))


class ConvTranspose1d(_ConvTransposeNd):
    """1-d transposed convolution (the gradient of Conv1d w.r.t. its input).

    >>> import yaten
    >>> yaten.nn.ConvTranspose1d(4, 2, 3, stride=2)
    ConvTranspose1d(4, 2, kernel_size=(3,), stride=(2,))
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):  # fmt: skip
        super().__init__(
            in_channels, out_channels, _single(kernel_size), _single(stride), _single(padding), _single(dilation),
            True, _single(output_padding), groups, bias, padding_mode, device, dtype,
        )  # fmt: skip

    def forward(self, input, output_size=None):
        output_padding = self._output_padding(input, output_size, self.stride, self.padding, self.kernel_size, 1,
                                              self.dilation)  # fmt: skip
        return F.conv_transpose1d(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                                  self.groups, self.dilation)  # fmt: skip


class ConvTranspose2d(_ConvTransposeNd):
    """2-d transposed convolution; ``forward(input, output_size)`` picks the output_padding that gives
    ``output_size``.

    >>> import yaten
    >>> yaten.nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1)
    ConvTranspose2d(4, 2, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), output_padding=(1, 1))
    >>> yaten.nn.ConvTranspose2d(4, 2, 3, stride=2)(yaten.randn(1, 4, 5, 5)).shape
    yaten.Size([1, 2, 11, 11])
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):  # fmt: skip
        super().__init__(
            in_channels, out_channels, _pair(kernel_size), _pair(stride), _pair(padding), _pair(dilation),
            True, _pair(output_padding), groups, bias, padding_mode, device, dtype,
        )  # fmt: skip

    def forward(self, input, output_size=None):
        output_padding = self._output_padding(input, output_size, self.stride, self.padding, self.kernel_size, 2,
                                              self.dilation)  # fmt: skip
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                                  self.groups, self.dilation)  # fmt: skip


class ConvTranspose3d(_ConvTransposeNd):
    """3-d transposed convolution; ``forward(input, output_size)`` picks the output_padding that gives
    ``output_size``.

    >>> import yaten
    >>> yaten.nn.ConvTranspose3d(4, 2, 3, stride=2)(yaten.randn(1, 4, 2, 3, 3)).shape
    yaten.Size([1, 2, 5, 7, 7])
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):  # fmt: skip
        super().__init__(
            in_channels, out_channels, _triple(kernel_size), _triple(stride), _triple(padding), _triple(dilation),
            True, _triple(output_padding), groups, bias, padding_mode, device, dtype,
        )  # fmt: skip

    def forward(self, input, output_size=None):
        output_padding = self._output_padding(input, output_size, self.stride, self.padding, self.kernel_size, 3,
                                              self.dilation)  # fmt: skip
        return F.conv_transpose3d(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                                  self.groups, self.dilation)  # fmt: skip


class _LazyConvXdMixin(LazyModuleMixin):
    """``in_channels`` from the first input's channel dim (dim 1 batched, dim 0 unbatched); the weight
    and bias are materialized then and initialized as the eager layer's."""

    _num_spatial_dims: int

    def _init_lazy(self, out_channels, bias, device, dtype) -> None:
        # The eager __init__ ran with in/out_channels 0 and no bias: the uninitialized tensors replace them.
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs) -> None:
        if self.has_uninitialized_params():
            self.in_channels = self._get_in_channels(input)
            if self.in_channels % self.groups != 0:
                raise ValueError("in_channels must be divisible by groups")
            if self.transposed:
                shape = (self.in_channels, self.out_channels // self.groups, *self.kernel_size)
            else:
                shape = (self.out_channels, self.in_channels // self.groups, *self.kernel_size)
            self.weight.materialize(shape)
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()

    def _get_in_channels(self, input) -> int:
        unbatched = self._num_spatial_dims + 1
        if input.dim() not in (unbatched, unbatched + 1):
            raise RuntimeError(
                f"Expected {unbatched}D (unbatched) or {unbatched + 1}D (batched) input to "
                f"{self.__class__.__name__}, but got input of size: {input.shape}"
            )
        return input.shape[1] if input.dim() == unbatched + 1 else input.shape[0]


class _LazyConvMixin(_LazyConvXdMixin):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):  # fmt: skip
        super().__init__(
            0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode, device, dtype
        )
        self._init_lazy(out_channels, bias, device, dtype)


class _LazyConvTransposeMixin(_LazyConvXdMixin):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True,
                 dilation=1, padding_mode="zeros", device=None, dtype=None):  # fmt: skip
        super().__init__(0, 0, kernel_size, stride, padding, output_padding, groups, False, dilation, padding_mode,
                         device, dtype)  # fmt: skip
        self._init_lazy(out_channels, bias, device, dtype)


class LazyConv1d(_LazyConvMixin, Conv1d):
    """A ``Conv1d`` whose ``in_channels`` comes from its first input; it becomes a ``Conv1d`` then.

    >>> import yaten
    >>> m = yaten.nn.LazyConv1d(4, 3)
    >>> m(yaten.randn(2, 5, 8)).shape, m
    (yaten.Size([2, 4, 6]), Conv1d(5, 4, kernel_size=(3,), stride=(1,)))
    """

    cls_to_become = Conv1d
    _num_spatial_dims = 1


class LazyConv2d(_LazyConvMixin, Conv2d):
    """A ``Conv2d`` whose ``in_channels`` comes from its first input; it becomes a ``Conv2d`` then.

    >>> import yaten
    >>> m = yaten.nn.LazyConv2d(8, 3, padding=1)
    >>> m
    LazyConv2d(0, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))
    >>> m(yaten.randn(1, 3, 5, 5)).shape, m.weight.shape
    (yaten.Size([1, 8, 5, 5]), yaten.Size([8, 3, 3, 3]))
    """

    cls_to_become = Conv2d
    _num_spatial_dims = 2


class LazyConv3d(_LazyConvMixin, Conv3d):
    """A ``Conv3d`` whose ``in_channels`` comes from its first input; it becomes a ``Conv3d`` then.

    >>> import yaten
    >>> yaten.nn.LazyConv3d(4, 2)(yaten.randn(3, 3, 3, 3)).shape
    yaten.Size([4, 2, 2, 2])
    """

    cls_to_become = Conv3d
    _num_spatial_dims = 3


class LazyConvTranspose1d(_LazyConvTransposeMixin, ConvTranspose1d):
    """A ``ConvTranspose1d`` whose ``in_channels`` comes from its first input.

    >>> import yaten
    >>> m = yaten.nn.LazyConvTranspose1d(2, 3, stride=2)
    >>> m(yaten.randn(1, 4, 5)).shape, m.weight.shape
    (yaten.Size([1, 2, 11]), yaten.Size([4, 2, 3]))
    """

    cls_to_become = ConvTranspose1d
    _num_spatial_dims = 1


class LazyConvTranspose2d(_LazyConvTransposeMixin, ConvTranspose2d):
    """A ``ConvTranspose2d`` whose ``in_channels`` comes from its first input.

    >>> import yaten
    >>> yaten.nn.LazyConvTranspose2d(2, 3, stride=2)(yaten.randn(1, 4, 5, 5)).shape
    yaten.Size([1, 2, 11, 11])
    """

    cls_to_become = ConvTranspose2d
    _num_spatial_dims = 2


class LazyConvTranspose3d(_LazyConvTransposeMixin, ConvTranspose3d):
    """A ``ConvTranspose3d`` whose ``in_channels`` comes from its first input.

    >>> import yaten
    >>> yaten.nn.LazyConvTranspose3d(2, 3, stride=2)(yaten.randn(1, 4, 2, 3, 3)).shape
    yaten.Size([1, 2, 5, 7, 7])
    """

    cls_to_become = ConvTranspose3d
    _num_spatial_dims = 3
