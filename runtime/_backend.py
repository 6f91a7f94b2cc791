"""Which kernel package serves a device: the one switch between cpu and cuda memory handling."""

import importlib

_BACKENDS = {}


def backend(device):
    """The memory module (``kernels.cpu.memory`` or ``kernels.cuda.memory``) for ``device``."""
    kind = device.type
    mod = _BACKENDS.get(kind)
    if mod is None:
        mod = _BACKENDS[kind] = importlib.import_module(f"yaten.kernels.{kind}.memory")
    return mod
