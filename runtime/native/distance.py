"""Distances between vectors as CompositeImplicitAutograd ops: ``cosine_similarity`` and
``pairwise_distance`` (ATen's formulas, over the broadcast inputs)."""

import yaten

from .._dims import wrap_dim
from .._dtype import LEGACY_NAME


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """``sum(x1/|x1| * x2/|x2|)`` over ``dim``, each norm clamped below at ``eps`` (ATen normalises first,
    which keeps large inputs from overflowing the product of norms)."""
    common = yaten.result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError(
            f"expected common dtype to be floating point, yet common dtype is {LEGACY_NAME[common]}"
        )
    a, b = yaten.broadcast_tensors(x1.to(common), x2.to(common))
    dim = wrap_dim(dim, a.ndim)
    na = a.norm(2, [dim], True).clamp_min(eps)
    nb = b.norm(2, [dim], True).clamp_min(eps)
    return ((a / na) * (b / nb)).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The ``p``-norm of ``x1 - x2 + eps`` over the last dimension of the broadcast inputs."""
    innermost = max(x1.ndim, x2.ndim) - 1
    diff = x1 - x2 + eps
    if not diff.dtype.is_floating_point:
        diff = diff.to(yaten.get_default_dtype())
    return diff.norm(p, [innermost], keepdim) if innermost >= 0 else diff.abs()
