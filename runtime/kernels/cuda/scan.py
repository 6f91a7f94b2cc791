"""A parallel prefix scan over device arrays, and cumsum built on it (numba.cuda).

``inclusive_scan`` scans every row of a C-contiguous ``(rows, n)`` array in place, in three steps:

1. one thread per (row, chunk of ``CHUNK`` consecutive elements) scans its chunk serially and writes
   the chunk's total to a ``(rows, nchunks)`` array;
2. the totals are scanned by the same function (recursively: a row of at most ``CHUNK`` totals is
   scanned serially by one thread);
3. one thread per element adds the scanned total of the chunks before its own.

Each level divides the length by ``CHUNK``, so 10^8 elements take six levels. Integer sums are
exact (and wrap in the narrow integer types as the CPU's do); floating sums are added in a different
order than the CPU's serial loop, so they may differ from it in the last bits.

``cumsum`` has the CPU kernel's checks and dtypes (``kernels/cpu/scan.py``) and, as both it and
PyTorch, a C-contiguous result: the input, cast to the scan's dtype, is gathered into contiguous rows
along ``dim``, scanned, and moved back (no move when ``dim`` is the last dim). float16 is
scanned in float32 and rounded once at the end, as the CPU does; float32 is scanned in float32 (the
CPU adds in float64, torch's CUDA kernel in float32).
"""

import numpy as np
from numba import cuda

from ..cpu.convert import compute_dtype
from ..cpu.scan import cumsum_checks
from . import memory
from .copy import copy_into, launch

CHUNK = 16  # elements one thread scans serially (and the longest row a single thread scans)

_F16, _F32, _I64 = (np.dtype(t) for t in (np.float16, np.float32, np.int64))


def inclusive_scan(a) -> None:
    """Replace each row of the C-contiguous 2-d device array ``a`` by its running sums, in place.

    >>> a = memory.from_host(np.arange(40).reshape(2, 20))
    >>> inclusive_scan(a); memory.to_host(a)[:, [0, 1, 19]]
    array([[  0,   1, 190],
           [ 20,  41, 590]])
    """
    rows, n = (int(k) for k in a.shape)
    if rows == 0 or n <= 1:
        return
    flat = memory.flat(a)
    if n <= CHUNK:
        launch(_rows_kernel, rows, flat, rows, n)
        return
    nchunks = -(-n // CHUNK)
    totals = memory.empty((rows, nchunks), a.dtype)
    launch(_chunks_kernel, rows * nchunks, flat, memory.flat(totals), n, nchunks, CHUNK)
    inclusive_scan(totals)
    launch(_add_totals_kernel, rows * n, flat, memory.flat(totals), n, nchunks, CHUNK, rows * n)


def cumsum(self, dim, dtype):
    """Running sum along ``dim``; integers and bool give int64 unless ``dtype`` is given. The result is
    C-contiguous.

    >>> memory.to_host(cumsum(memory.from_host(np.array([[1, 2], [3, 4]], np.uint8)), 0, None))
    array([[1, 2],
           [4, 6]])
    """
    d, out = cumsum_checks(self, dim, dtype, "cumsum_cuda")
    shape = tuple(int(k) for k in self.shape)
    if self.size == 0:
        return memory.empty(shape, out)
    if out == _F16 and self.dtype != _F16:  # rounded to half first, as the CPU converts its input
        self = copy_into(memory.empty(shape, _F16), self)
    if self.ndim == 0:
        return copy_into(memory.empty((), out), self)
    work_dt = compute_dtype(out)
    # The rows: the other dims in C order, then dim. They are the result itself when dim is the last
    # one and no rounding to half remains.
    order = [k for k in range(self.ndim) if k != d] + [d]
    moved = memory.permuted(self, order)
    n = shape[d]
    work = copy_into(memory.empty(moved.shape, work_dt), moved)
    inclusive_scan(
        memory.raw_view(work, work_dt, (self.size // n, n), (n * work_dt.itemsize, work_dt.itemsize), 0)
    )
    if order == list(range(self.ndim)) and work_dt == out:
        return work
    back = memory.permuted(work, sorted(range(self.ndim), key=order.__getitem__))
    return copy_into(memory.empty(shape, out), back)


# --- kernels ------------------------------------------------------------------------------------


@cuda.jit
def _rows_kernel(a, rows, n):
    # Thread r: row r (at most CHUNK elements), serially.
    r = cuda.grid(1)
    if r < rows:
        base = r * n
        s = a[base]
        for i in range(base + 1, base + n):
            s += a[i]
            a[i] = s


@cuda.jit
def _chunks_kernel(a, totals, n, nchunks, chunk):
    # Thread t: chunk c of row r (t = r * nchunks + c), serially; its total goes to totals[t].
    t = cuda.grid(1)
    if t < totals.shape[0]:
        r = t // nchunks
        start = r * n + (t - r * nchunks) * chunk
        stop = start + chunk
        if stop > r * n + n:  # the row's last chunk may be short
            stop = r * n + n
        s = a[start]
        for i in range(start + 1, stop):
            s += a[i]
            a[i] = s
        totals[t] = s


@cuda.jit
def _add_totals_kernel(a, totals, n, nchunks, chunk, total):
    # Thread i: element i gets the scanned total of the chunks of its row before its own.
    i = cuda.grid(1)
    if i < total:
        r = i // n
        c = (i - r * n) // chunk
        if c > 0:
            a[i] += totals[r * nchunks + c - 1]
