"""Device checks and kernel lookup for the generated op layer."""

import importlib

from ._device import CPU


class Lazy:
    """A kernel imported on first call (cuda kernels must not load numba.cuda at import time)."""

    __slots__ = ("_fn", "module", "name")

    def __init__(self, module: str, name: str):
        self.module = module
        self.name = name
        self._fn = None

    def __call__(self, /, *args, **kwargs):  # kernels take an argument named self
        fn = self._fn
        if fn is None:
            fn = self._fn = getattr(importlib.import_module(self.module), self.name)
        return fn(*args, **kwargs)


def common_device(op: str, *tensors, scalars_from=None):
    """The device all tensor arguments share; PyTorch's RuntimeError when they differ.

    With ``scalars_from`` (elementwise ops, and the arguments a spec entry lists as ``cpu_scalars``,
    passed last with a negative position), a CPU 0-d tensor from that position on joins an op on
    another device as a number would, as PyTorch lets it (an in-place op's self, position 0, is the
    output and never does).
    """
    dev = None  # no tensor at all (an empty list): the kernel reports it, on the cpu
    for t in tensors:
        if t is None:
            continue
        d = t._device
        if dev is None:
            dev = d
        elif d is not dev:
            if d != dev:
                if scalars_from is not None:
                    return _device_with_cpu_scalars(op, tensors, scalars_from)
                raise _mismatch(op, dev, d)
            if d.sparse:  # a sparse argument dispatches the op to its sparse kernel
                dev = d
    return CPU if dev is None else dev


def _device_with_cpu_scalars(op: str, tensors, first: int):
    if first < 0:
        first += len(tensors)
    dev = None
    for i, t in enumerate(tensors):
        if t is None or (i >= first and t._device.type == "cpu" and not t._data.ndim):
            continue
        if dev is None or (t._device.sparse and t._device == dev):
            dev = t._device
        elif t._device != dev:
            raise _mismatch(op, dev, t._device)
    return CPU if dev is None else dev


def _mismatch(op: str, a, b) -> RuntimeError:
    return RuntimeError(
        f"Expected all tensors to be on the same device, but found at least two devices, {a} and {b}! "
        f"(when checking argument for {op})"
    )


def kernel(table: dict, device, op: str):
    """The kernel of ``table`` for ``device``: its type, or its sparse dispatch key (a tensor-level kernel)."""
    try:
        return table[device.key] if device.sparse else table[device.type]
    except KeyError:
        if device.sparse:
            raise no_sparse_kernel(op, device) from None
        raise NotImplementedError(
            f"Could not run '{op}' with arguments from the '{device.type.upper()}' backend: "
            f"no {device.type} kernel in spec/native_functions.yaml"
        ) from None


def no_sparse_kernel(op: str, device) -> NotImplementedError:
    """PyTorch's error for an op that has no kernel for sparse COO arguments (``op``: ``sigmoid``, ``add_``)."""
    return NotImplementedError(
        f"Could not run 'aten::{op}' with arguments from the '{device.key}' backend. This could be because the "
        "operator doesn't exist for this backend, or was omitted during the selective/custom build process (if "
        "using custom build). If you are a Facebook employee using PyTorch on mobile, please visit "
        f"https://fburl.com/ptmfixes for possible resolutions. 'aten::{op}' is only available for these backends: "
        "[CPU, CUDA] (yaten has no sparse kernel for it)."
    )
