"""CUDA streams and events: ``Stream``, ``Event``, ``current_stream``/``default_stream``, the ``stream``
context manager (``StreamContext``) and ``set_stream``, over numba.cuda's streams and events.

yaten launches its kernels on the default stream, which orders itself with every other stream, so the
results of a program that uses streams are those of its order on one stream: ``stream(s)`` makes ``s``
current (``current_stream()`` answers it) without moving yaten's kernels onto it. ``synchronize``,
``wait_event``, ``wait_stream``, ``record_event`` and ``Event.elapsed_time`` are the driver's. Under
Numba's CUDA simulator, where kernels run on the host as they are launched, an event records the host
clock and waiting has nothing to wait for.
"""

import threading
import time

from . import _require, _simulator

__all__ = ["Event", "Stream", "StreamContext", "current_stream", "default_stream", "set_stream", "stream"]

_CURRENT = threading.local()  # .stream: the Stream set current on this thread (None: the default)


class Stream:
    """A CUDA stream (``Stream()`` a new one; ``priority`` is accepted, as torch's).

    >>> import yaten
    >>> s = yaten.cuda.Stream() if yaten.cuda.is_available() else None
    >>> s.synchronize() if s is not None else None
    """

    def __init__(self, device=None, priority=0, *, _default=False):
        from numba import cuda

        from ._device import _check_ordinal, _index

        _check_ordinal(_index(device))
        self.priority = priority
        self._default = _default
        # The simulator has no default-stream object; its streams order nothing, as all its work is synchronous.
        self._stream = cuda.default_stream() if _default and not _simulator() else cuda.stream()

    @property
    def device(self):
        from .._device import canonical

        return canonical("cuda")

    @property
    def cuda_stream(self) -> int:
        """The stream's driver handle (0 for the default stream; the simulator's streams have none, so
        their Python id stands in)."""
        if self._default:
            return 0
        handle = getattr(self._stream, "handle", None)
        value = getattr(handle, "value", handle)
        return int(value) if value is not None else id(self._stream)

    def synchronize(self) -> None:
        """Wait until the work queued on this stream has finished."""
        self._stream.synchronize()

    def query(self) -> bool:
        """Whether the work queued on this stream has finished."""
        return self.record_event().query()

    def record_event(self, event=None) -> "Event":
        """Record an event (a new one if none is given) on this stream; returns it."""
        event = Event() if event is None else event
        event.record(self)
        return event

    def wait_event(self, event) -> None:
        """Make later work on this stream wait for ``event``."""
        event.wait(self)

    def wait_stream(self, stream) -> None:
        """Make later work on this stream wait for the work queued on ``stream`` so far."""
        self.wait_event(stream.record_event())

    def __eq__(self, other) -> bool:
        return isinstance(other, Stream) and self.cuda_stream == other.cuda_stream

    def __hash__(self) -> int:
        return hash(self.cuda_stream)

    def __repr__(self) -> str:
        return f"<torch.cuda.Stream device={self.device} cuda_stream={self.cuda_stream:#x}>"


class Event:
    """A CUDA event, to order streams and to time work (``enable_timing=True``).

    >>> import yaten
    >>> if yaten.cuda.is_available():
    ...     start, end = yaten.cuda.Event(enable_timing=True), yaten.cuda.Event(enable_timing=True)
    ...     start.record(); end.record(); end.synchronize()
    ...     assert start.elapsed_time(end) >= 0
    """

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        _require()
        self.enable_timing = enable_timing
        self._event = None
        self._host_time = None
        if not _simulator():
            from numba import cuda

            self._event = cuda.event(timing=enable_timing)

    def record(self, stream=None) -> None:
        """Record the event on ``stream`` (the current stream by default)."""
        stream = current_stream() if stream is None else stream
        if self._event is None:
            self._host_time = time.perf_counter()
        else:
            self._event.record(stream._stream)

    def wait(self, stream=None) -> None:
        """Make later work on ``stream`` (the current one by default) wait for this event."""
        stream = current_stream() if stream is None else stream
        if self._event is not None:
            self._event.wait(stream._stream)

    def query(self) -> bool:
        """Whether the work before the event has finished."""
        return True if self._event is None else bool(self._event.query())

    def synchronize(self) -> None:
        """Wait until the work before the event has finished."""
        if self._event is not None:
            self._event.synchronize()

    def elapsed_time(self, end_event) -> float:
        """Milliseconds between this event and ``end_event`` (both recorded, with ``enable_timing``)."""
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("Both events must be created with argument 'enable_timing=True'.")
        if self._event is None:
            if self._host_time is None or end_event._host_time is None:
                raise RuntimeError("Both events must be recorded before calculating elapsed time.")
            return (end_event._host_time - self._host_time) * 1000.0
        return float(self._event.elapsed_time(end_event._event))


def default_stream(device=None) -> Stream:
    """The device's default stream, on which yaten's kernels run.

    >>> import yaten
    >>> yaten.cuda.default_stream().cuda_stream if yaten.cuda.is_available() else 0
    0
    """
    return Stream(device, _default=True)


def current_stream(device=None) -> Stream:
    """The stream made current on this thread by ``stream``/``set_stream``, else the default stream."""
    current = getattr(_CURRENT, "stream", None)
    return current if current is not None else default_stream(device)


def set_stream(stream) -> None:
    """Make ``stream`` current on this thread (``None``: no change, as torch's)."""
    if stream is None:
        return
    _CURRENT.stream = stream


class StreamContext:
    """Makes a stream current for a block, then restores the previous one (``None``: no change).

    >>> import yaten
    >>> with yaten.cuda.StreamContext(None):
    ...     pass
    """

    def __init__(self, stream):
        self.stream = stream
        self.prev = None

    def __enter__(self):
        if self.stream is not None:
            self.prev = getattr(_CURRENT, "stream", None)
            _CURRENT.stream = self.stream
        return self.stream

    def __exit__(self, exc_type, exc_value, traceback):
        if self.stream is not None:
            _CURRENT.stream = self.prev
        return False


def stream(stream) -> StreamContext:
    """``with stream(s):`` makes ``s`` current in the block.

    >>> import yaten
    >>> with yaten.cuda.stream(None):
    ...     pass
    """
    return StreamContext(stream)
