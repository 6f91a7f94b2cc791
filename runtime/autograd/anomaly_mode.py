"""Anomaly detection: nodes remember the forward code that made them, and backward checks for NaN.

As in PyTorch the switch is process-wide (not per thread).
"""

import os
import traceback
import warnings

_RUNTIME_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class _State:
    enabled = False
    check_nan = True


STATE = _State()


def is_anomaly_enabled() -> bool:
    return STATE.enabled


def is_anomaly_check_nan_enabled() -> bool:
    return STATE.check_nan


def forward_trace() -> str:
    """The user's part of the current stack (yaten's own frames left out), as PyTorch records it."""
    from .. import _generated

    ours = (_RUNTIME_DIR, os.path.dirname(os.path.abspath(_generated.__file__)))
    frames = [f for f in traceback.extract_stack()[:-1] if not f.filename.startswith(ours)]
    return "".join(traceback.format_list(frames))


class detect_anomaly:
    """Within this block (or decorated function), every node records the stack that created it, and
    an error in backward — including a NaN gradient, with ``check_nan`` — names the node and shows
    that stack.

    >>> import yaten, warnings
    >>> x = yaten.tensor([0.0], requires_grad=True)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     with yaten.autograd.detect_anomaly():
    ...         (x.sqrt() * 0).sum().backward()
    Traceback (most recent call last):
    ...
    RuntimeError: Function 'SqrtBackward0' returned nan values in its 0th output.
    """

    def __init__(self, check_nan: bool = True):
        self.check_nan = check_nan
        warnings.warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
            "enabled for debugging.",
            UserWarning,
            stacklevel=2,
        )

    def __enter__(self):
        self._prev = (STATE.enabled, STATE.check_nan)
        STATE.enabled, STATE.check_nan = True, self.check_nan

    def __exit__(self, *exc):
        STATE.enabled, STATE.check_nan = self._prev

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)

        return wrapper


class set_detect_anomaly:
    """Turn anomaly detection on or off: immediately, or for a ``with`` block.

    >>> import yaten
    >>> with yaten.autograd.set_detect_anomaly(True, check_nan=False):
    ...     yaten.is_anomaly_enabled(), yaten.is_anomaly_check_nan_enabled()
    (True, False)
    >>> yaten.is_anomaly_enabled()
    False
    """

    def __init__(self, mode: bool, check_nan: bool = True):
        self._prev = (STATE.enabled, STATE.check_nan)
        STATE.enabled, STATE.check_nan = bool(mode), bool(check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        STATE.enabled, STATE.check_nan = self._prev


def report(node) -> None:
    """Warn with the forward stack of the node whose backward failed (the error then propagates)."""
    trace = node.metadata.get("traceback_")
    detail = (
        f"Traceback of forward call that caused the error:\n{trace}"
        if trace is not None
        else "No forward pass information available. Enable detect anomaly during forward pass for more "
        "information."
    )
    warnings.warn(f"Error detected in {node.name()}. {detail}", UserWarning, stacklevel=2)


def check_nan(node, grads) -> None:
    for i, g in enumerate(grads):
        if g is not None and (g._dtype.is_floating_point or g._dtype.is_complex) and bool(g.isnan().any()):
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
