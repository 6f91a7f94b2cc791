"""torch.backends.mkl: whether Intel MKL does yaten's BLAS work (NumPy's BLAS, as threadpoolctl finds it).

>>> import yaten
>>> isinstance(yaten.backends.mkl.is_available(), bool)
True
"""

__all__ = ["is_available"]


def is_available() -> bool:
    """Whether the BLAS NumPy loaded is MKL (NumPy's PyPI wheels bring OpenBLAS: then False)."""
    from .._threads import _blas_libraries

    return any(lib.internal_api == "mkl" for lib in _blas_libraries())
