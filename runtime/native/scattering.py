"""Writes into parts of a tensor: index_fill, index_copy, masked_scatter, the *_scatter ops (a copy
with a slice, a selection or a diagonal replaced), put_ and scatter_reduce. Each is a write into a view of a clone,
or of self for the in-place forms, so autograd goes through copy_/index_put_/masked_fill_."""

import warnings

import numpy as np

import yaten

from .._dims import wrap_dim
from .._dtype import LEGACY_NAME
from .indexing import index_source_checks


def _index_dim(name, self, dim, index):
    d = wrap_dim(dim, max(self.ndim, 1))
    if name == "index_fill_":
        if index.ndim > 1:
            raise RuntimeError("Index has to be a vector/scalar")
        if index.dtype != yaten.int64:
            raise IndexError("index_fill_(): Expected dtype int64 for index.")
    else:
        if index.ndim > 1:
            raise IndexError(f"{name}(): Index should have dimension 1 or 0 (got {index.ndim})")
        if index.dtype != yaten.int64:
            raise RuntimeError(
                f"{name}(): Expected a long tensor for index, but got {LEGACY_NAME[index.dtype]}"
            )
    return d


def index_fill_(self, dim, index, value):
    d = _index_dim("index_fill_", self, dim, index)
    if isinstance(value, yaten.Tensor) and value.ndim != 0:
        raise RuntimeError(
            f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with {value.ndim} dimension(s)."
        )
    n = self.shape[d] if self.ndim else 1
    mask = yaten.zeros(n, dtype=yaten.bool, device=self.device)
    mask.index_put_((index.reshape(-1),), yaten.ones((), dtype=yaten.bool, device=self.device))
    shape = [1] * self.ndim
    if self.ndim:
        shape[d] = n
    return self.masked_fill_(mask.reshape(shape), value)


def index_fill(self, dim, index, value):
    return index_fill_(self.clone(), dim, index, value)


def index_copy_(self, dim, index, source):
    d = _index_dim("index_copy_", self, dim, index)
    if self.ndim == 0:
        return self.copy_(source.reshape(()))
    expected = list(self.shape)
    expected[d] = index.numel()
    if source.ndim != self.ndim and source.ndim != 0:
        raise IndexError(
            f"index_copy_(): When source and destination are not scalars, their dimensionality must match. "
            f"Source dimensionality ({source.ndim}), destination dimensionality ({self.ndim})"
        )
    if source.ndim and source.shape[d] != index.numel():
        raise IndexError(
            f"index_copy_(): Number of indices ({index.numel()}) should be equal to source.size(dim) "
            f"({source.shape[d]})"
        )
    if list(source.shape) != expected and not (source.ndim == 0 and expected == [1]):
        raise RuntimeError(
            f"index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: "
            f"{list(self.shape[:d]) + list(self.shape[d + 1 :])} at dimension {d} and source slice shape: "
            f"{list(source.shape[:d]) + list(source.shape[d + 1 :])} at dimension {d}."
        )
    self.movedim(d, 0).index_put_((index.reshape(-1),), source.reshape(expected).movedim(d, 0))
    return self


def index_copy(self, dim, index, source):
    return index_copy_(self.clone(), dim, index, source)


def masked_scatter_(self, mask, source):
    if mask.dtype != yaten.bool:
        raise RuntimeError(
            f"masked_scatter_ only supports boolean masks, but got mask with dtype {mask.dtype}"
        )
    full = mask.expand(self.shape)
    count = int(full.sum().item())
    if count > source.numel():
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return self.index_put_((full,), source.reshape(-1)[:count])


def masked_scatter(self, mask, source):
    shape = yaten.broadcast_shapes(self.shape, mask.shape)
    return masked_scatter_(self.expand(shape).clone(), mask, source)


def _scatter_into(view_of, self, src, what):
    out = self.clone()
    view = view_of(out)
    if tuple(view.shape) != tuple(src.shape):
        raise RuntimeError(
            f"expected src to have a size equal to the {what} of self. src size = {list(src.shape)}, "
            f"{what} size = {list(view.shape)}"
        )
    view.copy_(src)
    return out


def select_scatter(self, src, dim, index):
    return _scatter_into(lambda t: t.select(dim, index), self, src, "slice")


def slice_scatter(self, src, dim=0, start=None, end=None, step=1):
    return _scatter_into(lambda t: t.slice(dim, start, end, step), self, src, "slice")


def diagonal_scatter(self, src, offset=0, dim1=0, dim2=1):
    return _scatter_into(lambda t: t.diagonal(offset, dim1, dim2), self, src, "diagonal")


def put_(self, index, source, accumulate=False):
    if index.numel() != source.numel():
        raise IndexError(
            f"put_(): Expected source and index to have the same number of elements, but got source.numel() = "
            f"{source.numel()}, index.numel() = {index.numel()}"
        )
    # put_ indexes self as if it were contiguous: a non-contiguous self is written through a copy.
    target = self if self.is_contiguous() else self.clone(memory_format=yaten.contiguous_format)
    target.view(-1).index_put_((index.reshape(-1),), source.reshape(-1), accumulate)
    return self if target is self else self.copy_(target)


def put(self, index, source, accumulate=False):
    return put_(self.clone(), index, source, accumulate)


_COMBINE = {
    "sum": lambda a, b: a + b,
    "mean": lambda a, b: a + b,
    "prod": lambda a, b: a * b,
    "amax": lambda a, b: yaten.maximum(a, b),
    "amin": lambda a, b: yaten.minimum(a, b),
}
_COMBINE["max"], _COMBINE["min"] = _COMBINE["amax"], _COMBINE["amin"]  # torch's older names


def _scatter_positions(self, d, index, src):
    """The flat position in self of each element of index (row-major), checked as torch's scatter."""
    if index.dtype not in (yaten.int64, yaten.int32):
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if self.dtype != src.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if index.ndim != self.ndim or src.ndim != self.ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    shape = list(self.shape) or [1]
    ishape = list(index.shape) or [1]
    for k, n in enumerate(ishape):
        if n > (list(src.shape) or [1])[k] or (k != d and n > shape[k]):
            raise RuntimeError(
                f"Expected index {list(index.shape)} to be no larger than self {list(self.shape)} apart from "
                f"dimension {d} and to be no larger size than src {list(src.shape)}"
            )
    coords = list(np.indices(ishape))
    coords[d] = np.asarray(index.tolist(), dtype=np.int64).reshape(ishape)
    bad = (coords[d] < 0) | (coords[d] >= shape[d])
    if bad.any():
        raise RuntimeError(
            f"index {int(coords[d][bad][0])} is out of bounds for dimension {d} with size {shape[d]}"
        )
    return np.ravel_multi_index(coords, shape).reshape(-1)


def scatter_reduce(self, dim, index, src, reduce, include_self=True):
    if reduce not in _COMBINE:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    d = wrap_dim(dim, max(self.ndim, 1))
    pos = _scatter_positions(self, d, index, src)
    vals = src
    for k, n in enumerate(index.shape):
        vals = vals.narrow(k, 0, n)
    vals = vals.reshape(-1)
    out = self.reshape(-1)
    # The contributions to one position, in index order, come one level at a time: the k-th of every
    # position at once (no position twice in a level), combined with what is there.
    order = np.argsort(pos, kind="stable")
    rank = np.arange(pos.size) - np.searchsorted(pos[order], pos[order])
    device = self.device
    for k in range(int(rank.max()) + 1 if pos.size else 0):
        chosen = order[rank == k]
        where = yaten.tensor(pos[chosen], dtype=yaten.int64, device=device)
        v = vals.index_select(0, yaten.tensor(chosen, dtype=yaten.int64, device=device))
        new = v if k == 0 and not include_self else _COMBINE[reduce](out.index_select(0, where), v)
        out = out.index_put((where,), new)
    if reduce == "mean" and pos.size:
        touched, counts = np.unique(pos, return_counts=True)
        where = yaten.tensor(touched, dtype=yaten.int64, device=device)
        n = yaten.tensor(counts + (1 if include_self else 0), device=device).to(self.dtype)
        total = out.index_select(0, where)
        mean = total / n if self.dtype.is_floating_point else total.div(n, rounding_mode="floor")
        out = out.index_put((where,), mean)
    return out.reshape(self.shape)


def scatter_reduce_(self, dim, index, src, reduce, include_self=True):
    return self.copy_(scatter_reduce(self, dim, index, src, reduce, include_self))


_INDEX_REDUCE_WARNED = []


def index_reduce_(self, dim, index, source, reduce, include_self=True):
    """Rows ``index[i]`` of ``self`` (along ``dim``) combined with slice i of ``source`` by ``reduce`` (prod,
    mean, amax, amin): ``scatter_reduce_`` with the index repeated across the other dims; torch's checks."""
    if not _INDEX_REDUCE_WARNED:
        _INDEX_REDUCE_WARNED.append(True)
        warnings.warn(
            "index_reduce() is in beta and the API may change at any time.", UserWarning, stacklevel=4
        )
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(
            f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}."
        )
    d = wrap_dim(dim, max(self.ndim, 1))
    index_source_checks("index_reduce_", self, d, index, source)
    if index.numel() and not bool(((index >= 0) & (index < (self.shape[d] if self.ndim else 1))).all()):
        raise IndexError("index out of range in self")
    shape = [1] * max(source.ndim, 1)
    shape[d] = -1
    spread = index.reshape(shape).expand(source.shape).to(yaten.int64)
    return self.scatter_reduce_(d, spread, source, reduce, include_self=include_self)


def index_reduce(self, dim, index, source, reduce, include_self=True):
    return index_reduce_(self.clone(), dim, index, source, reduce, include_self)


def fill_diagonal_(self, fill_value, wrap=False):
    """Fill the main diagonal of a matrix (or of an n-d tensor of equal sizes) with ``fill_value``; a tall
    matrix's diagonal starts again below itself (every ``ncols + 1`` rows) with ``wrap``, as NumPy's."""
    if self.ndim < 2:
        raise RuntimeError("dimensions must larger than 1")
    height, width = self.shape[0], self.shape[1]
    if self.ndim > 2 and any(n != height for n in self.shape[1:]):
        raise RuntimeError("all dimensions of input must be of equal length")
    stride, offset = sum(self.stride()), self.storage_offset()
    size = min(height, width)
    self.as_strided((size,), (stride,), offset).fill_(fill_value)
    if wrap and self.ndim == 2 and height > width + 1:
        step = width + 1
        rest = (self.numel() + step - 1) // step - size
        self.as_strided((rest,), (stride,), offset + self.stride(0) * step).fill_(fill_value)
    return self
