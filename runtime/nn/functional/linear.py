"""``linear`` and ``bilinear``."""

import yaten as _yaten


def linear(input, weight, bias=None):
    """``input @ weight.T + bias``.

    >>> import yaten
    >>> yaten.nn.functional.linear(yaten.ones(1, 2), yaten.ones(3, 2)).shape
    yaten.Size([1, 3])
    """
    return _yaten.linear(input, weight, bias)


def bilinear(input1, input2, weight, bias=None):
    """``y[..., o] = input1 @ weight[o] @ input2 + bias[o]``.

    >>> import yaten
    >>> yaten.nn.functional.bilinear(yaten.ones(4, 2), yaten.ones(4, 3), yaten.ones(5, 2, 3)).shape
    yaten.Size([4, 5])
    """
    return _yaten.bilinear(input1, input2, weight, bias)
