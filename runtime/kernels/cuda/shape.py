"""Shape ops over device arrays: cat.

The checks, promotion and result shape are the CPU kernel's (``kernels/cpu/shape.py``, which reads only
shapes and dtypes); each input is then written, cast, into its slice of the result by the copy kernel.
"""

from ..cpu.shape import cat_plan
from . import memory
from .copy import copy_into


def cat(tensors, dim):
    """Concatenate device arrays along ``dim`` in their promoted dtype; 1-d empty arrays are skipped."""
    kept, d, shape, out_dtype = cat_plan(tensors, dim)
    out = memory.empty(shape, out_dtype)
    start = 0
    for t in kept:
        n = t.shape[d]
        if n:
            copy_into(out[(slice(None),) * d + (slice(start, start + n),)], t)
        start += n
    return out
