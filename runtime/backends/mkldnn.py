"""torch.backends.mkldnn: oneDNN's flags. yaten's CPU kernels are NumPy's BLAS and Numba, not oneDNN, so
``is_available()`` is False; ``enabled`` and ``deterministic`` are kept and checked as torch's.

>>> import yaten
>>> yaten.backends.mkldnn.is_available(), yaten.backends.mkldnn.enabled
(False, True)
"""

import sys

from ._flags import BoolFlag, FlagModule, flag_context, install

__all__ = ["flags", "is_available"]


def is_available() -> bool:
    """Whether yaten runs oneDNN (MKL-DNN) kernels: never."""
    return False


def flags(enabled=False, deterministic=False, allow_tf32=True, fp32_precision="none"):
    """Set oneDNN's flags for a block, as torch's ``mkldnn.flags``.

    >>> import yaten
    >>> with yaten.backends.mkldnn.flags(enabled=False):
    ...     yaten.backends.mkldnn.enabled
    False
    """
    return flag_context(sys.modules[__name__], enabled=enabled, deterministic=deterministic,
                        allow_tf32=allow_tf32)  # fmt: skip


class MkldnnModule(FlagModule):
    enabled = BoolFlag(True, "mkldnn")
    deterministic = BoolFlag(False, "mkldnn")
    allow_tf32 = BoolFlag(True, "mkldnn")


install(__name__, MkldnnModule)
