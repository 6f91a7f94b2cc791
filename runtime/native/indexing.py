"""Functional indexing ops: a copy, then the in-place op (autograd goes through both); index_add_ as an
accumulating index_put_."""

import yaten

from .._dims import wrap_dim
from .._dtype import LEGACY_NAME


def scatter_src(self, dim, index, src):
    return self.clone().scatter_(dim, index, src)


def scatter_value(self, dim, index, value):
    return self.clone().scatter_(dim, index, value)


def scatter_add(self, dim, index, src):
    return self.clone().scatter_add_(dim, index, src)


def masked_fill_scalar(self, mask, value):
    return self.clone().masked_fill_(mask, value)


def masked_fill_tensor(self, mask, value):
    return self.clone().masked_fill_(mask, value)


def index_put(self, indices, values, accumulate=False):
    return self.clone().index_put_(indices, values, accumulate)


def index_add(self, dim, index, source, alpha=1):
    return self.clone().index_add_(dim, index, source, alpha=alpha)


def index_add_(self, dim, index, source, alpha=1):
    """An accumulating ``index_put_`` at ``index`` along ``dim`` (after torch's checks and bounds)."""
    d = wrap_dim(dim, self.ndim)
    index_source_checks("index_add_", self, d, index, source)
    size = self.shape[d] if self.ndim else 1
    for i in index.reshape(-1).tolist():  # torch's index_add refuses negative indices
        if not 0 <= i < size:
            raise RuntimeError(f"index {i} is out of bounds for dimension {d} with size {size}")
    target, source = (self.view(1), source.reshape(1)) if self.ndim == 0 else (self, source)
    if alpha != 1:
        source = source * (alpha if self.dtype.is_floating_point else int(alpha))
    target.index_put_((None,) * d + (index.reshape(-1),), source.to(self.dtype), accumulate=True)
    return self


def index_source_checks(name, self, d, index, source):
    """torch's checks of the ops that combine slices of ``source`` into ``self`` at ``index`` along ``d``
    (``index_add_``, ``index_reduce_``; ``name`` starts their messages)."""
    if index.ndim > 1:
        sizes = list(index.shape)
        raise IndexError(
            f"{name}(): Index is supposed to be a vector, but got dim: {index.ndim} with type: "
            f"{LEGACY_NAME[index.dtype]} and size: {sizes}"
        )
    if index.dtype not in (yaten.int64, yaten.int32):
        raise RuntimeError(
            f"{name}(): Expected dtype int32/int64 for index but got: {LEGACY_NAME[index.dtype]}"
        )
    if self.dtype != source.dtype:
        raise RuntimeError(
            f"{name}(): self ({LEGACY_NAME[self.dtype]}) and source ({LEGACY_NAME[source.dtype]}) must have "
            "the same scalar type"
        )
    wanted = 1 if source.ndim == 0 else source.shape[d]
    if index.numel() != wanted:
        raise RuntimeError(
            f"{name}(): Number of indices ({index.numel()}) should be equal to source.size(dim): ({wanted}), "
            f"for dim: {d}"
        )
    kept_self, kept_source = list(self.shape), list(source.shape)
    if self.ndim and source.ndim:
        del kept_self[d], kept_source[d]
    if kept_self != kept_source:
        raise RuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified dimension. Got self.shape = "
            f"{list(self.shape)} source.shape = {list(source.shape)}"
        )


def where_scalars(condition, self, other):
    # torch.where(condition, 1.0, -1.0): the two numbers' result type (the default dtype for floats).
    first = yaten.scalar_tensor(self, dtype=yaten.result_type(self, other), device=condition.device)
    return yaten.where(condition, first, other)


def where_nonzero(condition):
    # torch.where(condition) is nonzero(as_tuple=True): one index tensor per dimension (a 0-d condition
    # counts as 1-d).
    return (condition.reshape(-1) if condition.ndim == 0 else condition).nonzero().unbind(1)


def argwhere(self):
    """The indices of the nonzero elements, one row each (``nonzero``)."""
    return yaten.nonzero(self)
