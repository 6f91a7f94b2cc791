"""One thread budget for the whole library: ``set_num_threads``/``get_num_threads``, as torch's.

yaten computes on two thread pools: the BLAS NumPy loaded (matrix products and convolutions) and
Numba's (the parallel kernels of ``kernels/cpu/threads.py``, which read the budget at each call, since
Numba's own count is per Python thread). Left alone each sizes itself to every core, and their threads
compete for the same cores with each other and with other processes. The budget sets both.

BLAS is reached through threadpoolctl, which finds the BLAS NumPy loaded (OpenBLAS in NumPy's wheels,
MKL or BLIS elsewhere; also SciPy's, which Numba loads) and calls each library's own thread setter.
The libraries are looked up on first use and again at each ``set_num_threads``, and a product changes
BLAS's thread count only when it differs from the last one set: the cost per product is a comparison.

Small products run on one BLAS thread whatever the budget. OpenBLAS splits a product over its threads
from about 2^18 multiply-adds (a batch-64 MLP layer is 2^20), and its threads then hand work to each
other and spin while they wait: on a busy machine the thread being waited for has no core. A digits MLP
training step measured 12 ms with OpenBLAS's default threads next to a CPU-hungry process, against
0.45 ms with one thread (issue 11). From ``BLAS_PARALLEL_FROM`` multiply-adds (a 256x256x256 product,
0.3 ms and more on one core) a product is long enough for its threads to pay.
"""

import functools
import operator
import os

import numpy as np

__all__ = ["get_num_interop_threads", "get_num_threads", "set_num_interop_threads", "set_num_threads"]

BLAS_PARALLEL_FROM = 1 << 24


def _physical_cores() -> int:
    """The number of physical cores this process may run on."""
    cpus = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else range(os.cpu_count() or 1)
    cores = set()
    for cpu in cpus:
        topology = f"/sys/devices/system/cpu/cpu{cpu}/topology/"
        try:
            with open(topology + "physical_package_id") as package, open(topology + "core_id") as core:
                cores.add((package.read(), core.read()))
        except OSError:  # no topology to read (not Linux, or hidden): count logical CPUs
            return len(cpus)
    return max(len(cores), 1)


def _default_budget() -> int:
    """torch's default: the number of physical cores, or ``OMP_NUM_THREADS`` when it is a positive
    integer and not more."""
    cores = _physical_cores()
    env = os.environ.get("OMP_NUM_THREADS", "")
    return min(int(env), cores) if env.isdigit() and int(env) > 0 else cores


_budget = _default_budget()
_blas_threads = None  # the thread count yaten last gave BLAS; None before it first did


def get_num_threads() -> int:
    """The number of threads yaten computes on (BLAS and Numba's parallel kernels), as torch's.

    >>> import yaten
    >>> yaten.get_num_threads() >= 1
    True
    """
    return _budget


def set_num_threads(num: int) -> None:
    """Compute on ``num`` threads: BLAS's products and Numba's parallel kernels, as torch's. Numba's
    count is at most its pool's size (``NUMBA_NUM_THREADS``, fixed when the pool starts).

    >>> import yaten
    >>> n = yaten.get_num_threads()
    >>> yaten.set_num_threads(1)
    >>> yaten.get_num_threads()
    1
    >>> yaten.set_num_threads(n)
    """
    global _budget
    _budget = num = _thread_count(num, "set_num_threads")
    _blas_libraries.cache_clear()  # (a BLAS loaded since the last look is found too)
    _set_blas_threads(num)


def get_num_interop_threads() -> int:
    """1: yaten runs no inter-op pool (torch's runs independent ops of a TorchScript graph at once);
    every op runs on the calling thread, on the intra-op budget of ``get_num_threads``.

    >>> import yaten
    >>> yaten.get_num_interop_threads()
    1
    """
    return 1


_interop_set = False


def set_num_interop_threads(num: int) -> None:
    """Checked as torch's (a positive int, set at most once) and otherwise without effect: yaten has no
    inter-op pool (``get_num_interop_threads``).

    >>> import yaten
    >>> yaten.set_num_interop_threads(0)
    Traceback (most recent call last):
    RuntimeError: set_num_interop_threads expects a positive integer
    """
    global _interop_set
    _thread_count(num, "set_num_interop_threads")
    if _interop_set:
        raise RuntimeError(
            "Error: cannot set number of interop threads after parallel work has started or "
            "set_num_interop_threads called"
        )
    _interop_set = True


def _thread_count(num, caller: str) -> int:
    """``num`` as an int, or torch's error for ``caller``."""
    if isinstance(num, bool) or not hasattr(type(num), "__index__"):
        raise RuntimeError(f"{caller} expects an int, but got {type(num).__name__}")
    num = operator.index(num)
    if num <= 0:
        raise RuntimeError(f"{caller} expects a positive integer")
    return num


@functools.cache
def _blas_libraries() -> tuple:
    from threadpoolctl import ThreadpoolController

    return tuple(ThreadpoolController().select(user_api="blas").lib_controllers)


def _set_blas_threads(num: int) -> None:
    global _blas_threads
    for lib in _blas_libraries():
        lib.set_num_threads(num)
    _blas_threads = num


def blas_matmul(a, b):
    """``np.matmul(a, b)``, on the BLAS threads its size pays for: one below
    ``BLAS_PARALLEL_FROM`` multiply-adds per matrix pair (BLAS multiplies a stack one pair at a
    time), else the budget."""
    rows = a.shape[-2] if a.ndim > 1 else 1
    cols = b.shape[-1] if b.ndim > 1 else 1
    threads = 1 if rows * a.shape[-1] * cols < BLAS_PARALLEL_FROM else _budget
    if threads != _blas_threads:
        _set_blas_threads(threads)
    return np.matmul(a, b)
