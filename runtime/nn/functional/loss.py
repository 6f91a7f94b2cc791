"""Loss functions of ``torch.nn.functional``."""

import math
import warnings

import yaten as _yaten

from ..._factories import tensor_arg
from ...native import loss as _loss
from ._reduction import _legacy_reduction, _reduction_enum, _warn_target_size, _weighted
from .linear import linear


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


def ctc_loss(
    log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False
):
    """The Connectionist Temporal Classification loss: -log of the probability that ``log_probs``
    ((T, N, C) or unbatched (T, C)) emits each target, summed over the alignments; ``targets`` padded
    (N, S) or concatenated (sum of target_lengths), lengths as ints or integer tensors. The mean divides
    each loss by its target length, then averages; ``zero_infinity`` zeroes impossible alignments' losses
    and their gradients.

    >>> import yaten
    >>> log_probs = yaten.full((2, 1, 2), 0.5).log()
    >>> yaten.nn.functional.ctc_loss(log_probs, yaten.tensor([[1]]), [2], [1], reduction="none")
    tensor([0.2877])
    """
    return _yaten.ctc_loss(
        log_probs, targets, input_lengths, target_lengths, blank, _reduction_enum(reduction), zero_infinity
    )


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
            warnings.warn(
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


def _enum(size_average, reduce, reduction):
    """The reduction enum of a loss that takes the deprecated ``size_average``/``reduce`` too."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    return _reduction_enum(reduction)


def _reduced(loss, reduction, message):
    """``loss`` reduced by a reduction string the loss checks itself (its own ValueError ``message``)."""
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(message)


def margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    """``max(0, -target * (input1 - input2) + margin)``: ``target`` 1 wants input1 ranked higher.

    >>> import yaten
    >>> yaten.nn.functional.margin_ranking_loss(yaten.tensor([1.0]), yaten.tensor([2.0]), yaten.tensor([1.0]))
    tensor(1.)
    """
    enum = _enum(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} "
        )
    return _yaten.margin_ranking_loss(input1, input2, target, margin, enum)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    """``input`` where ``target`` is 1, ``max(0, margin - input)`` where it is -1.

    >>> import yaten
    >>> yaten.nn.functional.hinge_embedding_loss(yaten.tensor([0.3, 2.0]), yaten.tensor([-1.0, 1.0]))
    tensor(1.3500)
    """
    return _yaten.hinge_embedding_loss(input, target, margin, _enum(size_average, reduce, reduction))


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """``log(1 + exp(-target * input))``, the logistic loss of a ±1 ``target``.

    >>> import yaten
    >>> yaten.nn.functional.soft_margin_loss(yaten.tensor([0.0]), yaten.tensor([1.0]))
    tensor(0.6931)
    """
    return _yaten.soft_margin_loss(input, target, _enum(size_average, reduce, reduction))


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """``1 - cos(input1, input2)`` where ``target`` is 1, ``max(0, cos - margin)`` where it is -1.

    >>> import yaten
    >>> x = yaten.tensor([[1.0, 0.0]])
    >>> yaten.nn.functional.cosine_embedding_loss(x, yaten.tensor([[0.0, 1.0]]), yaten.tensor([1.0]))
    tensor(1.)
    """
    return _yaten.cosine_embedding_loss(
        input1, input2, target, margin, _enum(size_average, reduce, reduction)
    )


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):  # fmt: skip
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))`` with the ``p``-norm distance.

    >>> import yaten
    >>> a = yaten.tensor([[0.0, 0.0]])
    >>> yaten.nn.functional.triplet_margin_loss(a, a, yaten.tensor([[3.0, 4.0]]), margin=6.0, eps=0.0)
    tensor(1.)
    """
    enum = _enum(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    return _yaten.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, enum)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
                                      swap=False, reduction="mean"):  # fmt: skip
    """``triplet_margin_loss`` with any ``distance_function`` (default: ``pairwise_distance``).

    >>> import yaten
    >>> a = yaten.tensor([[0.0, 0.0]])
    >>> l1 = lambda x, y: (x - y).abs().sum(-1)
    >>> yaten.nn.functional.triplet_margin_with_distance_loss(a, a, yaten.tensor([[1.0, 1.0]]), distance_function=l1)
    tensor(0.)
    """
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a, p, n = anchor.ndim, positive.ndim, negative.ndim
    if not a == p == n:
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but "
            f"got: anchor {a}D, positive {p}D, and negative {n}D inputs"
        )
    distance = _yaten.pairwise_distance if distance_function is None else distance_function
    dist_pos, dist_neg = distance(anchor, positive), distance(anchor, negative)
    if swap:
        dist_neg = _yaten.minimum(dist_neg, distance(positive, negative))
    return _reduced(_yaten.clamp_min(margin + dist_pos - dist_neg, 0), reduction, "")


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):  # fmt: skip
    """Negative log-likelihood of ``target`` under a Poisson distribution of rate ``input`` (or
    ``exp(input)`` with ``log_input``); ``full`` adds the Stirling term.

    >>> import yaten
    >>> yaten.nn.functional.poisson_nll_loss(yaten.tensor([0.0]), yaten.tensor([1.0]))
    tensor(1.)
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    return _yaten.poisson_nll_loss(input, target, log_input, full, eps, _reduction_enum(reduction))


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """Negative log-likelihood of ``target`` under a Gaussian of mean ``input`` and variance ``var``
    (per element, or one fewer dimension / one broadcast dimension for a shared variance).

    >>> import yaten
    >>> yaten.nn.functional.gaussian_nll_loss(yaten.tensor([0.0]), yaten.tensor([2.0]), yaten.tensor([1.0]))
    tensor(2.)
    """
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * _yaten.ones_like(input)
    elif _yaten.any(var < 0):
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = var.unsqueeze(-1)
        elif not (
            input.ndim == var.ndim
            and sum(y for x, y in zip(input.size(), var.size(), strict=True) if x != y) == 1
        ):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with _yaten.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduced(loss, reduction, "")


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """Per-class logistic loss of a 0/1 multi-label ``target``, averaged over the classes.

    >>> import yaten
    >>> yaten.nn.functional.multilabel_soft_margin_loss(yaten.tensor([[0.0, 0.0]]), yaten.tensor([[1.0, 0.0]]))
    tensor(0.6931)
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    loss = -(target * _yaten.log_sigmoid(input) + (1 - target) * _yaten.log_sigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    return _reduced(loss, reduction, reduction + " is not valid")


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):  # fmt: skip
    """Multi-class hinge loss: ``sum_{i != y} max(0, margin - x[y] + x[i])^p / C`` per sample.

    >>> import yaten
    >>> yaten.nn.functional.multi_margin_loss(yaten.tensor([[0.1, 0.2, 0.4]]), yaten.tensor([2]))
    tensor(0.5000)
    """
    enum = _enum(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    return _yaten.multi_margin_loss(input, target, p, margin, weight, enum)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """Multi-label hinge loss; each target row lists class indices up to its first -1.

    >>> import yaten
    >>> x = yaten.tensor([[0.1, 0.2, 0.4, 0.8]])
    >>> yaten.nn.functional.multilabel_margin_loss(x, yaten.tensor([[3, 0, -1, 1]]))
    tensor(0.8500)
    """
    return _yaten.multilabel_margin_loss(input, target, _enum(size_average, reduce, reduction))


def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None, reduction="mean",
                         ignore_index=None, label_smoothing=0.0, options=None):  # fmt: skip
    """``cross_entropy(linear(input, linear_weight, linear_bias), target, ...)`` for a (in_features) or
    (N, in_features) input; a (C, d1, ..., dK, in_features) weight gives the K-dimensional loss. With
    ``options`` (a ``LinearCrossEntropyOptions``) the batch goes through in chunks whose logits are
    recomputed in backward, so the (N, C) logits never exist at once.

    >>> import yaten
    >>> x, w, t = yaten.ones(4, 3), yaten.zeros(5, 3), yaten.tensor([0, 1, 2, 3])
    >>> yaten.nn.functional.linear_cross_entropy(x, w, t)
    tensor(1.6094)
    >>> opts = yaten.nn.LinearCrossEntropyOptions(batch_chunk_size=2)
    >>> yaten.nn.functional.linear_cross_entropy(x, w, t, options=opts)
    tensor(1.6094)
    """
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError(
            f"expected linear_weight with dimensionality at least 2, got {linear_weight.dim()}"
        )
    num_batches, in_features = tuple(input.shape[:-1]), input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError(
            "expected equal input and linear_weight last dimensions (in_features), "
            f"got {input.shape[-1]} and {linear_weight.shape[-1]}, respectively"
        )
    num_classes, out_features = linear_weight.shape[0], tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (num_classes, *out_features):
        raise RuntimeError(
            f"expected linear_bias shape {(num_classes, *out_features)}, got {tuple(linear_bias.shape)}"
        )
    if out_features and not num_batches:
        raise RuntimeError(
            f"K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} requires batched "
            f"input, (N, {in_features}), got unbatched input with shape {tuple(input.shape)}"
        )
    logits_shape = (*num_batches, num_classes, *out_features)
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    ignore_index = ignore_index if ignore_index is not None else -100
    chunkable = (not out_features and reduction in {"mean", "sum", "none"} and label_smoothing == 0.0
                 and target.dtype == _yaten.int64)  # fmt: skip
    if options is not None and not chunkable:
        warnings.warn(
            "linear_cross_entropy: ``options`` ignored; chunked path needs reduction in {'mean','sum','none'}, "
            "label_smoothing == 0, target.dtype == int64, out_features == (). Got "
            f"reduction={reduction!r}, label_smoothing={label_smoothing}, target.dtype={target.dtype}, "
            f"out_features={out_features}, tracing=False, linear_bias.shape="
            f"{tuple(linear_bias.shape) if linear_bias is not None else None}.",
            stacklevel=2,
        )
    if options is not None and chunkable:
        from ..modules.linear_cross_entropy import _linear_cross_entropy_batch_chunked

        batched = input.dim() == 2
        x, t = (input, target) if batched else (input.unsqueeze(0), target.unsqueeze(0))
        resolved = options._adjust(x.shape[0], in_features, num_classes, input.dtype, input.device)
        result = _linear_cross_entropy_batch_chunked(x, linear_weight, t, linear_bias, weight, reduction,
                                                     ignore_index, resolved.batch_chunk_size,
                                                     resolved.acc_dtype)  # fmt: skip
        return result if batched else result.squeeze(0)
    if out_features:
        rows = math.prod(out_features, start=num_classes)
        linear_weight = linear_weight.reshape(rows, in_features)
        linear_bias = linear_bias.reshape(rows) if linear_bias is not None else None
    logits = linear(input, linear_weight, linear_bias).reshape(logits_shape)
    return cross_entropy(logits, target, weight=weight, reduction=reduction, ignore_index=ignore_index,
                         label_smoothing=label_smoothing)  # fmt: skip
