"""Array-level kernels: pure functions over NumPy arrays (cpu) or numba.cuda device arrays (cuda)."""
