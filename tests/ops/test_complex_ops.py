"""Complex numbers computed as torch computes them: elementwise ops, reductions, matrix products and
autograd with PyTorch's conjugate-Wirtinger convention, compared with torch on the same inputs
(values, dtypes, exception types and messages, gradients).

The op table (test_ops.py) runs every pointwise op's samples in complex64/complex128 too; this file
covers what the table does not: Python complex scalars, real and complex operands mixed, the exact
refusal messages, the non-pointwise ops, and gradients of small complex programs.
"""

import numpy as np
import pytest
import torch
from op_samples import NO_COMPLEX_AUTOGRAD_IN_TORCH, NOT_SAMPLED, functional_ops, pointwise_samples
from test_ops import _call

import yaten
from tests.tolerances import assert_close

_RNG = np.random.default_rng(7)
Z1 = _RNG.standard_normal((3, 4)) + 1j * _RNG.standard_normal((3, 4))
Z2 = _RNG.standard_normal((3, 4)) + 1j * _RNG.standard_normal((3, 4))
X = _RNG.standard_normal((3, 4))
SQUARE = _RNG.standard_normal((4, 4)) + 1j * _RNG.standard_normal((4, 4))


def _inputs(lib, dtype, requires_grad=False):
    """z1, z2 (complex), x (real of the same precision), m (a complex square matrix)."""
    real = "float32" if dtype == "complex64" else "float64"

    def make(a, dt):
        return lib.tensor(a, dtype=getattr(lib, dt), requires_grad=requires_grad)

    return make(Z1, dtype), make(Z2, dtype), make(X, real), make(SQUARE, dtype)


def _outcome(fn, lib, dtype, requires_grad=False):
    try:
        return fn(lib, *_inputs(lib, dtype, requires_grad))
    except (RuntimeError, NotImplementedError, TypeError) as e:
        return e


def _same(got, want):
    if isinstance(want, Exception):
        assert type(got) is type(want), f"yaten gave {got!r}, torch raised {want!r}"
        assert str(got) == str(want)
        return
    assert not isinstance(got, Exception), f"yaten raised {got!r}"
    assert str(want.dtype) == f"torch.{got.dtype.name}", (got.dtype, want.dtype)
    assert_close(got, want)


FORWARD = {
    "z1 * z2 + z1 / z2": lambda L, z1, z2, x, m: z1 * z2 + z1 / z2,
    "complex scalar": lambda L, z1, z2, x, m: z1 * (2 - 1j) + (0.5 + 3j) - z2 / (1 + 1j),
    "real tensor, complex scalar": lambda L, z1, z2, x, m: x * 1j + x.add(x, alpha=2) - (1 - 2j),
    "int tensor, complex scalar": lambda L, z1, z2, x, m: L.arange(4) * (1 + 1j),
    "real with complex": lambda L, z1, z2, x, m: x * z1 - z2 / x.exp() + L.where(x > 0, z1, x),
    "alpha complex": lambda L, z1, z2, x, m: z1.add(z2, alpha=2j).sub(z1, alpha=0.5),
    "division by zero": lambda L, z1, z2, x, m: L.cat([z1[0] / 0, L.zeros(2, dtype=z1.dtype) / 0]),
    "pow": lambda L, z1, z2, x, m: z1.pow(2) + z1 ** (0.5 + 1j) + 2**z1 + z1.pow(z2) + z1.square(),
    "exponentials": lambda L, z1, z2, x, m: L.stack(
        [z1.exp(), z1.expm1(), z1.log(), z1.log2(), z1.log10(), z1.log1p(), z1.sqrt(), z1.rsqrt(), z1.exp2()]
    ),
    "trigonometric": lambda L, z1, z2, x, m: L.stack(
        [
            z1.sin(),
            z1.cos(),
            z1.tan(),
            z1.asin(),
            z1.acos(),
            z1.atan(),
            z1.sinh(),
            z1.cosh(),
            z1.tanh(),
            z1.asinh(),
            z1.acosh(),
            z1.atanh(),
            z1.sinc(),
        ]
    ),
    "activations": lambda L, z1, z2, x, m: L.stack(
        [z1.sigmoid(), L.nn.functional.silu(z1), z1.reciprocal(), L.logaddexp(z1, z2), z1.sgn(), -z1]
    ),
    "abs is real": lambda L, z1, z2, x, m: z1.abs() + L.abs(z2),
    "classification": lambda L, z1, z2, x, m: L.stack(
        [
            z1.isnan(),
            (z1 / 0).isinf(),
            (z1 / 0).isfinite(),
            z1 == z2,
            z1 != z1,
            z1 == 1j,
            L.logical_not(z1 * 0),
            L.logical_and(z1, z2),
        ]
    ),
    "ternary": lambda L, z1, z2, x, m: (
        L.addcmul(z1, z2, x, value=1j)
        + L.addcdiv(z1, z2, z1, value=0.5)
        + L.lerp(z1, z2, 0.3)
        + L.lerp(z1, z2, L.full_like(z1, 0.5j))
    ),
    "in-place": lambda L, z1, z2, x, m: z1.clone().mul_(z2).add_(1j).div_(2).exp_(),
    "sum and mean": lambda L, z1, z2, x, m: L.stack(
        [z1.sum(0), z1.mean(0), z1.prod(0), z1.sum(0, dtype=L.complex128).to(z1.dtype)]
    ),
    "real reductions": lambda L, z1, z2, x, m: L.stack(
        [
            z1.var(),
            z1.std(),
            z1.var(1).sum(),
            z1.norm(),
            z1.norm(p=1),
            z1.norm(p=3),
            L.linalg.vector_norm(z1, float("inf")),
            L.linalg.vector_norm(z1, 0),
            L.linalg.norm(z1),
        ]
    ),
    "logsumexp": lambda L, z1, z2, x, m: z1.logsumexp(1),
    "products": lambda L, z1, z2, x, m: L.stack(
        [
            m.mm(m),
            m @ m,
            L.matmul(m[None], m[None])[0],
            L.addmm(m, m, m, beta=2, alpha=1j),
            L.outer(m[0], m[1]),
            L.einsum("ij,kj->ik", m, m),
        ]
    ),
    "vector products": lambda L, z1, z2, x, m: L.stack(
        [m.mv(m[0]), L.dot(m[0], m[1]).expand(4), L.vdot(m[0], m[1]).expand(4), m.matmul(m[2])]
    ),
}


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name", FORWARD)
def test_forward_matches_torch(name, dtype):
    fn = FORWARD[name]
    _same(_outcome(fn, yaten, dtype), _outcome(fn, torch, dtype))


REFUSED = {
    "mm of complex and real": lambda L, z1, z2, x, m: z1.mm(x.t()),
    "matmul of real and complex": lambda L, z1, z2, x, m: x @ z1.t(),
    "dot of complex and real": lambda L, z1, z2, x, m: L.dot(z1[0], x[0]),
    "bmm of complex and real": lambda L, z1, z2, x, m: L.bmm(z1[None], x.t()[None]),
    "addmm of complex and real": lambda L, z1, z2, x, m: L.addmm(m, m, x[:, :4].t().contiguous()[:4].t()),
    "mv of complex and real": lambda L, z1, z2, x, m: z1.mv(x[0]),
    "complex into a real tensor": lambda L, z1, z2, x, m: x.mul_(z1),
    "abs_ of complex": lambda L, z1, z2, x, m: z1.abs_(),
    "complex alpha on integers": lambda L, z1, z2, x, m: L.arange(3).add(L.arange(3), alpha=1j),
    "complex alpha on floats": lambda L, z1, z2, x, m: x.add(x, alpha=1j),
    "max": lambda L, z1, z2, x, m: z1.max(),
    "max.dim": lambda L, z1, z2, x, m: z1.max(0),
    "amin": lambda L, z1, z2, x, m: z1.amin(0),
    "argmax": lambda L, z1, z2, x, m: z1.argmax(),
    "nansum": lambda L, z1, z2, x, m: z1.nansum(),
    "nanmean": lambda L, z1, z2, x, m: z1.nanmean(),
    "softmax": lambda L, z1, z2, x, m: z1.softmax(0),
    "clamp": lambda L, z1, z2, x, m: z1.clamp(0, 1),
    "relu": lambda L, z1, z2, x, m: L.relu(z1),
    "sign": lambda L, z1, z2, x, m: z1.sign(),
    "lt": lambda L, z1, z2, x, m: z1 < z2,
    "maximum": lambda L, z1, z2, x, m: L.maximum(z1, z2),
    "floor": lambda L, z1, z2, x, m: z1.floor(),
    "erf": lambda L, z1, z2, x, m: z1.erf(),
    "remainder": lambda L, z1, z2, x, m: z1 % 2,
}


@pytest.mark.parametrize("name", REFUSED)
def test_refusals_match_torch(name):
    fn = REFUSED[name]
    want = _outcome(fn, torch, "complex64")
    assert isinstance(want, Exception), "torch refuses this"
    _same(_outcome(fn, yaten, "complex64"), want)


def _real_only_pointwise_ops():
    return [
        fn
        for fn in functional_ops()
        if fn.pointwise is not None and not fn.complex and fn.name not in NOT_SAMPLED
    ]


@pytest.mark.parametrize("fn", _real_only_pointwise_ops(), ids=lambda fn: fn.name)
def test_real_only_pointwise_ops_refuse_complex_with_torchs_message(fn):
    """The op table compares the exception types; here the messages too ('"lt_cpu" not implemented
    for 'ComplexFloat'', 'clamp is not supported for complex types', ...)."""

    sample = pointwise_samples(fn, np.complex128)[0]
    with pytest.raises(Exception) as want:
        _call(torch, fn, sample)
    with pytest.raises(want.type) as got:
        _call(yaten, fn, sample)
    assert str(got.value) == str(want.value)


PROGRAMS = {
    "indexing and scattering": lambda L, z1, z2, x, m: (
        (z1[1:, :2] * z2[:2, 2:]).abs().sum()
        + z1.flatten()[L.tensor([0, 5, 5])].abs().sum()
        + L.zeros_like(z1).scatter_add(0, L.tensor([[0, 1, 2, 0]]), z2[:1]).abs().sum()
    ),
    "cumulative": lambda L, z1, z2, x, m: z1.cumsum(1).abs().sum() + z2.cumprod(0).abs().sum(),
    "composite products": lambda L, z1, z2, x, m: (
        L.einsum("ij,jk,kl->il", m, m, m).abs().sum()
        + L.kron(m[:2, :2], m[2:, 2:]).abs().sum()
        + L.tensordot(z1, z2, dims=([1], [1])).abs().sum()
        + L.addmv(m[0], m, m[1], alpha=2j).abs().sum()
        + L.addr(m, m[0], m[1]).abs().sum()
        + L.baddbmm(m[None], m[None], m[None]).abs().sum()
        + L.nn.functional.linear(z1, m, m[0]).abs().sum()
        + L.linalg.multi_dot([m, m, m]).abs().sum()
    ),
    "|z1 * z2 + z1 / z2|": lambda L, z1, z2, x, m: (z1 * z2 + z1 / z2).abs().sum(),
    "holomorphic chain": lambda L, z1, z2, x, m: (z1.exp() * z2.log() + z1.sin() * z2.tanh()).abs().sum(),
    "real input, complex gradient": lambda L, z1, z2, x, m: (x * z1 + x.exp() / z2).abs().sum(),
    "broadcast": lambda L, z1, z2, x, m: (z1 * z2[0] + x[:, :1] * z1).abs().pow(2).sum(),
    "scalars": lambda L, z1, z2, x, m: (z1 * (2 - 1j) + z2 / (1 + 1j) + (1j - z1) * 3).abs().sum(),
    "powers and roots": lambda L, z1, z2, x, m: (z1.pow(2) + z1.pow(z2) + z1.sqrt() + z2.rsqrt()).abs().sum(),
    "inverse trigonometric": lambda L, z1, z2, x, m: (
        (z1.asin() + z1.acos() + z1.atan() + z1.asinh() + z1.acosh() + z1.atanh()).abs().sum()
    ),
    "sgn and abs": lambda L, z1, z2, x, m: (z1.sgn() * z2).abs().sum() + z1.abs().sum(),
    "matrix products": lambda L, z1, z2, x, m: (
        (m @ m.mm(m)).abs().sum()
        + L.addmm(m, m, m, alpha=1j).abs().sum()
        + L.bmm(m[None], m[None]).abs().sum()
        + m.mv(m[0]).abs().sum()
        + L.vdot(m[0], m[1]).abs()
        + L.dot(m[0], m[1]).abs()
        + L.outer(m[0], m[1]).abs().sum()
    ),
    "reductions": lambda L, z1, z2, x, m: (
        (z1.sum(0) * z2.mean(1).sum()).abs().sum()
        + z1.prod(1).abs().sum()
        + z1.var()
        + z2.std(0).sum()
        + z1.norm()
        + L.linalg.vector_norm(z2, 3)
        + z1.logsumexp(1).abs().sum()
    ),
    "ternary": lambda L, z1, z2, x, m: (
        (
            L.addcmul(z1, z2, x, value=0.5j)
            + L.addcdiv(z1, z2, z1)
            + L.lerp(z1, z2, 0.3)
            + L.where(x > 0, z1, z2)
        )
        .abs()
        .sum()
    ),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_gradients_of_complex_programs_match_torch(name):
    """A real loss of complex tensors: the gradients are torch's (conjugate Wirtinger), and a real
    input that meets complex numbers gets a real gradient."""
    fn = PROGRAMS[name]
    grads = []
    for lib in (torch, yaten):
        inputs = _inputs(lib, "complex128", requires_grad=True)
        loss = fn(lib, *inputs)
        loss.backward()
        grads.append([t.grad for t in inputs])
    for i, (want, got) in enumerate(zip(*grads)):
        assert (want is None) == (got is None), f"input {i}"
        if want is not None:
            assert str(want.dtype) == f"torch.{got.dtype.name}", (i, got.dtype, want.dtype)
            assert_close(got, want, f"gradient of input {i}")


@pytest.mark.parametrize("name", sorted(NO_COMPLEX_AUTOGRAD_IN_TORCH))
def test_complex_gradients_torch_refuses_are_gradchecked(name):
    """torch computes silu of complex numbers but refuses its autograd; yaten's gradient (the same
    convention as every other op's) is checked against finite differences."""
    fn = getattr(yaten.nn.functional, name)
    z = yaten.tensor(Z1, requires_grad=True)
    assert yaten.autograd.gradcheck(fn, (z,), eps=1e-6, atol=1e-5, rtol=1e-3)
    with pytest.raises(
        RuntimeError, match="does not support automatic differentiation for outputs with complex"
    ):
        getattr(torch.nn.functional, name)(torch.tensor(Z1, requires_grad=True))


def test_complex_gradient_of_a_real_leaf_is_its_real_part():
    x = yaten.tensor([1.0, 2.0], dtype=yaten.float64, requires_grad=True)
    (x * yaten.tensor([1 + 2j, 3 - 1j])).abs().sum().backward()
    t = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    (t * torch.tensor([1 + 2j, 3 - 1j])).abs().sum().backward()
    assert x.grad.dtype is yaten.float64
    assert_close(x.grad, t.grad)
