"""Device memory: allocation, strided views over a flat byte buffer, host transfers (numba.cuda).

The same functions as ``kernels/cpu/memory.py``, over numba.cuda device arrays. On a GPU these are
``DeviceNDArray``s; under Numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1`` before Numba is
imported) they are ``FakeCUDAArray``s wrapping a NumPy array, and a view is a NumPy view of that
array. Strides are never negative, as in every yaten view.

numba.cuda has no bfloat16 type, so no cuda kernel could compute on one: a bfloat16 tensor never gets
device memory, and asking for one raises torch's NotImplementedError for a missing backend (cast to
float32 on the cpu first, or keep bfloat16 on the cpu).
"""

import numpy as np
from numba import config, cuda

from ..cpu.convert import BF16

SIMULATOR = bool(config.ENABLE_CUDASIM)

if SIMULATOR:
    from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray
else:
    from numba.cuda.cudadrv.devicearray import DeviceNDArray

    from .allocator import install

    install()  # device arrays come from yaten's caching pool (kernels/cuda/allocator.py)


def _check_dtype(dt: np.dtype) -> None:
    if dt == BF16:
        raise NotImplementedError(
            "Could not run 'aten::empty_strided' with arguments from the 'CUDA' backend: yaten has no cuda kernels for "
            "BFloat16 (numba.cuda has no bfloat16 type); use float32 or float16 on cuda, or bfloat16 on the cpu"
        )


def empty(shape, np_dtype):
    dt = np.dtype(np_dtype)
    _check_dtype(dt)
    return cuda.device_array(tuple(shape), dt)


def flat_bytes(arr):
    """The whole memory block of a device array that owns its data, as a flat uint8 device view."""
    return raw_view(arr, np.uint8, (span_bytes(arr.shape, arr.strides, arr.dtype.itemsize),), (1,), 0)


def strided(buf, np_dtype, shape, strides, offset: int):
    """A view of the flat uint8 device buffer ``buf`` with element ``strides``, ``offset`` elements in."""
    dt = np.dtype(np_dtype)
    item = dt.itemsize
    shape, strides = tuple(int(n) for n in shape), tuple(int(s) for s in strides)
    need = offset * item + span_bytes(shape, tuple(s * item for s in strides), item)
    if min(strides, default=0) < 0 or offset < 0 or need > buf.size:
        raise RuntimeError(
            f"setStorage: sizes {list(shape)}, strides {list(strides)}, storage offset {offset}, and itemsize "
            f"{item} requiring a storage size of {need} are out of bounds for storage of size {buf.size}"
        )
    return raw_view(buf, dt, shape, tuple(s * item for s in strides), offset * item)


def to_host(arr) -> np.ndarray:
    """A C-contiguous NumPy copy of ``arr``; a non-contiguous view is gathered on the device first."""
    if arr.size == 0:
        return np.empty(arr.shape, arr.dtype)
    if not is_contiguous(arr):
        from .copy import contiguous_cast

        arr = contiguous_cast(arr, arr.shape, arr.dtype)
    # Re-wrapped so that exactly this array's bytes are copied, whatever allocation it views.
    return raw_view(arr, arr.dtype, arr.shape, c_strides(arr.shape, arr.dtype.itemsize), 0).copy_to_host()


def from_host(arr):
    """A new device array with the contents (and shape) of the host array ``arr``."""
    host = np.array(arr, order="C", copy=None)
    _check_dtype(host.dtype)
    return cuda.to_device(host)


def data_ptr(arr) -> int:
    if SIMULATOR:
        return arr._ary.__array_interface__["data"][0]
    return arr.__cuda_array_interface__["data"][0]


def from_pointer(data: int, shape, strides, np_dtype, owner):
    """A device array over device memory at address ``data`` with byte ``strides``; it keeps ``owner``
    (whose lifetime is the memory's) alive."""
    if SIMULATOR:  # the simulator's device memory is host memory
        from ..cpu.memory import from_pointer as host_array

        return FakeCUDAArray(host_array(data, shape, strides, np_dtype, owner))
    interface = {
        "shape": tuple(shape), "strides": tuple(strides), "typestr": np.dtype(np_dtype).str,
        "data": (data if 0 not in shape else 0, False), "version": 3,
    }  # fmt: skip
    return cuda.from_cuda_array_interface(interface, owner=owner, sync=False)


# --- helpers for the other cuda kernel modules -------------------------------------------------


def span(arr):
    """``(flat, strides)``: a 1-d view over the elements' block from ``arr``'s first element, and
    ``arr``'s strides in elements, so that element ``idx`` is ``flat[sum(idx * strides)]``."""
    item = arr.dtype.itemsize
    n = span_bytes(arr.shape, arr.strides, item) // item
    return raw_view(arr, arr.dtype, (n,), (item,), 0), tuple(s // item for s in arr.strides)


def flat(arr):
    """The elements of a C-contiguous ``arr`` as a 1-d view (a 0-d array gives one element)."""
    return raw_view(arr, arr.dtype, (arr.size,), (arr.dtype.itemsize,), 0)


def is_contiguous(arr) -> bool:
    """C-contiguous in PyTorch's sense: dims of size 1 may have any stride."""
    expected = arr.dtype.itemsize
    for n, s in zip(reversed(arr.shape), reversed(arr.strides)):
        if n != 1 and s != expected:
            return n == 0 or arr.size == 0
        expected *= n
    return True


def c_strides(shape, step: int = 1) -> tuple:
    """The strides of a C-contiguous array of ``shape`` whose last dim has stride ``step``."""
    out = []
    for n in reversed(shape):
        out.append(step)
        step *= max(n, 1)
    return tuple(reversed(out))


def span_bytes(shape, strides, item: int) -> int:
    """Bytes from the first element to the end of the last one (0 for an empty array)."""
    if 0 in shape:
        return 0
    return sum((n - 1) * s for n, s in zip(shape, strides)) + item


def permuted(a, order):
    """The view of ``a`` whose dim ``i`` is ``a``'s dim ``order[i]``."""
    return raw_view(a, a.dtype, [a.shape[k] for k in order], [a.strides[k] for k in order], 0)


def raw_view(base, dt, shape, strides, offset: int):
    """A device array of ``dt`` over ``base``'s memory, ``offset`` bytes after its first element,
    with byte ``strides``; it spans exactly its own bytes, so host copies move only those."""
    dt = np.dtype(dt)
    _check_dtype(dt)
    shape, strides = tuple(shape), tuple(strides)
    extent = span_bytes(shape, strides, dt.itemsize)
    if SIMULATOR:
        a = base._ary
        n = span_bytes(a.shape, a.strides, a.dtype.itemsize) // a.dtype.itemsize
        raw = np.lib.stride_tricks.as_strided(a, (n,), (a.dtype.itemsize,)).view(np.uint8)
        return FakeCUDAArray(np.ndarray(shape, dt, raw[offset : offset + extent], 0, strides))
    if extent == 0:
        return DeviceNDArray(shape, strides, dt)
    return DeviceNDArray(shape, strides, dt, gpu_data=base.gpu_data.view(offset, offset + extent))
