"""``fork``/``wait``: eagerly, as torch runs them outside TorchScript, the function runs at ``fork``
(an exception it raises propagates there) and ``wait`` returns its result."""

from ._deprecation import warn_deprecated

__all__ = ["Future", "fork", "wait"]


class Future:
    """The result of a ``fork``: done at once, since the call has already run.

    >>> import yaten
    >>> fut = yaten.jit.Future()
    >>> fut.set_result(3)
    >>> fut.done(), fut.wait()
    (True, 3)
    """

    def __init__(self):
        self._done = False
        self._value = None
        self._callbacks = []

    def done(self) -> bool:
        return self._done

    def set_result(self, result) -> None:
        if self._done:
            raise RuntimeError("Future can only be marked completed once.")
        self._value, self._done = result, True
        for callback in self._callbacks:
            callback(self)

    def value(self):
        return self._value

    def wait(self):
        return self._value

    def then(self, callback) -> "Future":
        """A Future of ``callback(self)``, run when this one completes."""
        chained = Future()
        self.add_done_callback(lambda fut: chained.set_result(callback(fut)))
        return chained

    def add_done_callback(self, callback) -> None:
        if self._done:
            callback(self)
        else:
            self._callbacks.append(callback)


def fork(func, *args, **kwargs) -> Future:
    """Run ``func(*args, **kwargs)`` and return a Future of its result.

    >>> import yaten
    >>> yaten.jit.wait(yaten.jit.fork(pow, 2, 10))
    1024
    """
    warn_deprecated("fork")
    fut = Future()
    fut.set_result(func(*args, **kwargs))
    return fut


def wait(future: Future):
    """The result of a forked call."""
    warn_deprecated("wait")
    return future.wait()
