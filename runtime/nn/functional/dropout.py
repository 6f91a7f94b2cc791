"""Dropout functions of ``torch.nn.functional``."""

import warnings

import yaten as _yaten

from ...native import nn_misc as _nn_misc


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability ``p`` and scale the rest by 1 / (1 - p) when ``training``.

    >>> import yaten
    >>> x = yaten.ones(4)
    >>> yaten.nn.functional.dropout(x, 0.5, training=False) is x
    True
    """
    _check_p(p)
    return _nn_misc.dropout_(input, p, training) if inplace else _yaten.dropout(input, p, training)


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _feature(input, p, training, inplace, batched):
    """Channel dropout of ``input``, given a batch axis for the call when it has none."""
    x = input if batched else input.unsqueeze(0)
    out = _nn_misc.feature_dropout_(x, p, training) if inplace else _yaten.feature_dropout(x, p, training)
    if inplace:
        return input  # written through the view
    return out if batched else out.squeeze(0)


def _deprecated_rank(name, ndim, spatial):
    warnings.warn(
        f"{name}: Received a {ndim}-D input to {name}, which is deprecated and will result in an error in a "
        "future release. To retain the behavior and silence this warning, please use dropout instead. Note "
        f"that {name} exists to provide channel-wise dropout on inputs with {spatial} spatial dimensions, a "
        f"channel dimension, and an optional batch dimension (i.e. {spatial + 1}D or {spatial + 2}D inputs).",
        stacklevel=3,
    )


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of an (N, C, L) or (C, L) input with probability ``p``, scaling the rest.

    >>> import yaten
    >>> yaten.nn.functional.dropout1d(yaten.ones(2, 3), 1.0).sum().item()
    0.0
    """
    _check_p(p)
    if input.dim() not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note that dropout1d "
            "exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, "
            "and an optional batch dimension (i.e. 2D or 3D inputs)."
        )
    return _feature(input, p, training, inplace, input.dim() == 3)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of an (N, C, H, W) input with probability ``p``, scaling the rest (a 3-d input
    is read as (N, C, L), as PyTorch still does).

    >>> import yaten
    >>> x = yaten.ones(1, 2, 2, 2)
    >>> yaten.nn.functional.dropout2d(x, 0.5, training=False) is x
    True
    """
    _check_p(p)
    if input.dim() not in (3, 4):
        _deprecated_rank("dropout2d", input.dim(), 2)
    if input.dim() == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior is "
            "desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior will "
            "change in a future release to interpret the input as one without a batch dimension, i.e. shape "
            "(C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using dropout1d "
            "instead.",
            stacklevel=2,
        )
    return _feature(input, p, training, inplace, True)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of an (N, C, D, H, W) or (C, D, H, W) input with probability ``p``, scaling the
    rest.

    >>> import yaten
    >>> yaten.nn.functional.dropout3d(yaten.ones(2, 1, 1, 1, 1), 0.0).sum().item()
    2.0
    """
    _check_p(p)
    if input.dim() not in (4, 5):
        _deprecated_rank("dropout3d", input.dim(), 3)
    return _feature(input, p, training, inplace, input.dim() == 5)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout for SELU networks: dropped elements take SELU's negative saturation value and the rest are
    rescaled so that the mean and variance stay (0 and 1 for standardised inputs).

    >>> import yaten
    >>> x = yaten.ones(4)
    >>> yaten.nn.functional.alpha_dropout(x, 0.5) is x
    True
    """
    _check_p(p)
    return _yaten.alpha_dropout_(input, p, training) if inplace else _yaten.alpha_dropout(input, p, training)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout of whole channels: one keep-or-drop per (sample, channel).

    >>> import yaten
    >>> yaten.nn.functional.feature_alpha_dropout(yaten.ones(2, 3, 4), 1.0, training=True).abs().sum().item()
    0.0
    """
    _check_p(p)
    if inplace:
        return _yaten.feature_alpha_dropout_(input, p, training)
    return _yaten.feature_alpha_dropout(input, p, training)
