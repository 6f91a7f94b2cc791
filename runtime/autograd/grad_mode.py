"""Grad modes: whether ops record a graph, per thread (no_grad, enable_grad, set_grad_enabled,
inference_mode)."""

import functools
import threading


class _State(threading.local):
    enabled = True
    inference = False


STATE = _State()


def is_grad_enabled() -> bool:
    """Whether ops on tensors that require grad record a graph in this thread.

    >>> import yaten
    >>> with yaten.no_grad():
    ...     yaten.is_grad_enabled()
    False
    """
    return STATE.enabled


class _Mode:
    """Base of the grad-mode context managers; each is also a decorator, with or without parentheses
    (``@no_grad`` and ``@no_grad()``)."""

    def __new__(cls, *args, **kwargs):
        if len(args) == 1 and not kwargs and callable(args[0]) and not isinstance(args[0], type):
            return cls()(args[0])
        return super().__new__(cls)

    def __call__(self, fn):
        if isinstance(fn, type) or not callable(fn):
            raise TypeError(f"{type(self).__name__} expects a function to decorate, got {fn!r}")

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.clone():
                return fn(*args, **kwargs)

        return wrapper

    def clone(self):
        return type(self)()


class no_grad(_Mode):
    """Ops inside record no graph.

    >>> import yaten
    >>> x = yaten.ones(2, requires_grad=True)
    >>> with yaten.no_grad():
    ...     (x * 2).requires_grad
    False
    """

    def __enter__(self):
        self._prev = STATE.enabled
        STATE.enabled = False

    def __exit__(self, *exc):
        STATE.enabled = self._prev


class enable_grad(_Mode):
    """Ops inside record a graph, even within ``no_grad``."""

    def __enter__(self):
        self._prev = STATE.enabled
        STATE.enabled = True

    def __exit__(self, *exc):
        STATE.enabled = self._prev


class set_grad_enabled(_Mode):
    """Turn graph recording on or off: immediately, or for a ``with`` block.

    >>> import yaten
    >>> with yaten.set_grad_enabled(False):
    ...     yaten.is_grad_enabled()
    False
    """

    def __init__(self, mode: bool):
        self._prev = STATE.enabled
        self.mode = bool(mode)
        STATE.enabled = self.mode

    def clone(self):
        return type(self)(self.mode)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        STATE.enabled = self._prev


def is_inference_mode_enabled() -> bool:
    """Whether inference mode is on in this thread.

    >>> import yaten
    >>> with yaten.inference_mode():
    ...     yaten.is_inference_mode_enabled()
    True
    """
    return STATE.inference


class inference_mode(_Mode):
    """Like ``no_grad``, and the tensors made inside are inference tensors: they can never join a graph
    later, and in-place updates to them outside inference mode are refused.

    ``inference_mode(False)`` switches it off again (and turns grad mode on) within an outer one.

    >>> import yaten
    >>> x = yaten.ones(2, requires_grad=True)
    >>> with yaten.inference_mode():
    ...     y = x * 2
    >>> y.requires_grad, y.is_inference()
    (False, True)
    """

    def __init__(self, mode: bool = True):
        self.mode = bool(mode)

    def clone(self):
        return type(self)(self.mode)

    def __enter__(self):
        self._prev = (STATE.enabled, STATE.inference)
        STATE.inference = self.mode
        STATE.enabled = not self.mode

    def __exit__(self, *exc):
        STATE.enabled, STATE.inference = self._prev
