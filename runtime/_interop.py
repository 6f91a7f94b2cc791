"""Zero-copy exchange with other array libraries: DLPack and the CUDA array interface.

- ``Tensor.__dlpack__``/``__dlpack_device__`` export a CPU tensor through NumPy's DLPack support (the
  capsule keeps the memory alive); ``yaten.from_dlpack`` takes any DLPack producer or capsule on the
  CPU (``torch``, ``numpy``, ...) without copying.
- ``Tensor.__cuda_array_interface__`` describes a CUDA tensor's memory (version 3) for CuPy, Numba or
  PyTorch; ``from_dlpack`` of a CUDA producer reads that producer's CUDA array interface, so GPU
  memory is shared without a copy too (DLPack export of device memory itself is not built).
Errors are PyTorch's.
"""

import numpy as np

from . import _device as _dev
from . import _dtype as D
from ._backend import backend
from ._tensor import Tensor, legacy_type_name, wrap

_CPU, _CUDA = 1, 2  # DLPack's kDLCPU and kDLCUDA


def dlpack_device(t: Tensor) -> tuple:
    """``(device type, index)`` as DLPack numbers them: (1, 0) for the CPU, (2, i) for cuda:i."""
    if t._device.type == "cuda":
        return _CUDA, t._device.index or 0
    return _CPU, 0


def dlpack(t: Tensor, **kwargs):
    """A DLPack capsule of ``t``'s memory (``stream``, ``max_version``, ``dl_device`` and ``copy`` as
    the DLPack protocol passes them)."""
    if t._rg:
        raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
    if t._device.type != "cpu":
        raise BufferError(
            "yaten exports CUDA tensors through __cuda_array_interface__; DLPack export of device memory "
            "is not supported"
        )
    return t._data.__dlpack__(**kwargs)


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


class _Capsule:
    """A bare capsule dressed as a DLPack producer on the CPU, for NumPy's ``from_dlpack``."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return _CPU, 0


def from_dlpack(ext) -> Tensor:
    """A tensor sharing memory with ``ext``: an object with ``__dlpack__`` (a torch tensor, a NumPy array)
    or a DLPack capsule.

    >>> import numpy as np, yaten
    >>> a = np.arange(3.0)
    >>> t = yaten.from_dlpack(a)
    >>> a[0] = 7
    >>> t
    tensor([7., 1., 2.], dtype=yaten.float64)
    """
    if not hasattr(ext, "__dlpack__"):
        if type(ext).__name__ != "PyCapsule":
            raise TypeError(
                f"from_dlpack expects an object with __dlpack__ or a DLPack capsule, got {type(ext)}"
            )
        ext = _Capsule(ext)
    kind, index = ext.__dlpack_device__()
    if int(kind) == _CUDA:
        return _from_cuda(ext, int(index))
    if int(kind) != _CPU:
        raise RuntimeError(f"from_dlpack: unsupported DLPack device type {int(kind)}")
    array = np.from_dlpack(ext)
    if array.dtype not in D.BY_NP:
        raise TypeError(f"from_dlpack: unsupported dtype {array.dtype}")
    return wrap(array, _dev.CPU)


def _from_cuda(ext, index: int) -> Tensor:
    """A CUDA tensor over a CUDA producer's memory, read through its CUDA array interface."""
    interface = getattr(ext, "__cuda_array_interface__", None)
    if interface is None:
        raise BufferError("from_dlpack: a CUDA producer without __cuda_array_interface__ cannot be shared")
    from numba import cuda

    array = cuda.from_cuda_array_interface(interface, owner=ext, sync=False)
    return wrap(array, _dev.device("cuda", index))
