"""Normalization functions of ``torch.nn.functional``."""

import yaten as _yaten


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
