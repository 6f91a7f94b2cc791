"""Host memory: allocation, strided views over a flat byte buffer, host transfers."""

import numpy as np
from numpy.lib.stride_tricks import as_strided


def empty(shape, np_dtype) -> np.ndarray:
    return np.empty(shape, np_dtype)


def flat_bytes(arr: np.ndarray) -> np.ndarray:
    """The whole memory block of an array that owns its data, as a flat uint8 view."""
    if arr.flags.c_contiguous:
        return arr.reshape(-1).view(np.uint8)
    # A dense block in another order (a ufunc keeps its input's layout): span it from the start.
    span = sum((n - 1) * s for n, s in zip(arr.shape, arr.strides)) + arr.itemsize if arr.size else 0
    return as_strided(arr, shape=(span // arr.itemsize,), strides=(arr.itemsize,)).view(np.uint8)


def strided(buf: np.ndarray, np_dtype, shape, strides, offset: int) -> np.ndarray:
    """A view of ``buf`` with element ``strides`` starting ``offset`` elements in."""
    item = np_dtype.itemsize
    return np.ndarray(shape, np_dtype, buf, offset * item, tuple([s * item for s in strides]))


def to_host(arr: np.ndarray) -> np.ndarray:
    return arr


def from_host(arr: np.ndarray) -> np.ndarray:
    return arr


def data_ptr(arr: np.ndarray) -> int:
    return arr.__array_interface__["data"][0]


def from_pointer(data: int, shape, strides, np_dtype, owner) -> np.ndarray:
    """An array over memory at address ``data`` with byte ``strides``; it keeps ``owner`` (whose
    lifetime is the memory's) alive."""
    if 0 in shape:
        return np.empty(shape, np_dtype)
    owner.__array_interface__ = {
        "shape": tuple(shape), "strides": tuple(strides), "typestr": np.dtype(np_dtype).str,
        "data": (data, False), "version": 3,
    }  # fmt: skip
    a = np.asarray(owner)
    return a if a.dtype == np_dtype else a.view(np_dtype)  # a typestr has no bfloat16: it reads "<V2"
