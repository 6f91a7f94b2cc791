"""yaten.cpu: torch.cpu's device functions (the CPU is always there) and ``yaten.cpu.amp``.

>>> import yaten
>>> yaten.cpu.is_available(), yaten.cpu.device_count(), yaten.cpu.current_device()
(True, 1, 'cpu')
"""

from . import amp

__all__ = ["amp", "current_device", "device_count", "is_available", "synchronize"]


def is_available() -> bool:
    """Always True: yaten's tensors live on the CPU unless moved."""
    return True


def device_count() -> int:
    """One CPU device, as torch's."""
    return 1


def current_device() -> str:
    """``"cpu"``, as torch's."""
    return "cpu"


def synchronize(device=None) -> None:
    """Nothing to wait for: CPU kernels finish before they return."""
