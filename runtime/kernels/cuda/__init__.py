"""CUDA kernels: numba.cuda kernels over device arrays (real GPU or Numba's CUDA simulator).

Importing the package imports nothing; each module imports numba.cuda (no GPU is touched until a
kernel runs or memory is allocated).
"""
