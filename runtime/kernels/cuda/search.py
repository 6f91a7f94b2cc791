"""searchsorted on device arrays (numba.cuda): one thread binary-searches one value.

The checks are the CPU kernel's (``kernels/cpu/search.py``). Boundaries and values are compared in
their common dtype, as PyTorch converts them; a sorter is checked for indices out of range first
(its minimum and maximum, reduced on the device).
"""

import numpy as np
from numba import cuda

from ..cpu.search import searchsorted_checks, searchsorted_side
from . import memory
from .copy import contiguous_cast, launch
from .reduce import amax, amin

_I32, _I64 = np.dtype(np.int32), np.dtype(np.int64)


def searchsorted(sorted_sequence, self, out_int32=False, right=False, side=None, sorter=None):
    """For each value, its insertion index in the innermost rows of ``sorted_sequence``.

    >>> seq = memory.from_host(np.array([1, 3, 5, 7]))
    >>> memory.to_host(searchsorted(seq, memory.from_host(np.array([3, 6, 0, 9]))))
    array([1, 3, 0, 4])
    """
    how = searchsorted_side(right, side)
    searchsorted_checks(sorted_sequence, self, sorter)
    n = int(sorted_sequence.shape[sorted_sequence.ndim - 1])
    if sorter is not None and sorter.size:
        lowest, highest = (int(memory.to_host(f(sorter, (), False))) for f in (amin, amax))
        if lowest < 0 or highest >= n:
            raise RuntimeError("torch.searchsorted(): sorter index out of range")
    shape = tuple(int(k) for k in self.shape)
    out = memory.empty(shape, _I32 if out_int32 else _I64)
    if out.size == 0:
        return out
    dt = np.result_type(sorted_sequence.dtype, self.dtype)
    seq = memory.flat(contiguous_cast(sorted_sequence, sorted_sequence.shape, dt))
    values = memory.flat(contiguous_cast(self, shape, dt))
    # values per row of boundaries: all of them for 1-d boundaries, else the last dim's size
    per_row = out.size if sorted_sequence.ndim == 1 else int(shape[-1])
    # Without a sorter the kernel gets an unread int64 placeholder: both branches must type-check.
    order = (
        memory.flat(contiguous_cast(sorter, sorter.shape, _I64))
        if sorter is not None
        else memory.empty((1,), _I64)
    )
    launch(_search_kernel, out.size, seq, values, memory.flat(out), order, sorter is not None, n, per_row,
           how == "right", out.size)  # fmt: skip
    return out


@cuda.jit
def _search_kernel(seq, values, out, order, sorted_by, n, per_row, right, total):
    i = cuda.grid(1)
    if i < total:
        base = (i // per_row) * n
        v = values[i]
        lo, hi = 0, n
        while lo < hi:
            mid = (lo + hi) // 2
            x = seq[base + order[base + mid]] if sorted_by else seq[base + mid]
            # left: the first position whose boundary is >= v; right: the first whose boundary is > v
            if (not (x > v)) if right else (not (x >= v)):
                lo = mid + 1
            else:
                hi = mid
        out[i] = lo
