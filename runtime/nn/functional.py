"""yaten.nn.functional: the functional form of every layer, as ``torch.nn.functional``.

Ops with a kernel or a derivative live in the spec (spec/native_functions.yaml) and are reached here
through the generated namespace; what is written here is argument handling and composition.
"""

# --- activations, linear, dropout, embedding, losses -----------------------------------------------

import warnings as _warnings

from .._factories import tensor_arg
from ..native import loss as _loss
from ..native import nn_misc as _nn_misc


def _reduction_enum(reduction):
    """PyTorch's ``_Reduction.get_enum``: 'none' 0, 'mean' 1, 'sum' 2."""
    if reduction == "none":
        return 0
    if reduction == "mean":
        return 1
    if reduction == "elementwise_mean":
        _warnings.warn(
            "reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.", stacklevel=3
        )
        return 1
    if reduction == "sum":
        return 2
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _legacy_reduction(size_average, reduce):
    """The reduction the deprecated ``size_average``/``reduce`` pair stands for (with PyTorch's warning)."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = "mean" if size_average and reduce else "sum" if reduce else "none"
    _warnings.warn(
        f"size_average and reduce args will be deprecated, please use reduction='{ret}' instead.",
        stacklevel=3,
    )
    return ret


def _warn_target_size(input, target):
    if tuple(target.shape) != tuple(input.shape):
        _warnings.warn(
            f"Using a target size ({target.size()}) that is different to the input size ({input.size()}). "
            "This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.",
            stacklevel=3,
        )


def _weighted(loss, weight, input, reduction):
    if tuple(weight.shape) != tuple(input.shape):
        raise ValueError("Weights and input must have the same size.")
    loss = loss * weight
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.sum() / weight.sum()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def relu(input, inplace=False):
    """max(0, x) elementwise; in place with ``inplace=True``.

    >>> import yaten
    >>> yaten.nn.functional.relu(yaten.tensor([-1.0, 2.0]))
    tensor([0., 2.])
    """
    return _yaten.relu_(input) if inplace else _yaten.relu(input)


def relu_(input):
    """In-place ``relu``."""
    return _yaten.relu_(input)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """x for x > 0, else ``negative_slope * x``.

    >>> import yaten
    >>> yaten.nn.functional.leaky_relu(yaten.tensor([-1.0, 2.0]), 0.1)
    tensor([-0.1000,  2.0000])
    """
    return _yaten.leaky_relu_(input, negative_slope) if inplace else _yaten.leaky_relu(input, negative_slope)


def leaky_relu_(input, negative_slope=0.01):
    """In-place ``leaky_relu``."""
    return _yaten.leaky_relu_(input, negative_slope)


def elu(input, alpha=1.0, inplace=False):
    """x for x > 0, else ``alpha * (exp(x) - 1)``.

    >>> import yaten
    >>> yaten.nn.functional.elu(yaten.tensor([0.0, 2.0]))
    tensor([0., 2.])
    """
    return _yaten.elu_(input, alpha) if inplace else _yaten.elu(input, alpha)


def elu_(input, alpha=1.0):
    """In-place ``elu``."""
    return _yaten.elu_(input, alpha)


def gelu(input, approximate="none"):
    """x * Phi(x) (``approximate='tanh'``: the tanh approximation).

    >>> import yaten
    >>> yaten.nn.functional.gelu(yaten.tensor([0.0]))
    tensor([0.])
    """
    return _yaten.gelu(input, approximate=approximate)


def silu(input, inplace=False):
    """x * sigmoid(x).

    >>> import yaten
    >>> yaten.nn.functional.silu(yaten.tensor([0.0]))
    tensor([0.])
    """
    return _yaten.silu_(input) if inplace else _yaten.silu(input)


def sigmoid(input):
    """1 / (1 + exp(-x)).

    >>> import yaten
    >>> yaten.nn.functional.sigmoid(yaten.tensor([0.0]))
    tensor([0.5000])
    """
    return input.sigmoid()  # as torch's: a non-tensor raises AttributeError


def tanh(input):
    """Hyperbolic tangent.

    >>> import yaten
    >>> yaten.nn.functional.tanh(yaten.tensor([0.0]))
    tensor([0.])
    """
    return input.tanh()  # as torch's: a non-tensor raises AttributeError


def _softmax_dim(name, ndim, stacklevel):
    _warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an argument.",
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """exp(x) / sum(exp(x)) along ``dim`` (PyTorch's implicit dim, with its warning, when it is None).

    >>> import yaten
    >>> yaten.nn.functional.softmax(yaten.tensor([0.0, 0.0]), dim=0)
    tensor([0.5000, 0.5000])
    """
    if dim is None:
        dim = _softmax_dim("softmax", input.ndim, _stacklevel)
    return input.softmax(dim) if dtype is None else input.softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """log(softmax(x)) along ``dim``, computed stably.

    >>> import yaten
    >>> yaten.nn.functional.log_softmax(yaten.tensor([0.0, 0.0]), dim=0)
    tensor([-0.6931, -0.6931])
    """
    if dim is None:
        dim = _softmax_dim("log_softmax", input.ndim, _stacklevel)
    return input.log_softmax(dim) if dtype is None else input.log_softmax(dim, dtype=dtype)


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta x)) / beta, and x itself where ``beta * x > threshold``.

    >>> import yaten
    >>> yaten.nn.functional.softplus(yaten.tensor([0.0, 30.0]))
    tensor([ 0.6931, 30.0000])
    """
    return _yaten.softplus(input, beta, threshold)


def _int_bounds(input, min_val, max_val):
    # An integer tensor is clamped to integer bounds (PyTorch converts them to the input's type).
    if input.dtype.is_floating_point:
        return min_val, max_val
    return int(min_val), int(max_val)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """x clamped to [min_val, max_val].

    >>> import yaten
    >>> yaten.nn.functional.hardtanh(yaten.tensor([-2.0, 0.5, 2.0]))
    tensor([-1.0000,  0.5000,  1.0000])
    """
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    tensor_arg("hardtanh_" if inplace else "hardtanh", "input", 1, input)
    if input.dtype is _yaten.bool:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    lo, hi = _int_bounds(input, min_val, max_val)
    return _yaten.hardtanh_(input, lo, hi) if inplace else _yaten.hardtanh(input, lo, hi)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    """In-place ``hardtanh``."""
    tensor_arg("hardtanh_", "input", 1, input)  # torch's hardtanh_ is the op itself: its parser checks first
    return hardtanh(input, min_val, max_val, inplace=True)


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


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability ``p`` and scale the rest by 1 / (1 - p) when ``training``.

    >>> import yaten
    >>> x = yaten.ones(4)
    >>> yaten.nn.functional.dropout(x, 0.5, training=False) is x
    True
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return _nn_misc.dropout_(input, p, training) if inplace else _yaten.dropout(input, p, training)


def _embedding_renorm_(weight, input, max_norm, norm_type):
    # Rows of ``weight`` that ``input`` looks up and whose norm exceeds max_norm are scaled down to it,
    # in place, as PyTorch's embedding_renorm_. A repeated index writes the same row twice.
    with _yaten.no_grad():
        idx = input.reshape(-1)
        rows = weight.index_select(0, idx)
        norms = rows.norm(norm_type, [1], True)
        scale = _yaten.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        weight.index_put_([idx], rows * scale)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):  # fmt: skip
    """The rows of ``weight`` at the indices ``input``; the row ``padding_idx`` gets no gradient.
    ``sparse=True`` gives a dense gradient (yaten has no sparse tensors).

    >>> import yaten
    >>> w = yaten.arange(6.0).reshape(3, 2)
    >>> yaten.nn.functional.embedding(yaten.tensor([2, 0]), w)
    tensor([[4., 5.],
            [0., 1.]])
    """
    if padding_idx is not None:
        if padding_idx > 0:
            if padding_idx >= weight.shape[0]:
                raise AssertionError("Padding_idx must be within num_embeddings")
        elif padding_idx < 0:
            if padding_idx < -weight.shape[0]:
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = weight.shape[0] + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        _embedding_renorm_(weight, input.contiguous(), max_norm, norm_type)
    return _yaten.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def one_hot(tensor, num_classes=-1):
    """int64 one-hot encodings of the class indices ``tensor`` (``num_classes=-1``: max + 1).

    >>> import yaten
    >>> yaten.nn.functional.one_hot(yaten.tensor([0, 2]))
    tensor([[1, 0, 0],
            [0, 0, 1]])
    """
    return _yaten.one_hot(tensor, num_classes)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean squared error (``reduction``: 'none', 'mean', 'sum'; ``weight``: per element).

    >>> import yaten
    >>> yaten.nn.functional.mse_loss(yaten.tensor([1.0, 3.0]), yaten.tensor([0.0, 0.0]))
    tensor(5.)
    """
    _warn_target_size(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if weight is not None:
        return _weighted((input - target).pow(2), weight, input, reduction)
    return _yaten.mse_loss(input, target, _reduction_enum(reduction))


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean absolute error.

    >>> import yaten
    >>> yaten.nn.functional.l1_loss(yaten.tensor([1.0, -3.0]), yaten.tensor([0.0, 0.0]))
    tensor(2.)
    """
    _warn_target_size(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if weight is not None:
        return _weighted((input - target).abs(), weight, input, reduction)
    return _yaten.l1_loss(input, target, _reduction_enum(reduction))


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (d = input - target).

    >>> import yaten
    >>> yaten.nn.functional.smooth_l1_loss(yaten.tensor([0.5, 3.0]), yaten.tensor([0.0, 0.0]))
    tensor(1.3125)
    """
    _warn_target_size(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    return _yaten.smooth_l1_loss(input, target, _reduction_enum(reduction), beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """0.5 d^2 where |d| < delta, else delta (|d| - 0.5 delta).

    >>> import yaten
    >>> yaten.nn.functional.huber_loss(yaten.tensor([0.5, 3.0]), yaten.tensor([0.0, 0.0]))
    tensor(1.3125)
    """
    _warn_target_size(input, target)
    if weight is None:
        return _yaten.huber_loss(input, target, _reduction_enum(reduction), delta)
    if tuple(weight.shape) != tuple(input.shape):
        raise ValueError("Weights and input must have the same size.")
    loss = _yaten.huber_loss(input, target, 0, delta) * weight
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.mean()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """Negative log likelihood of class-index targets, from log-probabilities ``input`` ((N, C) or
    (N, C, d1, ...)); the mean divides by the summed class weights of the non-ignored targets.

    >>> import yaten
    >>> logp = yaten.tensor([[-0.5, -1.0], [-2.0, -0.1]])
    >>> yaten.nn.functional.nll_loss(logp, yaten.tensor([0, 1]))
    tensor(0.3000)
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    return _yaten.nll_loss(input, target, weight, _reduction_enum(reduction), ignore_index)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):  # fmt: skip
    """Cross entropy of logits ``input`` ((C), (N, C) or (N, C, d1, ...)) against class indices, or
    against class probabilities of input's shape; with class weights and label smoothing.

    >>> import yaten
    >>> yaten.nn.functional.cross_entropy(yaten.zeros(2, 4), yaten.tensor([0, 3]))
    tensor(1.3863)
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    tensor_arg("cross_entropy_loss", "input", 1, input)
    tensor_arg("cross_entropy_loss", "target", 2, target)
    return _loss.cross_entropy(
        input, target, weight, _reduction_enum(reduction), ignore_index, label_smoothing
    )


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """-(t log x + (1 - t) log(1 - x)) for probabilities ``input``, each log clamped at -100.

    >>> import yaten
    >>> yaten.nn.functional.binary_cross_entropy(yaten.tensor([0.5]), yaten.tensor([1.0]))
    tensor(0.6931)
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    enum = _reduction_enum(reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(
            f"Using a target size ({target.size()}) that is different to the input size ({input.size()}) is "
            "deprecated. Please ensure they have the same size."
        )
    if weight is not None:
        weight = weight.expand(_yaten.broadcast_shapes(target.shape, weight.shape))
    return _yaten.binary_cross_entropy(input, target, weight, enum)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):  # fmt: skip
    """``binary_cross_entropy(sigmoid(input), target)`` in a numerically stable form; ``pos_weight``
    weighs the positive term per class.

    >>> import yaten
    >>> yaten.nn.functional.binary_cross_entropy_with_logits(yaten.tensor([0.0]), yaten.tensor([1.0]))
    tensor(0.6931)
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    enum = _reduction_enum(reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({target.size()}) must be the same as input size ({input.size()})")
    return _yaten.binary_cross_entropy_with_logits(input, target, weight, pos_weight, enum)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """Kullback-Leibler divergence of log-probabilities ``input`` from ``target``; 'batchmean' divides
    the sum by the batch size (the mathematical KL divergence).

    >>> import yaten
    >>> p = yaten.tensor([[0.5, 0.5]])
    >>> yaten.nn.functional.kl_div(p.log(), p, reduction="batchmean")
    tensor(0.)
    """
    if size_average is not None or reduce is not None:
        enum = _reduction_enum(_legacy_reduction(size_average, reduce))
    else:
        if reduction == "mean":
            _warnings.warn(
                "reduction: 'mean' divides the total loss by both the batch size and the support size."
                "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                stacklevel=2,
            )
        enum = 2 if reduction == "batchmean" else _reduction_enum(reduction)
    reduced = _yaten.kl_div(input, target, enum, log_target=log_target)
    if reduction == "batchmean" and input.ndim != 0:
        reduced = reduced / input.shape[0]
    return reduced


# --- convolution and pooling ------------------------------------------------------------------------

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


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):  # fmt: skip
    """2-d max pooling: ``(values, indices)``, the indices into each flattened (H, W) plane.

    >>> import yaten
    >>> v, i = yaten.nn.functional.max_pool2d_with_indices(yaten.arange(16.0).reshape(1, 1, 4, 4), 2)
    >>> v.tolist(), i.tolist()
    ([[[[5.0, 7.0], [13.0, 15.0]]]], [[[[5, 7], [13, 15]]]])
    """
    return _yaten.max_pool2d_with_indices(input, kernel_size, [] if stride is None else stride, padding, dilation,
                                          ceil_mode)  # fmt: skip


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """2-d max pooling; ``return_indices=True`` also gives the argmax positions (for ``max_unpool2d``).

    >>> import yaten
    >>> yaten.nn.functional.max_pool2d(yaten.arange(16.0).reshape(1, 1, 4, 4), 2).tolist()
    [[[[5.0, 7.0], [13.0, 15.0]]]]
    """
    if return_indices:
        return max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return _yaten.max_pool2d(
        input, kernel_size, [] if stride is None else stride, padding, dilation, ceil_mode
    )


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):  # fmt: skip
    """2-d average pooling.

    >>> import yaten
    >>> yaten.nn.functional.avg_pool2d(yaten.arange(16.0).reshape(1, 1, 4, 4), 2).tolist()
    [[[[2.5, 4.5], [10.5, 12.5]]]]
    """
    return _yaten.avg_pool2d(input, kernel_size, [] if stride is None else stride, padding, ceil_mode,
                             count_include_pad, divisor_override)  # fmt: skip


def adaptive_avg_pool2d(input, output_size):
    """Average pooling to an output of ``output_size`` (an int, or a pair whose None entries keep the input's size).

    >>> import yaten
    >>> yaten.nn.functional.adaptive_avg_pool2d(yaten.arange(16.0).reshape(1, 1, 4, 4), (1, None)).tolist()
    [[[[6.0, 7.0, 8.0, 9.0]]]]
    """
    sizes = input.size()  # first, as torch's: a non-tensor raises AttributeError
    if not isinstance(output_size, int):
        if len(sizes) <= len(output_size):
            raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
        defaults = sizes[-len(output_size) :]
        output_size = [d if v is None else v for v, d in zip(output_size, defaults)]
    return _yaten.adaptive_avg_pool2d(input, output_size)


# --- normalization and attention --------------------------------------------------------------------

# Aliases private to this section of the shared file.
import math as _attn_math
import warnings as _attn_warnings

import yaten as _yt


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
    return _yt.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, False)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalize over the last ``len(normalized_shape)`` dims, then scale and shift elementwise.

    >>> import yaten
    >>> yaten.nn.functional.layer_norm(yaten.tensor([[1.0, 3.0]]), (2,))
    tensor([[-1.0000,  1.0000]])
    """
    return _yt.layer_norm(input, normalized_shape, weight, bias, eps)


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
    return _yt.group_norm(input, num_groups, weight, bias, eps)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """Divide by the root mean square over the last ``len(normalized_shape)`` dims (``eps`` added inside
    the root; None: the dtype's machine epsilon), then scale elementwise.

    >>> import yaten
    >>> yaten.nn.functional.rms_norm(yaten.tensor([[3.0, 4.0]]), (2,), eps=0.0)
    tensor([[0.8485, 1.1314]])
    """
    return _yt.rms_norm(input, normalized_shape, weight, eps)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):  # fmt: skip
    """softmax(query @ keyᵀ · scale + mask) @ value; a bool mask says where to attend (True), a float
    mask is added to the scores.

    >>> import yaten
    >>> q = yaten.ones(1, 2, 4)
    >>> yaten.nn.functional.scaled_dot_product_attention(q, q, yaten.tensor([[[1.0], [3.0]]]), is_causal=True)
    tensor([[[1.],
             [2.]]])
    """
    return _yt.scaled_dot_product_attention(
        query, key, value, attn_mask, dropout_p, is_causal, scale=scale, enable_gqa=enable_gqa
    )


def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """A bool mask (True = masked out) as a float one (-inf there, 0 elsewhere); a float mask as is."""
    if mask is None:
        return None
    if check_other and other_type is not None and mask.dtype is not other_type:
        _attn_warnings.warn(
            f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for both instead.",
            stacklevel=3,
        )
    if mask.dtype is _yt.bool:
        return _yt.zeros(tuple(mask.shape), dtype=target_type, device=mask.device).masked_fill(
            mask, float("-inf")
        )
    if not mask.dtype.is_floating_point:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    return mask


def _mha_dropout(x, p):
    if p <= 0.0:
        return x
    if p >= 1.0:
        return x * 0.0
    return x * (_yt.rand_like(x) >= p) / (1 - p)


def _pad_last(t, value=0.0):
    """``t`` with one more column (``value``) at the end of its last dim."""
    return _yt.cat([t, _yt.full((*t.shape[:-1], 1), value, dtype=t.dtype, device=t.device)], -1)


def _mha_is_batched(query, key, value):
    # torch's _mha_shape_check raises AssertionError (explicitly here: ``assert`` vanishes under -O).
    if query.dim() not in (2, 3):
        raise AssertionError(
            f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D query tensor"
        )
    if key.dim() != query.dim() or value.dim() != query.dim():
        kind = "batched (3-D)" if query.dim() == 3 else "unbatched (2-D)"
        raise AssertionError(
            f"For {kind} `query`, expected `key` and `value` to be {query.dim()}-D but found {key.dim()}-D "
            f"and {value.dim()}-D tensors respectively"
        )
    return query.dim() == 3


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):  # fmt: skip
    """The forward pass of ``nn.MultiheadAttention``, sequence-first: query (L, N, E) or unbatched (L, E);
    returns (output, weights averaged over heads or per head, or None when ``need_weights`` is False)."""
    is_batched = _mha_is_batched(query, key, value)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    other_type = None if attn_mask is None else attn_mask.dtype
    key_padding_mask = _canonical_mask(
        key_padding_mask, "key_padding_mask", other_type, "attn_mask", query.dtype
    )
    if is_causal and attn_mask is None:
        raise RuntimeError(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer module method "
            "`generate_square_subsequent_mask` to create this mask."
        )
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # scaled_dot_product_attention applies the causal mask itself
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        is_causal = False if key_padding_mask is not None else is_causal
    if embed_dim != embed_dim_to_check:
        raise AssertionError(
            f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}"
        )
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    b_q = b_k = b_v = None
    if in_proj_bias is not None:
        b_q, b_k, b_v = in_proj_bias.chunk(3)
    if use_separate_proj_weight:
        w_q, w_k, w_v = q_proj_weight, k_proj_weight, v_proj_weight
    else:
        w_q, w_k, w_v = in_proj_weight.chunk(3)
    q = _yt.linear(query, w_q, b_q)
    k = _yt.linear(key, w_k, b_k)
    v = _yt.linear(value, w_v, b_v)

    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(
                    f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be {(tgt_len, src_len)}."
                )
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(
                    f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                    f"{(bsz * num_heads, tgt_len, src_len)}."
                )
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
    if bias_k is not None and bias_v is not None:
        k = _yt.cat([k, bias_k.expand(1, bsz, embed_dim)])
        v = _yt.cat([v, bias_v.expand(1, bsz, embed_dim)])
        attn_mask = _pad_last(attn_mask) if attn_mask is not None else None
        key_padding_mask = _pad_last(key_padding_mask) if key_padding_mask is not None else None

    q = q.reshape((tgt_len, bsz * num_heads, head_dim)).transpose(0, 1)
    # static_k / static_v are already per head: (bsz * num_heads, S, head_dim).
    k = k.reshape((-1, bsz * num_heads, head_dim)).transpose(0, 1) if static_k is None else static_k
    v = v.reshape((-1, bsz * num_heads, head_dim)).transpose(0, 1) if static_v is None else static_v
    if add_zero_attn:
        zeros = _yt.zeros((bsz * num_heads, 1, head_dim), dtype=k.dtype, device=k.device)
        k, v = _yt.cat([k, zeros], 1), _yt.cat([v, zeros], 1)
        attn_mask = _pad_last(attn_mask) if attn_mask is not None else None
        key_padding_mask = _pad_last(key_padding_mask) if key_padding_mask is not None else None
    src_len = k.shape[1]
    if key_padding_mask is not None:
        if tuple(key_padding_mask.shape) != (bsz, src_len):
            raise AssertionError(
                f"expecting key_padding_mask shape of {(bsz, src_len)}, but got {key_padding_mask.shape}"
            )
        kpm = key_padding_mask.reshape((bsz, 1, 1, src_len)).expand(bsz, num_heads, 1, src_len)
        kpm = kpm.reshape((bsz * num_heads, 1, src_len))
        attn_mask = kpm if attn_mask is None else attn_mask + kpm
    if not training:
        dropout_p = 0.0

    if need_weights:
        scores = (q * _attn_math.sqrt(1.0 / q.shape[-1])).matmul(k.transpose(-2, -1))
        if attn_mask is not None:
            scores = scores + attn_mask
        weights = _mha_dropout(scores.softmax(-1), dropout_p)
        out = weights.matmul(v).transpose(0, 1).reshape((tgt_len * bsz, embed_dim))
        out = _yt.linear(out, out_proj_weight, out_proj_bias).reshape((tgt_len, bsz, embed_dim))
        weights = weights.reshape((bsz, num_heads, tgt_len, src_len))
        if average_attn_weights:
            weights = weights.mean(1)
        if not is_batched:
            out, weights = out.squeeze(1), weights.squeeze(0)
        return out, weights
    if attn_mask is not None:
        attn_mask = (
            attn_mask.unsqueeze(0)
            if attn_mask.shape[0] == 1
            else attn_mask.reshape((bsz, num_heads, -1, src_len))
        )
    q = q.reshape((bsz, num_heads, tgt_len, head_dim))
    k = k.reshape((bsz, num_heads, src_len, head_dim))
    v = v.reshape((bsz, num_heads, src_len, head_dim))
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape((bsz * tgt_len, embed_dim))
    out = _yt.linear(out, out_proj_weight, out_proj_bias).reshape((tgt_len, bsz, embed_dim))
    return (out if is_batched else out.squeeze(1)), None
