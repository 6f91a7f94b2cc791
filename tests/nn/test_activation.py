"""Activation functions and layers side by side with torch: values, gradients (kinks included),
in-place forms, gradcheck, reprs, the implicit softmax dim and the errors."""

import warnings

import numpy as np
import pytest
import torch
from _module_parity import same

import yaten
from tests.tolerances import assert_matches as _close

# The kinks (0, the hardtanh bounds, the softplus threshold) and NaN are in every input.
KINKS = np.array([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.5, 25.0, np.nan])


def _compare(call, a):
    t, y = torch.from_numpy(a.copy()).requires_grad_(), yaten.from_numpy(a.copy()).requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        to, yo = call(torch, t), call(yaten, y)
    _close(yo, to)
    to.backward(torch.ones_like(to))
    yo.backward(yaten.ones_like(yo))
    _close(y.grad, t.grad)
    return yo


CALLS = {
    "relu": lambda m, x: m.nn.functional.relu(x),
    "leaky_relu": lambda m, x: m.nn.functional.leaky_relu(x),
    "leaky_relu 0.2": lambda m, x: m.nn.functional.leaky_relu(x, 0.2),
    "elu": lambda m, x: m.nn.functional.elu(x),
    "elu 0.5": lambda m, x: m.nn.functional.elu(x, alpha=0.5),
    "gelu": lambda m, x: m.nn.functional.gelu(x),
    "gelu tanh": lambda m, x: m.nn.functional.gelu(x, approximate="tanh"),
    "silu": lambda m, x: m.nn.functional.silu(x),
    "sigmoid": lambda m, x: m.nn.functional.sigmoid(x),
    "tanh": lambda m, x: m.nn.functional.tanh(x),
    "softplus": lambda m, x: m.nn.functional.softplus(x),
    "softplus beta threshold": lambda m, x: m.nn.functional.softplus(x, beta=2, threshold=1.0),
    "hardtanh": lambda m, x: m.nn.functional.hardtanh(x),
    "hardtanh bounds": lambda m, x: m.nn.functional.hardtanh(x, -0.5, 2.5),
    "logsigmoid": lambda m, x: m.nn.functional.logsigmoid(x),
    "hardswish": lambda m, x: m.nn.functional.hardswish(x),
    "hardsigmoid": lambda m, x: m.nn.functional.hardsigmoid(x),
    "relu6": lambda m, x: m.nn.functional.relu6(x),
    "mish": lambda m, x: m.nn.functional.mish(x),
    "softsign": lambda m, x: m.nn.functional.softsign(x),
    "celu": lambda m, x: m.nn.functional.celu(x),
    "celu 0.5": lambda m, x: m.nn.functional.celu(x, 0.5),
    "selu": lambda m, x: m.nn.functional.selu(x),
    "threshold": lambda m, x: m.nn.functional.threshold(x, 0.5, -2.0),
    "hardshrink": lambda m, x: m.nn.functional.hardshrink(x, 0.6),
    "softshrink": lambda m, x: m.nn.functional.softshrink(x),
    "tanhshrink": lambda m, x: m.nn.functional.tanhshrink(x),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", list(CALLS))
def test_activation_values_and_gradients_at_kinks(name, dtype):
    _compare(CALLS[name], KINKS.astype(dtype))


@pytest.mark.parametrize("name", list(CALLS))
def test_gradcheck_and_gradgradcheck(name):
    x = yaten.tensor([-2.1, -0.7, -0.2, 0.3, 0.9, 1.7], dtype=yaten.float64, requires_grad=True)
    f = lambda a: CALLS[name](yaten, a)
    assert yaten.autograd.gradcheck(f, (x,))
    assert yaten.autograd.gradgradcheck(f, (x,))


def test_double_backward_through_mask_activations_gives_zeros_like_torch():
    for name in ("leaky_relu 0.2", "hardtanh", "relu"):
        got = []
        for m in (torch, yaten):
            x = m.tensor([-1.0, 0.5, 2.0], requires_grad=True)
            (g,) = m.autograd.grad(CALLS[name](m, x).sum(), x, create_graph=True)
            g.sum().backward()
            got.append(x.grad.tolist())
        assert got[0] == got[1]


@pytest.mark.parametrize(
    "name, call",
    [
        ("relu", lambda m, x: m.nn.functional.relu(x, inplace=True)),
        ("relu_", lambda m, x: m.nn.functional.relu_(x)),
        ("leaky_relu", lambda m, x: m.nn.functional.leaky_relu(x, 0.1, inplace=True)),
        ("leaky_relu_", lambda m, x: m.nn.functional.leaky_relu_(x, 0.1)),
        ("elu", lambda m, x: m.nn.functional.elu(x, 0.5, inplace=True)),
        ("elu_", lambda m, x: m.nn.functional.elu_(x)),
        ("silu", lambda m, x: m.nn.functional.silu(x, inplace=True)),
        ("hardtanh", lambda m, x: m.nn.functional.hardtanh(x, inplace=True)),
        ("hardtanh_", lambda m, x: m.nn.functional.hardtanh_(x, -0.5, 0.5)),
        ("hardswish", lambda m, x: m.nn.functional.hardswish(x, inplace=True)),
        ("hardsigmoid", lambda m, x: m.nn.functional.hardsigmoid(x, inplace=True)),
        ("relu6", lambda m, x: m.nn.functional.relu6(x, inplace=True)),
        ("mish", lambda m, x: m.nn.functional.mish(x, inplace=True)),
        ("celu", lambda m, x: m.nn.functional.celu(x, 0.5, inplace=True)),
        ("celu_", lambda m, x: m.nn.functional.celu_(x)),
        ("selu", lambda m, x: m.nn.functional.selu(x, inplace=True)),
        ("selu_", lambda m, x: m.nn.functional.selu_(x)),
        ("threshold", lambda m, x: m.nn.functional.threshold(x, 0.1, 5.0, inplace=True)),
        ("threshold_", lambda m, x: m.nn.functional.threshold_(x, 0.1, 5.0)),
    ],
)
def test_inplace_forms(name, call):
    a = np.array([-2.0, -0.3, 0.0, 0.4, 1.5])
    outs = []
    for m in (torch, yaten):
        leaf = m.tensor(a, requires_grad=True)
        x = leaf * 1.0  # in place on a non-leaf, so the gradient flows through the rewritten history
        y = call(m, x)
        assert y is x
        (y * m.tensor([1.0, 2.0, 3.0, 4.0, 5.0], dtype=m.float64)).sum().backward()
        outs.append((y.detach().numpy().copy(), leaf.grad.numpy().copy(), x._version))
    np.testing.assert_allclose(outs[1][0], outs[0][0], rtol=1e-12)
    np.testing.assert_allclose(outs[1][1], outs[0][1], rtol=1e-12)


def test_grad_fn_names():
    x = yaten.ones(2, requires_grad=True)
    F = yaten.nn.functional
    assert type(F.leaky_relu(x).grad_fn).__name__ == "LeakyReluBackward0"
    assert type(F.elu(x).grad_fn).__name__ == "EluBackward0"
    assert type(F.softplus(x).grad_fn).__name__ == "SoftplusBackward0"
    assert type(F.hardtanh(x).grad_fn).__name__ == "HardtanhBackward0"


def test_integer_inputs():
    assert same(lambda m: m.nn.functional.hardtanh(m.tensor([3, -2, 0]), -1.5, 1.5))[3] == [1, -1, 0]
    same(lambda m: m.nn.functional.hardtanh(m.tensor([3, -2, 0])))
    same(lambda m: m.nn.functional.relu(m.tensor([3, -2, 0])))
    for fn in (
        "leaky_relu",
        "elu",
        "softplus",
        "hardswish",
        "hardsigmoid",
        "mish",
        "celu",
        "selu",
        "logsigmoid",
        "hardshrink",
        "softshrink",
    ):
        # Same type; the message names yaten's op ("leaky_relu") where torch names its kernel ("leaky_relu_cpu").
        for m in (torch, yaten):
            with pytest.raises(NotImplementedError, match="not implemented for 'Long'"):
                getattr(m.nn.functional, fn)(m.tensor([1, 2]))


ERRORS = [
    lambda m: m.nn.functional.hardtanh(m.zeros(2), 1.0, -1.0),
    lambda m: m.nn.functional.hardtanh(m.tensor([True])),
    lambda m: m.nn.functional.softmax(m.zeros(3), 1),
    lambda m: m.nn.Hardtanh(1.0, 1.0),
    lambda m: m.nn.functional.gelu(m.zeros(2), approximate="bogus"),
    lambda m: m.nn.functional.softshrink(m.zeros(2), -1.0),
]


@pytest.mark.parametrize("case", ERRORS, ids=range(len(ERRORS)))
def test_errors_match_torch(case):
    got = same(case)
    assert isinstance(got[0], type) and issubclass(got[0], Exception)


@pytest.mark.parametrize("ndim, dim", [(0, 0), (1, 0), (2, 1), (3, 0), (4, 1)])
@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
def test_implicit_softmax_dim_warns_and_matches_torch(fn, ndim, dim):
    a = np.random.default_rng(ndim).standard_normal((2, 3, 4, 5)[:ndim])
    msg = f"Implicit dimension choice for {fn} has been deprecated"
    with pytest.warns(UserWarning, match=msg):
        y = getattr(yaten.nn.functional, fn)(yaten.from_numpy(a.copy()))
    with pytest.warns(UserWarning, match=msg):
        t = getattr(torch.nn.functional, fn)(torch.from_numpy(a.copy()))
    _close(y, t)
    _close(getattr(yaten.nn.functional, fn)(yaten.from_numpy(a.copy()), dim), t)


def test_softmax_dtype_argument():
    x = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
    for fn in ("softmax", "log_softmax"):
        y = getattr(yaten.nn.functional, fn)(yaten.from_numpy(x.copy()), 1, dtype=yaten.float64)
        t = getattr(torch.nn.functional, fn)(torch.from_numpy(x.copy()), 1, dtype=torch.float64)
        _close(y, t)


# --- modules --------------------------------------------------------------------------------------
MODULES = [
    ("ReLU", {}),
    ("ReLU", {"inplace": True}),
    ("LeakyReLU", {}),
    ("LeakyReLU", {"negative_slope": 0.2, "inplace": True}),
    ("ELU", {}),
    ("ELU", {"alpha": 0.5, "inplace": True}),
    ("GELU", {}),
    ("GELU", {"approximate": "tanh"}),
    ("SiLU", {}),
    ("SiLU", {"inplace": True}),
    ("Sigmoid", {}),
    ("Tanh", {}),
    ("Softmax", {"dim": 1}),
    ("Softmax", {}),
    ("LogSoftmax", {"dim": -1}),
    ("Softplus", {}),
    ("Softplus", {"beta": 2, "threshold": 5}),
    ("Hardtanh", {}),
    ("Hardtanh", {"min_val": -2.0, "max_val": 3, "inplace": True}),
]


@pytest.mark.parametrize("cls, kwargs", MODULES, ids=[f"{c}-{i}" for i, (c, _) in enumerate(MODULES)])
def test_modules_match_torch(cls, kwargs):
    ym, tm = getattr(yaten.nn, cls)(**kwargs), getattr(torch.nn, cls)(**kwargs)
    assert repr(ym) == repr(tm)
    assert list(ym.state_dict()) == list(tm.state_dict()) == []
    a = np.random.default_rng(1).standard_normal((3, 4))
    _compare(lambda m, x: (ym if m is yaten else tm)(x * 1.0), a)


LAYERS = [
    ("ReLU6", (), {}), ("ReLU6", (), {"inplace": True}), ("Hardswish", (), {"inplace": True}),
    ("Hardsigmoid", (), {}), ("Mish", (), {"inplace": True}), ("Softsign", (), {}), ("LogSigmoid", (), {}),
    ("CELU", (0.5,), {"inplace": True}), ("CELU", (), {}), ("SELU", (), {"inplace": True}),
    ("Threshold", (0.1, 20.0), {}), ("Threshold", (0.1, 20), {"inplace": True}), ("Hardshrink", (0.3,), {}),
    ("Softshrink", (), {}), ("Tanhshrink", (), {}),
]  # fmt: skip


@pytest.mark.parametrize("name, args, kwargs", LAYERS, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(LAYERS)])
def test_pointwise_activation_layers_match_torch(name, args, kwargs):
    a = np.array([-3.5, -1.0, -0.0, 0.05, 0.5, 2.0, 4.0])
    outs = []
    for m in (torch, yaten):
        layer = getattr(m.nn, name)(*args, **kwargs)
        leaf = m.tensor(a, requires_grad=True)
        y = layer(leaf * 1.0)
        y.sum().backward()
        outs.append((repr(layer), y, leaf.grad, type(y.grad_fn).__name__))
    (t_repr, t_y, t_g, t_node), (y_repr, y_y, y_g, y_node) = outs
    assert y_repr == t_repr
    _close(y_y, t_y)
    _close(y_g, t_g)
    # torch's selu records EluBackward0 (it calls elu with a scale), yaten's SeluBackward0; torch's in-place
    # forms have nodes of their own (CeluBackward1), yaten's record the functional's
    if name != "SELU" and not kwargs.get("inplace"):
        assert y_node == t_node


@pytest.mark.parametrize(
    "args, kwargs, shape", [((), {}, (2, 3, 4)), ((3,), {"init": 0.1}, (2, 3, 4)), ((), {}, (5,))]
)
def test_prelu_layer_matches_torch(args, kwargs, shape):
    a = np.random.default_rng(3).standard_normal(shape)
    outs = []
    for m in (torch, yaten):
        layer = m.nn.PReLU(*args, **kwargs).double()
        leaf = m.tensor(a, requires_grad=True)
        layer(leaf).square().sum().backward()
        outs.append((repr(layer), list(layer.state_dict()), layer(leaf), leaf.grad, layer.weight.grad))
    (t_repr, t_keys, *t_vals), (y_repr, y_keys, *y_vals) = outs
    assert (y_repr, y_keys) == (t_repr, t_keys)
    for y, t in zip(y_vals, t_vals):
        _close(y, t)
