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


def common_device(op: str, *tensors):
    """The device all tensor arguments share; PyTorch's RuntimeError when they differ."""
    dev = None  # no tensor at all (an empty list): the kernel reports it, on the cpu
    for t in tensors:
        if t is None:
            continue
        d = t._device
        if dev is None:
            dev = d
        elif d is not dev and d != dev:
            raise RuntimeError(
                f"Expected all tensors to be on the same device, but found at least two devices, {dev} and {d}! "
                f"(when checking argument for {op})"
            )
    return CPU if dev is None else dev


def kernel(table: dict, device, op: str):
    try:
        return table[device.type]
    except KeyError:
        raise NotImplementedError(
            f"Could not run '{op}' with arguments from the '{device.type.upper()}' backend: "
            f"no {device.type} kernel in spec/native_functions.yaml"
        ) from None
