"""The legacy typed constructors, ``yaten.FloatTensor`` and friends, as torch's.

``FloatTensor(2, 3)`` (or ``FloatTensor(Size([2, 3]))``) is an uninitialised tensor of that shape,
``LongTensor([1, 2])`` a tensor of that data, ``FloatTensor(t)`` an alias of a float32 tensor ``t``, and
``FloatTensor()`` an empty one; all on the cpu. Their metaclass, ``tensortype``, answers ``isinstance``
as torch's does: a cpu tensor of that dtype is an instance (``isinstance(yaten.ones(2), yaten.FloatTensor)``),
though the classes are not subclasses of ``Tensor``. ``yaten.cuda.FloatTensor`` and friends are the same
constructors for cuda tensors (made on the current cuda device; without one, ``No CUDA GPUs are
available``).
"""

import warnings

from . import _device as _dev
from . import _dtype as D
from ._factories import legacy_construct
from ._tensor import Tensor


class tensortype(type):
    """The type of the legacy constructors: isinstance checks compare dtype and device."""

    dtype: D.dtype
    device_type: str  # "cpu" or "cuda"

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype and obj.device.type == cls.device_type

    def __call__(cls, *args, device=None):
        if device is not None and _dev.device(device).type != cls.device_type:
            raise RuntimeError(
                f"legacy constructor expects device type: {cls.device_type} but device type: "
                f"{_dev.device(device).type} was passed"
            )
        if cls.device_type == "cuda":
            from . import cuda

            cuda._require()  # without a device: torch's "No CUDA GPUs are available", as yaten.cuda's calls
        other = args[0] if len(args) == 1 and isinstance(args[0], Tensor) else None
        if other is not None and not isinstance(other, cls):
            raise TypeError(
                f"expected {D.TYPEID_NAME[cls.dtype]} tensor on {cls.device_type} "
                f"(got {D.TYPEID_NAME[other.dtype]} on {other.device})"
            )
        return legacy_construct(cls.dtype, args, _dev.canonical(cls.device_type))


def _legacy(dt: D.dtype, device_type: str = "cpu") -> tensortype:
    name = f"{D.LEGACY_NAME[dt]}Tensor"
    doc = f"The legacy constructor of {dt} {device_type} tensors: ``{name}(*sizes)`` uninitialised, ``{name}(data)``."
    module = "yaten" if device_type == "cpu" else "yaten.cuda"
    attrs = {"dtype": dt, "device_type": device_type, "is_cuda": device_type == "cuda", "__module__": module,
             "__doc__": doc}  # fmt: skip
    return tensortype(name, (), attrs)


def cuda_types() -> dict:
    """``yaten.cuda``'s legacy constructors by name (``FloatTensor``, ...), made on first use."""
    return {t.__name__: _legacy(t.dtype, "cuda") for t in _CPU_TYPES}


BoolTensor = _legacy(D.bool)
ByteTensor = _legacy(D.uint8)
CharTensor = _legacy(D.int8)
ShortTensor = _legacy(D.int16)
IntTensor = _legacy(D.int32)
LongTensor = _legacy(D.int64)
HalfTensor = _legacy(D.float16)
BFloat16Tensor = _legacy(D.bfloat16)
FloatTensor = _legacy(D.float32)
DoubleTensor = _legacy(D.float64)
_CPU_TYPES = (BoolTensor, ByteTensor, CharTensor, ShortTensor, IntTensor, LongTensor, HalfTensor, BFloat16Tensor,
              FloatTensor, DoubleTensor)  # fmt: skip


def set_default_tensor_type(t) -> None:
    """The deprecated way to set the default dtype: a floating legacy type (``yaten.DoubleTensor``) or its
    name (``"torch.FloatTensor"``, as torch programs spell it); warns as torch's.

    >>> import warnings, yaten
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     yaten.set_default_tensor_type(yaten.DoubleTensor)
    >>> yaten.ones(1).dtype
    yaten.float64
    >>> yaten.set_default_dtype(yaten.float32)
    """
    warnings.warn(
        "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() "
        "and torch.set_default_device() as alternatives.",
        UserWarning,
        stacklevel=2,
    )
    if isinstance(t, str):
        module, _, name = t.rpartition(".")
        if module.endswith("cuda"):  # yaten has no default device: factories make cpu tensors unless told
            raise TypeError(f"type {t} not available: yaten makes tensors on the cpu unless given a device")
        t = globals().get(name) if module in ("torch", "yaten") else None
        if not isinstance(t, tensortype):
            raise AttributeError(f"module '{module}' has no attribute '{name}'")
    if not isinstance(t, tensortype):
        raise TypeError("invalid type object: only floating-point types are supported as the default type")
    if not t.dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    D.set_default_dtype(t.dtype)


__all__ = ["BFloat16Tensor", "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor", "HalfTensor", "IntTensor",
           "LongTensor", "ShortTensor", "set_default_tensor_type"]  # fmt: skip
