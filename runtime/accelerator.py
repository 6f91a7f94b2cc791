"""yaten.accelerator: ``torch.accelerator``, the device-generic face of the current accelerator. yaten's
one accelerator is CUDA (numba.cuda; the simulator counts); on a machine without one,
``current_accelerator()`` is None, ``is_available()`` False, ``device_count()`` 0, and every call that
needs the device raises torch's ``Cannot access accelerator device when none is available.``

>>> import yaten
>>> yaten.accelerator.is_available() == yaten.cuda.is_available()
True
>>> yaten.accelerator.current_accelerator() is None or yaten.accelerator.current_accelerator().type == "cuda"
True
"""

from . import cuda

__all__ = ["current_accelerator", "current_device_idx", "current_device_index", "current_stream", "device_count",
           "device_index", "empty_cache", "get_device_capability", "get_memory_info", "is_available",
           "max_memory_allocated", "max_memory_reserved", "memory_allocated", "memory_reserved", "memory_stats",
           "reset_peak_memory_stats", "set_device_idx", "set_device_index", "set_stream", "synchronize"]  # fmt: skip


def _require() -> None:
    if not cuda.is_available():
        raise RuntimeError("Cannot access accelerator device when none is available.")


def is_available() -> bool:
    """Whether an accelerator (a CUDA device, or Numba's simulator) can run yaten's tensors."""
    return cuda.is_available()


def device_count() -> int:
    """How many accelerator devices there are (0 without one)."""
    return cuda.device_count()


def current_accelerator(check_available: bool = False):
    """``device("cuda")`` where CUDA is available, else None.

    >>> import yaten
    >>> yaten.accelerator.current_accelerator(check_available=True) in (None, yaten.device("cuda"))
    True
    """
    if not cuda.is_available():
        return None
    from ._device import device

    return device("cuda")


def current_device_index() -> int:
    """The index of the current accelerator device."""
    _require()
    return cuda.current_device()


current_device_idx = current_device_index


def set_device_index(device, /) -> None:
    """Make ``device`` the current accelerator device."""
    _require()
    cuda.set_device(device)


set_device_idx = set_device_index


class device_index:
    """Make ``device`` the current accelerator device in a block (``None``: no change).

    >>> import yaten
    >>> with yaten.accelerator.device_index(None):
    ...     pass
    """

    def __init__(self, device, /):
        self.idx = device

    def __enter__(self):
        if self.idx is not None:
            _require()
            cuda.set_device(self.idx)

    def __exit__(self, exc_type, exc_value, traceback):
        return False


def synchronize(device=None, /) -> None:
    """Wait for the work queued on the accelerator to finish."""
    _require()
    cuda.synchronize(device)


def current_stream(device=None, /):
    """The accelerator's current stream."""
    _require()
    return cuda.current_stream(device)


def set_stream(stream) -> None:
    """Make ``stream`` the accelerator's current stream."""
    _require()
    cuda.set_stream(stream)


def get_device_capability(device=None, /) -> dict:
    """What the accelerator supports: the dtypes its tensors can have (``supported_dtypes``)."""
    _require()
    from . import _dtype

    dtypes = [_dtype.bool, _dtype.uint8, _dtype.int8, _dtype.int16, _dtype.int32, _dtype.int64,
              _dtype.float16, _dtype.float32, _dtype.float64, _dtype.complex64, _dtype.complex128]  # fmt: skip
    return {"supported_dtypes": dtypes}


def _memory(name: str, doc: str):
    """``torch.accelerator.<name>(device_index=None)``: ``yaten.cuda``'s, once an accelerator is there."""

    def call(device_index=None, /):
        _require()
        return getattr(cuda, name)(device_index)

    call.__name__, call.__qualname__, call.__doc__ = name, name, doc
    return call


def empty_cache() -> None:
    """Hand the accelerator's cached memory back to the driver."""
    _require()
    cuda.empty_cache()


memory_stats = _memory(
    "memory_stats", "The accelerator's memory counters (``torch.cuda.memory_stats``' keys)."
)
memory_allocated = _memory("memory_allocated", "Bytes of accelerator memory held by tensors.")
max_memory_allocated = _memory("max_memory_allocated", "The peak of ``memory_allocated``.")
memory_reserved = _memory("memory_reserved", "Bytes the accelerator's caching allocator holds.")
max_memory_reserved = _memory("max_memory_reserved", "The peak of ``memory_reserved``.")
reset_peak_memory_stats = _memory("reset_peak_memory_stats", "Start the memory peaks over.")


def get_memory_info(device_index=None, /) -> tuple:
    """``(free, total)`` bytes of accelerator memory."""
    _require()
    return cuda.mem_get_info(device_index)
