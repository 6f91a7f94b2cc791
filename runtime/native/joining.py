"""Joining and splitting: atleast_Nd, the *stack family, tensor_split and hsplit/vsplit/dsplit,
meshgrid, broadcast_tensors/broadcast_to, block_diag, cartesian_prod and combinations. Each is a
composite of views, cat/stack and index_select."""

import functools
import itertools
import warnings

import yaten

from .._dims import wrap_dim
from .._promotion import infer_size


def _at_least(t, n):
    if t.ndim >= n:
        return t
    if n == 3 and t.ndim == 2:
        return t.unsqueeze(-1)
    shape = [1] * (n - t.ndim) + list(t.shape)
    if n == 3 and t.ndim == 1:
        shape = [1, t.shape[0], 1]
    return t.reshape(shape)


def atleast_1d(self):
    return _at_least(self, 1)


def atleast_2d(self):
    return _at_least(self, 2)


def atleast_3d(self):
    return _at_least(self, 3)


def atleast_1d_sequence(tensors):
    return tuple(_at_least(t, 1) for t in tensors)


def atleast_2d_sequence(tensors):
    return tuple(_at_least(t, 2) for t in tensors)


def atleast_3d_sequence(tensors):
    return tuple(_at_least(t, 3) for t in tensors)


def _nonempty(name, tensors):
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")


def hstack(tensors):
    _nonempty("hstack", tensors)
    ts = atleast_1d_sequence(tensors)
    return yaten.cat(list(ts), 0 if ts[0].ndim == 1 else 1)


def vstack(tensors):
    _nonempty("vstack", tensors)
    return yaten.cat(list(atleast_2d_sequence(tensors)), 0)


def dstack(tensors):
    _nonempty("dstack", tensors)
    return yaten.cat(list(atleast_3d_sequence(tensors)), 2)


def column_stack(tensors):
    _nonempty("column_stack", tensors)
    return yaten.cat([t.reshape(t.numel(), 1) if t.ndim <= 1 else t for t in tensors], 1)


def tensor_split_sections(self, sections, dim=0):
    if self.ndim == 0:
        raise RuntimeError(
            "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims"
        )
    if sections <= 0:
        raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
    d = wrap_dim(dim, self.ndim)
    size, small = divmod(self.shape[d], sections)
    return self.split_with_sizes([size + 1] * small + [size] * (sections - small), d)


def tensor_split_indices(self, indices, dim=0):
    if self.ndim == 0:
        raise RuntimeError(
            "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims"
        )
    d = wrap_dim(dim, self.ndim)
    n = self.shape[d]
    bounds = [0] + [min(max(i, 0) if i >= 0 else max(n + i, 0), n) for i in indices] + [n]
    return tuple(self.slice(d, a, max(a, b)) for a, b in itertools.pairwise(bounds))


def tensor_split_tensor(self, tensor_indices_or_sections, dim=0):
    t = tensor_indices_or_sections  # (torch wants it on the CPU; yaten reads it from any device)
    if t.dtype != yaten.int64:
        raise RuntimeError(
            f"tensor_split expected tensor_indices_or_sections to have dtype of long, but got {t.dtype}"
        )
    if t.ndim > 1:
        raise RuntimeError(
            f"tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional tensor, "
            f"but got a tensor with {t.ndim} dims"
        )
    if t.ndim == 0:
        return tensor_split_sections(self, int(t.item()), dim)
    return tensor_split_indices(self, t.tolist(), dim)


def _split_along(name, self, dim, min_dims, sections):
    if self.ndim < min_dims:
        raise RuntimeError(
            f"torch.{name} requires a tensor with at least {min_dims} dimension, but got a tensor with "
            f"{self.ndim} dimensions!"
        )
    if isinstance(sections, int):
        if sections == 0 or self.shape[dim] % sections:
            raise RuntimeError(
                f"torch.{name} attempted to split along dimension {dim}, but the size of the dimension "
                f"{self.shape[dim]} is not divisible by the split_size {sections}!"
            )
        return tensor_split_sections(self, sections, dim)
    return tensor_split_indices(self, sections, dim)


def hsplit(self, sections):
    return _split_along("hsplit", self, 1 if self.ndim > 1 else 0, 1, sections)


def vsplit(self, sections):
    return _split_along("vsplit", self, 0, 2, sections)


def dsplit(self, sections):
    return _split_along("dsplit", self, 2, 3, sections)


def meshgrid(tensors, indexing=None):
    if indexing is None:
        warnings.warn(
            "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
            UserWarning,
            stacklevel=3,
        )
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    if not tensors:
        raise RuntimeError("torch.meshgrid expects a non-empty TensorList")
    for t in tensors:
        if t.ndim > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}")
    ts = [t.reshape(-1) for t in tensors]
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = [t.shape[0] for t in ts]
    grids = []
    for i, t in enumerate(ts):
        view = [1] * len(ts)
        view[i] = shape[i]
        grids.append(t.reshape(view).expand(shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def meshgrid_indexing(tensors, indexing):
    return meshgrid(tensors, indexing)


def broadcast_to(self, size):
    return self.expand(size)


def broadcast_tensors(tensors):
    shape = infer_size(
        *(t.shape for t in tensors)
    )  # torch's message: "The size of tensor a (2) must match ..."
    return tuple(t.expand(shape) for t in tensors)


def block_diag(tensors):
    mats = []
    for i, t in enumerate(tensors):
        if t.ndim > 2:
            raise RuntimeError(
                f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has {t.ndim} dimensions"
            )
        mats.append(t.reshape(1, -1) if t.ndim < 2 else t)
    if not mats:
        return yaten.empty((1, 0))
    dtype = functools.reduce(yaten.promote_types, (t.dtype for t in tensors))
    cols = sum(m.shape[1] for m in mats)
    rows, left = [], 0
    for m in mats:
        right = cols - left - m.shape[1]
        rows.append(yaten.cat([m.new_zeros((m.shape[0], left)).to(dtype), m.to(dtype),
                               m.new_zeros((m.shape[0], right)).to(dtype)], 1))  # fmt: skip
        left += m.shape[1]
    return yaten.cat(rows, 0)


def cartesian_prod(tensors):
    for t in tensors:
        if t.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(tensors, "ij")
    return yaten.stack([g.reshape(-1) for g in grids], 1)


def combinations(self, r=2, with_replacement=False):
    if self.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(self.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return self.new_empty((0,))
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = [i for row in pick(range(self.shape[0]), r) for i in row]
    index = yaten.tensor(rows, dtype=yaten.int64, device=self.device)
    return self.index_select(0, index).reshape(-1, r)
