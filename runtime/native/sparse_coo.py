"""The sparse COO layout's own ops: construction from parts, the accessors, conversions to and from
strided tensors, coalescing, copies and 2-d transposition.

Each is a tensor-level kernel over the tensor's ``indices`` and ``values`` (the spec's ``SparseCPU`` /
``SparseCUDA`` keys name the same function: the yaten ops it calls run on either device). Kernels run
without recording: the generated op records its own node around them.
"""

import yaten

from .._dims import wrap_dim
from .._sparse_coo import make_sparse
from .._tensor import alias


def sparse_coo_from_parts(sparse_dim, dense_dim, size, indices, values, is_coalesced=None):
    """The primitive behind ``sparse_coo_tensor``: the tensor over ``indices`` and ``values`` as given
    (the factory in ``runtime/sparse/_factory.py`` validates and infers the size)."""
    coalesced = values.shape[0] < 2 if is_coalesced is None else bool(is_coalesced)  # one entry: coalesced
    return make_sparse(indices, values, tuple(size), coalesced)


# --- accessors ---------------------------------------------------------------------------------------
def sparse_indices_raw(self):
    return alias(self._data.indices)


def sparse_values_raw(self):
    return alias(self._data.values)


def _require_coalesced(self, what: str):
    if not self._data.coalesced:
        raise RuntimeError(f"Cannot get {what} on an uncoalesced tensor, please call .coalesce() first")


def sparse_indices(self):
    _require_coalesced(self, "indices")
    return alias(self._data.indices)


def sparse_values(self):
    _require_coalesced(self, "values")
    return alias(self._data.values)


def sparse_nnz(self):
    return self._data.values.shape[0]


def sparse_dim_sparse(self):
    return self._data.sparse_dim


def dense_dim_sparse(self):
    return self._data.values.ndim - 1


def sparse_dim_strided(self):
    """A strided tensor's sparse_dim: 0, as torch's."""
    return 0


def dense_dim_strided(self):
    """A strided tensor's dense_dim: its dim(), as torch's."""
    return self.ndim


def is_coalesced_sparse(self):
    return self._data.coalesced


def is_coalesced_strided(self):
    raise RuntimeError("is_coalesced expected sparse coordinate tensor layout but got Strided")


# --- conversions ---------------------------------------------------------------------------------------
def sparse_to_dense(self, dtype=None, masked_grad=None):
    """The strided tensor of ``self``: its values added at their indices (duplicates sum)."""
    if dtype is not None:
        raise RuntimeError("dtype argument is not supported by sparse_to_dense")
    d = self._data
    values = d.values
    out = yaten.zeros(d.shape, dtype=values.dtype, device=values.device)
    if d.sparse_dim == 0:
        return out.add_(values.sum(0)) if values.shape[0] else out
    return out.index_put_(tuple(d.indices), values, accumulate=True)


def to_dense(self, dtype=None, masked_grad=None):
    """``Tensor.to_dense``: a sparse tensor's strided form; a strided tensor itself (in ``dtype`` if given).

    >>> import yaten
    >>> yaten.tensor([[0.0, 2.0], [3.0, 0.0]]).to_sparse().to_dense()
    tensor([[0., 2.],
            [3., 0.]])
    """
    if self.is_sparse:
        return self._to_dense(dtype, masked_grad)
    return self if dtype is None else self.to(dtype)


def dense_to_sparse(self, sparse_dim):
    """The sparse COO tensor of strided ``self`` with ``sparse_dim`` sparse dims: its nonzero entries
    (rows of the trailing dense dims with any nonzero), in row-major order, coalesced."""
    if not 0 <= sparse_dim <= self.ndim:
        raise RuntimeError(
            f"dense_to_sparse: sparse_dim argument must be in [0,{self.ndim}] range, but {sparse_dim} is given"
        )
    with yaten.no_grad():
        if sparse_dim == 0:
            indices = yaten.zeros((0, 1), dtype=yaten.int64, device=self.device)
            return make_sparse(indices, self.unsqueeze(0).clone(), self.shape, True)
        head = tuple(self.shape[:sparse_dim])
        nonzero = self != 0
        if sparse_dim < self.ndim:
            nonzero = nonzero.reshape(head + (-1,)).any(-1)
        indices = nonzero.nonzero().t().contiguous()
        values = self[tuple(indices)].clone()
    return make_sparse(indices, values, self.shape, True)


def sparse_to_sparse(self, sparse_dim):
    if sparse_dim != self._data.sparse_dim:
        raise RuntimeError(
            "to_sparse: conversion from Sparse to Sparse with sparse_dim argument !=self.sparse_dim() is not "
            "supported"
        )
    return self


def to_sparse_dim(self, sparse_dim):
    """``Tensor.to_sparse(sparse_dim)``: the sparse COO tensor whose first ``sparse_dim`` dims are sparse.

    >>> import yaten
    >>> yaten.tensor([[0.0, 0.0], [3.0, 4.0]]).to_sparse(1)._values()
    tensor([[3., 4.]])
    """
    return self._to_sparse(sparse_dim)


def to_sparse(self, layout=None, blocksize=None, dense_dim=None):
    """``Tensor.to_sparse()``: the sparse COO tensor of ``self`` (``dense_dim`` trailing dims kept dense).

    >>> import yaten
    >>> yaten.tensor([0.0, 5.0, 0.0]).to_sparse()._indices()
    tensor([[1]])
    """
    if layout is not None and layout is not yaten.sparse_coo:
        raise NotImplementedError(
            f"yaten has sparse COO tensors only: to_sparse(layout={layout}) is not supported"
        )
    if blocksize is not None:
        raise RuntimeError("to_sparse for Strided to SparseCoo conversion does not use specified blocksize")
    if self.is_sparse:
        return self
    return self._to_sparse(self.ndim - (dense_dim or 0))


def coalesce(self):
    """``Tensor.coalesce``: ``self`` if coalesced, else its indices sorted and made unique, duplicates'
    values summed.

    >>> import yaten
    >>> s = yaten.sparse_coo_tensor([[1, 0, 1]], [1.0, 2.0, 3.0], (2,))
    >>> c = s.coalesce()
    >>> c.indices(), c.values()
    (tensor([[0, 1]]), tensor([2., 4.]))
    """
    if not self.is_sparse:
        raise RuntimeError("coalesce expected sparse coordinate tensor layout but got Strided")
    return self if self._data.coalesced else yaten._coalesce(self)


def linear_index(indices, sizes):
    """Each column of ``indices`` as one row-major offset into a block of shape ``sizes``."""
    lin = yaten.zeros(indices.shape[1], dtype=yaten.int64, device=indices.device)
    for d, n in enumerate(sizes):
        lin = lin * n + indices[d]
    return lin


def unlinear_index(lin, sizes):
    """The inverse of :func:`linear_index`: a sparse_dim x nnz index tensor."""
    rows = []
    for n in reversed(sizes):
        rows.append(lin % n)
        lin = lin.div(n, rounding_mode="floor")
    return yaten.stack(rows[::-1]) if rows else lin.new_zeros((0, lin.shape[0]))


def sparse_coalesce(self):
    d = self._data
    sizes = d.shape[: d.sparse_dim]
    with yaten.no_grad():
        if d.sparse_dim == 0 or d.values.shape[0] == 0:
            nnz = min(d.values.shape[0], 1)
            values = d.values.sum(0, keepdim=True)[:nnz]
            return make_sparse(d.indices[:, :nnz], values, d.shape, True)
        unique, inverse = yaten.unique(linear_index(d.indices, sizes), return_inverse=True)
        values = d.values.new_zeros((unique.shape[0],) + tuple(d.values.shape[1:]))
        values.index_add_(0, inverse, d.values)
        indices = unlinear_index(unique, sizes)
    return make_sparse(indices, values, d.shape, True)


# --- copies and views ----------------------------------------------------------------------------------
def sparse_clone(self, memory_format=None):
    d = self._data
    return make_sparse(d.indices.clone(), d.values.clone(), d.shape, d.coalesced)


def sparse_detach(self):
    d = self._data
    return make_sparse(d.indices, d.values, d.shape, d.coalesced)


def sparse_to_copy(self, dtype=None, layout=None, device=None, pin_memory=None, non_blocking=False,
                   memory_format=None):  # fmt: skip
    d = self._data
    with yaten.no_grad():
        values = d.values.to(dtype=dtype, device=device)
        indices = d.indices.to(device=device)
    return make_sparse(indices, values, d.shape, d.coalesced)


def sparse_transpose(self, dim0, dim1):
    d = self._data
    dim0, dim1 = wrap_dim(dim0, d.ndim), wrap_dim(dim1, d.ndim)
    if dim0 >= d.sparse_dim or dim1 >= d.sparse_dim:
        raise RuntimeError("transpose(): yaten transposes only the sparse dims of a sparse COO tensor")
    order = list(range(d.sparse_dim))
    order[dim0], order[dim1] = dim1, dim0
    shape = list(d.shape)
    shape[dim0], shape[dim1] = shape[dim1], shape[dim0]
    return make_sparse(d.indices[order], d.values, shape, d.coalesced and dim0 == dim1)


def sparse_t(self):
    if self.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 sparse and 0 dense dimensions, but got {self.ndim} sparse and 0 dense dimensions")  # fmt: skip
    return sparse_transpose(self, 0, -1) if self.ndim == 2 else self


def sparse_unsqueeze(self, dim):
    """A size-1 dim at ``dim``: a sparse one (index 0) at or before the last sparse dim, else a dense one."""
    d = self._data
    dim = wrap_dim(dim, d.ndim + 1)
    shape = list(d.shape)
    shape.insert(dim, 1)
    if dim <= d.sparse_dim:
        zeros = d.indices.new_zeros((1, d.indices.shape[1]))
        indices = yaten.cat([d.indices[:dim], zeros, d.indices[dim:]])
        return make_sparse(indices, d.values, shape, d.coalesced)
    return make_sparse(d.indices, d.values.unsqueeze(dim - d.sparse_dim + 1), shape, d.coalesced)


def sparse_expand(self, size, implicit=False):
    raise RuntimeError("expand is unsupported for Sparse tensors")
