"""``sparse_coo_tensor``: a sparse COO tensor from indices and values, with torch's size inference and
validation (the checks ``check_invariants=True`` asks for read the indices, so they are optional); and
``Tensor.to_sparse_coo``, torch's Python-level name for the conversion."""

import yaten

from .._tensor import Tensor


def _as_tensor(data, dtype=None, device=None) -> Tensor:
    if isinstance(data, Tensor):
        return data.to(dtype=dtype, device=device) if dtype is not None or device is not None else data
    return yaten.tensor(data, dtype=dtype, device=device)


def sparse_coo_tensor(indices, values, size=None, *, dtype=None, device=None, pin_memory=False,
                      requires_grad=False, check_invariants=None, is_coalesced=None) -> Tensor:  # fmt: skip
    """A sparse COO tensor with ``values`` at ``indices`` (sparse_dim x nnz), as ``torch.sparse_coo_tensor``;
    its size is inferred from the largest indices when not given.

    >>> import yaten
    >>> s = yaten.sparse_coo_tensor([[0, 1], [2, 0]], [3.0, 4.0], (2, 3))
    >>> s.to_dense()
    tensor([[0., 0., 3.],
            [4., 0., 0.]])
    """
    values = _as_tensor(values, dtype, device)
    indices = _as_tensor(indices, device=values.device)
    if indices.dtype is not yaten.int64:
        indices = indices.to(yaten.int64)
    if indices.ndim != 2:
        raise RuntimeError(f"indices must be sparse_dim x nnz, but got: {list(indices.shape)}")
    sparse_dim, nnz = indices.shape
    dense_dim = values.ndim - 1
    if values.ndim == 0 or values.shape[0] != nnz:
        got = values.shape[0] if values.ndim else 0
        raise RuntimeError(
            f"indices and values must have same nnz, but got nnz from indices: {nnz}, nnz from values: {got}"
        )
    if size is None:
        heads = (indices.amax(1) + 1).tolist() if nnz else [0] * sparse_dim
        size = tuple(heads) + tuple(values.shape[1:])
    size = tuple(int(n) for n in size)
    if len(size) != sparse_dim + dense_dim:
        raise RuntimeError(
            f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = {len(size)}, sparse_dim = "
            f"{sparse_dim}, dense_dim = {dense_dim}"
        )
    if tuple(values.shape[1:]) != size[sparse_dim:]:
        raise RuntimeError(
            f"values has incorrect size, expected {[nnz, *size[sparse_dim:]]}, got {list(values.shape)}"
        )
    if check_invariants and nnz:
        _check_indices(indices, size)
    out = yaten._sparse_coo_tensor_with_dims_and_tensors(
        sparse_dim, dense_dim, size, indices, values, is_coalesced=is_coalesced
    )
    return out.requires_grad_() if requires_grad else out


def _check_indices(indices, size) -> None:
    low, high = indices.amin(1).tolist(), indices.amax(1).tolist()
    for d, (lo, hi) in enumerate(zip(low, high)):
        if lo < 0:
            raise RuntimeError(f"found negative index {lo} for dim {d}")
        if hi >= size[d]:
            raise RuntimeError(
                f"size is inconsistent with indices: for dim {d}, size is {size[d]} but found index {hi}"
            )


def to_sparse_coo(self) -> Tensor:
    """``Tensor.to_sparse_coo()``: ``to_sparse()`` (torch's name for the COO layout's conversion).

    >>> import yaten
    >>> yaten.tensor([0.0, 2.0]).to_sparse_coo()._nnz()
    1
    """
    return self.to_sparse()


def rebuild_sparse(indices, values, size, coalesced, requires_grad) -> Tensor:
    """A pickled sparse tensor (``Tensor.__reduce_ex__``'s form: its parts, flag and requires_grad)."""
    from .._sparse_coo import make_sparse

    return make_sparse(indices, values, size, coalesced, requires_grad)


Tensor.to_sparse_coo = to_sparse_coo

__all__ = ["sparse_coo_tensor"]
