"""CPU kernels: NumPy (BLAS, reductions) and Numba-jitted loops over host arrays.

Every Numba kernel here is compiled with ``error_model="numpy"``: a division follows IEEE (inf and
NaN, as PyTorch's kernels give) instead of Numba's default Python model, which checks each division
for a zero divisor and so keeps the loop from vectorizing (the fused Adam update ran 8x slower so).
"""
