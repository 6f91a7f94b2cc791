"""Loss layers, as ``torch.nn.MSELoss``, ``L1Loss``, ``SmoothL1Loss``, ``HuberLoss``, ``CrossEntropyLoss``,
``NLLLoss``, ``BCELoss``, ``BCEWithLogitsLoss`` and ``KLDivLoss``: each keeps its options and calls its
functional form. Class weights are buffers (in the state_dict, moved by ``.to``), as in PyTorch."""

from .. import functional as F
from .module import Module

__all__ = ["BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "HuberLoss", "KLDivLoss", "L1Loss", "MSELoss",
           "NLLLoss", "SmoothL1Loss"]  # fmt: skip


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
