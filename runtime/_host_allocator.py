"""Host memory: torch's errors for allocations that cannot succeed, and how glibc's allocator treats
the arrays of a training step (keep freed memory for the next step).

``allocation_error`` turns NumPy's failed allocations (a byte count that overflows int64, memory the
OS refuses) into torch's RuntimeErrors, not NumPy's ValueError or MemoryError.

By default glibc maps every allocation of 128 KiB or more afresh from the OS (raising that bar only
after such a block is freed) and hands freed memory at the top of the heap back once 128 KiB of it
is free. A training step allocates and frees the same activation-sized arrays every time, so each
one page-faults on its first touch, all over again: a digits-CNN epoch measured 118-131 ms so and
92-114 ms with the settings below. They keep up to 256 MiB of freed memory in the process and serve
arrays up to 32 MiB (glibc's largest bar) from it, as PyTorch's users get by preloading jemalloc.

Nothing changes where the user configured the allocator (any ``MALLOC_*_`` variable) or where the C
library is not glibc.
"""

import ctypes
import math
import os

import numpy as np

_INT64_MAX = 2**63 - 1

_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_THRESHOLD = -1, -2, -3
_SETTINGS = ((_M_MMAP_THRESHOLD, 32 << 20), (_M_TRIM_THRESHOLD, 256 << 20), (_M_TOP_PAD, 16 << 20))


def keep_freed_memory() -> bool:
    """Apply the settings; whether they were applied."""
    if any(name.startswith("MALLOC_") for name in os.environ):
        return False
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    return all(mallopt(option, value) == 1 for option, value in _SETTINGS)


def allocation_error(error, shape, np_dtype) -> Exception:
    """What to raise for a NumPy allocation of ``shape`` that failed with ``error``: torch's RuntimeErrors
    when its byte count overflows int64 (NumPy raises ValueError) or when the OS refuses it (MemoryError);
    any other error as it is. Call sites wrap the NumPy call in ``try``, which costs nothing when it works.

    >>> allocation_error(ValueError("array is too big"), (2**62,), np.float32)
    RuntimeError('Storage size calculation overflowed with sizes=[4611686018427387904]')
    """
    nbytes = math.prod(shape) * np.dtype(np_dtype).itemsize
    if nbytes > _INT64_MAX:
        return RuntimeError(f"Storage size calculation overflowed with sizes={list(shape)}")
    if isinstance(error, MemoryError):
        return RuntimeError(
            f"DefaultCPUAllocator: can't allocate memory: you tried to allocate {nbytes} bytes. "
            "Error code 12 (Cannot allocate memory)"
        )
    return error
