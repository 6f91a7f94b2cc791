"""Autograd through complex tensors: gradcheck/gradgradcheck on complex inputs and outputs (real
coordinates, PyTorch's convention), the complex ops' gradients against PyTorch's, and the rotary
position embedding of LLaMA-style models, forward and backward, against PyTorch.
"""

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_matches


def _c128(*shape, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


def _f64(*shape, seed=0, positive=False):
    a = np.random.default_rng(seed).standard_normal(shape)
    return np.abs(a) + 0.5 if positive else a


def _leaf(m, a):
    return m.tensor(a, requires_grad=True)


# Each case: the function of the library module and its inputs' arrays (complex128 or float64).
CASES = {
    "view_as_real": (lambda m, z: m.view_as_real(z), [_c128(3, 2)]),
    "view_as_complex": (lambda m, x: m.view_as_complex(x), [_f64(3, 2)]),
    "real": (lambda m, z: z.real * 1, [_c128(3)]),
    "imag": (lambda m, z: m.imag(z) * 1, [_c128(3)]),
    "conj": (lambda m, z: z.conj(), [_c128(2, 3)]),
    "conj_physical": (lambda m, z: m.conj_physical(z), [_c128(3)]),
    "complex": (lambda m, a, b: m.complex(a, b), [_f64(3, 1), _f64(4, seed=1)]),
    "polar": (lambda m, a, b: m.polar(a, b), [_f64(3, positive=True), _f64(3, seed=1)]),
    "polar (negative abs)": (lambda m, a, b: m.polar(a, b), [-_f64(3, positive=True), _f64(3, seed=1)]),
    "angle": (lambda m, z: m.angle(z), [_c128(2, 3)]),
    "angle of real": (lambda m, x: m.angle(x), [_f64(4)]),
    "adjoint": (lambda m, z: z.adjoint(), [_c128(2, 3)]),
    "mH": (lambda m, z: z.mH, [_c128(2, 2, 3)]),
    "polar of complex parts": (lambda m, z: m.polar(z.real.abs() + 0.5, z.imag), [_c128(3)]),
}


# torch's polar_backward takes sgn(result) for d/d abs, which is -e^(i angle) where abs < 0: its gradient
# (matched below) is not the finite difference's there, so that case is compared with torch only.
@pytest.mark.parametrize("name", [n for n in CASES if n != "polar (negative abs)"])
def test_gradcheck(name):
    fn, arrays = CASES[name]
    inputs = tuple(_leaf(yaten, a) for a in arrays)
    assert yaten.autograd.gradcheck(lambda *xs: fn(yaten, *xs), inputs)
    assert yaten.autograd.gradcheck(lambda *xs: fn(yaten, *xs), inputs, fast_mode=True)


@pytest.mark.parametrize("name", ["view_as_real", "view_as_complex", "complex", "polar", "angle", "conj"])
def test_gradgradcheck(name):
    fn, arrays = CASES[name]
    inputs = tuple(_leaf(yaten, a) for a in arrays)
    yaten.manual_seed(0)
    assert yaten.autograd.gradgradcheck(lambda *xs: fn(yaten, *xs), inputs)


@pytest.mark.parametrize("name", CASES)
def test_gradients_match_torch(name):
    fn, arrays = CASES[name]
    grads = {}
    for m in (torch, yaten):
        inputs = [_leaf(m, a) for a in arrays]
        out = fn(m, *inputs)
        if out.is_complex():
            out = m.view_as_real(out.resolve_conj())
        weight = m.tensor(np.random.default_rng(7).standard_normal(tuple(out.shape)))
        (out * weight).sum().backward()
        grads[m] = [x.grad for x in inputs]
    for got, want in zip(grads[yaten], grads[torch]):
        assert_matches(got, want)


def test_a_complex_gradient_is_the_conjugate_wirtinger_one():
    # d/dz of Re(conj(w) z) for a complex leaf z: torch's convention gives w itself.
    for m in (torch, yaten):
        z = m.tensor([1 + 2j, -1j], requires_grad=True)
        w = m.tensor([0.5 - 1j, 2 + 0j])
        pairs_w = m.view_as_real(w)
        (m.view_as_real(z) * pairs_w).sum().backward()
        assert z.grad.tolist() == [0.5 - 1j, 2 + 0j]
        assert z.grad.dtype == m.complex64


def test_gradcheck_catches_a_wrong_complex_gradient():
    z = _leaf(yaten, _c128(3))

    def wrong(t):  # the imaginary part's gradient is dropped
        return yaten.complex(t.real, t.imag.detach())

    assert not yaten.autograd.gradcheck(wrong, (z,), raise_exception=False)
    assert not yaten.autograd.gradcheck(wrong, (z,), raise_exception=False, fast_mode=True)
    with pytest.raises(RuntimeError, match="Jacobian mismatch for output 0 with respect to input 0"):
        yaten.autograd.gradcheck(wrong, (z,))


def test_gradcheck_warns_for_complex64_inputs_only():
    import warnings

    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        yaten.autograd.gradcheck(lambda t: t.conj(), (_leaf(yaten, _c128(2)),))
    assert not [x for x in w if "double precision" in str(x.message)]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        z = yaten.tensor(_c128(2), dtype=yaten.complex64, requires_grad=True)
        yaten.autograd.gradcheck(lambda t: t.conj(), (z,), atol=1e-2, rtol=1e-2, eps=1e-3)
    assert [x for x in w if "double precision" in str(x.message)]


# --- the rotary position embedding (LLaMA's apply_rotary_emb), forward and backward ---------------------
def _precompute_freqs_cis(m, dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (m.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = m.arange(end, device=freqs.device)
    freqs = m.outer(t, freqs).float()
    return m.polar(m.ones_like(freqs), freqs)


def _reshape_for_broadcast(freqs_cis, x):
    shape = [d if i == 1 or i == x.ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)


def _apply_rotary_emb(m, xq, xk, freqs_cis):
    xq_ = m.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = m.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = _reshape_for_broadcast(freqs_cis, xq_)
    xq_out = m.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = m.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_rotary_embedding_forward_and_backward_match_torch(dtype):
    rng = np.random.default_rng(0)
    xq_a, xk_a, w_a = (rng.standard_normal((2, 5, 3, 8)).astype(dtype) for _ in range(3))
    results = {}
    for m in (torch, yaten):
        xq, xk = m.tensor(xq_a, requires_grad=True), m.tensor(xk_a, requires_grad=True)
        q, k = _apply_rotary_emb(m, xq, xk, _precompute_freqs_cis(m, 8, 5))
        ((q * m.tensor(w_a)).sum() + (k * k).sum()).backward()
        results[m] = (q, k, xq.grad, xk.grad)
    # The rotation is computed in float32 (``.float()``, float32 angles) whichever the input's dtype: its
    # sin/cos are float32 SIMD results, a float32 ulp apart from torch's, also in a float64 result.
    for got, want in zip(results[yaten], results[torch]):
        assert_matches(got.detach(), want.detach(), rtol=1e-5, atol=1e-6)


def test_rotary_embedding_gradcheck():
    freqs = _precompute_freqs_cis(yaten, 4, 3).to(yaten.complex128)
    xq = yaten.tensor(_f64(1, 3, 2, 4), requires_grad=True)

    def rope(x):
        x_ = yaten.view_as_complex(x.reshape(*x.shape[:-1], -1, 2))
        return yaten.view_as_real(x_ * _reshape_for_broadcast(freqs, x_)).flatten(3)

    assert yaten.autograd.gradcheck(rope, (xq,))
