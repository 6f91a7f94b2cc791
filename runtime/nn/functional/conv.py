"""Convolutions of ``torch.nn.functional``."""

import yaten as _yaten


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-d convolution over (N, C, L) or unbatched (C, L) inputs; ``padding`` may be 'same' or 'valid'.

    >>> import yaten
    >>> yaten.nn.functional.conv1d(yaten.ones(1, 1, 4), yaten.ones(1, 1, 2)).tolist()
    [[[2.0, 2.0, 2.0]]]
    """
    return _yaten.conv1d(input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-d convolution over (N, C, H, W) or unbatched (C, H, W) inputs; ``padding`` may be 'same' or 'valid'.

    >>> import yaten
    >>> yaten.nn.functional.conv2d(yaten.ones(1, 1, 3, 3), yaten.ones(2, 1, 2, 2), padding=1).shape
    yaten.Size([1, 2, 4, 4])
    """
    return _yaten.conv2d(input, weight, bias, stride, padding, dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """1-d transposed convolution (the gradient of conv1d w.r.t. its input); weight is (C_in, C_out/groups, k).

    >>> import yaten
    >>> yaten.nn.functional.conv_transpose1d(yaten.ones(1, 1, 2), yaten.ones(1, 1, 2)).tolist()
    [[[1.0, 2.0, 1.0]]]
    """
    return _yaten.conv_transpose1d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """2-d transposed convolution; weight is (C_in, C_out/groups, kH, kW).

    >>> import yaten
    >>> yaten.nn.functional.conv_transpose2d(yaten.ones(1, 1, 2, 2), yaten.ones(1, 3, 2, 2), stride=2).shape
    yaten.Size([1, 3, 4, 4])
    """
    return _yaten.conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-d convolution over (N, C, D, H, W) or unbatched (C, D, H, W) inputs; ``padding`` may be 'same' or
    'valid'.

    >>> import yaten
    >>> yaten.nn.functional.conv3d(yaten.ones(1, 1, 3, 3, 3), yaten.ones(2, 1, 2, 2, 2)).shape
    yaten.Size([1, 2, 2, 2, 2])
    """
    return _yaten.conv3d(input, weight, bias, stride, padding, dilation, groups)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """3-d transposed convolution; weight is (C_in, C_out/groups, kD, kH, kW).

    >>> import yaten
    >>> yaten.nn.functional.conv_transpose3d(yaten.ones(1, 1, 2, 2, 2), yaten.ones(1, 1, 2, 2, 2)).sum().item()
    64.0
    """
    return _yaten.conv_transpose3d(input, weight, bias, stride, padding, output_padding, groups, dilation)
