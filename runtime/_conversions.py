"""``Tensor.to`` and the dtype/device shorthands (``float()``, ``cuda()``, ...).

PyTorch binds ``to`` by hand rather than from native_functions.yaml (its signatures mix optional
devices and dtypes); so does yaten, with the same argument parser as the generated bindings.
"""

from . import _dtype as D
from ._arg_parser import REQUIRED, Overload, resolve
from ._device import canonical
from ._tensor import Tensor


def _to(self, device=None, dtype=None, non_blocking=False, copy=False, memory_format=None):
    device = None if device is None else canonical(device)
    if not copy and (device is None or device == self._device) and (dtype is None or dtype is self._dtype):
        return self
    from ._generated.ops import _to_copy

    return _to_copy(self, dtype=dtype, device=device)


class _Direct(Overload):
    """An overload that calls a Python function directly instead of a generated op."""

    __slots__ = ()

    def __init__(self, params, fn):
        super().__init__("to", params, "")
        self._fn = fn


_FLAGS = (("non_blocking", "bool", False, False), ("copy", "bool", False, False),
          ("memory_format", "MemoryFormat?", None, True))  # fmt: skip
_TO = (
    _Direct((("device", "Device?", None, False), ("dtype", "ScalarType?", None, False), *_FLAGS), _to),
    _Direct(
        (("dtype", "ScalarType", REQUIRED, False), *_FLAGS),
        lambda self, dtype, *flags: _to(self, None, dtype, *flags),
    ),
    _Direct(
        (("tensor", "Tensor", REQUIRED, False), *_FLAGS),
        lambda self, other, *flags: _to(self, other._device, other._dtype, *flags),
    ),
)


def to(self, *args, **kwargs):
    """This tensor with another dtype and/or device; itself when nothing changes.

    >>> import yaten
    >>> x = yaten.ones(2)
    >>> x.to(yaten.float64).dtype, x.to("cpu") is x
    (yaten.float64, True)
    """
    return resolve("to", _TO, args, kwargs, self)


def _as(dtype):
    def convert(self, memory_format=None):
        return _to(self, None, dtype)

    convert.__doc__ = f"``self.to({dtype})``."
    return convert


def cpu(self, memory_format=None):
    """This tensor in host memory (itself when it is there already)."""
    return _to(self, "cpu")


def cuda(self, device=None, non_blocking=False, memory_format=None):
    """This tensor on the GPU (``cuda:0``)."""
    return _to(self, "cuda" if device is None else device)


def type_as(self, other):
    return _to(self, None, other._dtype)


_METHODS = {"to": to, "cpu": cpu, "cuda": cuda, "type_as": type_as}
for _name, _dt in (("float", D.float32), ("double", D.float64), ("half", D.float16), ("bfloat16", D.bfloat16), ("long", D.int64),
                   ("int", D.int32), ("short", D.int16), ("char", D.int8), ("byte", D.uint8),
                   ("bool", D.bool), ("cfloat", D.complex64), ("cdouble", D.complex128)):  # fmt: skip
    _METHODS[_name] = _as(_dt)
for _name, _fn in _METHODS.items():
    setattr(Tensor, _name, _fn)
