"""Margin and embedding losses as CompositeImplicitAutograd ops, composed as ATen composes them:
``margin_ranking_loss``, ``hinge_embedding_loss``, ``soft_margin_loss``, ``cosine_embedding_loss``,
``triplet_margin_loss`` and ``poisson_nll_loss`` (``reduction`` is ATen's enum, as in ``loss.py``)."""

import math

import yaten

from .distance import pairwise_distance
from .loss import MEAN, _reduce


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=MEAN):
    return _reduce((-target * (input1 - input2) + margin).clamp_min(0), reduction)


def hinge_embedding_loss(self, target, margin=1.0, reduction=MEAN):
    zeros = yaten.zeros_like(self)
    below = yaten.where(target != 1, (margin - self).clamp_min(0), zeros)
    return _reduce(below + yaten.where(target != -1, self, zeros), reduction)


def soft_margin_loss(self, target, reduction=MEAN):
    return _reduce((-target * self).exp().log1p(), reduction)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=MEAN):
    dim = target.ndim
    if dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input1.ndim != dim + 1 or input2.ndim != dim + 1:
        raise RuntimeError(
            f"{dim}D target tensor expects {dim + 1}D input tensors, but found inputs with sizes "
            f"{list(input1.shape)} and {list(input2.shape)}."
        )
    eps = 1e-12
    prod = (input1 * input2).sum(dim)
    cos = prod / (((input1 * input1).sum(dim) + eps) * ((input2 * input2).sum(dim) + eps)).sqrt()
    zeros = yaten.zeros_like(cos)
    pos = yaten.where(target == 1, 1 - cos, zeros)
    neg = yaten.where(target == -1, (cos - margin).clamp_min(0), zeros)
    return _reduce(pos + neg, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction=MEAN):
    a, pos, neg = anchor.ndim, positive.ndim, negative.ndim
    if not a == pos == neg:
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but "
            f"got: anchor {a}D, positive {pos}D, and negative {neg}D inputs"
        )
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = yaten.minimum(dist_neg, pairwise_distance(positive, negative, p, eps))
    return _reduce((margin + dist_pos - dist_neg).clamp_min(0), reduction)


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    loss = input.exp() - target * input if log_input else input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduce(loss, reduction)


def multi_margin_loss(self, target, p=1, margin=1, weight=None, reduction=MEAN):
    """``sum_{i != y} max(0, margin - x[y] + x[i])^p * w[y] / C`` per sample (ATen's multi_margin_loss)."""
    if p not in (1, 2):
        raise RuntimeError("only p == 1 and p == 2 supported")
    x = self if self.ndim == 2 else self.reshape(1, -1)
    n, c = x.shape
    if target.numel() != n or (self.ndim == 2 and target.ndim != 1):
        raise RuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of input samples "
            f"(batch size). Expected target size [{n}], but got {list(target.shape)}. Input has shape "
            f"{list(self.shape)}."
        )
    if weight is not None and (weight.ndim > 1 or weight.numel() != c):
        raise RuntimeError(f"inconsistent weight size, expected {c} but got {list(weight.shape)}")
    y = target.reshape(n, 1)
    if n and ((y < 0) | (y >= c)).any().item():
        raise RuntimeError("target out of range")
    z = (margin - x.gather(1, y) + x).clamp_min(0)
    z = z * z if p == 2 else z
    if weight is not None:
        z = z * weight.index_select(0, y.reshape(-1)).reshape(n, 1)
    others = yaten.arange(c, device=x.device).reshape(1, c) != y
    loss = (z * others).sum(1) / c
    return _reduce(loss if self.ndim == 2 else loss.reshape(target.shape), reduction)


def multilabel_margin_loss(self, target, reduction=MEAN):
    """``sum_{j in targets, i not in targets} max(0, 1 - (x[j] - x[i])) / C`` per sample; each target row
    lists class indices up to its first -1 (ATen's multilabel_margin_loss)."""
    x, t = (self, target) if self.ndim == 2 else (self.reshape(1, -1), target.reshape(1, -1))
    if tuple(t.shape) != tuple(x.shape) or target.ndim != self.ndim:
        raise RuntimeError(
            f"inconsistent target size: {list(target.shape)} for input of size: {list(self.shape)}"
        )
    n, c = x.shape
    if n and ((t < -1) | (t >= c)).any().item():
        raise RuntimeError("argument #2 'target' is out of range")
    listed = (t >= 0).to(yaten.int64).cumprod(1).bool()  # the entries before the first -1
    is_target = yaten.zeros(n, c + 1, dtype=yaten.int64, device=x.device)
    is_target = is_target.scatter_add(1, yaten.where(listed, t, c), listed.to(yaten.int64))[:, :c] > 0
    pairs = (1 - x.unsqueeze(2) + x.unsqueeze(1)).clamp_min(0)  # [n, j, i]: 1 - (x[j] - x[i])
    mask = is_target.unsqueeze(2) & ~is_target.unsqueeze(1)
    loss = (pairs * mask).sum((1, 2)) / c
    return _reduce(loss if self.ndim == 2 else loss.reshape(()), reduction)
