"""Warnings that point at the user's line, as torch's C++ warnings do, from however deep in yaten."""

import sys
import warnings


def caller_stacklevel() -> int:
    """The stacklevel, counted from this function's caller, of the first frame outside yaten."""
    level, frame = 1, sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("yaten"):
        level += 1
        frame = frame.f_back
    return level


def warn_user(message: str, category=UserWarning) -> None:
    """``warnings.warn`` attributed to the first frame outside yaten.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_user("careful")
    >>> str(caught[0].message), caught[0].category.__name__
    ('careful', 'UserWarning')
    """
    warnings.warn(message, category, stacklevel=caller_stacklevel())
