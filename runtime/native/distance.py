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


def dist(self, other, p=2):
    """The ``p``-norm of ``self - other`` (broadcast), as one number."""
    diff = self - other
    if not (diff.dtype.is_floating_point or diff.dtype.is_complex):
        raise RuntimeError(
            f"norm(): input dtype should be either floating point or complex. Got {LEGACY_NAME[diff.dtype]} instead."
        )
    return diff.norm(p)


def pdist(self, p=2.0):
    """The ``p``-norm distances between the rows of a matrix, each pair once (row i before row j, i < j)."""
    if self.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {self.ndim}D")
    if not self.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    i, j = yaten.triu_indices(self.shape[0], self.shape[0], 1, device=self.device)
    return yaten.linalg.vector_norm(self.index_select(0, i) - self.index_select(0, j), p, dim=1)
