"""torch.backends.mps: Apple's Metal backend, which yaten does not have.

>>> import yaten
>>> yaten.backends.mps.is_available(), yaten.backends.mps.is_built()
(False, False)
"""

__all__ = ["is_available", "is_built", "is_macos13_or_newer", "is_macos_or_newer"]


def is_available() -> bool:
    """Whether an MPS device can run yaten's tensors: never (yaten has no Metal kernels)."""
    return False


def is_built() -> bool:
    """Whether yaten was built with MPS: no."""
    return False


def is_macos_or_newer(major: int, minor: int) -> bool:
    """Whether MPS runs on macOS ``major.minor`` or newer: False without MPS, as torch's."""
    return False


def is_macos13_or_newer(minor: int = 0) -> bool:
    """Whether MPS runs on macOS 13.``minor`` or newer: False without MPS, as torch's."""
    return False
