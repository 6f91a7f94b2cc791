"""Derivative helpers of the sparse COO layout's ops (spec/derivatives.yaml), as torch's FunctionsManual:
the gradient of a sparse input is sparse, on the input's own pattern where torch masks it."""

import yaten

from .._dims import wrap_dim
from .._sparse_coo import make_sparse

__all__ = ["embedding_sparse_backward", "mm_mat1_sparse_backward", "sparse_mask_backward", "sparse_softmax_grad",
           "sparse_sum_backward", "to_dense_backward", "to_sparse_backward", "values_backward"]  # fmt: skip


def values_backward(grad, self):
    """``values()``'s: a sparse tensor with ``self``'s indices and ``grad`` as its values."""
    d = self._data
    return make_sparse(d.indices, grad, d.shape, d.coalesced)


def to_dense_backward(grad, self, masked_grad):
    """``_to_dense``'s: the dense gradient at ``self``'s entries (its pattern coalesced), or all of it as a
    sparse tensor when ``masked_grad=False``."""
    if masked_grad is False:
        return grad.to_sparse(self.sparse_dim())
    return grad.sparse_mask(self.coalesce())


def to_sparse_backward(grad, self):
    """``_to_sparse``'s: the gradient in ``self``'s layout."""
    return grad if self.is_sparse else grad.to_dense()


def mm_mat1_sparse_backward(grad, mat1, mat2, alpha):
    """The sparse operand's gradient of ``_sparse_addmm``: ``alpha * grad @ mat2.H`` at mat1's entries."""
    g = grad.mm(mat2.t().conj())
    return (g if alpha == 1 else g * alpha).sparse_mask(mat1.coalesce())


def sparse_mask_backward(grad, mask, self):
    g = grad.sparse_mask(mask)
    return g if self.is_sparse else g.to_dense()


def sparse_sum_backward(grad, self, dim):
    """``torch.sparse.sum``'s: the gradient at each entry of ``self`` (coalesced) is ``grad`` at the entry's
    kept coordinates, broadcast over the summed dense dims."""
    c = self.coalesce()._data
    ndim, nsparse = len(c.shape), c.sparse_dim
    dims = sorted({wrap_dim(x, ndim) for x in dim})
    g = grad.to_dense() if grad.is_sparse else grad
    kept = [x for x in range(nsparse) if x not in dims]
    # The gradient has one dim per kept sparse dim, then the kept dense dims.
    rows = (
        g[tuple(c.indices[kept])] if kept else g.unsqueeze(0).expand((c.indices.shape[1],) + tuple(g.shape))
    )
    for x in dims:
        if x >= nsparse:
            rows = rows.unsqueeze(x - nsparse + 1)
    return make_sparse(c.indices, rows.expand(c.values.shape).contiguous(), c.shape, True)


def embedding_sparse_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq):
    """``embedding(sparse=True)``'s weight gradient: one sparse row per looked-up index (uncoalesced), the
    rows of ``padding_idx`` left out."""
    if scale_grad_by_freq:
        raise RuntimeError("embedding_backward: scale_grad_by_freq not supported with sparse gradients")
    idx = indices.reshape(-1).to(yaten.int64)
    rows = grad.reshape(idx.shape[0], grad.shape[-1])
    if padding_idx is not None and padding_idx >= 0:
        keep = idx != padding_idx
        idx, rows = idx[keep], rows[keep]
    return make_sparse(idx.reshape(1, -1), rows, (num_weights, grad.shape[-1]), False)


def sparse_softmax_grad(grad, result, dim, log):
    """``torch.sparse.softmax``'s and ``log_softmax``'s: at the result's entries (a kernel of sparse_math)."""
    from ..native.sparse_math import sparse_softmax_backward

    return sparse_softmax_backward(grad, result, dim, log)
