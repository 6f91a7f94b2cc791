"""``yaten.nn.utils.memory_format``: the convolution weights of a model converted to a memory format, as
``torch.nn.utils.memory_format``.

yaten stores tensors in ``contiguous_format`` only: ``clone(memory_format=channels_last)`` keeps the
values and the contiguous layout, so these functions give torch's values (and torch's results for
``contiguous_format``), not the channels-last strides.
"""

__all__ = ["convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format"]


def _convert(module, memory_format, kinds):
    if isinstance(module, kinds):
        module.weight.data = module.weight.detach().clone(memory_format=memory_format)
    for child in module.children():
        _convert(child, memory_format, kinds)
    return module


def convert_conv2d_weight_memory_format(module, memory_format):
    """Convert the weights of every ``Conv2d``/``ConvTranspose2d`` in ``module`` to ``memory_format``;
    returns ``module``.

    >>> import yaten
    >>> from yaten import nn
    >>> m = nn.utils.convert_conv2d_weight_memory_format(nn.Sequential(nn.Conv2d(2, 3, 3)), yaten.contiguous_format)
    >>> m[0].weight.is_contiguous()
    True
    """
    from ..modules.conv import Conv2d, ConvTranspose2d

    return _convert(module, memory_format, (Conv2d, ConvTranspose2d))


def convert_conv3d_weight_memory_format(module, memory_format):
    """Convert the weights of every ``Conv3d``/``ConvTranspose3d`` in ``module`` to ``memory_format``;
    returns ``module``.

    >>> import yaten
    >>> from yaten import nn
    >>> m = nn.utils.convert_conv3d_weight_memory_format(nn.Conv3d(2, 3, 1), yaten.contiguous_format)
    >>> m.weight.shape
    yaten.Size([3, 2, 1, 1, 1])
    """
    from ..modules.conv import Conv3d, ConvTranspose3d

    return _convert(module, memory_format, (Conv3d, ConvTranspose3d))
