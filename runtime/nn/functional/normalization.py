"""Normalization functions of ``torch.nn.functional``."""

import math

import yaten as _yaten

from .pooling import avg_pool2d, avg_pool3d
from .vision import pad


def _verify_batch_size(size):
    size_prods = size[0]
    for s in size[2:]:
        size_prods *= s
    if size_prods == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")


def batch_norm(
    input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5
):
    """Batch normalization over dim 1: with the batch's statistics when ``training`` (updating
    ``running_mean``/``running_var`` in place), with the running ones otherwise.

    >>> import yaten
    >>> import yaten.nn.functional as F
    >>> mean, var = yaten.zeros(2), yaten.ones(2)
    >>> y = F.batch_norm(yaten.tensor([[0.0, 1.0], [2.0, 3.0]]), mean, var, training=True)
    >>> y
    tensor([[-1.0000, -1.0000],
            [ 1.0000,  1.0000]])
    >>> mean
    tensor([0.1000, 0.2000])
    """
    if training:
        _verify_batch_size(input.shape)
    return _yaten.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, False)


def _verify_spatial_size(size):
    if math.prod(size[2:]) == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size {size}")


def instance_norm(
    input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True, momentum=0.1,
    eps=1e-5,
):  # fmt: skip
    """Normalize each channel (dim 1) of every sample over its spatial dims: with the sample's statistics
    when ``use_input_stats`` (updating ``running_mean``/``running_var`` in place with their batch
    average), with the running ones otherwise.

    >>> import yaten
    >>> import yaten.nn.functional as F
    >>> mean = yaten.zeros(2)
    >>> F.instance_norm(yaten.tensor([[[0.0, 2.0], [1.0, 5.0]]]), mean, yaten.ones(2))
    tensor([[[-1.0000,  1.0000],
             [-1.0000,  1.0000]]])
    >>> mean
    tensor([0.1000, 0.3000])
    """
    if use_input_stats:
        _verify_spatial_size(input.shape)
    return _yaten.instance_norm(
        input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, False
    )


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """Divide each channel (dim 1) by ``(k + alpha / size * sum of squares over its size neighbouring
    channels) ** beta``, as AlexNet's local response normalization.

    >>> import yaten
    >>> yaten.nn.functional.local_response_norm(yaten.tensor([[[1.0], [2.0]]]), 2, alpha=1.0, beta=1.0)
    tensor([[[0.6667],
             [0.5714]]])
    """
    dim = input.dim()
    if dim < 3:
        # torch's message, with the run of spaces its source line continuation leaves in it.
        raise ValueError(
            f"Expected 3D or higher dimensionality                          input (got {dim} dimensions)"
        )
    if input.numel() == 0:
        return input
    # The channel window's mean of squares is an average pool over the channels, zero-padded at the ends.
    div = input.mul(input)
    if dim == 3:
        div = pad(div.unsqueeze(1), (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1).view(sizes)
    return input / div.mul(alpha).add(k).pow(beta)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalize over the last ``len(normalized_shape)`` dims, then scale and shift elementwise.

    >>> import yaten
    >>> yaten.nn.functional.layer_norm(yaten.tensor([[1.0, 3.0]]), (2,))
    tensor([[-1.0000,  1.0000]])
    """
    return _yaten.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalize each of ``num_groups`` groups of channels (dim 1) of every sample.

    >>> import yaten
    >>> yaten.nn.functional.group_norm(yaten.tensor([[[1.0, 3.0], [0.0, 0.0]]]), 2)
    tensor([[[-1.0000,  1.0000],
             [ 0.0000,  0.0000]]])
    """
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    _verify_batch_size([input.shape[0] * input.shape[1] // num_groups, num_groups, *input.shape[2:]])
    return _yaten.group_norm(input, num_groups, weight, bias, eps)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """Divide by the root mean square over the last ``len(normalized_shape)`` dims (``eps`` added inside
    the root; None: the dtype's machine epsilon), then scale elementwise.

    >>> import yaten
    >>> yaten.nn.functional.rms_norm(yaten.tensor([[3.0, 4.0]]), (2,), eps=0.0)
    tensor([[0.8485, 1.1314]])
    """
    return _yaten.rms_norm(input, normalized_shape, weight, eps)
