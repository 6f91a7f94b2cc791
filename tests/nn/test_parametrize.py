"""nn.utils.parametrize and nn.utils.parametrizations (weight_norm, spectral_norm, orthogonal), side by side
with PyTorch: the class swap, state_dict keys, repr, values and gradients from the same weights, errors."""

import numpy as np
import pytest
import torch

import yaten
from tests.nn._module_parity import same
from tests.tolerances import assert_close


def _linear(m, i=3, o=3, dtype=None):
    lin = m.nn.Linear(i, o, dtype=dtype or m.float64)
    with m.no_grad():
        lin.weight.copy_(m.tensor(np.cos(np.arange(i * o) * 1.3).reshape(o, i)))
        lin.bias.copy_(m.tensor(np.sin(np.arange(o)) / 3))
    return lin


def _classes(m):
    class Symmetric(m.nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).mT

        def right_inverse(self, A):
            return A.triu()

    class Double(m.nn.Module):
        def forward(self, X):
            return 2 * X

        def right_inverse(self, X):
            return X / 2

    class Halves(m.nn.Module):  # one tensor from two originals
        def forward(self, a, b):
            return a + b

        def right_inverse(self, X):
            return X * 0.25, X * 0.75

    class NoInverse(m.nn.Module):
        def forward(self, X):
            return X.tanh()

    class Grow(m.nn.Module):
        def forward(self, X):
            return m.cat([X, X])

    class ToFloat(m.nn.Module):
        def forward(self, X):
            return X.float()

    return Symmetric, Double, Halves, NoInverse, Grow, ToFloat


def _x(m):
    return m.tensor(np.linspace(-1, 1, 6).reshape(2, 3))


def _train(m, module):
    out = module(_x(m))
    (out**2).sum().backward()
    grads = {n: p.grad for n, p in module.named_parameters()}
    return out, grads


def _summary(m, module):
    return (
        type(module).__name__,
        repr(module).replace("torch", "yaten"),
        dict(module.state_dict()),
        _train(m, module),
    )


def _register(m, *names, unsafe=False, tensor="weight"):
    lin = _linear(m)
    classes = dict(zip(("Symmetric", "Double", "Halves", "NoInverse", "Grow", "ToFloat"), _classes(m)))
    for name in names:
        m.nn.utils.parametrize.register_parametrization(lin, tensor, classes[name](), unsafe=unsafe)
    return lin


def _assign(m, value):
    lin = _register(m, "Symmetric", "Double")
    lin.weight = value
    return lin.weight, lin.parametrizations.weight.original


def _remove(m, leave, *names):
    lin = _register(m, *names)
    m.nn.utils.parametrize.remove_parametrizations(lin, "weight", leave_parametrized=leave)
    return type(lin).__name__, dict(lin.state_dict()), lin.weight, isinstance(lin.weight, m.nn.Parameter)


def _cached(m):
    lin = _register(m, "Double")
    with m.nn.utils.parametrize.cached():
        a, b = lin.weight, lin.weight
        same_inside = a is b
    return same_inside, lin.weight is lin.weight


def _transfer(m):
    src = _register(m, "Double")
    dst = m.nn.Linear(3, 3, dtype=m.float64)
    m.nn.utils.parametrize.transfer_parametrizations_and_params(src, dst)
    return (
        dst.weight,
        dst.parametrizations.weight.original is src.parametrizations.weight.original,
        type(dst).__name__,
    )


CASES = {
    "symmetric": lambda m: _summary(m, _register(m, "Symmetric")),
    "chain": lambda m: _summary(m, _register(m, "Symmetric", "Double")),
    "bias": lambda m: _summary(m, _register(m, "Double", tensor="bias")),
    "several originals": lambda m: _summary(m, _register(m, "Halves")),
    "several originals chained": lambda m: _summary(m, _register(m, "Halves", "Double")),
    "no right_inverse": lambda m: _summary(m, _register(m, "NoInverse")),
    "unsafe shape": lambda m: _summary(m, _register(m, "Grow", unsafe=True)),
    "assign": lambda m: _assign(m, m.eye(3, dtype=m.float64) + 1),
    "remove leave": lambda m: _remove(m, True, "Symmetric", "Double"),
    "remove original": lambda m: _remove(m, False, "Symmetric", "Double"),
    "remove several originals": lambda m: _remove(m, True, "Halves"),
    "cached": _cached,
    "is_parametrized": lambda m: (
        m.nn.utils.parametrize.is_parametrized(_register(m, "Double")),
        m.nn.utils.parametrize.is_parametrized(_register(m, "Double"), "bias"),
        m.nn.utils.parametrize.is_parametrized(_linear(m)),
    ),
    "type_before": lambda m: (
        m.nn.utils.parametrize.type_before_parametrizations(_register(m, "Double")).__name__
    ),
    "transfer": _transfer,
    "list type": lambda m: type(_register(m, "Double").parametrizations.weight).__name__,
    "error missing tensor": lambda m: _register(m, "Double", tensor="nope"),
    "error shape": lambda m: _register(m, "Grow"),
    "error dtype": lambda m: _register(m, "ToFloat"),
    "error added shape": lambda m: _register(m, "Double", "Grow"),
    "error remove missing": lambda m: m.nn.utils.parametrize.remove_parametrizations(_linear(m), "weight"),
    "error remove several originals": lambda m: _remove(m, False, "Halves"),
    "error assign without right_inverse": lambda m: setattr(_register(m, "NoInverse"), "weight", m.eye(3)),
    "error pickle": lambda m: __import__("pickle").dumps(_register(m, "Double")),
}


@pytest.mark.parametrize("name", CASES)
def test_parametrize_matches_torch(name):
    same(CASES[name])


def test_deepcopy_keeps_the_parametrization():
    import copy

    lin = _register(yaten, "Double")
    twin = copy.deepcopy(lin)
    assert type(twin).__name__ == "ParametrizedLinear"
    assert yaten.equal(twin.weight, lin.weight)
    assert twin.parametrizations.weight.original is not lin.parametrizations.weight.original


def test_original_keeps_its_identity():
    lin = _linear(yaten)
    w = lin.weight
    _, Double, *_ = _classes(yaten)
    yaten.nn.utils.parametrize.register_parametrization(lin, "weight", Double())
    assert lin.parametrizations.weight.original is w  # an optimizer built before still updates it


# --- parametrizations ---------------------------------------------------------------------------------
def _to_yaten(state):
    return {k: yaten.tensor(v.detach().numpy()) for k, v in state.items()}


def _paired(build, steps=2, train=True):
    """Build with torch (seed 0) and yaten, give yaten torch's state (spectral_norm's random u/v, orthogonal's
    random base), then compare weight, outputs and gradients over ``steps`` forwards."""
    torch.manual_seed(0)
    t = build(torch)
    y = build(yaten)
    assert list(y.state_dict()) == list(t.state_dict())
    y.load_state_dict(_to_yaten(t.state_dict()))
    t.train(train)
    y.train(train)
    for _ in range(steps):
        for mod, m in ((t, torch), (y, yaten)):
            mod.zero_grad()
            (mod(m.tensor(np.linspace(-1, 1, 12).reshape(4, 3)[:, : mod.in_features])) ** 2).sum().backward()
        for (name, got), want in zip(y.state_dict().items(), t.state_dict().values()):
            assert_close(got, want, name)
        for (name, got), want in zip(y.named_parameters(), t.parameters()):
            assert_close(got.grad, want.grad, f"grad of {name}")
        assert_close(y.weight, t.weight, "weight")
    assert repr(y) == repr(t).replace("torch", "yaten")
    return y


@pytest.mark.parametrize("dim", [0, 1, None, -1])
def test_weight_norm(dim):
    y = _paired(lambda m: m.nn.utils.parametrizations.weight_norm(_linear(m, 3, 4), dim=dim))
    assert type(y).__name__ == "ParametrizedLinear"


def test_weight_norm_loads_a_legacy_state_dict():
    torch.manual_seed(0)
    legacy = torch.nn.utils.weight_norm(_linear(torch, 3, 4))
    y = yaten.nn.utils.parametrizations.weight_norm(_linear(yaten, 3, 4))
    y.load_state_dict(_to_yaten(legacy.state_dict()))
    assert_close(y.weight, legacy.weight)


@pytest.mark.parametrize("train", [True, False])
@pytest.mark.parametrize("iterations", [1, 3])
def test_spectral_norm(train, iterations):
    _paired(lambda m: m.nn.utils.parametrizations.spectral_norm(_linear(m, 3, 4), n_power_iterations=iterations),
            steps=3, train=train)  # fmt: skip


def test_spectral_norm_of_conv_transpose_and_dim():
    def build(m, cls, **kw):
        torch.manual_seed(0)
        conv = getattr(m.nn, cls)(2, 3, 2, dtype=m.float64)
        with m.no_grad():
            conv.weight.copy_(m.tensor(np.cos(np.arange(conv.weight.numel())).reshape(conv.weight.shape)))
        return m.nn.utils.parametrizations.spectral_norm(conv, **kw)

    for cls, kw in (("ConvTranspose2d", {}), ("Conv2d", {"dim": 1}), ("Conv2d", {"dim": -1})):
        t, y = build(torch, cls, **kw), build(yaten, cls, **kw)
        y.load_state_dict(_to_yaten(t.state_dict()))
        assert y.parametrizations.weight[0].dim == t.parametrizations.weight[0].dim
        assert_close(y.weight, t.weight)


@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (2, 3)])
@pytest.mark.parametrize("orthogonal_map", [None, "matrix_exp", "cayley", "householder"])
@pytest.mark.parametrize("use_trivialization", [True, False])
def test_orthogonal(shape, orthogonal_map, use_trivialization):
    def build(m):
        return m.nn.utils.parametrizations.orthogonal(
            _linear(m, shape[1], shape[0]),
            orthogonal_map=orthogonal_map,
            use_trivialization=use_trivialization,
        )

    y = _paired(build)
    w = y.weight
    small = min(shape)
    gram = w @ w.T if shape[0] <= shape[1] else w.T @ w
    assert_close(gram, yaten.eye(small, dtype=yaten.float64), atol=1e-10)


def test_orthogonal_square_registration_is_deterministic():
    # A square weight: the base is its QR's Q (geqrf and householder_product), no random draw: torch's exactly.
    t = torch.nn.utils.parametrizations.orthogonal(_linear(torch))
    y = yaten.nn.utils.parametrizations.orthogonal(_linear(yaten))
    assert_close(y.parametrizations.weight[0].base, t.parametrizations.weight[0].base)
    assert_close(y.weight, t.weight)


ERRORS = {
    "orthogonal map": lambda m: m.nn.utils.parametrizations.orthogonal(_linear(m), orthogonal_map="x"),
    "orthogonal 1-d": lambda m: m.nn.utils.parametrizations.orthogonal(_linear(m), "bias"),
    "orthogonal missing": lambda m: m.nn.utils.parametrizations.orthogonal(_linear(m), "nope"),
    "orthogonal assign shape": lambda m: setattr(
        m.nn.utils.parametrizations.orthogonal(_linear(m)), "weight", m.eye(2)
    ),
    "orthogonal assign no trivialization": lambda m: setattr(
        m.nn.utils.parametrizations.orthogonal(_linear(m), use_trivialization=False), "weight", m.eye(3)
    ),
    "spectral iterations": lambda m: m.nn.utils.parametrizations.spectral_norm(
        _linear(m), n_power_iterations=0
    ),
    "spectral dim": lambda m: m.nn.utils.parametrizations.spectral_norm(_linear(m), dim=2),
    "spectral missing": lambda m: m.nn.utils.parametrizations.spectral_norm(_linear(m), "nope"),
    "spectral 1-d": lambda m: m.nn.utils.parametrizations.spectral_norm(_linear(m), "bias").bias,
}


@pytest.mark.parametrize("name", ERRORS)
def test_parametrizations_errors_match_torch(name):
    same(ERRORS[name])
