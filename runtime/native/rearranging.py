"""Ops that rearrange a tensor's elements: diagonals, unfold windows, tile, repeat_interleave, rot90,
the flips and axis aliases, ravel, take and take_along_dim. Views are as_strided over the input
(autograd through as_strided's formula); copies are index_select, flip, repeat and friends."""

import yaten

from .._dims import wrap_dim
from .._dtype import LEGACY_NAME


def diagonal(self, offset=0, dim1=0, dim2=1):
    d1, d2 = wrap_dim(dim1, self.ndim), wrap_dim(dim2, self.ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    n1, n2 = self.shape[d1], self.shape[d2]
    length = max(0, min(n1, n2 - offset) if offset >= 0 else min(n1 + offset, n2))
    strides = self.stride()
    start = self.storage_offset()
    if length:
        start += offset * strides[d2] if offset >= 0 else -offset * strides[d1]
    keep = [d for d in range(self.ndim) if d not in (d1, d2)]
    return self.as_strided(
        [self.shape[d] for d in keep] + [length],
        [strides[d] for d in keep] + [strides[d1] + strides[d2]],
        start,
    )


def diag_embed(self, offset=0, dim1=-2, dim2=-1):
    n = self.ndim + 1
    d1, d2 = wrap_dim(dim1, n), wrap_dim(dim2, n)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    size = self.shape[-1] + abs(offset) if self.ndim else abs(offset) + 1
    rest = list(self.shape[:-1])
    shape = rest[:]
    for d in sorted((d1, d2)):
        shape.insert(d, size)
    out = yaten.zeros(shape, dtype=self.dtype, device=self.device)
    return out.diagonal_scatter(self, offset, d1, d2)


def diag(self, diagonal=0):
    if self.ndim == 1:
        return diag_embed(self, diagonal, 0, 1)
    if self.ndim == 2:
        return self.diagonal(diagonal).clone()
    raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + f"{self.ndim}D")


def diagflat(self, offset=0):
    """The square matrix with ``self``'s elements (flattened) on diagonal ``offset``."""
    return yaten.diag(self.reshape(-1), offset)


def unfold(self, dimension, size, step):
    shape, strides = list(self.shape), list(self.stride())
    d = wrap_dim(dimension, self.ndim) if self.ndim else 0
    n = shape[d] if self.ndim else 1
    if size > n:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {n} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if not self.ndim:
        return self.as_strided([size], [1], self.storage_offset())
    shape[d] = (n - size) // step + 1
    window = strides[d]
    strides[d] *= step
    return self.as_strided(shape + [size], strides + [window], self.storage_offset())


def tile(self, dims):
    dims = list(dims)
    if len(dims) < self.ndim:
        dims = [1] * (self.ndim - len(dims)) + dims
    return self.repeat(dims)


def repeat_interleave_tensor(repeats, output_size=None):
    if repeats.ndim != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if repeats.dtype not in (yaten.int64, yaten.int32):
        raise NotImplementedError(
            f"\"repeat_interleave_cpu\" not implemented for '{LEGACY_NAME[repeats.dtype]}'"
        )
    counts = repeats.tolist()
    if any(c < 0 for c in counts):
        raise RuntimeError("repeats can not be negative")
    index = [i for i, c in enumerate(counts) for _ in range(c)]
    if output_size is not None and output_size != len(index):
        raise RuntimeError("allocated size does not match required size")
    return yaten.tensor(index, dtype=repeats.dtype, device=repeats.device)


def repeat_interleave_self(self, repeats, dim=None, output_size=None):
    if dim is None:
        self, dim = self.flatten(), 0
    d = wrap_dim(dim, self.ndim)
    if isinstance(repeats, int) or repeats.ndim == 0:
        count = repeats if isinstance(repeats, int) else int(repeats.item())
        repeats = yaten.full((self.shape[d],), count, dtype=yaten.int64, device=self.device)
    elif repeats.ndim == 1 and repeats.shape[0] == 1:
        repeats = repeats.expand(self.shape[d])
    elif repeats.ndim == 1 and repeats.shape[0] != self.shape[d]:
        raise RuntimeError(
            f"repeats must have the same size as input along dim, but got repeats.size(0) = {repeats.shape[0]} "
            f"and input.size({d}) = {self.shape[d]}"
        )
    return self.index_select(d, repeat_interleave_tensor(repeats, output_size))


def rot90(self, k=1, dims=(0, 1)):
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if self.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {self.ndim}")
    d0, d1 = wrap_dim(dims[0], self.ndim), wrap_dim(dims[1], self.ndim)
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}")
    k %= 4
    if k == 1:
        return self.flip([d1]).transpose(d0, d1)
    if k == 2:
        return self.flip([d0, d1])
    if k == 3:
        return self.flip([d0]).transpose(d0, d1)
    return self.clone()


def fliplr(self):
    if self.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return self.flip([1])


def flipud(self):
    if self.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return self.flip([0])


def ravel(self):
    return self.reshape(-1)


def take(self, index):
    if index.dtype != yaten.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got {LEGACY_NAME[index.dtype]}")
    flat = index.reshape(-1)
    flat = yaten.where(flat < 0, flat + self.numel(), flat)  # take counts negative indices from the end
    return self.reshape(-1).index_select(0, flat).reshape(index.shape)


def take_along_dim(self, indices, dim=None):
    if indices.dtype != yaten.int64:
        raise RuntimeError(
            f"torch.take_along_dim(): dtype of indices should be Long but got {LEGACY_NAME[indices.dtype]}"
        )
    if dim is None:
        return self.reshape(-1).gather(0, indices.reshape(-1))
    d = wrap_dim(dim, self.ndim)
    if self.ndim != indices.ndim:
        raise RuntimeError(
            f"torch.take_along_dim(): input and indices should have the same number of dimensions, but got "
            f"{self.ndim} dimensions for input, and {indices.ndim} dimensions for indices"
        )
    # Every dimension but dim broadcasts.
    shape = list(yaten.broadcast_shapes(_one_at(self.shape, d), _one_at(indices.shape, d)))
    self_shape, index_shape = shape[:], shape[:]
    self_shape[d], index_shape[d] = self.shape[d], indices.shape[d]
    return self.expand(self_shape).gather(d, indices.expand(index_shape))


def _one_at(shape, d):
    shape = list(shape)
    shape[d] = 1
    return shape
