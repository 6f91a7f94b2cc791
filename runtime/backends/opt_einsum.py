"""torch.backends.opt_einsum: whether the ``opt_einsum`` package is installed, and the ``enabled`` /
``strategy`` settings with torch's defaults (``enabled`` and ``strategy="auto"`` when it is installed;
False and None when not). Assigning them is not checked, as in torch (whose checks only ``flags()``
reaches); ``flags()`` checks as torch's. yaten's einsum contracts left to right in either case.

>>> import yaten
>>> yaten.backends.opt_einsum.enabled == yaten.backends.opt_einsum.is_available()
True
"""

import contextlib
import importlib
import importlib.util

__all__ = ["flags", "get_opt_einsum", "is_available"]


def is_available() -> bool:
    """Whether the ``opt_einsum`` package is installed."""
    return importlib.util.find_spec("opt_einsum") is not None


def get_opt_einsum():
    """The ``opt_einsum`` package where it is installed, else None."""
    return importlib.import_module("opt_einsum") if is_available() else None


enabled = is_available()
strategy = "auto" if is_available() else None


def _set_enabled(value: bool) -> None:
    if not is_available() and value:
        raise ValueError(
            f"opt_einsum is not available, so setting `enabled` to {value} will not reap "
            "the benefits of calculating an optimal path for einsum. torch.einsum will "
            "fall back to contracting from left to right. To enable this optimal path "
            "calculation, please install opt-einsum."
        )
    global enabled
    enabled = value


def _set_strategy(value: str) -> None:
    if not is_available():
        raise ValueError(
            f"opt_einsum is not available, so setting `strategy` to {value} will not be meaningful. "
            "torch.einsum will bypass path calculation and simply contract from left to right. "
            "Please install opt_einsum or unset `strategy`."
        )
    if not enabled:
        raise ValueError(
            f"opt_einsum is not enabled, so setting a `strategy` to {value} will not be meaningful. "
            "torch.einsum will bypass path calculation and simply contract from left to right. "
            "Please set `enabled` to `True` as well or unset `strategy`."
        )
    if value not in ["auto", "greedy", "optimal"]:
        raise ValueError(f"`strategy` must be one of the following: [auto, greedy, optimal] but is {value}")
    global strategy
    strategy = value


@contextlib.contextmanager
def flags(enabled=None, strategy=None):
    """Set ``enabled``/``strategy`` for a block and restore them after.

    >>> import yaten
    >>> with yaten.backends.opt_einsum.flags(enabled=False):
    ...     yaten.backends.opt_einsum.enabled
    False
    """
    saved = globals()["enabled"], globals()["strategy"]
    try:
        if enabled is not None:
            _set_enabled(enabled)
        if strategy is not None:
            _set_strategy(strategy)
        yield
    finally:
        globals()["enabled"], globals()["strategy"] = saved
