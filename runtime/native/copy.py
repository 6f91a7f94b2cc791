"""Copies between tensors, dtypes and devices (the only place data crosses devices)."""

from .. import _device as _dev
from .._backend import backend
from .._tensor import wrap


def _host_to(device, host):
    return backend(device).from_host(host)


def copy_(self, src, non_blocking=False):
    """Write ``src`` (broadcast, converted) into ``self``; works across devices."""
    if self._device.type == "cpu":
        from ..kernels.cpu.shape import copy_ as cpu_copy

        cpu_copy(self._data, src._host())
        return self
    from ..kernels.cuda.copy import copy_into

    data = src._data if src._device == self._device else _host_to(self._device, src._host())
    copy_into(self._data, data)
    return self


def to_copy(
    self, dtype=None, layout=None, device=None, pin_memory=None, non_blocking=False, memory_format=None
):
    """A copy of ``self`` in ``dtype`` on ``device``, laid out as ``self`` (torch's preserve_format):
    converted on ``self``'s device, then, to another device, moved as one block of bytes and viewed
    with the same strides there. A sparse tensor's indices and values are copied so."""
    if self._device.sparse:  # not a SparseCPU key: the schema's 'device' argument is the op's own name for it
        from .sparse_coo import sparse_to_copy

        return sparse_to_copy(self, dtype, layout, device, pin_memory, non_blocking, memory_format)
    dtype = self._dtype if dtype is None else dtype
    device = self._device if device is None else _dev.canonical(device)
    if self._device.type == "cpu":
        from ..kernels.cpu.shape import to_dtype
    else:
        from ..kernels.cuda.copy import to_dtype
    converted = to_dtype(self._data, dtype.np)
    if device == self._device:
        return wrap(converted, device)
    src, dst = backend(self._device), backend(device)
    block = dst.from_host(src.to_host(src.flat_bytes(converted)))
    strides = [st // dtype.itemsize for st in converted.strides]
    return wrap(dst.strided(block, dtype.np, converted.shape, strides, 0), device)
