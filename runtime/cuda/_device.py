"""The current device and what it is: ``set_device``, the ``device``/``device_of`` context managers,
``get_device_properties``/``get_device_capability``, ``mem_get_info``, ``init``/``is_initialized`` and the
capability questions (``is_bf16_supported``, ``is_tf32_supported``, ``get_arch_list``).

yaten runs on one CUDA device, index 0 (a second raises torch's invalid-ordinal error, as making a
tensor on it does). Without CUDA each call that needs a device raises ``No CUDA GPUs are available``,
torch's error on a CUDA build without a GPU; under Numba's CUDA simulator the device is the simulator.
"""

import operator

from . import _require, _simulator, is_available

__all__ = ["device", "device_of", "get_arch_list", "get_device_capability", "get_device_properties", "init",
           "ipc_collect", "is_bf16_supported", "is_initialized", "is_tf32_supported", "mem_get_info",
           "set_device"]  # fmt: skip

_STATE = {"initialized": False}


def _index(dev, optional=True) -> int:
    """torch's ``_get_device_index``: an int, a ``"cuda:N"`` string or a cuda device, to its index."""
    from .._device import device as Device

    if isinstance(dev, str):
        dev = Device(dev)
    if isinstance(dev, Device):
        if dev.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {dev}")
        return 0 if dev.index is None else dev.index
    if dev is None:
        if not optional:
            raise ValueError(f"Expected a torch.device with a specified index or an integer, but got:{dev}")
        return 0
    return operator.index(dev)


def _check_ordinal(index: int) -> None:
    _require()
    if index != 0:
        raise RuntimeError(f"CUDA error: invalid device ordinal {index}")


def set_device(device) -> None:
    """Make ``device`` the current one; a negative index does nothing, as torch's.

    >>> import yaten
    >>> yaten.cuda.set_device(-1)
    """
    index = _index(device)
    if index >= 0:
        _check_ordinal(index)


class device:
    """A context manager that makes ``device`` current in its block (``None`` or a negative index: no change).

    >>> import yaten
    >>> with yaten.cuda.device(-1):
    ...     pass
    """

    def __init__(self, device):
        self.idx = _index(device, optional=True) if device is not None else -1

    def __enter__(self):
        if self.idx >= 0:
            _check_ordinal(self.idx)  # device 0 is the only one, so it is already current

    def __exit__(self, exc_type, exc_value, traceback):
        return False


class device_of(device):
    """``device`` of a tensor's device: its cuda index, or no change for a cpu tensor.

    >>> import yaten
    >>> with yaten.cuda.device_of(yaten.ones(1)):
    ...     pass
    """

    def __init__(self, obj):
        super().__init__(obj.get_device() if obj.is_cuda else -1)


class _CudaDeviceProperties:
    """What ``get_device_properties`` returns, with torch's field names and repr."""

    def __init__(self, name, major, minor, total_memory, multi_processor_count, uuid):
        self.name, self.major, self.minor = name, major, minor
        self.total_memory, self.multi_processor_count, self.uuid = total_memory, multi_processor_count, uuid
        self.is_integrated = False
        self.is_multi_gpu_board = False

    def __repr__(self) -> str:
        return (
            f"_CudaDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
            f"total_memory={self.total_memory // (1024 * 1024)}MB, "
            f"multi_processor_count={self.multi_processor_count}, uuid={self.uuid})"
        )


def get_device_properties(device=None) -> _CudaDeviceProperties:
    """The device's name, compute capability (``major``, ``minor``), ``total_memory`` (bytes) and
    ``multi_processor_count``, from numba.cuda (the simulator reports itself, with no memory limit).

    >>> import yaten
    >>> yaten.cuda.get_device_properties().major >= 1 if yaten.cuda.is_available() else True
    True
    """
    _check_ordinal(_index(device))
    from numba import cuda

    if _simulator():
        major, minor = cuda.current_context().device.compute_capability
        return _CudaDeviceProperties("Numba CUDA simulator", major, minor, 0, 1, "simulator")
    dev = cuda.get_current_device()
    name = dev.name.decode() if isinstance(dev.name, bytes) else str(dev.name)
    major, minor = dev.compute_capability
    total = cuda.current_context().get_memory_info().total
    return _CudaDeviceProperties(name, major, minor, int(total), int(dev.MULTIPROCESSOR_COUNT), dev.uuid)


def get_device_capability(device=None) -> tuple:
    """The device's compute capability, ``(major, minor)``.

    >>> import yaten
    >>> len(yaten.cuda.get_device_capability()) if yaten.cuda.is_available() else 2
    2
    """
    props = get_device_properties(device)
    return props.major, props.minor


def mem_get_info(device=None) -> tuple:
    """``(free, total)`` bytes of device memory, as the driver reports them (the simulator has no limit:
    ``(0, 0)``, as for its ``total_memory``).

    >>> import yaten
    >>> len(yaten.cuda.mem_get_info()) if yaten.cuda.is_available() else 2
    2
    """
    _check_ordinal(_index(device))
    if _simulator():
        return 0, 0
    from numba import cuda

    info = cuda.current_context().get_memory_info()
    return int(info.free), int(info.total)


def init() -> None:
    """Initialise CUDA now rather than at first use (creates the device's context).

    >>> import yaten
    >>> yaten.cuda.init() if yaten.cuda.is_available() else None
    """
    _require()
    from numba import cuda

    cuda.current_context()
    _STATE["initialized"] = True


def is_initialized() -> bool:
    """Whether CUDA has been initialised in this process (by ``init`` or by yaten's first cuda work)."""
    if not _STATE["initialized"] and is_available():
        from ..kernels.cuda.allocator import POOL

        _STATE["initialized"] = POOL.stats()["allocation.all.allocated"] > 0
    return _STATE["initialized"]


def ipc_collect() -> None:
    """Free CUDA memory other processes released after sharing it: yaten shares no CUDA memory between
    processes, so there is none to free (it still needs a device, as torch's)."""
    _require()


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """Whether bfloat16 tensors can live on the device: never in yaten (numba.cuda has no bfloat16 type;
    ``.cuda()`` of a bfloat16 tensor raises).

    >>> import yaten
    >>> yaten.cuda.is_bf16_supported()
    False
    """
    return False


def is_tf32_supported() -> bool:
    """Whether the device's tensor cores compute TF32 (Ampere, compute capability 8.0, and later)."""
    return is_available() and not _simulator() and get_device_capability()[0] >= 8


def get_arch_list() -> list:
    """The architectures yaten's kernels are built for: numba.cuda compiles for the device at hand at run
    time, so it is the device's ``sm_XY`` (none without CUDA).

    >>> import yaten
    >>> isinstance(yaten.cuda.get_arch_list(), list)
    True
    """
    if not is_available():
        return []
    major, minor = get_device_capability()
    return [f"sm_{major}{minor}"]
