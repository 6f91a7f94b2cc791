"""The distinct elements (or slices along a dim) of a tensor: _unique2, unique_dim, unique_consecutive.

Each returns ``(values, inverse, counts)`` as PyTorch's native ops do, ``inverse`` and ``counts``
empty unless asked for. They sort with yaten's stable sort and mark where runs of equal values start,
so they run on every device that sorts, scans and scatters. As PyTorch's, their results are not
differentiable. ``torch.unique`` and
``torch.unique_consecutive``, which return only what is asked for, are in ``runtime/_unique.py``.
"""

import math

import yaten

from .._dims import wrap_dim


def _empty_index(device):
    return yaten.empty(0, dtype=yaten.int64, device=device)


def _runs(rows, order, return_inverse, return_counts, inverse_shape):
    """``(values, inverse, counts)`` of ``rows`` (``(n, ...)``, equal rows next to each other), which are
    the input's rows in the order ``order``: the first row of each run of equal rows, the run each
    input row falls in, and the length of each run."""
    n, device = rows.shape[0], rows.device
    if n == 0:
        return rows, yaten.zeros(inverse_shape, dtype=yaten.int64, device=device), _empty_index(device)
    change = rows[1:] != rows[:-1]
    if change.dim() > 1:
        change = change.reshape(n - 1, -1).any(1)
    first = yaten.cat([yaten.ones(1, dtype=yaten.bool, device=device), change])
    values, inverse, counts = rows[first], _empty_index(device), _empty_index(device)
    if return_inverse or return_counts:
        run = first.cumsum(0) - 1
        if return_inverse:
            inverse = run if order is None else yaten.empty_like(run).scatter(0, order, run)
            inverse = inverse.reshape(inverse_shape)
        if return_counts:
            counts = yaten.zeros(values.shape[0], dtype=yaten.int64, device=device).scatter_add(
                0, run, yaten.ones_like(run)
            )
    return values, inverse, counts


def unique_sorted(self, sorted=True, return_inverse=False, return_counts=False):
    """The distinct elements of ``self``, sorted (also when ``sorted=False``, which PyTorch allows).

    >>> yaten._unique2(yaten.tensor([3, 1, 3, 2]), return_inverse=True)
    (tensor([1, 2, 3]), tensor([2, 0, 2, 1]), tensor([], dtype=yaten.int64))
    """
    values, order = yaten.sort(self.detach().reshape(-1))
    return _runs(values, order, return_inverse, return_counts, self.shape)


def _lexicographic_order(rows):
    """The permutation that sorts the rows of the 2-d ``rows`` lexicographically (stable sorts by each
    column, last column first)."""
    order = yaten.arange(rows.shape[0], device=rows.device)
    for c in range(rows.shape[1] - 1, -1, -1):
        order = order[yaten.sort(rows[order, c], stable=True)[1]]
    return order


def _check_dim(self, dim):
    if self.dim() == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = wrap_dim(dim, self.dim())
    if self.numel() == 0:
        if sum(k == 0 for k in self.shape) > 1:
            raise RuntimeError(
                "Number of zero sized dimensions is more than one, so unique cannot be applied "
            )
        if self.shape[d] != 0:
            raise RuntimeError(
                "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied"
            )
    return d


def unique_dim(self, dim, sorted=True, return_inverse=False, return_counts=False):
    """The distinct slices of ``self`` along ``dim``, in lexicographic order (with the inverse and the
    counts whatever the flags say, as PyTorch's).

    >>> yaten.unique(yaten.tensor([[1, 2], [0, 5], [1, 2]]), dim=0)
    tensor([[0, 5],
            [1, 2]])
    """
    d = _check_dim(self, dim)
    moved = self.detach().movedim(d, 0)
    order = _lexicographic_order(moved.reshape(moved.shape[0], math.prod(moved.shape[1:])))
    values, inverse, counts = _runs(moved[order], order, True, True, (self.shape[d],))
    return values.movedim(0, d), inverse, counts


def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
    """The first of each run of equal consecutive elements (or slices along ``dim``: then with the
    inverse and the counts whatever the flags say, as PyTorch's).

    >>> yaten.unique_consecutive(yaten.tensor([1, 1, 2, 1]))
    tensor([1, 2, 1])
    """
    self = self.detach()
    if dim is None:
        return _runs(self.reshape(-1), None, return_inverse, return_counts, self.shape)
    d = _check_dim(self, dim)
    values, inverse, counts = _runs(self.movedim(d, 0), None, True, True, (self.shape[d],))
    return values.movedim(0, d), inverse, counts


def isin(elements, test_elements, assume_unique=False, invert=False):
    """Whether each of ``elements`` is among ``test_elements`` (numbers or tensors; compared in their
    common dtype, NaN in nothing): a binary search of each element in the sorted test elements."""
    if not isinstance(elements, yaten.Tensor):
        elements = yaten.tensor(elements, device=test_elements.device)
    if not isinstance(test_elements, yaten.Tensor):
        test_elements = yaten.tensor(test_elements, device=elements.device)
    common = yaten.result_type(elements, test_elements)
    values = elements.to(common)
    pool = test_elements.to(common).reshape(-1)
    if common.is_floating_point:  # NaN equals nothing; out of the pool, it cannot upset the search either
        pool = pool[pool == pool]
    pool = pool.sort()[0]
    if pool.numel() == 0:
        found = yaten.zeros(values.shape, dtype=yaten.bool, device=values.device)
    else:
        at = yaten.searchsorted(pool, values.reshape(-1)).clamp_max(pool.numel() - 1)
        found = (pool.index_select(0, at) == values.reshape(-1)).reshape(values.shape)
    return found.logical_not() if invert else found
