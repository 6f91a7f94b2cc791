"""CompositeImplicitAutograd convolutions and pooling: argument handling over ``yaten.convolution`` and
``yaten.max_pool2d_with_indices``, as ATen's ``conv1d``/``conv2d``/``conv_transpose2d``/``max_pool2d``.

Unbatched inputs get a batch axis for the call and lose it after; ``padding='same'`` pads
``dilation * (kernel - 1)`` in total per axis, the odd one on the right (PyTorch's ``_convolution_mode``).
"""

import yaten

from .._user_warning import warn_user


def _ints(value, dims: int) -> list:
    """An int-list argument (an int, or a list of one or ``dims`` ints) as a list of ``dims`` ints."""
    value = [value] if isinstance(value, int) else list(value)
    return value * dims if len(value) == 1 else value


def _batched(input, dims: int, name: str):
    """``(input with a batch axis, whether one was added)``; PyTorch's error for other ranks."""
    if input.ndim == dims + 1:
        return input.unsqueeze(0), True
    if input.ndim == dims + 2:
        return input, False
    raise RuntimeError(
        f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {name}, but got input of size: "
        f"{list(input.shape)}"
    )


def _conv(input, weight, bias, stride, padding, dilation, groups, dims, name):
    x, unbatched = _batched(input, dims, name)
    out = yaten.convolution(x, weight, bias, stride, padding, dilation, False, [0] * dims, groups)
    return out.squeeze(0) if unbatched else out


def _conv_mode(input, weight, bias, stride, padding, dilation, groups, dims, name):
    """A convolution with ``padding`` 'valid' (none) or 'same' (the output as large as the input)."""
    if padding == "valid":
        return _conv(input, weight, bias, stride, [0] * dims, dilation, groups, dims, name)
    if padding != "same":
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    stride, dilation = _ints(stride, dims), _ints(dilation, dims)
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    x, unbatched = _batched(input, dims, name)
    if weight.ndim != dims + 2:
        # let convolution report the mismatch, as PyTorch does
        return yaten.convolution(x, weight, bias, stride, [0] * dims, dilation, False, [0] * dims, groups)
    totals = [d * (k - 1) for d, k in zip(dilation, weight.shape[2:])]
    odd = [t % 2 == 1 for t in totals]
    if any(odd):
        warn_user(
            "Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy of "
            "the input be created"
        )
    # An odd total puts its extra zero on the right: pad one more on both sides, drop the first output.
    pads = [t // 2 + (1 if o else 0) for t, o in zip(totals, odd)]
    out = yaten.convolution(x, weight, bias, stride, pads, dilation, False, [0] * dims, groups)
    for i, o in enumerate(odd):
        if o:
            out = out.narrow(2 + i, 1, x.shape[2 + i])
    return out.squeeze(0) if unbatched else out


def conv1d(input, weight, bias=None, stride=(1,), padding=(0,), dilation=(1,), groups=1):
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d(input, weight, bias=None, stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1):
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


def conv1d_padding(input, weight, bias=None, stride=(1,), padding="valid", dilation=(1,), groups=1):
    return _conv_mode(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d_padding(input, weight, bias=None, stride=(1, 1), padding="valid", dilation=(1, 1), groups=1):
    return _conv_mode(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, dims, name):
    x, unbatched = _batched(input, dims, name)
    out = yaten.convolution(x, weight, bias, stride, padding, dilation, True, output_padding, groups)
    return out.squeeze(0) if unbatched else out


def conv_transpose1d(input, weight, bias=None, stride=(1,), padding=(0,), output_padding=(0,), groups=1,
                     dilation=(1,)):  # fmt: skip
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 1,
                           "conv_transpose1d")  # fmt: skip


def conv_transpose2d(input, weight, bias=None, stride=(1, 1), padding=(0, 0), output_padding=(0, 0), groups=1,
                     dilation=(1, 1)):  # fmt: skip
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 2,
                           "conv_transpose2d")  # fmt: skip


def max_pool2d(self, kernel_size, stride=(), padding=(0,), dilation=(1,), ceil_mode=False):
    return yaten.max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)[0]
