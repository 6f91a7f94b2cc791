"""Complex numbers on cuda: the pointwise ops whose kernels are arithmetic (+, -, *, ==, !=, where)
compute complex64/complex128 as the CPU does; every other complex kernel raises the missing-backend
NotImplementedError, as an op without a cuda kernel does (numba.cuda's ``math`` functions are real-only,
and the reductions and matrix products are written for real numbers)."""

import numpy as np
import pytest
from compare import both

import yaten

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")

_RNG = np.random.default_rng(3)
Z1 = _RNG.standard_normal((2, 3)) + 1j * _RNG.standard_normal((2, 3))
Z2 = _RNG.standard_normal((2, 3)) + 1j * _RNG.standard_normal((2, 3))
X = _RNG.standard_normal((2, 3))

ARITHMETIC = {
    "add": lambda z1, z2, x: z1 + z2,
    "add alpha": lambda z1, z2, x: z1.add(z2, alpha=2j),
    "sub of a real tensor": lambda z1, z2, x: z1 - x,
    "mul by a complex scalar": lambda z1, z2, x: z1 * (1 - 2j),
    "mul": lambda z1, z2, x: z1 * z2,
    "neg": lambda z1, z2, x: -z1,
    "eq": lambda z1, z2, x: z1 == z2,
    "ne": lambda z1, z2, x: z1 != z1 * 1,
    "where": lambda z1, z2, x: yaten.where(x > 0, z1, z2),
    "addcmul": lambda z1, z2, x: yaten.addcmul(z1, z2, x, value=0.5j),
    "lerp": lambda z1, z2, x: z1.lerp(z2, 0.25),
}


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name", ARITHMETIC)
def test_complex_arithmetic_matches_cpu(name, dtype):
    fn = ARITHMETIC[name]
    real = "float32" if dtype == "complex64" else "float64"

    def run(device):
        z1, z2 = (yaten.tensor(a, dtype=getattr(yaten, dtype), device=device) for a in (Z1, Z2))
        return fn(z1, z2, yaten.tensor(X, dtype=getattr(yaten, real), device=device))

    both(run)


REFUSED = {
    "exp": lambda z: z.exp(),
    "div": lambda z: z / z,
    "abs": lambda z: z.abs(),
    "sum": lambda z: z.sum(),
    "mean": lambda z: z.mean(0),
    "var": lambda z: z.var(),
    "norm": lambda z: z.norm(),
    "mm": lambda z: z.mm(z.t()),
    "dot": lambda z: yaten.dot(z[0], z[1]),
}


@pytest.mark.parametrize("name", REFUSED)
def test_complex_kernels_not_written_for_cuda_raise_the_missing_backend_error(name):
    z = yaten.tensor(Z1, device="cuda")
    REFUSED[name](z.cpu())  # the CPU computes it
    with pytest.raises(NotImplementedError, match="with arguments from the 'CUDA' backend"):
        REFUSED[name](z)
