"""View ops: new shape/stride/offset over the same storage (CompositeExplicitAutograd).

Every view is computed from the input's metadata and made by ``strided_view``, so views share
storage and version counter on every device.
"""

import math

from .._dims import wrap_dim, wrap_dims
from .._dtype import LEGACY_NAME
from .._layout import contiguous_strides
from .._tensor import check_in_bounds, legacy_type_name, strided_view


def _infer_size(shape, numel):
    shape = list(shape)
    neg = [i for i, n in enumerate(shape) if n == -1]
    if len(neg) > 1:
        raise RuntimeError("only one dimension can be inferred")
    for n in shape:
        if n < -1:
            raise RuntimeError(f"invalid shape dimension {n}")
    known = math.prod(n for n in shape if n != -1)
    if neg:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape[neg[0]] = numel // known
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return tuple(shape)


def _view_strides(old_shape, old_strides, new_shape):
    """Strides for viewing (old_shape, old_strides) as new_shape without a copy, or None (PyTorch's rule)."""
    if math.prod(old_shape) == 0:
        return contiguous_strides(new_shape)
    old = [(n, s) for n, s in zip(old_shape, old_strides) if n != 1]
    new_strides = [0] * len(new_shape)
    # Group old dims into contiguous chunks, then lay new dims over each chunk.
    chunks, i = [], 0
    while i < len(old):
        size = old[i][0]
        j = i
        while j + 1 < len(old) and old[j][1] == old[j + 1][0] * old[j + 1][1]:
            j += 1
            size *= old[j][0]
        chunks.append((size, old[j][1]))
        i = j + 1
    ci, acc = len(chunks) - 1, 1
    for k in range(len(new_shape) - 1, -1, -1):
        n = new_shape[k]
        if n == 1:
            new_strides[k] = (chunks[ci][1] * acc) if ci >= 0 else 1
            continue
        if ci < 0:
            return None
        size, base = chunks[ci]
        new_strides[k] = base * acc
        acc *= n
        if acc == size:
            ci, acc = ci - 1, 1
        elif acc > size or size % acc:
            return None
    return tuple(new_strides) if ci < 0 else None


def view(self, size):
    shape = _infer_size(size, self.numel())
    if self.is_contiguous():
        strides = contiguous_strides(shape)  # what the general rule gives a contiguous tensor, at once
    else:
        strides = _view_strides(tuple(self.shape), self.stride(), shape)
    if strides is None:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one dimension spans across "
            "two contiguous subspaces). Use .reshape(...) instead."
        )
    return strided_view(self, shape, strides, self._offset)


def view_dtype(self, dtype):
    # The same bytes read as another dtype: a dtype of another size rescales the last dimension.
    old, new = self.dtype.itemsize, dtype.itemsize
    shape, strides, offset = list(self.shape), list(self.stride()), self._offset
    if old != new:
        what = f"to view {LEGACY_NAME[self.dtype]} as {LEGACY_NAME[dtype]} (different element sizes)"
        if self.ndim == 0:
            raise RuntimeError(f"self.dim() cannot be 0 {what}")
        if strides[-1] != 1:
            raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {strides[-1]}")
        if new > old:
            ratio = new // old
            if shape[-1] % ratio:
                raise RuntimeError(f"self.size(-1) must be divisible by {ratio} {what}, but got {shape[-1]}")
            if offset % ratio:
                raise RuntimeError(
                    f"self.storage_offset() must be divisible by {ratio} {what}, but got {offset}"
                )
            for d in range(self.ndim - 1):
                if strides[d] % ratio:
                    raise RuntimeError(
                        f"self.stride({d}) must be divisible by {ratio} {what}, but got {strides[d]}"
                    )
            shape[-1] //= ratio
            strides = [s // ratio for s in strides[:-1]] + [1]
            offset //= ratio
        else:
            ratio = old // new
            shape[-1] *= ratio
            strides = [s * ratio for s in strides[:-1]] + [1]
            offset *= ratio
    return strided_view(self, shape, strides, offset, dtype)


def as_strided(self, size, stride, storage_offset=None):
    offset = self._offset if storage_offset is None else storage_offset
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError(
            f"as_strided: Negative strides are not supported at the moment, got strides: {list(stride)}"
        )
    if any(n < 0 for n in size):
        raise RuntimeError(
            f"Storage size calculation overflowed with sizes={list(size)} and strides={list(stride)}"
        )
    check_in_bounds(self.untyped_storage(), self._dtype.itemsize, size, stride, offset)
    return strided_view(self, size, stride, offset)


def transpose(self, dim0, dim1):
    n = self._data.ndim
    d0, d1 = wrap_dim(dim0, n), wrap_dim(dim1, n)
    shape, strides = list(self._data.shape), list(self.stride())
    if n:
        shape[d0], shape[d1] = shape[d1], shape[d0]
        strides[d0], strides[d1] = strides[d1], strides[d0]
    return strided_view(self, shape, strides, self._offset)


def t(self):
    if self.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self.ndim}D")
    return (
        transpose(self, 0, 1)
        if self.ndim == 2
        else strided_view(self, self.shape, self.stride(), self._offset)
    )


def permute(self, dims):
    n = self.ndim
    if len(dims) != n:
        raise RuntimeError(
            f"permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired "
            f"ordering of dimensions i.e. input.dim() = {n} is not equal to len(dims) = {len(dims)}"
        )
    dims = wrap_dims(dims, n)
    shape, strides = self.shape, self.stride()
    return strided_view(self, [shape[d] for d in dims], [strides[d] for d in dims], self._offset)


def expand(self, size, implicit=False):
    size = tuple(size)
    if len(size) < self.ndim:
        raise RuntimeError(
            f"expand({legacy_type_name(self)}{{{list(self.shape)}}}, size={list(size)}): the number of sizes provided "
            f"({len(size)}) must be greater or equal to the number of dimensions in the tensor ({self.ndim})"
        )
    lead = len(size) - self.ndim
    shape, strides = [], []
    for i, n in enumerate(size):
        if i < lead:
            if n < 0:
                raise RuntimeError(
                    f"The expanded size of the tensor ({n}) isn't allowed in a leading, non-existing dimension {i}"
                )
            shape.append(n)
            strides.append(0)
            continue
        old, st = self.shape[i - lead], self.stride()[i - lead]
        if n == -1:
            n = old
        if old == n:
            shape.append(n)
            strides.append(st)
        elif old == 1:
            shape.append(n)
            strides.append(0)
        else:
            raise RuntimeError(
                f"The expanded size of the tensor ({n}) must match the existing size ({old}) at non-singleton "
                f"dimension {i}.  Target sizes: {list(size)}.  Tensor sizes: {list(self.shape)}"
            )
    return strided_view(self, shape, strides, self._offset)


def squeeze(self, dim=None):
    n = self.ndim
    dims = range(n) if dim is None else wrap_dims((dim,) if isinstance(dim, int) else dim, n)
    keep = [i for i in range(n) if not (i in dims and self.shape[i] == 1)]
    return strided_view(self, [self.shape[i] for i in keep], [self.stride()[i] for i in keep], self._offset)


def squeeze_dim(self, dim):
    return squeeze(self, (dim,))


def squeeze_all(self):
    return squeeze(self, None)


def unsqueeze(self, dim):
    n = self.ndim
    d = wrap_dim(dim, n + 1)
    shape, strides = list(self.shape), list(self.stride())
    new_stride = shape[d] * strides[d] if d < n else 1
    shape.insert(d, 1)
    strides.insert(d, new_stride)
    return strided_view(self, shape, strides, self._offset)


def select(self, dim, index):
    if self.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, self.ndim)
    size = self.shape[d]
    if not -size <= index < size:
        raise IndexError(
            f"select(): index {index} out of range for tensor of size {list(self.shape)} at dimension {d}"
        )
    index %= size
    shape, strides = list(self.shape), list(self.stride())
    offset = self._offset + index * strides[d]
    del shape[d], strides[d]
    return strided_view(self, shape, strides, offset)


def slice(self, dim=0, start=None, end=None, step=1):
    if self.ndim == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    d = wrap_dim(dim, self.ndim)
    size = self.shape[d]
    start = 0 if start is None else start
    end = size if end is None else end
    start = max(0, min(size, start + size if start < 0 else start))
    end = max(start, min(size, end + size if end < 0 else end))
    shape, strides = list(self.shape), list(self.stride())
    shape[d] = (end - start + step - 1) // step
    offset = self._offset + start * strides[d]
    strides[d] *= step
    return strided_view(self, shape, strides, offset)


def _split_dim(self, dim) -> int:
    if self.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    return wrap_dim(dim, self.ndim)


def split(self, split_size, dim=0):
    d = _split_dim(self, dim)
    size = self.shape[d]
    if split_size < 0 or (split_size == 0 and size != 0):
        raise RuntimeError(
            f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}"
        )
    if size == 0:
        return (slice(self, d, 0, 0),)
    return tuple(slice(self, d, s, s + split_size) for s in range(0, size, split_size))


def split_with_sizes(self, split_sizes, dim=0):
    d = _split_dim(self, dim)
    if any(n < 0 for n in split_sizes):
        raise RuntimeError(
            f"split_with_sizes expects split_sizes have only non-negative entries, but got "
            f"split_sizes={list(split_sizes)}"
        )
    if sum(split_sizes) != self.shape[d]:
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {self.shape[d]} (input tensor's size at dimension "
            f"{d}), but got split_sizes={list(split_sizes)}"
        )
    out, start = [], 0
    for n in split_sizes:
        out.append(slice(self, d, start, start + n))
        start += n
    return tuple(out)


def unbind(self, dim=0):
    if self.ndim == 0 and dim in (0, -1):
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = wrap_dim(dim, self.ndim)
    return tuple(select(self, d, i) for i in range(self.shape[d]))


def detach(self):
    # A non-differentiable view: same storage and version counter, but no ``_base`` (as PyTorch).
    out = strided_view(self, self.shape, self.stride(), self._offset)
    out._base = None
    return out


# In-place view ops: self takes the geometry (and, under autograd, the history) of the view the
# functional op makes of it, as torch's t_/transpose_/squeeze_/unsqueeze_ change a tensor's own sizes.
def _become(self, view):
    from ..autograd.grad_mode import STATE
    from ..autograd.record import check_inplace

    if STATE.enabled:
        check_inplace(self)
    self._data, self._offset, self._strides = view._data, view._offset, view._strides
    if view._grad_fn is not None:
        self._grad_fn, self._output_nr = view._grad_fn, view._output_nr
    self._vc[0] += 1
    return self


def t_(self):
    return _become(self, self.t())


def transpose_(self, dim0, dim1):
    return _become(self, self.transpose(dim0, dim1))


def squeeze_(self, dim=None):
    return _become(self, self.squeeze() if dim is None else self.squeeze(dim))


def unsqueeze_(self, dim):
    return _become(self, self.unsqueeze(dim))
