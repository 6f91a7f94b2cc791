"""Loss layers, as ``torch.nn.MSELoss``, ``L1Loss``, ``SmoothL1Loss``, ``HuberLoss``, ``CrossEntropyLoss``,
``NLLLoss``, ``BCELoss``, ``BCEWithLogitsLoss``, ``KLDivLoss`` and the margin, embedding and likelihood
losses (``MarginRankingLoss`` ... ``GaussianNLLLoss``): each keeps its options and calls its
functional form. Class weights are buffers (in the state_dict, moved by ``.to``), as in PyTorch."""

import math
import warnings

from .. import functional as F
from .distance import PairwiseDistance
from .linear import Linear
from .module import Module

__all__ = ["BCELoss", "BCEWithLogitsLoss", "CTCLoss", "CosineEmbeddingLoss", "CrossEntropyLoss", "GaussianNLLLoss",
           "HingeEmbeddingLoss", "HuberLoss", "KLDivLoss", "L1Loss", "LinearCrossEntropyLoss", "MSELoss",
           "MarginRankingLoss",
           "MultiLabelMarginLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss", "NLLLoss", "NLLLoss2d",
           "PoissonNLLLoss",
           "SmoothL1Loss", "SoftMarginLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss"]  # fmt: skip


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        if size_average is not None or reduce is not None:
            self.reduction = F._legacy_reduction(size_average, reduce)
        else:
            self.reduction = reduction


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class L1Loss(_Loss):
    """Mean absolute error.

    >>> import yaten
    >>> yaten.nn.L1Loss()(yaten.tensor([1.0, -3.0]), yaten.zeros(2))
    tensor(2.)
    """

    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class MSELoss(_Loss):
    """Mean squared error.

    >>> import yaten
    >>> yaten.nn.MSELoss(reduction="sum")(yaten.tensor([1.0, 3.0]), yaten.zeros(2))
    tensor(10.)
    """

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(_Loss):
    """Quadratic below ``beta``, linear above.

    >>> import yaten
    >>> yaten.nn.SmoothL1Loss()(yaten.tensor([0.5, 3.0]), yaten.zeros(2))
    tensor(1.3125)
    """

    def __init__(self, size_average=None, reduce=None, reduction="mean", beta=1.0):
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input, target):
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Quadratic below ``delta``, ``delta``-scaled linear above.

    >>> import yaten
    >>> yaten.nn.HuberLoss(delta=2.0)(yaten.tensor([1.0, 3.0]), yaten.zeros(2))
    tensor(2.2500)
    """

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input, target):
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class NLLLoss(_WeightedLoss):
    """Negative log likelihood of class indices, from log-probabilities.

    >>> import yaten
    >>> yaten.nn.NLLLoss()(yaten.tensor([[-0.5, -1.0]]), yaten.tensor([1]))
    tensor(1.)
    """

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(
            input, target, weight=self.weight, ignore_index=self.ignore_index, reduction=self.reduction
        )


class NLLLoss2d(NLLLoss):
    """``NLLLoss`` under its deprecated name (it warns as torch's when built).

    >>> import warnings, yaten
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     yaten.nn.NLLLoss2d()
    NLLLoss2d()
    """

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
        warnings.warn(
            "`NLLLoss2d` has been deprecated. Please use `NLLLoss` instead as a drop-in replacement and see "
            "https://pytorch.org/docs/main/nn.html#torch.nn.NLLLoss for more details.",
            FutureWarning,
            stacklevel=2,
        )
        super().__init__(weight, size_average, ignore_index, reduce, reduction)


class CrossEntropyLoss(_WeightedLoss):
    """Cross entropy of logits against class indices or class probabilities.

    >>> import yaten
    >>> loss = yaten.nn.CrossEntropyLoss()
    >>> loss
    CrossEntropyLoss()
    >>> loss(yaten.zeros(2, 4), yaten.tensor([0, 3]))
    tensor(1.3863)
    """

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                 label_smoothing=0.0):  # fmt: skip
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(
            input,
            target,
            weight=self.weight,
            ignore_index=self.ignore_index,
            reduction=self.reduction,
            label_smoothing=self.label_smoothing,
        )


class BCELoss(_WeightedLoss):
    """Binary cross entropy of probabilities.

    >>> import yaten
    >>> yaten.nn.BCELoss()(yaten.tensor([0.5]), yaten.tensor([1.0]))
    tensor(0.6931)
    """

    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross entropy of logits (sigmoid folded in, numerically stable); ``pos_weight`` per class.

    >>> import yaten
    >>> yaten.nn.BCEWithLogitsLoss()(yaten.tensor([0.0]), yaten.tensor([1.0]))
    tensor(0.6931)
    """

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(
            input, target, self.weight, pos_weight=self.pos_weight, reduction=self.reduction
        )


class KLDivLoss(_Loss):
    """KL divergence of log-probabilities ``input`` from ``target`` ('batchmean' is the true KL).

    >>> import yaten
    >>> p = yaten.tensor([[0.5, 0.5]])
    >>> yaten.nn.KLDivLoss(reduction="batchmean")(p.log(), p)
    tensor(0.)
    """

    def __init__(self, size_average=None, reduce=None, reduction="mean", log_target=False):
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input, target):
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class MarginRankingLoss(_Loss):
    """``max(0, -target * (x1 - x2) + margin)``.

    >>> import yaten
    >>> yaten.nn.MarginRankingLoss()(yaten.tensor([1.0]), yaten.tensor([2.0]), yaten.tensor([1.0]))
    tensor(1.)
    """

    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return F.margin_ranking_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class HingeEmbeddingLoss(_Loss):
    """``x`` where ``target`` is 1, ``max(0, margin - x)`` where it is -1.

    >>> import yaten
    >>> yaten.nn.HingeEmbeddingLoss()(yaten.tensor([0.3, 2.0]), yaten.tensor([-1.0, 1.0]))
    tensor(1.3500)
    """

    def __init__(self, margin=1.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input, target):
        return F.hinge_embedding_loss(input, target, margin=self.margin, reduction=self.reduction)


class SoftMarginLoss(_Loss):
    """``log(1 + exp(-target * x))``.

    >>> import yaten
    >>> yaten.nn.SoftMarginLoss()(yaten.tensor([0.0]), yaten.tensor([1.0]))
    tensor(0.6931)
    """

    def forward(self, input, target):
        return F.soft_margin_loss(input, target, reduction=self.reduction)


class CosineEmbeddingLoss(_Loss):
    """``1 - cos(x1, x2)`` where ``target`` is 1, ``max(0, cos - margin)`` where it is -1.

    >>> import yaten
    >>> x = yaten.tensor([[1.0, 0.0]])
    >>> yaten.nn.CosineEmbeddingLoss()(x, yaten.tensor([[0.0, 1.0]]), yaten.tensor([1.0]))
    tensor(1.)
    """

    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class TripletMarginLoss(_Loss):
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))`` with the ``p``-norm distance.

    >>> import yaten
    >>> a = yaten.tensor([[0.0, 0.0]])
    >>> yaten.nn.TripletMarginLoss(margin=6.0, eps=0.0)(a, a, yaten.tensor([[3.0, 4.0]]))
    tensor(1.)
    """

    def __init__(
        self, margin=1.0, p=2.0, eps=1e-6, swap=False, size_average=None, reduce=None, reduction="mean"
    ):
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead")
        self.margin = margin
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p, eps=self.eps,
                                     swap=self.swap, reduction=self.reduction)  # fmt: skip


class TripletMarginWithDistanceLoss(_Loss):
    """``TripletMarginLoss`` with any ``distance_function`` (default: ``pairwise_distance``).

    >>> import yaten
    >>> a = yaten.tensor([[0.0, 0.0]])
    >>> yaten.nn.TripletMarginWithDistanceLoss(margin=6.0)(a, a, yaten.tensor([[3.0, 4.0]])).item() > 0
    True
    """

    def __init__(self, *, distance_function=None, margin=1.0, swap=False, reduction="mean"):
        super().__init__(size_average=None, reduce=None, reduction=reduction)
        if margin <= 0:
            raise ValueError(
                f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} instead"
            )
        self.distance_function = distance_function if distance_function is not None else PairwiseDistance()
        self.margin = margin
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_with_distance_loss(anchor, positive, negative,
                                                   distance_function=self.distance_function, margin=self.margin,
                                                   swap=self.swap, reduction=self.reduction)  # fmt: skip


class PoissonNLLLoss(_Loss):
    """Negative log-likelihood of a Poisson-distributed target.

    >>> import yaten
    >>> yaten.nn.PoissonNLLLoss()(yaten.tensor([0.0]), yaten.tensor([1.0]))
    tensor(1.)
    """

    def __init__(
        self, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None, reduction="mean"
    ):
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input, target):
        return F.poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full, eps=self.eps,
                                  reduction=self.reduction)  # fmt: skip


class GaussianNLLLoss(_Loss):
    """Negative log-likelihood of a Gaussian target with predicted mean and variance.

    >>> import yaten
    >>> yaten.nn.GaussianNLLLoss()(yaten.tensor([0.0]), yaten.tensor([2.0]), yaten.tensor([1.0]))
    tensor(2.)
    """

    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        super().__init__(None, None, reduction)
        self.full = full
        self.eps = eps

    def forward(self, input, target, var):
        return F.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    """Per-class logistic loss of a 0/1 multi-label target.

    >>> import yaten
    >>> yaten.nn.MultiLabelSoftMarginLoss()(yaten.tensor([[0.0, 0.0]]), yaten.tensor([[1.0, 0.0]]))
    tensor(0.6931)
    """

    def forward(self, input, target):
        return F.multilabel_soft_margin_loss(input, target, weight=self.weight, reduction=self.reduction)


class MultiMarginLoss(_WeightedLoss):
    """Multi-class hinge loss.

    >>> import yaten
    >>> yaten.nn.MultiMarginLoss()(yaten.tensor([[0.1, 0.2, 0.4]]), yaten.tensor([2]))
    tensor(0.5000)
    """

    def __init__(self, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(weight, size_average, reduce, reduction)
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:
            raise ValueError(
                f"MultiMarginLoss: expected weight to be None or 1D tensor, got {weight.dim()}D instead"
            )
        self.p = p
        self.margin = margin

    def forward(self, input, target):
        return F.multi_margin_loss(input, target, p=self.p, margin=self.margin, weight=self.weight,
                                   reduction=self.reduction)  # fmt: skip


class MultiLabelMarginLoss(_Loss):
    """Multi-label hinge loss; each target row lists class indices up to its first -1.

    >>> import yaten
    >>> yaten.nn.MultiLabelMarginLoss()(yaten.tensor([[0.1, 0.2, 0.4, 0.8]]), yaten.tensor([[3, 0, -1, 1]]))
    tensor(0.8500)
    """

    def forward(self, input, target):
        return F.multilabel_margin_loss(input, target, reduction=self.reduction)


class CTCLoss(_Loss):
    """The Connectionist Temporal Classification loss of log-probabilities (T, N, C) against targets.

    >>> import yaten
    >>> log_probs = yaten.full((2, 1, 2), 0.5).log()
    >>> yaten.nn.CTCLoss(reduction="sum")(log_probs, yaten.tensor([[1]]), [2], [1])
    tensor(0.2877)
    """

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        return F.ctc_loss(
            log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction, self.zero_infinity
        )


class LinearCrossEntropyLoss(_WeightedLoss):
    """Cross entropy of ``linear(input)`` against ``target``, the projection (``self.linear``, to
    ``num_classes * prod(out_features)`` logits) held by the loss: ``F.linear_cross_entropy``, chunked
    over the batch when ``options`` are given.

    >>> import yaten
    >>> m = yaten.nn.LinearCrossEntropyLoss(3, 5)
    >>> list(m.state_dict()), m(yaten.randn(4, 3), yaten.tensor([0, 1, 2, 4])).shape
    (['linear.weight'], yaten.Size([]))
    """

    def __init__(self, in_features, num_classes, *, out_features=(), bias=False, device=None, dtype=None,
                 reduction="mean", weight=None, ignore_index=None, label_smoothing=0.0, options=None):  # fmt: skip
        if weight is not None and tuple(weight.shape) != (num_classes,):
            raise RuntimeError(f"expected weight shape to be {(num_classes,)}, got {tuple(weight.shape)}")
        if label_smoothing < 0 or label_smoothing > 1.0:
            raise RuntimeError(f"expected label_smoothing to be in range [0, 1], got {label_smoothing}")
        super().__init__(weight=weight, size_average=None, reduce=None, reduction=reduction)
        self.num_classes = num_classes
        self.out_features = out_features
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing
        self.linear = Linear(in_features, math.prod(out_features, start=num_classes), bias=bias, device=device,
                             dtype=dtype)  # fmt: skip
        self.options = options

    def forward(self, input, target):
        linear_weight = self.linear.weight.reshape(
            (self.num_classes, *self.out_features, self.linear.in_features)
        )
        linear_bias = (
            self.linear.bias.reshape((self.num_classes, *self.out_features))
            if self.linear.bias is not None
            else None
        )
        return F.linear_cross_entropy(input, linear_weight, target, linear_bias=linear_bias, weight=self.weight,
                                      reduction=self.reduction, ignore_index=self.ignore_index,
                                      label_smoothing=self.label_smoothing, options=self.options)  # fmt: skip

    def extra_repr(self) -> str:
        return (
            f"in_features={self.linear.in_features}, num_classes={self.num_classes}, "
            f"out_features={self.out_features}, bias={self.linear.bias is not None}, reduction={self.reduction}, "
            f"ignore_index={self.ignore_index}, label_smoothing={self.label_smoothing}, options={self.options}"
        )
