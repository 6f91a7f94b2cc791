"""Identity, Linear, Bilinear, Flatten and Unflatten side by side with torch: reprs, state_dict keys,
initialization ranges, forward and gradients with torch's weights copied in, gradcheck, errors."""

import math

import numpy as np
import pytest
import torch
from _module_parity import same

import yaten
from tests.tolerances import assert_matches as _close


def _copy_state(ymod, tmod):
    with yaten.no_grad():
        for name, t in tmod.state_dict().items():
            ymod.state_dict()[name].copy_(yaten.from_numpy(t.detach().numpy().copy()))


def _run_both(ymod, tmod, *arrays):
    """Forward and backward (weighted sum) in both; compare outputs, input grads and parameter grads."""
    ys = [yaten.from_numpy(a.copy()).requires_grad_() for a in arrays]
    ts = [torch.from_numpy(a.copy()).requires_grad_() for a in arrays]
    yo, to = ymod(*ys), tmod(*ts)
    _close(yo, to)
    w = np.random.default_rng(9).standard_normal(tuple(to.shape)).astype(arrays[0].dtype)
    (yo * yaten.from_numpy(w)).sum().backward()
    (to * torch.from_numpy(w)).sum().backward()
    for y, t in zip(ys, ts):
        _close(y.grad, t.grad)
    tparams = dict(tmod.named_parameters())
    for name, p in ymod.named_parameters():
        _close(p.grad, tparams[name].grad)


@pytest.mark.parametrize(
    "make, text",
    [
        (lambda m: m.nn.Linear(3, 2), "Linear(in_features=3, out_features=2, bias=True)"),
        (lambda m: m.nn.Linear(3, 2, bias=False), "Linear(in_features=3, out_features=2, bias=False)"),
        (
            lambda m: m.nn.Bilinear(2, 3, 4),
            "Bilinear(in1_features=2, in2_features=3, out_features=4, bias=True)",
        ),
        (lambda m: m.nn.Identity(54, unused=0.1), "Identity()"),
        (lambda m: m.nn.Flatten(), "Flatten(start_dim=1, end_dim=-1)"),
        (lambda m: m.nn.Flatten(0, 2), "Flatten(start_dim=0, end_dim=2)"),
        (lambda m: m.nn.Unflatten(1, (2, 3)), "Unflatten(dim=1, unflattened_size=(2, 3))"),
        (lambda m: m.nn.Unflatten(-1, [2, 3]), "Unflatten(dim=-1, unflattened_size=[2, 3])"),
    ],
)
def test_repr_and_state_dict_keys(make, text):
    y, t = make(yaten), make(torch)
    assert repr(y) == repr(t) == text
    assert list(y.state_dict()) == list(t.state_dict())
    assert [(n, tuple(p.shape)) for n, p in y.named_parameters()] == [
        (n, tuple(p.shape)) for n, p in t.named_parameters()
    ]


def test_linear_init_bounds_as_torch():
    yaten.manual_seed(0)
    m = yaten.nn.Linear(20, 30)
    bound = 1 / math.sqrt(20)  # kaiming_uniform_(a=sqrt(5)) on fan_in 20 is U(-1/sqrt(20), 1/sqrt(20))
    w, b = m.weight.detach().numpy(), m.bias.detach().numpy()
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    assert np.abs(w).max() > 0.9 * bound and w.std() > 0.5 * bound / math.sqrt(3)
    assert m.weight.requires_grad and type(m.weight).__name__ == "Parameter"
    assert m.weight.dtype is yaten.float32


def test_bilinear_init_bounds_as_torch():
    m = yaten.nn.Bilinear(16, 3, 5)
    bound = 1 / math.sqrt(16)
    assert np.abs(m.weight.detach().numpy()).max() <= bound
    assert np.abs(m.bias.detach().numpy()).max() <= bound


def test_linear_dtype_argument():
    m = yaten.nn.Linear(3, 2, dtype=yaten.float64)
    assert m.weight.dtype is yaten.float64 and m.bias.dtype is yaten.float64


@pytest.mark.parametrize("shape", [(4, 3), (2, 5, 3), (3,)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_matches_torch_with_copied_weights(shape, bias):
    t = torch.nn.Linear(3, 2, bias=bias).double()
    y = yaten.nn.Linear(3, 2, bias=bias, dtype=yaten.float64)
    _copy_state(y, t)
    _run_both(y, t, np.random.default_rng(0).standard_normal(shape))


@pytest.mark.parametrize("batch", [(4,), (2, 3), ()])
@pytest.mark.parametrize("bias", [True, False])
def test_bilinear_matches_torch_with_copied_weights(batch, bias):
    t = torch.nn.Bilinear(3, 2, 4, bias=bias).double()
    y = yaten.nn.Bilinear(3, 2, 4, bias=bias, dtype=yaten.float64)
    _copy_state(y, t)
    rng = np.random.default_rng(1)
    _run_both(y, t, rng.standard_normal((*batch, 3)), rng.standard_normal((*batch, 2)))


def test_bilinear_float32():
    t = torch.nn.Bilinear(3, 2, 4)
    y = yaten.nn.Bilinear(3, 2, 4)
    _copy_state(y, t)
    rng = np.random.default_rng(2)
    _run_both(
        y, t, rng.standard_normal((5, 3)).astype(np.float32), rng.standard_normal((5, 2)).astype(np.float32)
    )


def test_gradcheck_linear_and_bilinear():
    rng = np.random.default_rng(3)
    a, b = (yaten.from_numpy(rng.standard_normal(s)).requires_grad_() for s in [(4, 3), (4, 2)])
    w3, bias = (yaten.from_numpy(rng.standard_normal(s)).requires_grad_() for s in [(5, 3, 2), (5,)])
    w2 = yaten.from_numpy(rng.standard_normal((5, 3))).requires_grad_()
    F = yaten.nn.functional
    assert yaten.autograd.gradcheck(F.bilinear, (a, b, w3, bias))
    assert yaten.autograd.gradgradcheck(F.bilinear, (a, b, w3, bias))
    assert yaten.autograd.gradcheck(F.linear, (a, w2, bias))
    assert yaten.autograd.gradgradcheck(F.linear, (a, w2, bias))


@pytest.mark.parametrize(
    "make, shape",
    [
        (lambda m: m.nn.Flatten(), (2, 3, 4)),
        (lambda m: m.nn.Flatten(0, -2), (2, 3, 4)),
        (lambda m: m.nn.Unflatten(1, (3, 4)), (2, 12)),
        (lambda m: m.nn.Unflatten(-1, (-1, 2)), (2, 12)),
        (lambda m: m.nn.Identity(), (2, 3)),
    ],
)
def test_flatten_unflatten_identity_match_torch(make, shape):
    _run_both(make(yaten), make(torch), np.random.default_rng(4).standard_normal(shape))


def test_identity_returns_its_input():
    x = yaten.ones(2)
    assert yaten.nn.Identity()(x) is x


def test_linear_in_sequential_trains_like_torch():
    t = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3)).double()
    y = yaten.nn.Sequential(yaten.nn.Linear(4, 8), yaten.nn.ReLU(), yaten.nn.Linear(8, 3)).double()
    assert list(y.state_dict()) == list(t.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    _copy_state(y, t)
    x = np.random.default_rng(5).standard_normal((6, 4))
    target = np.array([0, 2, 1, 1, 0, 2])
    lt = torch.nn.functional.cross_entropy(t(torch.from_numpy(x)), torch.from_numpy(target))
    ly = yaten.nn.functional.cross_entropy(y(yaten.from_numpy(x)), yaten.from_numpy(target))
    lt.backward()
    ly.backward()
    _close(ly, lt)
    tparams = dict(t.named_parameters())
    for name, p in y.named_parameters():
        _close(p.grad, tparams[name].grad)


ERRORS = [
    lambda m: m.nn.functional.bilinear(m.zeros(2, 3), m.zeros(2, 4), m.zeros(5, 3, 3)),
    lambda m: m.nn.functional.bilinear(m.zeros(2, 2), m.zeros(2, 4), m.zeros(5, 3, 4)),
    lambda m: m.nn.functional.bilinear(m.zeros(2, 3), m.zeros(3, 4), m.zeros(5, 3, 4)),
    lambda m: m.nn.functional.bilinear(m.zeros(2, 3), m.zeros(2, 4), m.zeros(5, 3, 4), m.zeros(4)),
    lambda m: m.nn.functional.bilinear(m.zeros(2, 3), m.zeros(1, 2, 4), m.zeros(5, 3, 4)),
    lambda m: m.nn.Unflatten(1, 3),
    lambda m: m.nn.Unflatten(1, (3, 2.0)),
    lambda m: m.nn.Linear(3, 2)(m.zeros(4, 5)),
]


@pytest.mark.parametrize("case", ERRORS, ids=range(len(ERRORS)))
def test_errors_match_torch(case):
    got = same(case)
    assert isinstance(got[0], type) and issubclass(got[0], Exception)
