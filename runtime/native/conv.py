"""CompositeImplicitAutograd convolutions and pooling: argument handling over ``yaten.convolution`` and
``yaten.max_pool2d_with_indices``, as ATen's ``conv1d``/``conv2d``/``conv_transpose2d``/``max_pool2d``;
``conv3d``/``conv_transpose3d`` as one 2-d convolution per kernel depth offset, summed (index_add for
the transposed one, whose outputs overlap in depth).

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


# --- 3-d convolutions: one 2-d convolution per kernel depth offset, over the (depth, batch)-folded input


def _check_3d(x, weight, bias, groups, transposed):
    if weight.ndim != 5:
        raise RuntimeError(
            "expected stride to be a single integer value or a list of 3 values to match the convolution "
            f"dimensions, but got stride={[1] * (weight.ndim - 2)}"
        )
    channels = weight.shape[0] if transposed else weight.shape[1] * groups
    if x.shape[1] != channels:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {list(weight.shape)}, expected input{list(x.shape)} to have "
            f"{channels} channels, but got {x.shape[1]} channels instead"
        )
    if bias is not None and bias.shape != ((weight.shape[1] * groups,) if transposed else (weight.shape[0],)):
        raise RuntimeError(
            f"Given weight of size {list(weight.shape)}, expected bias to be 1-dimensional with "
            f"{weight.shape[1] * groups if transposed else weight.shape[0]} elements, but got bias of size "
            f"{list(bias.shape)} instead"
        )


def _planes(x, index):
    """The depth slices ``index`` of (N, C, D, H, W) ``x`` as a batch of planes (N * len(index), C, H, W)."""
    n, c, _, h, w = x.shape
    return x.index_select(2, index).transpose(1, 2).reshape(n * len(index), c, h, w)


def conv3d(input, weight, bias=None, stride=(1, 1, 1), padding=(0, 0, 0), dilation=(1, 1, 1), groups=1):
    x, unbatched = _batched(input, 3, "conv3d")
    _check_3d(x, weight, bias, groups, False)
    (sd, *s2), (pd, *p2), (dd, *d2) = _ints(stride, 3), _ints(padding, 3), _ints(dilation, 3)
    x = yaten.constant_pad_nd(x, [0, 0, 0, 0, pd, pd])
    n, kd = x.shape[0], weight.shape[2]
    od = (x.shape[2] - dd * (kd - 1) - 1) // sd + 1
    sizes = [x.shape[2], *(s + 2 * p for s, p in zip(x.shape[3:], p2))]
    kernel = [dd * (kd - 1) + 1, *(d * (k - 1) + 1 for d, k in zip(d2, weight.shape[3:]))]
    if any(k > s for k, s in zip(kernel, sizes)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, sizes))}). Kernel size: "
            f"({' x '.join(map(str, kernel))}). Kernel size can't be greater than actual input size"
        )
    out = None
    for i in range(kd):
        index = yaten.arange(od, device=x.device) * sd + i * dd
        y = yaten.convolution(_planes(x, index), weight[:, :, i], None, s2, p2, d2, False, [0, 0], groups)
        out = y if out is None else out + y
    out = out.reshape(n, od, *out.shape[1:]).transpose(1, 2)
    if bias is not None:
        out = out + bias.reshape(-1, 1, 1, 1)
    return out.squeeze(0) if unbatched else out


def conv3d_padding(input, weight, bias=None, stride=(1, 1, 1), padding="valid", dilation=(1, 1, 1), groups=1):
    if padding == "valid":
        return conv3d(input, weight, bias, stride, 0, dilation, groups)
    if padding != "same":
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    if any(s != 1 for s in _ints(stride, 3)):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    totals = [d * (k - 1) for d, k in zip(_ints(dilation, 3), weight.shape[2:])]
    if any(t % 2 for t in totals):
        warn_user(
            "Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy of "
            "the input be created"
        )
    pads = []
    for t in reversed(totals):  # the odd one on the right, as PyTorch's _convolution_mode
        pads += [t // 2, t - t // 2]
    return conv3d(yaten.constant_pad_nd(input, pads), weight, bias, stride, 0, dilation, groups)


def conv_transpose3d(input, weight, bias=None, stride=(1, 1, 1), padding=(0, 0, 0), output_padding=(0, 0, 0),
                     groups=1, dilation=(1, 1, 1)):  # fmt: skip
    x, unbatched = _batched(input, 3, "conv_transpose3d")
    _check_3d(x, weight, bias, groups, True)
    (sd, *s2), (pd, *p2), (od_pad, *o2), (dd, *d2) = (
        _ints(stride, 3), _ints(padding, 3), _ints(output_padding, 3), _ints(dilation, 3)
    )  # fmt: skip
    n, d, kd = x.shape[0], x.shape[2], weight.shape[2]
    full = (d - 1) * sd + dd * (kd - 1) + 1 + od_pad  # the depth before cropping the padding
    planes = _planes(x, yaten.arange(d, device=x.device))
    out = None
    for i in range(kd):
        y = yaten.convolution(planes, weight[:, :, i], None, s2, p2, d2, True, o2, groups)
        y = y.reshape(n, d, *y.shape[1:]).transpose(1, 2)  # (N, O, D, oH, oW)
        if out is None:
            out = yaten.zeros(n, y.shape[1], full, *y.shape[3:], dtype=y.dtype, device=y.device)
        out = out.index_add(2, yaten.arange(d, device=x.device) * sd + i * dd, y)
    out = out.narrow(2, pd, full - 2 * pd)
    if bias is not None:
        out = out + bias.reshape(-1, 1, 1, 1)
    return out.squeeze(0) if unbatched else out
