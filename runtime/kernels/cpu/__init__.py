"""CPU kernels: NumPy (BLAS, reductions) and Numba-jitted loops over host arrays."""
