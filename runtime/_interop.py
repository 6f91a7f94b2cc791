"""Zero-copy exchange with other array libraries: DLPack and the CUDA array interface.

- ``Tensor.__dlpack__``/``__dlpack_device__`` export a tensor's memory, on the CPU or on cuda, as a
  DLPack capsule (``DLManagedTensor``, the unversioned protocol that every consumer takes); the capsule
  keeps the tensor alive until its consumer calls the deleter, or until the capsule is dropped unused.
- ``yaten.from_dlpack`` takes a DLPack producer (``torch``, ``numpy``, CuPy, ...) or a capsule, on the
  CPU or on cuda, and wraps the memory without copying; the producer's deleter runs when the last
  yaten array over it is gone.
- ``Tensor.__cuda_array_interface__`` describes a CUDA tensor's memory (version 3) for CuPy, Numba or
  PyTorch.

The DLPack structs are declared with ctypes (DLPack's C header, ``dlpack.h``), so both devices go
through the same code. Errors are PyTorch's.
"""

import ctypes

import numpy as np

from . import _device as _dev
from . import _dtype as D
from ._backend import backend
from ._layout import contiguous_strides
from ._tensor import Tensor, legacy_type_name, wrap

_CPU, _CUDA = 1, 2  # DLPack's kDLCPU and kDLCUDA
# DLPack's kDLInt, kDLUInt, kDLFloat, kDLBfloat, kDLComplex, kDLBool
_INT, _UINT, _FLOAT, _BFLOAT, _COMPLEX, _BOOL = 0, 1, 2, 4, 5, 6
_CODE = {"i": _INT, "u": _UINT, "f": _FLOAT, "c": _COMPLEX, "b": _BOOL}
_KIND = {code: kind for kind, code in _CODE.items()}
_BF16 = D.bfloat16.np
_NAME, _USED = b"dltensor", b"used_dltensor"  # a capsule's name before and after it is consumed


class _DLDevice(ctypes.Structure):
    _fields_ = (("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32))


class _DLDataType(ctypes.Structure):
    _fields_ = (("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16))


class _DLTensor(ctypes.Structure):
    _fields_ = (
        ("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    )  # fmt: skip


class _DLManagedTensor(ctypes.Structure):
    pass


_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(_DLManagedTensor))
_DLManagedTensor._fields_ = (
    ("dl_tensor", _DLTensor),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", _DELETER),
)

# The CPython capsule calls, through a handle of our own so that their argument types are ours alone.
_py = ctypes.PyDLL(None, handle=ctypes.pythonapi._handle)
_py.PyCapsule_New.restype = ctypes.py_object
_py.PyCapsule_New.argtypes = (ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)
_py.PyCapsule_IsValid.restype = ctypes.c_int
_py.PyCapsule_IsValid.argtypes = (ctypes.c_void_p, ctypes.c_char_p)
_py.PyCapsule_GetPointer.restype = ctypes.c_void_p
_py.PyCapsule_GetPointer.argtypes = (ctypes.c_void_p, ctypes.c_char_p)
_py.PyCapsule_SetName.restype = ctypes.c_int
_py.PyCapsule_SetName.argtypes = (ctypes.c_void_p, ctypes.c_char_p)

# What an exported DLManagedTensor needs alive (the struct, its shape and strides, the tensor), by the
# struct's address, until its deleter runs.
_EXPORTED: dict = {}


@_DELETER
def _release(managed) -> None:
    _EXPORTED.pop(ctypes.addressof(managed.contents), None)


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _capsule_destructor(capsule) -> None:
    # A capsule dropped before anyone consumed it still owns its tensor: release it, as dlpack.h asks.
    if _py.PyCapsule_IsValid(capsule, _NAME):
        _EXPORTED.pop(_py.PyCapsule_GetPointer(capsule, _NAME), None)


_DESTRUCTOR = ctypes.cast(_capsule_destructor, ctypes.c_void_p).value


def dlpack_device(t: Tensor) -> tuple:
    """``(device type, index)`` as DLPack numbers them: (1, 0) for the CPU, (2, i) for cuda:i."""
    if t._device.type == "cuda":
        return _CUDA, t._device.index or 0
    return _CPU, 0


def dlpack(t: Tensor, stream=None, max_version=None, dl_device=None, copy=None):
    """A DLPack capsule of ``t``'s memory, with the protocol's arguments: a CUDA export first waits
    for the work queued on ``t`` (unless ``stream`` is -1); ``copy=True`` exports a copy; ``dl_device``
    must be ``t``'s own device. The capsule is unversioned whatever ``max_version`` asks, which the
    protocol allows a producer."""
    if t._rg:
        raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
    kind, index = dlpack_device(t)
    if dl_device is not None and (int(dl_device[0]), int(dl_device[1])) != (kind, index):
        raise BufferError(f"yaten cannot export a tensor on {t._device} to DLPack device {tuple(dl_device)}")
    if copy:
        t = t.clone()
    if kind == _CUDA and stream != -1:
        from .cuda import synchronize

        synchronize()
    shape = (ctypes.c_int64 * max(t.dim(), 1))(*t.shape)
    strides = (ctypes.c_int64 * max(t.dim(), 1))(*t.stride())
    dt = t._dtype.np
    managed = _DLManagedTensor()
    managed.dl_tensor = _DLTensor(
        backend(t._device).data_ptr(t._data) if t.numel() else None,
        _DLDevice(kind, index), t.dim(), _DLDataType(_BFLOAT if dt == _BF16 else _CODE[dt.kind], dt.itemsize * 8, 1), shape, strides, 0,
    )  # fmt: skip
    managed.deleter = _release
    address = ctypes.addressof(managed)
    _EXPORTED[address] = (managed, shape, strides, t)
    return _py.PyCapsule_New(address, _NAME, _DESTRUCTOR)


def cuda_array_interface(t: Tensor) -> dict:
    """The CUDA array interface (version 3) of a CUDA tensor: shape, byte strides, type, pointer."""
    if t._device.type != "cuda":
        raise AttributeError(
            f"Can't get __cuda_array_interface__ on non-CUDA tensor type: {legacy_type_name(t)} If CUDA "
            "data is required use tensor.cuda() to copy tensor to device memory."
        )
    if t._rg:
        raise RuntimeError(
            "Can't get __cuda_array_interface__ on Variable that requires grad. If gradients aren't "
            "required, use var.detach() to get Variable that doesn't require grad."
        )
    item = t._dtype.itemsize
    strides = None if t.is_contiguous() else tuple(s * item for s in t.stride())
    ptr = backend(t._device).data_ptr(t._data) if t.numel() else 0
    return {
        "shape": tuple(t.shape), "strides": strides, "typestr": t._dtype.np.str,
        "data": (ptr, False), "version": 3, "stream": None,
    }  # fmt: skip


class _Imported:
    """The owner of memory taken from a DLPack capsule: it calls the producer's deleter when the last
    array over the memory is gone."""

    def __init__(self, managed):
        self.managed = managed

    def __del__(self):
        if self.managed.deleter:
            self.managed.deleter(ctypes.pointer(self.managed))


def from_dlpack(ext) -> Tensor:
    """A tensor sharing memory with ``ext``: an object with ``__dlpack__`` (a torch tensor, a NumPy array,
    a CuPy array) or a DLPack capsule, on the CPU or on cuda.

    >>> import numpy as np, yaten
    >>> a = np.arange(3.0)
    >>> t = yaten.from_dlpack(a)
    >>> a[0] = 7
    >>> t
    tensor([7., 1., 2.], dtype=yaten.float64)
    """
    if hasattr(ext, "__dlpack__"):
        kind = int(ext.__dlpack_device__()[0])
        capsule = ext.__dlpack__(stream=1) if kind == _CUDA else ext.__dlpack__()
    elif type(ext).__name__ == "PyCapsule":
        capsule = ext
    else:
        raise TypeError(f"from_dlpack expects an object with __dlpack__ or a DLPack capsule, got {type(ext)}")
    if not _py.PyCapsule_IsValid(id(capsule), _NAME):
        raise RuntimeError(
            "from_dlpack received an invalid capsule. Note that DLTensor capsules can be consumed only once, "
            "so you might have already constructed a tensor from it once."
        )
    managed = _DLManagedTensor.from_address(_py.PyCapsule_GetPointer(id(capsule), _NAME))
    t = managed.dl_tensor
    kind, index = t.device.device_type, t.device.device_id
    if kind not in (_CPU, _CUDA):
        raise RuntimeError(f"from_dlpack: unsupported DLPack device type {kind}")
    code, bits, lanes = t.dtype.code, t.dtype.bits, t.dtype.lanes
    dt = np.dtype(f"{_KIND[code]}{bits // 8}") if code in _KIND and bits in (8, 16, 32, 64, 128) else None
    if code == _BFLOAT and bits == 16:
        dt = _BF16
    if dt is None or lanes != 1 or dt not in D.BY_NP:
        raise TypeError(f"from_dlpack: unsupported DLPack dtype (code {code}, bits {bits}, lanes {lanes})")
    shape = tuple(t.shape[i] for i in range(t.ndim))
    item = dt.itemsize
    if t.strides:
        strides = tuple(t.strides[i] * item for i in range(t.ndim))
    else:
        strides = tuple(s * item for s in contiguous_strides(shape))
    _py.PyCapsule_SetName(id(capsule), _USED)
    device = _dev.device("cuda", index) if kind == _CUDA else _dev.CPU
    array = backend(device).from_pointer(
        (t.data or 0) + t.byte_offset, shape, strides, dt, _Imported(managed)
    )
    return wrap(array, device)


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False) -> Tensor:
    """A 1-d CPU tensor over the memory of an object with the buffer protocol (no copy): ``count``
    elements of ``dtype`` from byte ``offset`` on (-1: up to the end).

    >>> import array, yaten
    >>> yaten.frombuffer(array.array("f", [1, 2, 3]), dtype=yaten.float32, count=2, offset=4)
    tensor([2., 3.])
    """
    from ._factories import from_numpy

    try:
        view = memoryview(buffer)
    except TypeError:
        raise ValueError("object does not implement Python buffer protocol.") from None
    length, item = view.nbytes, dtype.itemsize
    if length == 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if not 0 <= offset < length:
        raise ValueError(
            f"offset ({offset} bytes) must be non-negative and no greater than buffer length ({length} bytes) minus 1"
        )
    if count < 0:
        if (length - offset) % item:
            raise ValueError(
                f"buffer length ({length - offset} bytes) after offset ({offset} bytes) must be a multiple of "
                f"element size ({item})"
            )
        count = (length - offset) // item
    elif offset + count * item > length:
        raise ValueError(
            f"requested buffer length ({count} * {item} bytes) after offset ({offset} bytes) must not be greater "
            f"than actual buffer length ({length} bytes)"
        )
    if requires_grad and not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    t = from_numpy(np.frombuffer(view.cast("B"), dtype=dtype.np, count=count, offset=offset))
    return t.requires_grad_() if requires_grad else t
