"""Python indexing on Tensor: ``x[index]`` and ``x[index] = value``, with PyTorch's semantics.

The algorithm is PyTorch's own (``THPVariable_getitem``/``setitem`` in
torch/csrc/autograd/python_variable_indexing.cpp and ``applySlicing`` in ATen/TensorIndexing.h), so
its corner cases come out the same: the index is read left to right, ints become ``select``, slices
``slice``, None ``unsqueeze`` — views that share storage and version counter and record
SelectBackward0/SliceBackward0/UnsqueezeBackward0 — while index tensors, masks and lists are only
collected, with their positions, and applied at the end by one ``index.Tensor`` (or ``index_put_``)
call on the view built so far. The positions are those of that view, which is why ``x[0, :, [1, 2]]``
keeps the indexed dim in place where NumPy would move it to the front.

>>> import yaten
>>> x = yaten.arange(12).reshape(3, 4)
>>> x[1:, ::2]
tensor([[ 4,  6],
        [ 8, 10]])
>>> x[[0, 2], -1]
tensor([ 3, 11])
>>> x[x > 9] = 0
>>> x[2]
tensor([8, 9, 0, 0])
"""

import collections.abc
import operator
import sys
import warnings

import numpy as np

from . import _dtype as D
from ._dtype import LEGACY_NAME
from ._factories import empty, full, type_name, zeros
from ._factories import tensor as _tensor_from_data
from ._generated import ops
from ._tensor import Tensor

_MASK_DTYPES = (D.bool, D.uint8)
_SSIZE_MAX = sys.maxsize
_SSIZE_MIN = -sys.maxsize - 1
_SEQUENCE_WARNING = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed in pytorch "
    "2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be interpreted as tensor index, "
    "x[torch.tensor(seq)], which will result either in an error or a different result"
)


# --- reading one index --------------------------------------------------------------------------------


def _is_long(obj) -> bool:
    """An int index as torch's THPUtils_checkLong sees it: Python ints (not bools) and NumPy integers."""
    return (
        type(obj) is int
        or isinstance(obj, np.integer)
        or (isinstance(obj, int) and not isinstance(obj, bool))
    )


def _is_sequence(obj) -> bool:
    # Python's PySequence_Check, minus the types handled before it is asked.
    return isinstance(obj, (list, tuple, range, str, bytes, np.ndarray, collections.abc.Sequence))


def _invalid_index(obj) -> IndexError:
    return IndexError(
        "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
        f"valid indices (got {type_name(obj)})"
    )


def _slice_bound(v, default: int) -> int:
    """One bound of a Python slice as CPython reads it: None -> default, else ``__index__``, clipped."""
    if v is None:
        return default
    if not hasattr(type(v), "__index__"):
        raise TypeError("slice indices must be integers or None or have an __index__ method")
    return min(max(operator.index(v), _SSIZE_MIN), _SSIZE_MAX)


def _unpack_slice(s: slice) -> tuple:
    step = _slice_bound(s.step, 1)
    if step == 0:
        raise ValueError("slice step cannot be zero")
    start = _slice_bound(s.start, _SSIZE_MAX if step < 0 else 0)
    stop = _slice_bound(s.stop, _SSIZE_MIN if step < 0 else _SSIZE_MAX)
    return start, stop, step


def _as_tuple(index) -> tuple:
    """The index as a tuple of per-dim indices (torch's wrapTuple with NumPy's old sequence heuristic).

    A short non-tuple sequence holding a tensor, sequence, slice, Ellipsis or None is read as a tuple
    (``x[[0, slice(None)]]`` is ``x[0, :]``), with PyTorch's deprecation warning; any other list is one
    index (``x[[0, 2]]``).
    """
    if isinstance(index, tuple):
        return index
    if isinstance(index, (Tensor, np.ndarray)) or not _is_sequence(index):
        return (index,)
    try:
        n = len(index)
    except TypeError:
        return (index,)
    if n < 32:
        for obj in index:
            if obj is None or obj is Ellipsis or isinstance(obj, (Tensor, slice)) or _is_sequence(obj):
                warnings.warn(_SEQUENCE_WARNING, UserWarning, stacklevel=3)
                return tuple(index)
    return (index,)


def _count_specified_dims(indices: tuple) -> int:
    # Every entry but None, Ellipsis and bools consumes a dim; a mask tensor consumes one per mask dim.
    count = 0
    for obj in indices:
        if isinstance(obj, Tensor):
            count += obj.ndim if obj.dtype in _MASK_DTYPES else 1
        elif not (obj is None or obj is Ellipsis or obj is True or obj is False):
            count += 1
    return count


def _index_tensor_from_sequence(seq, device) -> Tensor:
    # As torch's indexing_tensor_from_data: bool and uint8 data stay masks, anything else becomes int64.
    if isinstance(seq, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(seq).__name__}'")
    t = _tensor_from_data(seq, device=device)
    return t if t.dtype in _MASK_DTYPES or t.dtype is D.int64 else t.to(D.int64)


def _bool_to_index(value: bool, device) -> Tensor:
    # A bool adds a dim of size 1 (unsqueeze); True keeps it ([0]), False empties it ([]).
    return zeros(1, dtype=D.int64, device=device) if value else empty(0, dtype=D.int64, device=device)


# --- the basic (view) steps ---------------------------------------------------------------------------


def _select(t: Tensor, dim: int, index: int, real_dim: int) -> Tensor:
    shape = t.shape
    if index == 0 and dim == 0 and not shape:
        raise IndexError(
            "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
            "in C++ to convert a 0-dim tensor to a number"
        )
    size = shape[dim] if dim < len(shape) else 0
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {real_dim} with size {size}")
    return ops.select_int(t, dim, index)


def _slice(t: Tensor, dim: int, s: slice, optimize: bool) -> Tensor:
    start, stop, step = _unpack_slice(s)
    if step <= 0:
        raise ValueError("step must be greater than zero")
    # A full slice inside a longer index is skipped (no SliceBackward0), as in torch; x[:] alone is not.
    if optimize and t.ndim and start == 0 and step == 1 and stop >= t.shape[dim]:
        return t
    return ops.slice_Tensor(t, dim, start, stop, step)


def _alias(t: Tensor) -> Tensor:
    # torch returns at::alias(t) for x[...] and x[:, :]; the spec has no alias op, and a view to the
    # same shape is the same new tensor over the same memory (recorded as ViewBackward0).
    return ops.view(t, list(t.shape))


def _apply_slicing(self: Tensor, indices: tuple) -> tuple:
    """Apply the basic entries of ``indices`` to ``self`` as views; collect the advanced ones.

    Returns ``(view, tensor_indices)``: ``tensor_indices`` is empty for basic indexing, else the
    ``index.Tensor`` argument for ``view`` (None for dims left whole).
    """
    specified = _count_specified_dims(indices)
    if specified > self.ndim:
        raise IndexError(f"too many indices for tensor of dimension {self.ndim}")
    result, dim, out = self, 0, []

    def record(t: Tensor) -> None:
        nonlocal dim
        if not out:
            out.extend([None] * dim)
        out.append(t)
        dim += t.ndim if t.dtype in _MASK_DTYPES else 1

    for real_dim, obj in enumerate(indices):
        if _is_long(obj):
            result = _select(result, dim, int(obj), real_dim)
        elif type(obj) is slice:
            result = _slice(result, dim, obj, optimize=True)
            dim += 1
            if out:
                out.append(None)
        elif obj is Ellipsis:
            n = self.ndim - specified
            dim += n
            if out:
                out.extend([None] * n)
        elif obj is None:
            result = ops.unsqueeze(result, dim)
            dim += 1
            if out:
                out.append(None)
        elif isinstance(obj, bool):
            result = ops.unsqueeze(result, dim)
            record(_bool_to_index(obj, self.device))
        elif isinstance(obj, Tensor):
            if obj.ndim == 0 and obj.dtype.kind in "ib":  # a 0-d integer tensor acts as the number
                if obj.dtype in _MASK_DTYPES:
                    result = ops.unsqueeze(result, dim)
                    record(_bool_to_index(bool(obj.item()), self.device))
                else:
                    result = _select(result, dim, int(obj.item()), real_dim)
            else:
                record(obj)
        elif _is_sequence(obj):
            record(_index_tensor_from_sequence(obj, self.device))
        else:
            try:
                i = operator.index(obj)
            except TypeError:
                raise _invalid_index(obj) from None
            result = _select(result, dim, i, real_dim)
    return result, out


def _tensor_indices(self: Tensor, out: list) -> list:
    # Trailing whole dims need no entry; index tensors follow self to its device.
    while out and out[-1] is None:
        out.pop()
    dev = self.device
    return [t if t is None or t.device == dev else t.to(dev) for t in out]


# --- x[index] -----------------------------------------------------------------------------------------


def getitem(self: Tensor, index) -> Tensor:
    """``self[index]``: a view for ints, slices, None and Ellipsis; a new tensor when any index is a
    tensor, a list or a bool.

    >>> import yaten
    >>> x = yaten.arange(6).reshape(2, 3)
    >>> x[:, 1], x[..., None].shape, x[x % 2 == 0]
    (tensor([1, 4]), yaten.Size([2, 3, 1]), tensor([0, 2, 4]))
    """
    # Single basic indices take the short road, as in torch (x[:] records SliceBackward0).
    if index is None:
        return ops.unsqueeze(self, 0)
    if index is Ellipsis:
        return _alias(self)
    if _is_long(index):
        return _select(self, 0, int(index), 0)
    if type(index) is slice:
        return _slice(self, 0, index, optimize=False)
    if index is True or index is False:
        result = ops.unsqueeze(self, 0)
        return ops.index_Tensor(result, [_bool_to_index(index, self.device)])
    result, out = _apply_slicing(self, _as_tuple(index))
    if not out:
        return _alias(self) if result is self else result
    return ops.index_Tensor(result, _tensor_indices(self, out))


# --- x[index] = value ---------------------------------------------------------------------------------


def _legacy_type_name(t: Tensor) -> str:
    prefix = "torch.cuda." if t.device.type == "cuda" else "torch."
    return f"{prefix}{LEGACY_NAME[t.dtype]}Tensor"


def _check_value(self: Tensor, value) -> None:
    if not isinstance(value, (Tensor, int, float, complex, np.integer)):
        raise TypeError(f"can't assign a {type_name(value)} to a {_legacy_type_name(self)}")


def _strip_leading_ones(t: Tensor) -> Tensor:
    # NumPy's old rule, kept by torch: a value's leading size-1 dims are dropped before broadcasting.
    shape = list(t.shape)
    k = 0
    while k < len(shape) and shape[k] == 1:
        k += 1
    return ops.view(t, shape[k:]) if k else t


def _copy_to(dst: Tensor, value) -> None:
    """Write ``value`` (a tensor, or a number: torch makes it a 0-d tensor of dst's dtype and fills)
    into the view ``dst``."""
    if not isinstance(value, Tensor):
        ops.fill__Scalar(dst, value)
    elif dst.shape == value.shape or value.ndim == 0:
        ops.copy_(dst, value)
    else:
        ops.copy_(dst, ops.expand(_strip_leading_ones(value), list(dst.shape)))


def setitem(self: Tensor, index, value) -> None:
    """``self[index] = value``: writes through the view for basic indices, ``index_put_`` otherwise.

    ``value`` (a tensor or a Python number) broadcasts to the indexed shape; numbers take self's dtype.

    >>> import yaten
    >>> x = yaten.zeros(2, 3)
    >>> x[0] = 1; x[:, [0, 2]] = yaten.tensor([5.0, 6.0]); x
    tensor([[5., 1., 6.],
            [5., 0., 6.]])
    """
    _check_value(self, value)
    if index is False:
        return
    if index is Ellipsis:
        _copy_to(self, value)
        return
    if index is None or index is True:
        _copy_to(ops.unsqueeze(self, 0), value)
        return
    if _is_long(index):
        _copy_to(_select(self, 0, int(index), 0), value)
        return
    if type(index) is slice:
        _copy_to(_slice(self, 0, index, optimize=True), value)
        return
    result, out = _apply_slicing(self, _as_tuple(index))
    if not out:
        _copy_to(result, value)
        return
    indices = _tensor_indices(self, out)
    v = (
        _strip_leading_ones(value)
        if isinstance(value, Tensor)
        else full((), value, dtype=self.dtype, device=self.device)
    )
    if _fills_one_mask(indices, v):
        # torch runs this case as masked_fill_(mask, value.item()): the value is converted (every other
        # advanced write needs matching dtypes, index_put_ says so), and a uint8 mask is refused.
        if indices[-1].dtype is D.uint8:
            raise RuntimeError(
                "masked_fill_ only supports boolean masks, but got mask with dtype unsigned char"
            )
        if v.dtype != self.dtype:
            v = v.to(self.dtype)
    ops.index_put_(result, indices, v)


def _fills_one_mask(indices: list, v: Tensor) -> bool:
    """Whether torch's index_put_ would dispatch to masked_fill_: one mask (the last entry, as trailing
    Nones are gone) and a one-element CPU value."""
    return (
        v.numel() == 1
        and v.device.type == "cpu"
        and indices[-1].dtype in _MASK_DTYPES
        and all(t is None for t in indices[:-1])
    )


def delitem(self: Tensor, index) -> None:
    raise TypeError("Tensor does not support deleting items")


Tensor.__getitem__ = getitem
Tensor.__setitem__ = setitem
Tensor.__delitem__ = delitem
