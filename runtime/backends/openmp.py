"""torch.backends.openmp: whether yaten's parallel CPU kernels can run on OpenMP (Numba's ``omp``
threading layer).

>>> import yaten
>>> isinstance(yaten.backends.openmp.is_available(), bool)
True
"""

import importlib.util

__all__ = ["is_available"]


def is_available() -> bool:
    """Whether Numba's OpenMP threading layer is installed."""
    try:
        return importlib.util.find_spec("numba.np.ufunc.omppool") is not None
    except ImportError:
        return False
