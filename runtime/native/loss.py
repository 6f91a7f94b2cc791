"""Loss ops, composed of yaten ops as PyTorch's ATen composes them (same values, weights and masks).

``reduction`` is ATen's enum: 0 none, 1 mean, 2 sum (``nn.functional`` turns the strings into it).
A call that leaves it out gets the schema's default, Mean (torch's own Python bindings of these ops,
e.g. ``torch.kl_div(x, t)``, read a missing reduction as none; ``torch.nn.functional`` always passes it).
``binary_cross_entropy`` is CompositeExplicitAutograd: its gradient (``autograd/formulas.py``) stays
finite at inputs of exactly 0 or 1, where differentiating the clamped logs would give 0 * inf.
``cross_entropy`` is not a spec op (PyTorch keeps ``cross_entropy_loss`` in ``torch._C._nn``); it is
``log_softmax`` + ``nll_loss``, called by ``nn.functional.cross_entropy``.
"""

import yaten

from .. import _dtype as D
from .._autocast import STATE as _AMP
from .._autocast import call as _autocast
from .._generated import ops as _ops  # (imported while ops loads; used at call time)

NONE, MEAN, SUM = 0, 1, 2


def _reduce(loss, reduction):
    if reduction == NONE:
        return loss
    if reduction == SUM:
        return loss.sum()
    return loss.mean()


def _check_floating(kernel, *tensors):
    dt = yaten.result_type(*tensors) if len(tensors) > 1 else tensors[0].dtype
    if not dt.is_floating_point:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{D.LEGACY_NAME[dt]}'")


def mse_loss(self, target, reduction=MEAN):
    _check_floating("mse_cpu", self, target)
    return _reduce((self - target).pow(2), reduction)


def l1_loss(self, target, reduction=MEAN):
    return _reduce((self - target).abs(), reduction)


def smooth_l1_loss(self, target, reduction=MEAN, beta=1.0):
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0:
        return l1_loss(self, target, reduction)
    _check_floating("smooth_l1_cpu", self, target)
    d = self - target
    z = d.abs()
    # The quadratic piece is written in d, not |d|: gradient d / beta, smooth through 0.
    return _reduce(yaten.where(z < beta, 0.5 * d * d / beta, z - 0.5 * beta), reduction)


def huber_loss(self, target, reduction=MEAN, delta=1.0):
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    _check_floating("huber_cpu", self, target)
    d = self - target
    z = d.abs()
    loss = yaten.where(z < delta, 0.5 * d * d, delta * (z - 0.5 * delta))
    return _reduce(loss.to(self.dtype), reduction)  # PyTorch's huber result has the input's dtype


def _check_target(target):
    if target.dtype not in (D.int64, D.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {D.LEGACY_NAME[target.dtype]}")


def _shape(t):
    return list(t.shape)


def nll_loss(self, target, weight=None, reduction=MEAN, ignore_index=-100):
    """PyTorch's ``nll_loss_nd``: input (C), (N, C) or (N, C, d1, ...), class-index target; the mean
    divides by the summed weights of the targets not ignored. The checks are PyTorch's; the rows of
    scores then go to one fused op, ``nll_loss_forward`` (kernel and gradient in kernels/cpu/loss.py)."""
    if self.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {self.ndim})")
    if self.ndim != 1 and (target.ndim == 0 or self.shape[0] != target.shape[0]):
        got = target.shape[0] if target.ndim else 0
        raise ValueError(f"Expected input batch_size ({self.shape[0]}) to match target batch_size ({got}).")
    if self.ndim == 1 and target.ndim == 1 and target.shape[0] != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: {target.shape[0]}")
    _check_target(target)
    if self.ndim <= 2:
        if target.ndim > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    elif self.ndim == 4:
        if target.ndim != 3:
            raise RuntimeError(
                f"only batches of spatial targets supported (3D tensors) but got targets of dimension: {target.ndim}"
            )
        if tuple(target.shape[1:]) != tuple(self.shape[2:]):
            raise RuntimeError(f"size mismatch (got input: {_shape(self)} , target: {_shape(target)}")
    elif tuple(target.shape[1:]) != tuple(self.shape[2:]):
        want = [self.shape[0], *self.shape[2:]]
        raise RuntimeError(f"Expected target size {want}, got {_shape(target)}")
    if not self.dtype.is_floating_point:
        raise NotImplementedError(f"\"nll_loss_out_frame\" not implemented for '{D.LEGACY_NAME[self.dtype]}'")
    n_classes = self.shape[0] if self.ndim == 1 else self.shape[1]
    if weight is not None:
        if weight.ndim != 1 or weight.numel() != n_classes:
            raise RuntimeError(
                f"weight tensor should be defined either for all {n_classes} classes or no classes but got "
                f"weight tensor of shape: {_shape(weight)}"
            )
        if weight.dtype != self.dtype:
            raise RuntimeError(
                f"expected scalar type {D.LEGACY_NAME[self.dtype]} but found {D.LEGACY_NAME[weight.dtype]}"
            )
    # Rows of class scores (M, C) and their targets (M,) for the fused op.
    if self.ndim == 1:
        x, t = self.unsqueeze(0), target.reshape(1)
    elif self.ndim == 2:
        x, t = self, target
    else:
        x, t = self.movedim(1, -1).reshape(-1, n_classes), target.reshape(-1)
    loss = _ops.nll_loss_forward(x, t, weight, reduction, ignore_index)[0]
    if reduction == NONE and self.ndim != 2:
        return loss.reshape(() if self.ndim == 1 else tuple(target.shape))
    return loss


def cross_entropy(self, target, weight=None, reduction=MEAN, ignore_index=-100, label_smoothing=0.0):
    """PyTorch's ``cross_entropy_loss``: class indices (``log_softmax`` + ``nll_loss``, with label
    smoothing mixed in) or, when target has input's shape, class probabilities."""
    if _AMP.active and _AMP.entered is not cross_entropy:  # torch's CPU autocast list: float32
        args = dict(self=self, target=target, weight=weight, reduction=reduction, ignore_index=ignore_index)
        return _autocast(cross_entropy, {"cpu": "fp32"}, {**args, "label_smoothing": label_smoothing})
    class_dim = 0 if self.ndim == 1 else 1
    if tuple(self.shape) == tuple(target.shape):
        if not target.dtype.is_floating_point:
            raise RuntimeError(
                "Expected floating point type for target with class probabilities, got "
                f"{D.LEGACY_NAME[target.dtype]}"
            )
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        return _cross_entropy_probs(self, target, weight, reduction, label_smoothing, class_dim)
    if label_smoothing > 0:
        if label_smoothing > 1:
            raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing:g}")
        return _cross_entropy_smoothed(
            self, target, weight, reduction, ignore_index, label_smoothing, class_dim
        )
    return nll_loss(_ops._log_softmax(self, class_dim, False), target, weight, reduction, ignore_index)


def _class_view(weight, ndim, class_dim):
    shape = [1] * ndim
    shape[class_dim] = weight.shape[0]
    return weight.view(shape)


def _cross_entropy_probs(self, target, weight, reduction, label_smoothing, class_dim):
    n_classes = self.shape[class_dim]
    if weight is not None and (weight.ndim != 1 or weight.numel() != n_classes):
        raise RuntimeError(
            f"cross_entropy: weight tensor should be defined either for all {n_classes} classes or no classes "
            f"but got weight tensor of shape: {_shape(weight)}"
        )
    logp = self.log_softmax(class_dim)
    if label_smoothing > 0:
        if label_smoothing > 1:
            raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing:g}")
        target = target * (1 - label_smoothing) + label_smoothing / n_classes
    prod = logp * target
    if weight is not None:
        prod = prod * _class_view(weight, self.ndim, class_dim)
    if reduction == NONE:
        return -prod.sum(class_dim)
    if reduction == SUM:
        return -prod.sum()
    if self.numel() == 0:
        return prod.sum() * 0 + float("nan")  # PyTorch's fill_(NAN): no gradient
    return -prod.sum() / (self.numel() // n_classes)


def _cross_entropy_smoothed(self, target, weight, reduction, ignore_index, label_smoothing, class_dim):
    n_classes = self.shape[class_dim]
    logp = self.log_softmax(class_dim)
    nll = nll_loss(logp, target, weight, reduction, ignore_index)
    ignore = target == ignore_index
    if weight is not None:
        smooth = -(logp * _class_view(weight, self.ndim, class_dim)).sum(class_dim)
    else:
        smooth = -logp.sum(class_dim)
    smooth = smooth.masked_fill(ignore, 0.0)
    if reduction == MEAN:
        if weight is not None:
            kept = target.masked_select(~ignore).reshape(-1).long()
            ret = smooth.sum() / weight.gather(0, kept).sum()
        else:
            ret = smooth.sum() / (~ignore).sum()
    elif reduction == SUM:
        ret = smooth.sum()
    else:
        ret = smooth
    return (1 - label_smoothing) * nll + ret * (label_smoothing / n_classes)


def binary_cross_entropy(self, target, weight=None, reduction=MEAN):
    """``-w (t log x + (1 - t) log(1 - x))`` with each log clamped at -100, as PyTorch."""
    _check_floating("binary_cross_entropy", self)
    if target.dtype != self.dtype:
        raise RuntimeError(
            f"Found dtype {D.LEGACY_NAME[target.dtype]} but expected {D.LEGACY_NAME[self.dtype]}"
        )
    if not bool(((self >= 0) & (self <= 1)).all()):  # NaN fails it too, as in torch
        raise RuntimeError("all elements of input should be between 0 and 1")
    with yaten.no_grad():
        loss = (target - 1) * (-self).log1p().clamp_min(-100) - target * self.log().clamp_min(-100)
        if weight is not None:
            loss = loss * weight
        return _reduce(loss, reduction)


def binary_cross_entropy_with_logits(self, target, weight=None, pos_weight=None, reduction=MEAN):
    """``(1 - t) x - lw * log_sigmoid(x)`` with ``lw = (pos_weight - 1) t + 1``; ``log_sigmoid(x)`` is
    ``-softplus(-x)``, stable on both tails and smooth at 0 (so the gradient there is sigmoid's)."""
    _check_floating("log_sigmoid_cpu", self)
    log_sig = -yaten.softplus(-self)
    if pos_weight is not None:
        log_sig = log_sig * ((pos_weight - 1) * target + 1)
    loss = (1 - target) * self - log_sig
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def kl_div(self, target, reduction=MEAN, log_target=False):
    """Pointwise ``target * (log target - input)`` (0 where target is 0), or with ``log_target``
    ``exp(target) * (target - input)``."""
    if not (self.dtype.is_floating_point and target.dtype.is_floating_point):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        out = target.exp() * (target - self)
    else:
        # xlogy(t, t): t log t, and 0 at t = 0 (log of 1 there, so no 0 * -inf in value or gradient).
        out = target * yaten.where(target == 0, 1.0, target).log() - target * self
    return _reduce(out, reduction)
