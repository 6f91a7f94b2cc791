"""Arithmetic, products, sums and masking of sparse COO tensors: the spec's ``SparseCPU``/``SparseCUDA``
kernels of add, sub, mul, div, neg, mm, addmm, ``_sparse_addmm``, sum, ``_sparse_sum`` and sparse_mask.

As torch: sparse + sparse and sparse * sparse are sparse, dense + sparse is dense (sparse + dense is
torch's error), a sparse tensor times or over a number is sparse, and a product of a sparse matrix
with a dense one is dense. Products and sums work on the (nnz-long) values, never on a dense copy of
the sparse operand.
"""

import numbers

import yaten

from .._dims import wrap_dim
from .._sparse_coo import make_sparse
from .sparse_coo import linear_index, sparse_unsqueeze, unlinear_index


def _sparse_like(self, values, coalesced=None):
    d = self._data
    return make_sparse(d.indices, values, d.shape, d.coalesced if coalesced is None else coalesced)


def _is_number(x) -> bool:
    return isinstance(x, numbers.Number) or (not x.is_sparse and x.ndim == 0)


def sparse_neg(self):
    return _sparse_like(self, -self._data.values)


def sparse_add(self, other, alpha=1):
    with yaten.no_grad():
        if self.is_sparse and other.is_sparse:
            if self.shape != other.shape:
                raise RuntimeError(
                    f"add: expected 'self' and 'other' to have same size, but self has size {list(self.shape)} "
                    f"while other has size {list(other.shape)} (FYI: dense-sparse addition does not currently "
                    "support broadcasting)"
                )
            a, b = self._data, other._data
            values = yaten.cat([a.values, b.values * alpha if alpha != 1 else b.values])
            out = make_sparse(yaten.cat([a.indices, b.indices], 1), values, a.shape, False)
            return out.coalesce() if a.coalesced and b.coalesced else out
        if self.is_sparse:
            raise RuntimeError(_SPARSE_PLUS_DENSE)
        dtype = yaten.result_type(self, other)
        out = self.to(dtype, copy=True)
        return _add_sparse_into(out, other, alpha)


_SPARSE_PLUS_DENSE = "add(sparse, dense) is not supported. Use add(dense, sparse) instead."


def sparse_add_number(self, other, alpha=1):
    """A number added to a sparse tensor (``s + 1``, ``s.sub_(1)``): torch's error, the result would be dense."""
    raise RuntimeError(_SPARSE_PLUS_DENSE)


def _add_sparse_into(dense, sparse, alpha):
    d = sparse._data
    if tuple(dense.shape) != d.shape:
        raise RuntimeError(
            f"add: expected 'self' and 'other' to have same size, but self has size {list(dense.shape)} while "
            f"other has size {list(d.shape)} (FYI: dense-sparse addition does not currently support broadcasting)"
        )
    values = (d.values * alpha if alpha != 1 else d.values).to(dense.dtype)
    if d.sparse_dim == 0:
        return dense.add_(values.sum(0))
    return dense.index_put_(tuple(d.indices), values, accumulate=True)


def _in_place(self, result):
    """``self`` made ``result``: a sparse one takes its parts, a dense one its (densified) values."""
    if self.is_sparse:
        self._data = result._data
    else:
        self.copy_(result.to_dense() if result.is_sparse else result)
    return self


def sparse_add_(self, other, alpha=1):
    with yaten.no_grad():
        if not self.is_sparse:
            _add_sparse_into(self, other, alpha)
            return self
        return _in_place(self, sparse_add(self, other, alpha))


def sparse_sub(self, other, alpha=1):
    return sparse_add(self, other, -alpha)


def sparse_sub_(self, other, alpha=1):
    return sparse_add_(self, other, -alpha)


def sparse_mul(self, other):
    with yaten.no_grad():
        if _is_number(other):
            return _sparse_like(self, self._data.values * other)
        if _is_number(self):
            return _sparse_like(other, other._data.values * self)
        if self.is_sparse and other.is_sparse:
            return _mul_sparse_sparse(self, other)
        sparse, dense = (self, other) if self.is_sparse else (other, self)
        d = sparse._data
        if tuple(dense.shape) != d.shape:
            raise RuntimeError(
                f"mul: expected 'self' and 'other' to have same sizes, but {list(self.shape)} != {list(other.shape)}"
            )
        return _sparse_like(sparse, d.values * dense[tuple(d.indices)])


def _mul_sparse_sparse(self, other):
    """The product at the indices both have: each operand coalesced, ``other``'s entries found by a
    binary search of ``self``'s row-major offsets among ``other``'s."""
    if self.shape != other.shape:
        raise RuntimeError(
            f"mul: expected 'self' and 'other' to have same sizes, but {list(self.shape)} != {list(other.shape)}"
        )
    a, b = self.coalesce()._data, other.coalesce()._data
    sizes = a.shape[: a.sparse_dim]
    la, lb = linear_index(a.indices, sizes), linear_index(b.indices, sizes)
    pos = yaten.searchsorted(lb, la).clamp(max=max(lb.shape[0] - 1, 0))
    hit = (lb[pos] == la) if lb.shape[0] else yaten.zeros_like(la, dtype=yaten.bool)
    keep = hit.nonzero().flatten()
    values = a.values[keep] * b.values[pos[keep]]
    return make_sparse(unlinear_index(la[keep], sizes), values, a.shape, True)


def sparse_mul_scalar(self, other):
    return _sparse_like(self, self._data.values * other)


def sparse_neg_(self):
    return _in_place(self, sparse_neg(self))


def sparse_mul_(self, other):
    with yaten.no_grad():
        return _in_place(self, sparse_mul(self, other))


def sparse_div_(self, other):
    return _in_place(self, sparse_div(self, other))


def sparse_div(self, other):
    if not _is_number(other) or not self.is_sparse:
        raise RuntimeError(
            "Sparse division requires a scalar or zero-dim dense tensor divisor "
            f"(got shape {list(other.shape)} for divisor)"
        )
    with yaten.no_grad():
        return _sparse_like(self, self._data.values / other)


def sparse_div_scalar(self, other):
    return _sparse_like(self, self._data.values / other)


# --- products ------------------------------------------------------------------------------------------
def _spmm(sparse, dense):
    """sparse (n x k, 2 sparse dims) @ dense (k x p): each entry's row of ``dense``, scaled by its value
    and added into its output row."""
    d = sparse._data
    if d.sparse_dim != 2 or d.values.ndim != 1:
        raise RuntimeError(f"mm: expected a 2-D sparse matrix with no dense dims, got size {list(d.shape)}")
    if dense.ndim != 2 or dense.shape[0] != d.shape[1]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({d.shape[0]}x{d.shape[1]} and "
            f"{'x'.join(str(n) for n in dense.shape)})"
        )
    rows, cols = d.indices[0], d.indices[1]
    dtype = yaten.result_type(d.values, dense)
    out = yaten.zeros((d.shape[0], dense.shape[1]), dtype=dtype, device=dense.device)
    return out.index_add_(0, rows, d.values.to(dtype).unsqueeze(1) * dense[cols].to(dtype))


def sparse_mm(self, mat2):
    with yaten.no_grad():
        if self.is_sparse and mat2.is_sparse:
            return _spmm(self, mat2.to_dense()).to_sparse()
        if self.is_sparse:
            return _spmm(self, mat2)
        return _spmm(mat2.t(), self.t()).t()


def sparse_addmm(self, mat1, mat2, beta=1, alpha=1):
    with yaten.no_grad():
        product = sparse_mm(mat1, mat2)
        if alpha != 1:
            product = product * alpha
        if beta == 0:
            return product + yaten.zeros_like(self)
        return (self if beta == 1 else self * beta) + product


# --- sums ----------------------------------------------------------------------------------------------
def sparse_sum(self, dtype=None):
    with yaten.no_grad():
        return self._data.values.sum(dtype=dtype)


def sparse_sum_dims(self, dim):
    """``torch.sparse.sum`` over ``dim``: summed sparse dims drop out of the indices (the kept ones are
    coalesced), summed dense dims out of the values; a strided tensor once every sparse dim is summed."""
    d = self._data
    dims = sorted({wrap_dim(x, d.ndim) for x in dim})
    sparse_dims = [x for x in dims if x < d.sparse_dim]
    dense_dims = [x - d.sparse_dim + 1 for x in dims if x >= d.sparse_dim]
    with yaten.no_grad():
        values = d.values.sum(dense_dims) if dense_dims else d.values
        if len(sparse_dims) == d.sparse_dim:
            return values.sum(0)
        kept = [x for x in range(d.sparse_dim) if x not in sparse_dims]
        shape = [d.shape[x] for x in kept] + [
            d.shape[x] for x in range(d.sparse_dim, d.ndim) if x not in dims
        ]
        out = make_sparse(d.indices[kept], values, shape, False)
        return out.coalesce()


def sparse_sum_dim(self, dim, keepdim=False, dtype=None):
    """``sum(dim)`` of a sparse tensor: :func:`sparse_sum_dims`; with ``keepdim`` each summed dim comes back
    as torch's does, through ``unsqueeze``."""
    d = self._data
    dims = sorted({wrap_dim(x, d.ndim) for x in dim}) if dim else list(range(d.ndim))
    with yaten.no_grad():
        out = sparse_sum_dims(self if dtype is None else self.to(dtype), dims)
        if not keepdim:
            return out
        if not out.is_sparse:
            return out.reshape([1 if x in dims else n for x, n in enumerate(d.shape)])
        for x in dims:
            out = sparse_unsqueeze(out, x)
    return out


# --- masking -------------------------------------------------------------------------------------------
def sparse_mask(self, mask):
    """``self``'s entries at ``mask``'s indices, as a sparse tensor with ``mask``'s indices."""
    if not mask.is_sparse:
        raise RuntimeError("sparse_mask expects mask to be sparse, got a strided tensor")
    if tuple(self.shape) != tuple(mask.shape):
        raise RuntimeError(
            f"sparse_mask(): operands have incompatible sizes; self has size {list(self.shape)} but mask has size "
            f"{list(mask.shape)}."
        )
    m = mask._data
    with yaten.no_grad():
        if not self.is_sparse:
            values = self[tuple(m.indices)] if m.sparse_dim else self.unsqueeze(0).expand(m.values.shape)
            return make_sparse(m.indices, values.clone(), m.shape, m.coalesced)
        c = self.coalesce()._data
        sizes = m.shape[: m.sparse_dim]
        lc, lm = linear_index(c.indices, sizes), linear_index(m.indices, sizes)
        values = m.values.new_zeros((m.values.shape[0],) + tuple(c.values.shape[1:]), dtype=c.values.dtype)
        if lc.shape[0]:
            pos = yaten.searchsorted(lc, lm).clamp(max=lc.shape[0] - 1)
            hit = (lc[pos] == lm).nonzero().flatten()
            values[hit] = c.values[pos[hit]]
    return make_sparse(m.indices, values, m.shape, m.coalesced)


# --- softmax over the specified entries ----------------------------------------------------------------
def _softmax_groups(c, dim):
    """For a coalesced ``SparseCOO`` and a sparse ``dim``: each entry's group (the entries that share every
    other sparse index) and the number of groups."""
    other = [x for x in range(c.sparse_dim) if x != dim]
    key = linear_index(c.indices[other], [c.shape[x] for x in other])
    unique, inverse = yaten.unique(key, return_inverse=True)
    return inverse.reshape((-1,) + (1,) * (c.values.ndim - 1)).expand(c.values.shape), unique.shape[0]


def _group_sum(values, groups, n):
    return values.new_zeros((n,) + tuple(values.shape[1:])).scatter_add(0, groups, values).gather(0, groups)


def _softmax_values(self, dim, log):
    """The coalesced ``self`` and the (log-)softmax of its values over ``dim``, the unspecified entries
    taking no part (torch.sparse.softmax's -inf)."""
    c = self.coalesce()._data
    dim = wrap_dim(dim, c.ndim)
    v = c.values
    if dim >= c.sparse_dim:
        fn = yaten.log_softmax if log else yaten.softmax
        return c, fn(v, dim - c.sparse_dim + 1)
    groups, n = _softmax_groups(c, dim)
    top = v.new_full((n,) + tuple(v.shape[1:]), float("-inf")).scatter_reduce(0, groups, v, "amax")
    shifted = v - top.gather(0, groups)
    total = _group_sum(shifted.exp(), groups, n)
    return c, (shifted - total.log()) if log else shifted.exp() / total


def sparse_softmax(self, dim, half_to_float=False):
    with yaten.no_grad():
        c, out = _softmax_values(self, dim, log=False)
    return make_sparse(c.indices, out, c.shape, True)


def sparse_log_softmax(self, dim, half_to_float=False):
    with yaten.no_grad():
        c, out = _softmax_values(self, dim, log=True)
    return make_sparse(c.indices, out, c.shape, True)


def sparse_softmax_backward(grad, output, dim, log):
    """The gradient of (log-)softmax at ``output``'s entries: ``y * (g - sum(g * y))`` for softmax,
    ``g - exp(y) * sum(g)`` for log-softmax, the sums over each group of ``dim``."""
    o = output._data
    g = grad.sparse_mask(output)._data.values
    y = o.values
    dim = wrap_dim(dim, o.ndim)
    if dim >= o.sparse_dim:
        d = dim - o.sparse_dim + 1
        total = (g if log else g * y).sum(d, keepdim=True)
    else:
        groups, n = _softmax_groups(o, dim)
        total = _group_sum(g if log else g * y, groups, n)
    values = g - y.exp() * total if log else y * (g - total)
    return make_sparse(o.indices, values, o.shape, True)
