"""torch's determinism switches: ``use_deterministic_algorithms`` and the debug mode, with torch's
checks and messages.

yaten's CPU kernels are deterministic run to run (their parallel reductions split work the same way
each time); the flags are kept for programs that set and read them.
"""

__all__ = ["are_deterministic_algorithms_enabled", "get_deterministic_debug_mode",
           "is_deterministic_algorithms_warn_only_enabled", "set_deterministic_debug_mode",
           "use_deterministic_algorithms"]  # fmt: skip

_STATE = {"enabled": False, "warn_only": False}
_MODES = ("default", "warn", "error")


def use_deterministic_algorithms(mode, *, warn_only=False) -> None:
    """Ask for deterministic algorithms (``warn_only``: warn instead of raising where there is none).

    >>> import yaten
    >>> yaten.use_deterministic_algorithms(True, warn_only=True)
    >>> yaten.are_deterministic_algorithms_enabled(), yaten.get_deterministic_debug_mode()
    (True, 1)
    >>> yaten.use_deterministic_algorithms(False)
    """
    for name, value in (("mode", mode), ("warn_only", warn_only)):
        if not isinstance(value, bool):
            where = "(position 1)" if name == "mode" else ""
            raise TypeError(
                f"_set_deterministic_algorithms(): argument '{name}' {where}{' ' if where else ''}must be bool, "
                f"not {type(value).__name__}"
            )
    _STATE["enabled"], _STATE["warn_only"] = mode, warn_only


def are_deterministic_algorithms_enabled() -> bool:
    """Whether ``use_deterministic_algorithms(True)`` is in force."""
    return _STATE["enabled"]


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    """Whether deterministic mode only warns."""
    return _STATE["warn_only"]


def set_deterministic_debug_mode(debug_mode) -> None:
    """``"default"``/0 (off), ``"warn"``/1, ``"error"``/2: the same switch as
    ``use_deterministic_algorithms``.

    >>> import yaten
    >>> yaten.set_deterministic_debug_mode("error")
    >>> yaten.are_deterministic_algorithms_enabled(), yaten.is_deterministic_algorithms_warn_only_enabled()
    (True, False)
    >>> yaten.set_deterministic_debug_mode(0)
    """
    if isinstance(debug_mode, str):
        if debug_mode not in _MODES:
            raise RuntimeError(
                f"invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got {debug_mode}"
            )
        debug_mode = _MODES.index(debug_mode)
    elif not isinstance(debug_mode, int):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    _STATE["enabled"], _STATE["warn_only"] = debug_mode > 0, debug_mode == 1


def get_deterministic_debug_mode() -> int:
    """0 when deterministic mode is off, 1 when it only warns, 2 when it raises."""
    if not _STATE["enabled"]:
        return 0
    return 1 if _STATE["warn_only"] else 2
