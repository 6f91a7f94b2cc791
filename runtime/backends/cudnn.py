"""torch.backends.cudnn: cuDNN's flags with torch's defaults. yaten's CUDA kernels are its own (numba.cuda),
never cuDNN's, so ``is_available()`` is False and ``version()`` None on every machine; the flags are
kept and checked as torch's (``deterministic``, ``benchmark``, ``enabled``, ``allow_tf32``).

>>> import yaten
>>> yaten.backends.cudnn.benchmark = True
>>> yaten.backends.cudnn.benchmark
True
>>> yaten.backends.cudnn.benchmark = False
>>> yaten.backends.cudnn.is_available()
False
"""

import sys

from ._flags import BoolFlag, FlagModule, flag_context, install

__all__ = ["flags", "is_acceptable", "is_available", "version"]


def is_available() -> bool:
    """Whether yaten runs cuDNN: never (its cuda kernels are numba.cuda's)."""
    return False


def version():
    """cuDNN's version: None, as torch's without cuDNN."""
    return None


def is_acceptable(tensor) -> bool:
    """Whether cuDNN would take this tensor: never, without cuDNN."""
    return False


def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False, allow_tf32=True,
          fp32_precision="none", depthwise_kernel="auto"):  # fmt: skip
    """Set cuDNN's flags for a block, as torch's ``cudnn.flags`` (each argument's default included).

    >>> import yaten
    >>> with yaten.backends.cudnn.flags(enabled=True, deterministic=True):
    ...     yaten.backends.cudnn.deterministic
    True
    >>> yaten.backends.cudnn.deterministic
    False
    """
    return flag_context(sys.modules[__name__], enabled=enabled, benchmark=benchmark,
                        deterministic=deterministic, allow_tf32=allow_tf32)  # fmt: skip


class CudnnModule(FlagModule):
    enabled = BoolFlag(True, "cudnn")
    benchmark = BoolFlag(False, "cudnn")
    deterministic = BoolFlag(False, "cudnn")
    allow_tf32 = BoolFlag(True, "cublas")  # sic: torch's check names cublas here
    benchmark_limit = None  # torch's without cuDNN (a cuDNN build's is 10)


install(__name__, CudnnModule)
