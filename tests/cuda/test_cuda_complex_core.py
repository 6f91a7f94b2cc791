"""complex64/complex128 tensors on cuda: creation, copies between devices and dtypes, the views of
the parts and the ops of runtime/native/complex.py, compared with the CPU (small inputs: the simulator
runs a Python thread per element)."""

import warnings

import numpy as np
import pytest
from compare import CUDA, both

import yaten

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")

_RNG = np.random.default_rng(5)
Z = _RNG.standard_normal((2, 3)) + 1j * _RNG.standard_normal((2, 3))
X = _RNG.standard_normal((2, 3))

CASES = {
    "tensor": lambda d, dt: yaten.tensor(Z, dtype=dt, device=d),
    "to device and back": lambda d, dt: yaten.tensor(Z, dtype=dt).to(d).cpu().to(d),
    "zeros": lambda d, dt: yaten.zeros(2, 3, dtype=dt, device=d),
    "ones": lambda d, dt: yaten.ones(3, dtype=dt, device=d),
    "full": lambda d, dt: yaten.full((2,), 1 - 2j, dtype=dt, device=d),
    "fill_": lambda d, dt: yaten.zeros(2, dtype=dt, device=d).fill_(3j),
    "from real": lambda d, dt: yaten.tensor(X, device=d).to(dt),
    "non-contiguous copy": lambda d, dt: yaten.tensor(Z, dtype=dt, device=d).t().contiguous(),
    "view_as_real": lambda d, dt: yaten.view_as_real(yaten.tensor(Z, dtype=dt, device=d).t()),
    "view_as_complex": lambda d, dt: yaten.view_as_complex(
        yaten.view_as_real(yaten.tensor(Z, dtype=dt, device=d))
    ),
    "real": lambda d, dt: yaten.tensor(Z, dtype=dt, device=d).real,
    "imag": lambda d, dt: yaten.tensor(Z, dtype=dt, device=d)[1:].imag,
    "conj": lambda d, dt: yaten.tensor(Z, dtype=dt, device=d).conj(),
    "adjoint": lambda d, dt: yaten.tensor(Z, dtype=dt, device=d).adjoint(),
    "complex": lambda d, dt: yaten.complex(*(yaten.tensor(X, dtype=dt.to_real(), device=d),) * 2),
    "polar": lambda d, dt: yaten.polar(*(yaten.tensor(X, dtype=dt.to_real(), device=d),) * 2),
    "angle": lambda d, dt: yaten.tensor(Z, dtype=dt, device=d).angle(),
    "isreal": lambda d, dt: yaten.tensor([1 + 0j, 1j], dtype=dt, device=d).isreal(),
}


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name", CASES)
def test_matches_cpu(name, dtype):
    both(lambda d: CASES[name](d, getattr(yaten, dtype)), layout=True)


@pytest.mark.parametrize("target", ["float32", "int32", "float64"])
def test_complex_to_real_keeps_the_real_part_and_warns(target):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = both(lambda d: yaten.tensor(Z, device=d).to(getattr(yaten, target)))
    assert any("Casting complex values to real discards the imaginary part" in str(x.message) for x in w)
    assert got.device == CUDA


def test_complex_to_bool_raises_a_missing_backend():
    with pytest.raises(
        NotImplementedError, match="Could not run 'aten::_to_copy' with arguments from the 'CUDA'"
    ):
        yaten.tensor([1j]).cuda().bool()


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_random_fills_both_parts_on_the_device(dtype):
    g = yaten.Generator("cuda").manual_seed(0)
    z = yaten.randn(400, dtype=getattr(yaten, dtype), device="cuda", generator=g)
    u = yaten.rand(400, dtype=getattr(yaten, dtype), device="cuda", generator=g)
    assert z.device == CUDA and z.dtype is getattr(yaten, dtype) and z._base is None
    a, b = z.cpu().numpy(), u.cpu().numpy()
    assert 0.3 < a.imag.var() < 0.7 and 0.3 < a.real.var() < 0.7  # each part N(0, 1/2)
    assert b.imag.min() >= 0 and b.imag.max() < 1 and b.imag.std() > 0.1


def test_gradient_flows_through_the_views_on_the_device():
    def run(device):
        x = yaten.tensor(X, device=device).reshape(3, 2).requires_grad_()
        z = yaten.view_as_complex(x)
        out = yaten.view_as_real(z.conj()) * yaten.tensor([[1.0, 2.0]], device=device)
        out.sum().backward()
        return x.grad

    both(run)


@pytest.mark.parametrize("op", ["complex", "polar"])
def test_parts_on_two_devices_raise_as_torch(op):
    with pytest.raises(
        RuntimeError, match=f"Expected all tensors to be on the same device.*checking argument for {op}"
    ):
        getattr(yaten, op)(yaten.ones(2), yaten.ones(2, device="cuda"))
