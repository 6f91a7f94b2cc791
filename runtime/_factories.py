"""Tensor factories: ``tensor``, ``zeros``, ``arange`` and friends.

Every factory computes its values as a NumPy array on the host and hands it to ``make``, which moves
it to the target device with ``backend(device).from_host`` and wraps it: one path for every device.
Dtype inference, argument errors and values follow PyTorch. ``arange`` and ``linspace`` live in
``_ranges``.
"""

import builtins
import collections.abc
import math
import warnings

import ml_dtypes
import numpy as np
from numpy.lib.stride_tricks import as_strided

from . import _device as _dev
from . import _dtype as D
from ._backend import backend
from ._host_allocator import allocation_error
from ._layout import contiguous_strides, preserve_format_strides
from ._promotion import default_complex_dtype, promote_types
from ._tensor import Size, Tensor, wrap

__all__ = [
    "as_tensor", "empty", "empty_like", "empty_strided", "eye", "from_numpy", "full", "full_like", "ones",
    "ones_like", "tensor", "zeros", "zeros_like",
]  # fmt: skip


_COPY_WARNING = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
    "sourceTensor.detach().clone().requires_grad_(True), rather than yaten.tensor(sourceTensor)."
)
_NOT_WRITABLE_WARNING = (
    "The given NumPy array is not writable, and yaten does not support non-writable tensors. This means "
    "writing to this tensor will result in undefined behavior. You may want to copy the array to protect "
    "its data or make it writable before converting it to a tensor."
)


# --- argument helpers (shared with _random) ---------------------------------------------------------
def type_name(x) -> str:
    """The type of ``x`` as PyTorch's argument errors name it (``float``, ``numpy.float64``, ``Tensor``)."""
    if isinstance(x, Tensor):
        return "Tensor"
    t = type(x)
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"


def not_implemented(kernel: str, dtype: D.dtype) -> NotImplementedError:
    """PyTorch's error for a kernel that has no loop for ``dtype``."""
    return NotImplementedError(f"\"{kernel}\" not implemented for '{D.LEGACY_NAME[dtype]}'")


def dtype_arg(fn: str, dtype):
    """A ``dtype=`` argument as a yaten dtype (or None); Python's float/int/bool mean float64/int64/bool."""
    if dtype is None or isinstance(dtype, D.dtype):
        return dtype
    if dtype is builtins.float:
        return D.float64
    if dtype is builtins.int:
        return D.int64
    if dtype is builtins.bool:
        return D.bool
    raise TypeError(f"{fn}(): argument 'dtype' must be yaten.dtype, not {type_name(dtype)}")


def check_requires_grad(dtype: D.dtype, requires_grad) -> None:
    if requires_grad and not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")


def options(fn: str, dtype, device, requires_grad, default=None):
    """The ``(dtype, device)`` of a new tensor from a factory's keyword arguments, validated."""
    dt = dtype_arg(fn, dtype) or default or D.get_default_dtype()
    check_requires_grad(dt, requires_grad)
    return dt, _dev.canonical(device)


def make(host: np.ndarray, device: _dev.device, requires_grad=False, strides=None) -> Tensor:
    """The tensor on ``device`` holding the values of host array ``host`` (every factory ends here).

    ``strides``: the element strides an empty ``host`` stands for (NumPy keeps none for empty arrays;
    without them an empty tensor reports contiguous strides).
    """
    t = wrap(backend(device).from_host(host), device, builtins.bool(requires_grad))
    if strides is not None and host.size == 0:
        t._strides = tuple(strides)
    return t


def as_index(x):
    """``x`` as a Python int if it is an integer (int, NumPy integer, 0-d integer tensor), else None."""
    if isinstance(x, (builtins.bool, np.bool_)):
        return None
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, Tensor) and x.ndim == 0 and x.dtype.kind == "i":
        return int(x.item())
    return None


def check_shape(shape, message=None) -> tuple:
    for n in shape:
        if n < 0:
            raise RuntimeError(
                message or f"Trying to create tensor with negative dimension {n}: {list(shape)}"
            )
    return tuple(shape)


def _shape_items(fn: str, items, message=None) -> tuple:
    shape = []
    for i, x in enumerate(items):
        n = as_index(x)
        if n is None:
            raise TypeError(
                f"{fn}(): argument 'size' failed to unpack the object at pos {i + 1} with error "
                f'"type must be tuple of ints,but got {type_name(x)}"'
            )
        if not -(2**63) <= n < 2**63:
            raise TypeError(
                f"{fn}(): argument 'size' failed to unpack the object at pos {i + 1} with error "
                '"Overflow when unpacking long long"'
            )
        shape.append(n)
    return check_shape(shape, message)


def parse_size(fn: str, args: tuple, size=None, message=None) -> tuple:
    """The shape from a factory's ``*size`` (ints, one tuple/list/Size) or its ``size=`` keyword."""
    if size is not None:
        if args:
            raise TypeError(f"{fn}() got multiple values for argument 'size'")
        args = (size,)
    if not args:
        raise TypeError(f'{fn}() missing 1 required positional arguments: "size"')
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return _shape_items(fn, args[0], message)
    if len(args) == 1 and as_index(args[0]) is None:
        raise TypeError(
            f"{fn}(): argument 'size' (position 1) must be tuple of ints, not {type_name(args[0])}"
        )
    return _shape_items(fn, args, message)


def size_arg(fn: str, size, position: int) -> tuple:
    """The shape from a ``size`` parameter that must be a sequence (``full``, ``randint``, ``normal``)."""
    if not isinstance(size, (tuple, list)):
        raise TypeError(
            f"{fn}(): argument 'size' (position {position}) must be tuple of ints, not {type_name(size)}"
        )
    return _shape_items(fn, size)


def tensor_arg(fn: str, name: str, position: int, x) -> Tensor:
    """``x``, which torch's argument parser would refuse unless it is a Tensor.

    >>> tensor_arg("hardtanh", "input", 1, None)
    Traceback (most recent call last):
    TypeError: hardtanh(): argument 'input' (position 1) must be Tensor, not NoneType
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be Tensor, not {type_name(x)}")
    return x


def number_arg(fn: str, name: str, position: int, x):
    """A Scalar argument as a Python int or float (bools count as ints, one-element tensors as their value)."""
    if isinstance(x, (builtins.bool, np.bool_, int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return float(x)
    if isinstance(x, Tensor) and x.numel() == 1:
        v = x.item()
        return int(v) if isinstance(v, builtins.bool) else v
    raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be Number, not {type_name(x)}")


def fill_scalar(fn: str, x, position: int):
    """A fill value as a Python number and the dtype PyTorch infers from it (bool, int64 or default float)."""
    if isinstance(x, builtins.bool):
        return x, D.bool
    if isinstance(x, (int, np.integer)):
        v = int(x)
        if not -(2**63) <= v < 2**64:
            raise OverflowError("int too big to convert")
        return v, D.int64
    if isinstance(x, (float, np.floating, np.bool_)):
        return float(x), D.get_default_dtype()
    if isinstance(x, (complex, np.complexfloating)):
        return complex(x), default_complex_dtype()
    if isinstance(x, Tensor) and x.ndim == 0:
        kind = x.dtype.kind
        if kind == "c":
            return x.item(), default_complex_dtype()
        return x.item(), D.bool if kind == "b" else D.int64 if kind == "i" else D.get_default_dtype()
    raise TypeError(f"{fn}(): argument 'fill_value' (position {position}) must be Number, not {type_name(x)}")


def checked_scalar(value, dtype: D.dtype, names=None):
    """``value`` converted to ``dtype`` as PyTorch's checked Scalar conversion does, as a NumPy scalar.

    Floats truncate toward zero into integer types and must lie in range (NaN never does); integers
    wrap into uint8 only from small negatives (-255..-1); floating targets reject finite values
    beyond their largest number. ``names`` maps dtypes to the type names the error uses.
    """
    err = RuntimeError(f"value cannot be converted to type {(names or D.C10_NAME)[dtype]} without overflow")
    if dtype is D.bool:
        return np.bool_(value)
    if dtype.is_complex:
        limit = float(np.finfo(dtype.np).max)
        z = complex(value)
        if any(math.isfinite(p) and abs(p) > limit for p in (z.real, z.imag)):
            raise err
        return dtype.np.type(z)
    if isinstance(value, complex):
        if value.imag != 0:
            raise err
        value = value.real
    if dtype.kind == "f":
        if math.isfinite(value) and abs(value) > float(ml_dtypes.finfo(dtype.np).max):
            raise err
        # PyTorch rounds a double to half and bfloat16 through float; rounding straight can differ.
        return dtype.np.type(np.float32(value)) if dtype.itemsize == 2 else dtype.np.type(value)
    info = np.iinfo(dtype.np)
    if isinstance(value, float):
        if not info.min <= value <= info.max:
            raise err
        return dtype.np.type(int(value))
    v = int(value)
    if info.min <= v <= info.max:
        return dtype.np.type(v)
    if dtype is D.uint8 and -info.max <= v < 0:
        return dtype.np.type(v % 256)
    raise err


# --- layouts --------------------------------------------------------------------------------------
def empty_host(shape, strides, np_dtype) -> np.ndarray:
    """An uninitialised host array with element ``strides`` (a view over a buffer it spans exactly)."""
    shape, strides = tuple(shape), tuple(strides)
    if strides == contiguous_strides(shape):
        try:
            return np.empty(shape, np_dtype)
        except (MemoryError, ValueError) as e:
            raise allocation_error(e, shape, np_dtype) from None
    item = np.dtype(np_dtype).itemsize
    span = 1 + sum((n - 1) * s for n, s in zip(shape, strides)) if all(shape) else 0
    try:
        base = np.empty(span, np_dtype)
    except (MemoryError, ValueError) as e:
        raise allocation_error(e, (span,), np_dtype) from None
    return as_strided(base, shape, tuple(s * item for s in strides))


def wants_contiguous(memory_format) -> bool:
    """Whether ``memory_format`` asks for a contiguous result (else: preserve the input's layout)."""
    if memory_format is None:
        return False
    name = str(memory_format).rpartition(".")[2]
    if name in ("preserve_format", "contiguous_format"):
        return name == "contiguous_format"
    raise RuntimeError(
        f"unsupported memory_format {memory_format}: yaten supports contiguous_format and preserve_format"
    )


def _copy_like(src: np.ndarray, strides, dtype: D.dtype) -> np.ndarray:
    out = empty_host(src.shape, preserve_format_strides(src.shape, strides), dtype.np)
    if (dtype is D.float16 and src.dtype == np.float64) or (dtype is D.bfloat16 and src.dtype != np.float32):
        src = src.astype(np.float32)  # torch converts double to half, and anything to bfloat16, through float
    with np.errstate(invalid="ignore", over="ignore"):
        out[...] = src
    return out


# --- tensor(): Python data to a host array -----------------------------------------------------------
def ndarray_dtype(arr: np.ndarray) -> D.dtype:
    """The yaten dtype of a NumPy array PyTorch would accept, with its errors for the others."""
    dt = arr.dtype
    known = D.BY_NP.get(dt if dt.isnative else dt.newbyteorder("="))
    if known is None or known is D.bfloat16:  # torch takes no NumPy bfloat16 (ml_dtypes') arrays
        raise TypeError(
            f"can't convert np.ndarray of type {dt.type.__module__}.{dt.type.__name__}. The only supported types are: "
            "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint8, and bool."
        )
    if not dt.isnative:
        raise ValueError(
            "given numpy array has byte order different from the native byte order. "
            "Conversion between byte orders is currently not supported."
        )
    if any(s < 0 for s in arr.strides):
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with negative strides are "
            "not currently supported. (You can probably work around this by making a copy of your array  with "
            "array.copy().) "
        )
    if any(s % dt.itemsize for s in arr.strides):
        raise ValueError(
            "given numpy array strides not a multiple of the element byte size. "
            "Copy the numpy array to reallocate the memory."
        )
    return known


def _discover_shape(data) -> tuple:
    # As PyTorch: the shape is read down the first elements; every other element is checked against it.
    shape, obj = [], data
    while True:
        if isinstance(obj, np.ndarray):
            shape.extend(obj.shape)
            return tuple(shape)
        if isinstance(obj, str) and shape:
            raise ValueError("too many dimensions 'str'")
        if isinstance(obj, bytes):  # a sequence of ints to Python, a string to torch
            raise TypeError("new(): invalid data type 'bytes'")
        if not isinstance(obj, collections.abc.Sequence):
            return tuple(shape)
        shape.append(len(obj))
        if len(shape) > 64:
            raise ValueError(f"too many dimensions '{type(obj).__name__}'")
        if not len(obj):
            return tuple(shape)
        obj = obj[0]


_PLAIN = frozenset((int, float, builtins.bool, complex))


def _leaf(x, flat: list) -> D.dtype:
    if isinstance(x, (builtins.bool, np.bool_)):
        flat.append(builtins.bool(x))
        return D.bool
    if isinstance(x, (np.generic, np.ndarray)):  # NumPy scalars and 0-d arrays keep their dtype
        if isinstance(x, np.ndarray) and x.ndim:
            raise TypeError("expected a number but got numpy.ndarray: the data is nested unevenly")
        dt = ndarray_dtype(np.asarray(x))
        flat.append(x.item())
        return dt
    if isinstance(x, int):
        flat.append(x)
        return D.int64
    if isinstance(x, float):
        flat.append(x)
        return D.get_default_dtype()
    if isinstance(x, Tensor):
        if x.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        flat.append(x.item())
        return x.dtype
    if isinstance(x, str):
        raise TypeError("new(): invalid data type 'str'")
    if isinstance(x, complex):
        flat.append(x)
        return default_complex_dtype()
    if isinstance(x, collections.abc.Sequence):
        raise TypeError(f"expected a number but got {type_name(x)}: the data is nested unevenly")
    raise RuntimeError(f"Could not infer dtype of {type(x).__name__}")


def _walk(obj, shape: tuple, dim: int, flat: list) -> D.dtype:
    """Append the numbers under ``obj`` (at depth ``dim``) to ``flat``; return their promoted dtype."""
    if dim == len(shape):
        return _leaf(obj, flat)
    if isinstance(obj, np.ndarray) and obj.ndim:
        for d, (got, want) in enumerate(zip(obj.shape, shape[dim:])):
            if got != want:
                raise ValueError(f"expected sequence of length {want} at dim {dim + d} (got {got})")
        if obj.ndim != len(shape) - dim:
            raise TypeError("expected a number but got numpy.ndarray: the data is nested unevenly")
        dt = ndarray_dtype(obj)
        flat.extend(obj.ravel().tolist())
        return dt
    if isinstance(obj, str):
        raise TypeError("new(): invalid data type 'str'")
    if not isinstance(obj, collections.abc.Sequence):
        raise TypeError("not a sequence")
    n = len(obj)
    if n != shape[dim]:
        raise ValueError(f"expected sequence of length {shape[dim]} at dim {dim} (got {n})")
    if n == 0:
        return D.get_default_dtype()  # PyTorch: an empty sequence counts as the default dtype
    if dim == len(shape) - 1 and isinstance(obj, (list, tuple)):
        kinds = set(map(type, obj))
        if kinds <= _PLAIN:  # the common case, without a Python call per number
            flat.extend(obj)
            if complex in kinds:
                return default_complex_dtype()
            return D.get_default_dtype() if float in kinds else D.int64 if int in kinds else D.bool
    out = None
    for item in obj:
        dt = _walk(item, shape, dim + 1, flat)
        out = dt if out is None else promote_types(out, dt)
    return out


def _convert(flat: list, inferred: D.dtype, target: D.dtype) -> np.ndarray:
    """``flat`` Python numbers as a ``target`` array, with PyTorch's per-element overflow checks."""
    if inferred.is_complex and not target.is_complex:
        return _complex_to_real(flat, target)
    if target.kind == "i" and inferred.kind == "f":  # each number converts by its own type, as in torch
        names = {target: target.name}
        return np.array([checked_scalar(v, target, names) for v in flat], target.np)
    if target.kind == "i":
        carrier = np.int64
    elif target.is_complex:
        carrier = np.complex128
    else:
        carrier = np.bool_ if target is D.bool and inferred is D.bool else np.float64
    try:
        arr = np.array(flat, carrier)
    except OverflowError:
        raise ValueError("Overflow when unpacking long long") from None
    if target.kind == "i":
        info = np.iinfo(target.np)
        low = -info.max if target is D.uint8 else info.min  # small negatives wrap into uint8
        if target is not D.int64 and ((arr < low) | (arr > info.max)).any():
            raise RuntimeError(f"value cannot be converted to type {target.name} without overflow")
        return arr.astype(target.np)
    with np.errstate(over="ignore"):  # out-of-range floats become inf, as in torch
        if target is D.float16 or target is D.bfloat16:
            arr = arr.astype(np.float32)  # torch rounds a double to half and bfloat16 through float
        return arr.astype(target.np)


def _complex_to_real(flat: list, target: D.dtype) -> np.ndarray:
    # torch converts each number by the target's Python type: a complex one only becomes a bool.
    if target is D.bool:
        return np.array([v != 0 for v in flat], np.bool_)
    for v in flat:
        if isinstance(v, complex):
            if target.kind == "i":
                raise TypeError("'complex' object cannot be interpreted as an integer")
            raise TypeError("must be real number, not complex")
    return _convert(flat, D.float64, target)


def _host_from_data(data, dtype) -> np.ndarray:
    if isinstance(data, str):
        raise TypeError("new(): invalid data type 'str'")
    shape = _discover_shape(data)
    flat = []
    inferred = _walk(data, shape, 0, flat)
    return _convert(flat, inferred, dtype or inferred).reshape(shape)


# --- construction from data -------------------------------------------------------------------------
def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False) -> Tensor:
    """A new tensor holding a copy of ``data`` (numbers, nested sequences, NumPy arrays, tensors).

    The dtype is inferred as PyTorch does: bools give bool, ints int64, any float the default dtype;
    NumPy arrays and scalars keep their dtype.

    >>> import yaten
    >>> yaten.tensor([[1, 2], [3, 4]])
    tensor([[1, 2],
            [3, 4]])
    >>> yaten.tensor([1, 2.5]).dtype, yaten.tensor(True).dtype
    (yaten.float32, yaten.bool)
    """
    dt = dtype_arg("tensor", dtype)
    dev = None if device is None else _dev.canonical(device)
    if isinstance(data, Tensor):
        warnings.warn(_COPY_WARNING, UserWarning, stacklevel=2)
        host = _copy_like(data._host(), data.stride(), dt or data.dtype)
        dev = dev or data.device
    elif isinstance(data, np.ndarray):
        src = ndarray_dtype(data)
        host = _copy_like(data, [s // data.itemsize for s in data.strides], dt or src)
    else:
        host = _host_from_data(data, dt)
    check_requires_grad(D.BY_NP[host.dtype], requires_grad)
    return make(host, dev or _dev.CPU, requires_grad)


def from_numpy(ndarray) -> Tensor:
    """A CPU tensor sharing memory with NumPy array ``ndarray`` (writes to one show in the other).

    >>> import numpy as np, yaten
    >>> a = np.zeros(3, dtype=np.float32)
    >>> t = yaten.from_numpy(a)
    >>> a[0] = 5
    >>> t
    tensor([5., 0., 0.])
    """
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type_name(ndarray)})")
    ndarray_dtype(ndarray)
    if not ndarray.flags.writeable:
        warnings.warn(_NOT_WRITABLE_WARNING, UserWarning, stacklevel=2)
    t = wrap(ndarray, _dev.CPU)
    if (
        ndarray.size == 0
    ):  # the array's own strides, as PyTorch keeps them (a new empty tensor's are contiguous)
        t._strides = tuple(s // ndarray.itemsize for s in ndarray.strides)
    return t


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """``data`` as a tensor, sharing memory with a tensor or NumPy array when no conversion is needed.

    >>> import numpy as np, yaten
    >>> a = np.array([1, 2, 3])
    >>> t = yaten.as_tensor(a)
    >>> a[0] = -1
    >>> t
    tensor([-1,  2,  3])
    """
    dt = dtype_arg("as_tensor", dtype)
    dev = None if device is None else _dev.canonical(device)
    if isinstance(data, Tensor):
        if (dt is None or dt is data.dtype) and (dev is None or dev == data.device):
            return data
        return data.to(device=dev or data.device, dtype=dt or data.dtype)
    on_cpu = dev is None or dev.type == "cpu"
    if isinstance(data, np.ndarray) and on_cpu and (dt is None or dt is ndarray_dtype(data)):
        return from_numpy(data)
    return tensor(data, dtype=dt, device=dev)


def legacy_new(cls, *args, **kwargs) -> Tensor:
    """``yaten.Tensor(...)``: sizes give an uninitialised tensor, data a copy, in the default float dtype.

    >>> import yaten
    >>> yaten.Tensor([1, 2])
    tensor([1., 2.])
    >>> yaten.Tensor(2, 3).shape
    yaten.Size([2, 3])
    """
    device = kwargs.pop("device", None)
    if kwargs:
        raise TypeError(
            f"new() received an invalid combination of arguments - got unexpected keyword argument(s) "
            f"{', '.join(kwargs)}; expected (*size, device=None) or (data, device=None)"
        )
    out = legacy_construct(D.get_default_dtype(), args, _dev.canonical(device))
    if cls is not Tensor:
        out.__class__ = cls
    return out


def legacy_construct(dt: D.dtype, args: tuple, dev: _dev.device) -> Tensor:
    """What the legacy constructors (``yaten.Tensor``, ``yaten.FloatTensor``) make of their positional
    arguments: nothing an empty tensor, sizes an uninitialised one, data a copy (in ``dt``), a tensor an
    alias of it."""
    data = args[0] if len(args) == 1 else None
    if not args:
        return make(np.empty((0,), dt.np), dev)
    if isinstance(data, Tensor):
        return data.view(data.shape)  # an alias sharing storage and history, as torch.Tensor(t)
    if isinstance(data, Size):
        return empty(data, dtype=dt, device=dev)
    if isinstance(data, (str, np.ndarray, collections.abc.Sequence)):
        return tensor(data, dtype=dt, device=dev)
    if len(args) == 1 and as_index(data) is None:
        raise TypeError(f"new(): data must be a sequence (got {type_name(data)})")
    return wrap(backend(dev).empty(parse_size("new", args), dt.np), dev)


def tensor_from_host(host: np.ndarray, device: str, requires_grad: bool) -> Tensor:
    """A tensor on ``device`` holding host array ``host`` (how pickled tensors are rebuilt).

    >>> import numpy as np
    >>> from yaten._factories import tensor_from_host
    >>> tensor_from_host(np.ones(2, np.float32), "cpu", True)
    tensor([1., 1.], requires_grad=True)
    """
    return make(host, _dev.canonical(device), requires_grad)


# --- filled tensors ---------------------------------------------------------------------------------
def empty(*args, size=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False,
          memory_format=None) -> Tensor:  # fmt: skip
    """An uninitialised tensor of the given size.

    >>> import yaten
    >>> yaten.empty(2, 3).shape
    yaten.Size([2, 3])
    """
    shape = parse_size("empty", args, size)
    dt, dev = options("empty", dtype, device, requires_grad)
    wants_contiguous(memory_format)
    try:
        data = backend(dev).empty(shape, dt.np)
    except (MemoryError, ValueError) as e:
        raise allocation_error(e, shape, dt.np) from None
    return wrap(data, dev, builtins.bool(requires_grad))


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False,
                  pin_memory=False) -> Tensor:  # fmt: skip
    """An uninitialised tensor with the given ``size`` and element ``stride``.

    >>> import yaten
    >>> yaten.empty_strided((2, 3), (1, 2)).stride()
    (1, 2)
    """
    shape = size_arg("empty_strided", size, 1)
    strides = size_arg("empty_strided", stride, 2)
    if len(strides) != len(shape):
        raise RuntimeError(
            f"mismatch in length of strides and shape: {len(shape)} sizes but {len(strides)} strides"
        )
    dt, dev = options("empty_strided", dtype, device, requires_grad)
    return make(empty_host(shape, strides, dt.np), dev, requires_grad)


def zeros(*args, size=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False) -> Tensor:  # fmt: skip
    """A tensor of zeros.

    >>> import yaten
    >>> yaten.zeros(2, 3)
    tensor([[0., 0., 0.],
            [0., 0., 0.]])
    """
    shape = parse_size("zeros", args, size, message="zeros: Dimension size must be non-negative.")
    dt, dev = options("zeros", dtype, device, requires_grad)
    try:
        host = np.zeros(shape, dt.np)
    except (MemoryError, ValueError) as e:
        raise allocation_error(e, shape, dt.np) from None
    return make(host, dev, requires_grad)


def ones(*args, size=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False) -> Tensor:  # fmt: skip
    """A tensor of ones.

    >>> import yaten
    >>> yaten.ones((2,), dtype=yaten.int64)
    tensor([1, 1])
    """
    shape = parse_size("ones", args, size)
    dt, dev = options("ones", dtype, device, requires_grad)
    try:
        host = np.ones(shape, dt.np)
    except (MemoryError, ValueError) as e:
        raise allocation_error(e, shape, dt.np) from None
    return make(host, dev, requires_grad)


def full(size, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False) -> Tensor:  # fmt: skip
    """A tensor filled with ``fill_value``; its dtype is inferred from the value unless given.

    >>> import yaten
    >>> yaten.full((2, 2), 7)
    tensor([[7, 7],
            [7, 7]])
    """
    shape = size_arg("full", size, 1)
    value, inferred = fill_scalar("full", fill_value, 2)
    dt, dev = options("full", dtype, device, requires_grad, default=inferred)
    fill = checked_scalar(value, dt)
    try:
        host = np.full(shape, fill, dt.np)
    except (MemoryError, ValueError) as e:
        raise allocation_error(e, shape, dt.np) from None
    return make(host, dev, requires_grad)


def eye(n, m=None, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False) -> Tensor:
    """A 2-D tensor with ones on the diagonal (``n`` rows, ``m`` columns, ``m`` defaults to ``n``).

    >>> import yaten
    >>> yaten.eye(2, 3)
    tensor([[1., 0., 0.],
            [0., 1., 0.]])
    """
    rows = as_index(n)
    if rows is None:
        raise TypeError(f"eye(): argument 'n' (position 1) must be int, not {type_name(n)}")
    cols = rows if m is None else as_index(m)
    if cols is None:
        raise TypeError(f"eye(): argument 'm' (position 2) must be int, not {type_name(m)}")
    if rows < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {rows}")
    if cols < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {cols}")
    dt, dev = options("eye", dtype, device, requires_grad)
    try:
        host = np.eye(rows, cols, dtype=dt.np)
    except (MemoryError, ValueError) as e:
        raise allocation_error(e, (rows, cols), dt.np) from None
    return make(host, dev, requires_grad)


# --- *_like -----------------------------------------------------------------------------------------
def like(fn: str, input, dtype, device, requires_grad, memory_format):
    """The dtype, device, host array and element strides of a new tensor shaped like ``input``
    (shared with _random)."""
    tensor_arg(fn, "input", 1, input)
    if input.is_sparse:  # zeros_like and empty_like make sparse tensors; the fills have no sparse kernel
        from ._dispatch import no_sparse_kernel

        raise no_sparse_kernel(_SPARSE_FILL.get(fn, fn), input._device)
    dt = dtype_arg(fn, dtype) or input.dtype
    dev = input.device if device is None else _dev.canonical(device)
    check_requires_grad(dt, requires_grad)
    shape = tuple(input.shape)
    strides = (
        contiguous_strides(shape)
        if wants_contiguous(memory_format)
        else preserve_format_strides(shape, input.stride())
    )
    return dt, dev, empty_host(shape, strides, dt.np), strides


# The op torch's *_like of a sparse tensor reaches first, which has no sparse kernel.
_SPARSE_FILL = {"ones_like": "fill_.Scalar", "full_like": "fill_.Scalar", "rand_like": "uniform_",
                "randn_like": "normal_", "randint_like": "random_.from", "bernoulli": "bernoulli_.float"}  # fmt: skip


def _sparse_zeros_like(input, dtype, device, requires_grad) -> Tensor:
    """torch's zeros_like/empty_like of a sparse tensor: a sparse one with no entries, same sparse dims."""
    from .sparse._factory import sparse_coo_tensor

    dev = input.device if device is None else _dev.canonical(device)
    values = zeros((0, *input.shape[input.sparse_dim() :]), dtype=dtype or input.dtype, device=dev)
    indices = zeros((input.sparse_dim(), 0), dtype=D.int64, device=dev)
    return sparse_coo_tensor(indices, values, input.shape, requires_grad=requires_grad, is_coalesced=True)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,
               memory_format=None) -> Tensor:  # fmt: skip
    """An uninitialised tensor with the shape (and, by default, dtype, device and layout) of ``input``.

    >>> import yaten
    >>> yaten.empty_like(yaten.ones(2, 3), dtype=yaten.int32).dtype
    yaten.int32
    """
    if isinstance(input, Tensor) and input.is_sparse:
        return _sparse_zeros_like(input, dtype, device, requires_grad)
    _, dev, host, strides = like("empty_like", input, dtype, device, requires_grad, memory_format)
    return make(host, dev, requires_grad, strides)


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,
               memory_format=None) -> Tensor:  # fmt: skip
    """Zeros shaped like ``input``.

    >>> import yaten
    >>> yaten.zeros_like(yaten.tensor([[1, 2]]))
    tensor([[0, 0]])
    """
    if isinstance(input, Tensor) and input.is_sparse:
        return _sparse_zeros_like(input, dtype, device, requires_grad)
    _, dev, host, strides = like("zeros_like", input, dtype, device, requires_grad, memory_format)
    host[...] = 0
    return make(host, dev, requires_grad, strides)


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None) -> Tensor:  # fmt: skip
    """Ones shaped like ``input``.

    >>> import yaten
    >>> yaten.ones_like(yaten.zeros(2))
    tensor([1., 1.])
    """
    _, dev, host, strides = like("ones_like", input, dtype, device, requires_grad, memory_format)
    host[...] = 1
    return make(host, dev, requires_grad, strides)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None) -> Tensor:  # fmt: skip
    """``fill_value`` everywhere, shaped like ``input`` and of its dtype unless ``dtype`` is given.

    >>> import yaten
    >>> yaten.full_like(yaten.zeros(2, dtype=yaten.int64), 3.7)
    tensor([3, 3])
    """
    value, _ = fill_scalar("full_like", fill_value, 2)
    dt, dev, host, strides = like("full_like", input, dtype, device, requires_grad, memory_format)
    host[...] = checked_scalar(value, dt)
    return make(host, dev, requires_grad, strides)
