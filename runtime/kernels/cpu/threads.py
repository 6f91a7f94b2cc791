"""Numba kernels with parallel loops, run on yaten's thread budget, serially when parallel does not pay.

Each kernel is compiled twice from one source: with ``parallel=True`` and without (its ``prange`` loops
then run as ``range``). A call runs the serial one when its input is small, when the budget
(``yaten.set_num_threads``) is one thread, or in a process forked after the parallel pool started:

- A parallel region costs its threads' start and join (7-40 us on 2 busy cores, a serial call 0.3 us),
  and on a small machine its threads also contend with BLAS's. At the sizes of a small network's
  layers that costs more than it saves: the digits CNN's epoch (median of 6 runs) took 105 ms with
  its pooling and normalization kernels parallel and 93 ms with them serial. A 4-million-element
  max-pool, on the other hand, runs in half the time on two threads.
- Numba's threading layer is OpenMP (chosen below). GNU OpenMP's pool does not survive ``fork()``:
  Numba kills a forked child that enters a parallel region of a parent whose pool ran. The serial
  compile never enters one, so DataLoader workers (forked, as torch's on Linux) and any other forked
  child compute safely, on one thread each, as torch's workers do.

The threading layer is chosen here, before any parallel kernel runs, unless the user chose one
(``NUMBA_THREADING_LAYER`` or ``NUMBA_THREADING_LAYER_PRIORITY``): OpenMP first, its waiting threads
sleeping (``OMP_WAIT_POLICY=PASSIVE``, set in ``yaten/__init__``). Measured on 2 cores against Numba's
own ``workqueue``: kernels over 4 million elements ran alike, but a parallel launch cost 10-40 us with
OpenMP against ~100 us with workqueue on a busy machine, and workqueue aborts the process when two
Python threads run parallel kernels at once (OpenMP and TBB are thread-safe). TBB, when installed,
comes second.
"""

import functools
import os
import types

import numba

from ... import _threads

# Inputs with fewer elements run on one thread.
PARALLEL_FROM = 1 << 19

if "NUMBA_THREADING_LAYER" not in os.environ and "NUMBA_THREADING_LAYER_PRIORITY" not in os.environ:
    # Also in the environment, which Numba reads again when a NUMBA_ variable changes.
    os.environ["NUMBA_THREADING_LAYER_PRIORITY"] = "omp tbb workqueue"
    numba.config.THREADING_LAYER_PRIORITY = ["omp", "tbb", "workqueue"]

_pool_started = False  # a parallel kernel ran in this process
_pool_usable = True  # False in a process forked after the pool started


def _after_fork_in_child() -> None:
    global _pool_usable
    _pool_usable = not _pool_started


os.register_at_fork(after_in_child=_after_fork_in_child)


def kernel_threads(size: int, parallel_from: int = PARALLEL_FROM) -> int:
    """The number of threads a parallel kernel whose input has ``size`` elements runs on."""
    if size < parallel_from or not _pool_usable:
        return 1
    return min(_threads.get_num_threads(), numba.config.NUMBA_NUM_THREADS)


def parallel_njit(fn=None, *, fastmath=False, parallel_from=PARALLEL_FROM):
    """``fn`` compiled with ``parallel=True`` and serially (both cached on disk); a call runs on
    ``kernel_threads(args[0].size, parallel_from)`` threads. ``fastmath`` is Numba's (a set of LLVM
    flags). Usable bare (``@parallel_njit``) or with arguments."""
    if fn is None:
        return functools.partial(parallel_njit, fastmath=fastmath, parallel_from=parallel_from)
    options = {"cache": True, "fastmath": fastmath, "error_model": "numpy"}
    kernel = numba.njit(parallel=True, **options)(fn)
    # A copy under its own name: Numba's disk cache keys a function by name and bytecode, not by
    # its compile options, so the two compiles of one function would overwrite each other.
    twin = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    twin.__qualname__ = f"{fn.__qualname__}.serial"
    serial = numba.njit(**options)(twin)

    @functools.wraps(fn)
    def call(*args):
        global _pool_started
        threads = kernel_threads(args[0].size, parallel_from)
        if threads == 1:
            return serial(*args)
        if numba.get_num_threads() != threads:
            numba.set_num_threads(threads)
        _pool_started = True
        return kernel(*args)

    return call
