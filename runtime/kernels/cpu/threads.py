"""Numba kernels with parallel loops that run on one thread when their input is small.

A parallel region costs its threads' start and join, and on a small machine its threads also contend
with OpenBLAS's, which keep spinning for a while after a matrix product. At the sizes of a small
network's layers that costs more than it saves: the digits CNN's epoch (median of 6 runs) took 105 ms
with its pooling and normalization kernels parallel and 93 ms with them serial. A 4-million-element
max-pool, on the other hand, runs in half the time on two threads.
"""

import functools

import numba

# Inputs with fewer elements run on one thread.
PARALLEL_FROM = 1 << 19


def parallel_njit(fn=None, *, fastmath=False):
    """``fn`` compiled with ``parallel=True`` (and cached on disk); a call whose first argument has
    fewer than ``PARALLEL_FROM`` elements runs with Numba's thread count set to one. ``fastmath`` is
    Numba's (a set of LLVM flags). Usable bare (``@parallel_njit``) or with arguments."""
    if fn is None:
        return functools.partial(parallel_njit, fastmath=fastmath)
    kernel = numba.njit(parallel=True, cache=True, fastmath=fastmath, error_model="numpy")(fn)

    @functools.wraps(fn)
    def call(*args):
        if args[0].size >= PARALLEL_FROM:
            return kernel(*args)
        threads = numba.get_num_threads()
        numba.set_num_threads(1)
        try:
            return kernel(*args)
        finally:
            numba.set_num_threads(threads)

    return call
