"""``frexp`` over device arrays (numba.cuda): same results and errors as ``kernels/cpu/float_parts.py``,
one thread per element of a contiguous copy (half types computed in float32, exact for their values)."""

import math

import numpy as np
from numba import cuda

from ..cpu.float_parts import check_floating
from . import memory
from .copy import contiguous_cast, launch


@cuda.jit
def _frexp(x, mantissa, exponent):
    i = cuda.grid(1)
    if i < x.shape[0]:
        m, e = math.frexp(x[i])
        mantissa[i] = m
        exponent[i] = e


def frexp(self):
    """``(mantissa, exponent)`` with ``self == mantissa * 2 ** exponent``.

    >>> m, e = frexp(memory.from_host(np.array([8.0, -3.5, 0.0])))
    >>> memory.to_host(m), memory.to_host(e)
    (array([ 0.5  , -0.875,  0.   ]), array([4, 2, 0], dtype=int32))
    """
    check_floating(self.dtype)
    work = np.dtype(np.float64) if self.dtype == np.float64 else np.dtype(np.float32)
    x = contiguous_cast(self, self.shape, work)
    n = int(np.prod(self.shape))
    mantissa, exponent = memory.empty(self.shape, work), memory.empty(self.shape, np.int32)
    launch(_frexp, n, memory.flat(x), memory.flat(mantissa), memory.flat(exponent))
    if work != self.dtype:
        mantissa = contiguous_cast(mantissa, self.shape, self.dtype)
    return mantissa, exponent
