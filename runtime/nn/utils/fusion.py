"""``yaten.nn.utils.fusion``: a convolution or linear layer followed by batch norm (in eval mode) folded into
one layer, as ``torch.nn.utils.fusion``."""

import copy

import yaten

from ..parameter import Parameter

__all__ = ["fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval", "fuse_linear_bn_weights"]


def _check_eval(layer, bn):
    if layer.training or bn.training:
        raise AssertionError("Fusion only for eval!")


def _check_statistics(bn):
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")


def _folded(weight, bias, running_mean, running_var, eps, gamma, beta, scale_shape):
    """Fold the eval-mode batch norm ``gamma * (y - mean) / sqrt(var + eps) + beta`` into the layer
    ``y = weight x + bias``: each output channel's weight row scales by gamma / sqrt(var + eps) (laid out as
    ``scale_shape`` against the weight), its bias becomes (bias - mean) * that scale + beta. The results keep
    the layer's dtypes and ``requires_grad``; a missing bias counts as zeros."""
    weight_dtype = weight.dtype
    bias_dtype = weight_dtype if bias is None else bias.dtype
    if bias is None:
        bias = yaten.zeros_like(running_mean)
    scale = gamma * yaten.rsqrt(running_var + eps)
    new_weight = (weight * scale.reshape(scale_shape)).to(dtype=weight_dtype)
    new_bias = ((bias - running_mean) * scale + beta).to(dtype=bias_dtype)
    return Parameter(new_weight, weight.requires_grad), Parameter(new_bias, bias.requires_grad)


def _fused_copy(layer, bn, fold):
    """A deep copy of ``layer`` whose weight and bias are ``fold(weight, bias, <bn's statistics>)``."""
    fused = copy.deepcopy(layer)
    fused.weight, fused.bias = fold(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias
    )
    return fused


def fuse_conv_bn_eval(conv, bn, transpose: bool = False):
    """A copy of ``conv`` that computes ``bn(conv(x))`` (both in eval mode); ``transpose`` for ConvTranspose.

    >>> import yaten
    >>> from yaten import nn
    >>> conv, bn = nn.Conv2d(2, 3, 3).eval(), nn.BatchNorm2d(3).eval()
    >>> x = yaten.randn(1, 2, 5, 5)
    >>> bool(yaten.allclose(nn.utils.fuse_conv_bn_eval(conv, bn)(x), bn(conv(x)), atol=1e-5))
    True
    """
    _check_eval(conv, bn)
    _check_statistics(bn)
    return _fused_copy(conv, bn, lambda *tensors: fuse_conv_bn_weights(*tensors, transpose))


def fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b, transpose: bool = False):
    """The ``(weight, bias)`` parameters of a convolution that computes ``bn(conv(x))``, from their tensors
    (``conv_b``, ``bn_w``, ``bn_b`` may be None); in the convolution's dtypes.

    >>> import yaten
    >>> from yaten.nn.utils import fuse_conv_bn_weights
    >>> w, b = fuse_conv_bn_weights(yaten.ones(1, 1, 1), None, yaten.tensor([1.0]), yaten.tensor([4.0]), 0.0,
    ...                             None, None)
    >>> w.tolist(), b.tolist()
    ([[[0.5]]], [-0.5])
    """
    gamma = yaten.ones_like(bn_rm) if bn_w is None else bn_w
    beta = yaten.zeros_like(bn_rm) if bn_b is None else bn_b
    # Output channels are dim 0 of a convolution's weight, dim 1 of a transposed one's.
    channel_dim = 1 if transpose else 0
    scale_shape = [-1 if d == channel_dim else 1 for d in range(conv_w.dim())]
    return _folded(conv_w, conv_b, bn_rm, bn_rv, bn_eps, gamma, beta, scale_shape)


def fuse_linear_bn_eval(linear, bn):
    """A copy of ``linear`` that computes ``bn(linear(x))`` (both in eval mode; ``bn.num_features`` is the
    linear's ``out_features`` or 1).

    >>> import yaten
    >>> from yaten import nn
    >>> lin, bn = nn.Linear(3, 2).eval(), nn.BatchNorm1d(2).eval()
    >>> x = yaten.randn(4, 3)
    >>> bool(yaten.allclose(nn.utils.fuse_linear_bn_eval(lin, bn)(x), bn(lin(x)), atol=1e-5))
    True
    """
    _check_eval(linear, bn)
    if bn.num_features not in (linear.out_features, 1):
        raise AssertionError(
            "To fuse, linear.out_features == bn.num_features or bn.num_features == 1, "
            f"got linear.out_features={linear.out_features} and bn.num_features={bn.num_features}"
        )
    _check_statistics(bn)
    return _fused_copy(linear, bn, fuse_linear_bn_weights)


def fuse_linear_bn_weights(linear_w, linear_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b):
    """The ``(weight, bias)`` parameters of a linear layer that computes ``bn(linear(x))``.

    >>> import yaten
    >>> from yaten.nn.utils import fuse_linear_bn_weights
    >>> w, b = fuse_linear_bn_weights(yaten.ones(1, 2), None, yaten.tensor([1.0]), yaten.tensor([4.0]), 0.0,
    ...                               yaten.tensor([2.0]), yaten.tensor([0.0]))
    >>> w.tolist(), b.tolist()
    ([[1.0, 1.0]], [-1.0])
    """
    return _folded(linear_w, linear_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b, (-1, 1))
