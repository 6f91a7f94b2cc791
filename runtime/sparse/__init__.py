"""``yaten.sparse``: torch.sparse's functions over sparse COO tensors (the layout itself:
runtime/_sparse_coo.py; its ops: runtime/native/sparse_coo.py and sparse_math.py)."""

import numbers

import yaten

from ._factory import sparse_coo_tensor


def mm(mat1, mat2, reduce=None):
    """``mat1 @ mat2`` with a sparse ``mat1``, whose gradient is sparse on mat1's entries (``torch.sparse.mm``).

    >>> import yaten
    >>> s = yaten.sparse_coo_tensor([[0, 1], [1, 0]], [2.0, 3.0], (2, 2))
    >>> yaten.sparse.mm(s, yaten.ones(2, 1))
    tensor([[2.],
            [3.]])
    """
    if reduce is not None:
        raise NotImplementedError("yaten's sparse.mm has no reduce= yet")
    if mat1.is_sparse and not mat2.is_sparse:
        zeros = yaten.zeros((mat1.shape[0], mat2.shape[1]), dtype=mat2.dtype, device=mat2.device)
        return yaten._sparse_addmm(zeros, mat1, mat2, beta=0)
    return yaten.mm(mat1, mat2)


def addmm(mat, mat1, mat2, *, beta=1.0, alpha=1.0):
    """``beta * mat + alpha * mat1 @ mat2`` with a sparse ``mat1`` (``torch.sparse.addmm``).

    >>> import yaten
    >>> s = yaten.sparse_coo_tensor([[0, 1], [1, 0]], [2.0, 3.0], (2, 2))
    >>> yaten.sparse.addmm(yaten.ones(2, 1), s, yaten.ones(2, 1), alpha=2.0)
    tensor([[5.],
            [7.]])
    """
    return yaten._sparse_addmm(mat, mat1, mat2, beta=beta, alpha=alpha)


def sum(input, dim=None, dtype=None):
    """The sum of sparse ``input`` over ``dim`` (every dim by default): sparse while some sparse dim is
    kept, else strided (``torch.sparse.sum``); its gradient is sparse on input's entries.

    >>> import yaten
    >>> s = yaten.sparse_coo_tensor([[0, 1, 1], [1, 0, 0]], [1.0, 2.0, 3.0], (2, 2))
    >>> yaten.sparse.sum(s), yaten.sparse.sum(s, 1).to_dense()
    (tensor(6.), tensor([1., 5.]))
    """
    if dtype is not None:
        input = input.to(dtype)
    dims = (
        list(range(input.ndim)) if dim is None else [dim] if isinstance(dim, numbers.Integral) else list(dim)
    )
    return yaten._sparse_sum(input, dims)


def softmax(input, dim, *, dtype=None):
    """Softmax over ``dim`` of sparse ``input``'s specified entries (the unspecified ones count as -inf),
    as ``torch.sparse.softmax``: sparse, on input's coalesced indices.

    >>> import yaten
    >>> s = yaten.sparse_coo_tensor([[0, 0, 1], [0, 2, 1]], [1.0, 1.0, 5.0], (2, 3))
    >>> yaten.sparse.softmax(s, 1).to_dense()
    tensor([[0.5000, 0.0000, 0.5000],
            [0.0000, 1.0000, 0.0000]])
    """
    return yaten._sparse_softmax(input if dtype is None else input.to(dtype), dim, False)


def log_softmax(input, dim, *, dtype=None):
    """``log`` of :func:`softmax`, at the specified entries (``torch.sparse.log_softmax``).

    >>> import yaten
    >>> s = yaten.sparse_coo_tensor([[0, 2]], [2.0, 2.0], (3,))
    >>> yaten.sparse.log_softmax(s, 0)._values()
    tensor([-0.6931, -0.6931])
    """
    return yaten._sparse_log_softmax(input if dtype is None else input.to(dtype), dim, False)


__all__ = ["addmm", "log_softmax", "mm", "softmax", "sparse_coo_tensor", "sum"]
