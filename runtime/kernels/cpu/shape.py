"""Copying shape kernels and dtype conversion over host NumPy arrays.

Every function takes NumPy arrays (any strides, 0-d or empty) and plain Python values. Functional
kernels return new arrays with PyTorch's dtype; in-place kernels (``*_``) write through ``self`` and
return None. Bad input raises PyTorch's exception type with PyTorch's wording.

Conversions follow c10's casts, which differ from NumPy's in two places: float64 -> float16 rounds via
float32 (``c10::Half`` is built from a float), and float -> uint8 goes through int64 (so -1.5 -> 255).
"""

import numpy as np

from ..._dims import wrap_dim as _wrap_dim
from ..._dtype import BY_NP
from ..._host_allocator import allocation_error
from ..._layout import infer_dense_strides, preserve_format_strides
from ..._memory_format import check_rank
from ..._overlap import assert_no_internal_overlap as _assert_no_internal_overlap
from ..._overlap import assert_no_partial_overlap as _assert_no_partial_overlap
from ..._promotion import infer_size as _infer_size
from ..._promotion import promote_types
from .convert import c_contiguous as _c
from .convert import cast as _cast
from .convert import scalar_to as _scalar_to

# --- helpers (the conversions shared with index.py live in convert.py) ---------------------------------


def preserve_strides(a) -> tuple:
    """``(element strides, elements spanned)`` of a new array shaped like ``a`` in ``a``'s memory
    layout (torch's preserve_format); reads only shape and strides, so the cuda kernels share it."""
    shape = a.shape
    item = a.dtype.itemsize
    # NumPy views may have negative strides, torch's never do: order by stride magnitude.
    strides = [abs(st) // item for st in a.strides]
    if a.size == 0 and 0 in strides:  # NumPy zeroes an empty array's strides; torch would not
        strides = infer_dense_strides(shape, [1] * len(shape))
    elif 0 not in shape:  # torch treats every empty tensor as dense
        strides = preserve_format_strides(shape, strides)
    n = 1 + sum((s - 1) * st for s, st in zip(shape, strides)) if all(shape) else 0
    return tuple(strides), n


def _empty_like_preserve(a: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """An uninitialised array shaped like ``a`` in ``a``'s memory layout (torch's preserve_format)."""
    strides, n = preserve_strides(a)
    try:
        buf = np.empty(n, dtype)
    except (MemoryError, ValueError) as e:
        raise allocation_error(e, (n,), dtype) from None
    return np.ndarray(a.shape, dtype, buf, 0, tuple(st * buf.itemsize for st in strides))


# --- kernels -----------------------------------------------------------------------------------------


def cat(tensors, dim):
    """Concatenate arrays along ``dim`` in their promoted dtype; 1-d empty arrays are skipped.

    >>> cat([np.array([[1, 2]], np.int8), np.array([[3, 4]], np.uint8)], 0)
    array([[1, 2],
           [3, 4]], dtype=int16)
    """
    kept, d, shape, out_dtype = cat_plan(tensors, dim)
    try:
        out = np.empty(shape, out_dtype)
    except (MemoryError, ValueError) as e:
        raise allocation_error(e, shape, out_dtype) from None
    start = 0
    for t in kept:
        n = t.shape[d]
        out[(slice(None),) * d + (slice(start, start + n),)] = _cast(t, out_dtype)
        start += n
    return out


def cat_plan(tensors, dim):
    """``(arrays to concatenate, dim, result shape, result dtype)`` after PyTorch's checks of a ``cat``;
    the checks read only shapes and dtypes, so the cuda kernel shares them."""
    tensors = list(tensors)
    if not tensors:
        raise ValueError("cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if t.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    out_dtype = tensors[0].dtype
    for t in tensors[1:]:
        out_dtype = promote_types(BY_NP[out_dtype], BY_NP[t.dtype]).np
    # torch's legacy rule: a 1-d empty tensor is left out whatever the others' shapes are.
    kept = [(i, t) for i, t in enumerate(tensors) if not (t.ndim == 1 and t.shape[0] == 0)]
    if not kept:
        return [], 0, (0,), out_dtype
    ref = kept[0][1]
    d = _wrap_dim(dim, ref.ndim)
    for i, t in kept:
        if t.ndim != ref.ndim:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ref.ndim} and {t.ndim}")
        for k in range(ref.ndim):
            if k != d and t.shape[k] != ref.shape[k]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size "
                    f"{ref.shape[k]} but got size {t.shape[k]} for tensor number {i} in the list."
                )
    shape = list(ref.shape)
    shape[d] = sum(t.shape[d] for _, t in kept)
    return [t for _, t in kept], d, tuple(shape), out_dtype


def flip(self, dims):
    """A copy of ``self`` reversed along ``dims``, in ``self``'s memory layout.

    >>> flip(np.arange(6).reshape(2, 3), (1,))
    array([[2, 1, 0],
           [5, 4, 3]])
    """
    wrapped = flip_checks(self, dims)
    out = _empty_like_preserve(self, self.dtype)
    out[...] = np.flip(self, wrapped) if self.ndim else self
    return out


def flip_checks(self, dims) -> tuple:
    """The wrapped ``dims`` of a ``flip``, none repeated (shared with the cuda kernel)."""
    wrapped = []
    for dim in dims:
        d = _wrap_dim(dim, self.ndim)
        if d in wrapped:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        wrapped.append(d)
    return tuple(wrapped)


def roll(self, shifts, dims):
    """``self`` rolled by ``shifts`` along ``dims``; with no dims, rolled as if flattened.

    >>> roll(np.arange(6).reshape(2, 3), (1,), ())
    array([[5, 0, 1],
           [2, 3, 4]])
    """
    shifts, axes = roll_checks(self, shifts, dims)
    if axes is None:
        return _c(np.roll(self, shifts[0]))
    return _c(np.roll(self, shifts, axes))


def roll_checks(self, shifts, dims) -> tuple:
    """``(shifts, wrapped dims)`` of a ``roll``; the dims are None for a roll of the flattened input
    (one shift, no dims). Shared with the cuda kernel."""
    shifts, dims = tuple(shifts), tuple(dims)
    if not shifts:
        raise RuntimeError("`shifts` required")
    if not dims and len(shifts) == 1:
        return shifts, None
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    if self.ndim == 0:
        raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
    return shifts, tuple(_wrap_dim(d, self.ndim) for d in dims)


def tril(self, diagonal):
    """``self`` with the elements above its ``diagonal``-th diagonal zeroed (over the last two dims).

    >>> tril(np.arange(1, 7).reshape(2, 3), 0)
    array([[1, 0, 0],
           [4, 5, 0]])
    """
    triangle_checks("tril", self)
    return _c(np.tril(self, diagonal))


def triu(self, diagonal):
    """``self`` with the elements below its ``diagonal``-th diagonal zeroed (over the last two dims).

    >>> triu(np.arange(1, 7).reshape(2, 3), 1)
    array([[0, 2, 3],
           [0, 0, 6]])
    """
    triangle_checks("triu", self)
    return _c(np.triu(self, diagonal))


def triangle_checks(name: str, self) -> None:
    """tril/triu take a matrix or a batch of them (shared with the cuda kernel)."""
    if self.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")


def repeat(self, repeats):
    """``self`` tiled ``repeats`` times per dim (``len(repeats) >= self.ndim``; extra dims lead).

    >>> repeat(np.array([1, 2]), (2, 2))
    array([[1, 2, 1, 2],
           [1, 2, 1, 2]])
    """
    repeats = tuple(repeats)
    _, shape = repeat_checks(self, repeats)
    try:
        return _c(np.tile(self, repeats))
    except (MemoryError, ValueError) as e:
        raise allocation_error(e, shape, self.dtype) from None


def repeat_checks(self, repeats) -> tuple:
    """``(self's shape with leading 1s for the extra repeats, the result's shape)`` of a ``repeat``
    (shared with the cuda kernel)."""
    repeats = tuple(repeats)
    if len(repeats) < self.ndim:
        raise RuntimeError(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"
        )
    padded = (1,) * (len(repeats) - self.ndim) + tuple(self.shape)
    target = [s * r for s, r in zip(padded, repeats)]
    for n in target:
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: {target}")
    return padded, tuple(target)


def clone(self, memory_format=None):
    """A copy of ``self``: C-contiguous for "contiguous_format", else keeping its layout (preserve_format).

    >>> clone(np.arange(6).reshape(2, 3).T).strides == np.arange(6).reshape(2, 3).T.strides
    True
    """
    check_rank(memory_format, self.ndim)
    if memory_format == "contiguous_format":
        try:
            return np.array(self, order="C", copy=True)
        except (MemoryError, ValueError) as e:
            raise allocation_error(e, self.shape, self.dtype) from None
    out = _empty_like_preserve(self, self.dtype)
    out[...] = self
    return out


def copy_(self, src):
    """Write ``src``, broadcast to ``self``'s shape and converted to its dtype, into ``self``.

    >>> a = np.zeros((2, 2), np.int32); copy_(a, np.array([1.7, -2.7])); a
    array([[ 1, -2],
           [ 1, -2]], dtype=int32)
    """
    _assert_no_internal_overlap(self)
    _assert_no_partial_overlap(self, src)
    shape = _infer_size(self.shape, src.shape)
    if shape != self.shape:
        raise RuntimeError(
            f"output with shape {list(self.shape)} doesn't match the broadcast shape {list(shape)}"
        )
    self[...] = _cast(src, self.dtype)


def fill_(self, value):
    """Set every element of ``self`` to ``value`` (a Python number or a 0-d array).

    >>> a = np.zeros(3, np.uint8); fill_(a, -1); a
    array([255, 255, 255], dtype=uint8)
    """
    if isinstance(value, np.ndarray) and value.ndim > 0:
        raise RuntimeError(
            f"fill_ only supports 0-dimension value tensor but got tensor with {value.ndim} dimensions."
        )
    self[...] = _scalar_to(value, self.dtype)


def zero_(self):
    """Set every element of ``self`` to zero.

    >>> a = np.ones(2); zero_(a); a
    array([0., 0.])
    """
    self[...] = 0


def to_dtype(self, dtype):
    """A copy of ``self`` converted to ``dtype`` as torch converts, in ``self``'s memory layout.

    >>> to_dtype(np.array([-1.5, 2.7, 300.0]), np.dtype(np.uint8))
    array([255,   2,  44], dtype=uint8)
    """
    dtype = np.dtype(dtype)
    out = _empty_like_preserve(self, dtype)
    out[...] = _cast(self, dtype)
    return out


def contiguous(self):
    """A C-contiguous copy of ``self``.

    >>> contiguous(np.arange(6).reshape(2, 3).T).flags.c_contiguous
    True
    """
    try:
        return self.copy(order="C")
    except (MemoryError, ValueError) as e:
        raise allocation_error(e, self.shape, self.dtype) from None
