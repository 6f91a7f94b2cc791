"""The legacy nn.utils.weight_norm / spectral_norm (forward pre-hooks; weight_g/weight_v, weight_orig/weight_u/
weight_v), side by side with PyTorch: state_dict keys, values and gradients step by step, torch's checkpoints
(version 0 included), removal, errors."""

import warnings

import numpy as np
import pytest
import torch

import yaten
from tests.nn._module_parity import same
from tests.tolerances import assert_close


def _linear(m, i=3, o=4):
    lin = m.nn.Linear(i, o, dtype=m.float64)
    with m.no_grad():
        lin.weight.copy_(m.tensor(np.cos(np.arange(i * o) * 1.3).reshape(o, i)))
        lin.bias.copy_(m.tensor(np.sin(np.arange(o)) / 3))
    return lin


def _to_yaten(state):
    return {k: yaten.tensor(v.detach().numpy()) for k, v in state.items()}


def _steps(t, y, steps=3):
    """Train-mode forwards and backwards of both, compared after each (state, weight, gradients)."""
    x = np.linspace(-1, 1, 12).reshape(4, 3)
    for _ in range(steps):
        for mod, m in ((t, torch), (y, yaten)):
            mod.zero_grad()
            (mod(m.tensor(x)) ** 2).sum().backward()
        assert list(y.state_dict()) == list(t.state_dict())
        for (name, got), want in zip(y.state_dict().items(), t.state_dict().values()):
            assert_close(got, want, name)
        assert_close(y.weight, t.weight, "weight")
        for (name, got), want in zip(y.named_parameters(), t.parameters()):
            assert_close(got.grad, want.grad, f"grad of {name}")


@pytest.mark.parametrize("dim", [0, 1, None])
def test_weight_norm(dim):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = torch.nn.utils.weight_norm(_linear(torch), dim=dim)
        y = yaten.nn.utils.weight_norm(_linear(yaten), dim=dim)
    _steps(t, y)
    torch.nn.utils.remove_weight_norm(t)
    yaten.nn.utils.remove_weight_norm(y)
    assert list(y.state_dict()) == list(t.state_dict()) == ["bias", "weight"]
    assert_close(y.weight, t.weight)
    assert isinstance(y.weight, yaten.nn.Parameter)


def test_weight_norm_warns_as_torch():
    with pytest.warns(FutureWarning, match="in favor of `torch.nn.utils.parametrizations.weight_norm`"):
        yaten.nn.utils.weight_norm(_linear(yaten))


@pytest.mark.parametrize("train", [True, False])
def test_spectral_norm(train):
    torch.manual_seed(0)
    t = torch.nn.utils.spectral_norm(_linear(torch), n_power_iterations=2)
    y = yaten.nn.utils.spectral_norm(_linear(yaten), n_power_iterations=2)
    y.load_state_dict(_to_yaten(t.state_dict()))  # torch's random u and v
    t.train(train)
    y.train(train)
    _steps(t, y)
    torch.nn.utils.remove_spectral_norm(t)
    yaten.nn.utils.remove_spectral_norm(y)
    assert list(y.state_dict()) == list(t.state_dict()) == ["bias", "weight"]
    assert_close(y.weight, t.weight)


def test_spectral_norm_loads_a_version_0_checkpoint():
    # Version 0 saved weight, weight_orig and weight_u (no weight_v): the hook solves for v.
    torch.manual_seed(0)
    t = torch.nn.utils.spectral_norm(_linear(torch))
    t(torch.ones(1, 3, dtype=torch.float64))
    state = t.state_dict()
    old = {k: v for k, v in state.items() if k != "weight_v"}
    old["weight"] = t.weight.detach()
    old = type(state)(old)
    old._metadata = {"": {"version": 1}}
    y = yaten.nn.utils.spectral_norm(_linear(yaten))
    y_old = type(old)(_to_yaten(old))
    y_old._metadata = {"": {"version": 1}}
    y.load_state_dict(y_old)
    t2 = torch.nn.utils.spectral_norm(_linear(torch))
    t2.load_state_dict(old)
    assert_close(y.weight_v, t2.weight_v)
    y.eval()
    t2.eval()
    assert_close(y(yaten.ones(1, 3, dtype=yaten.float64)), t2(torch.ones(1, 3, dtype=torch.float64)))


def test_spectral_norm_metadata():
    y = yaten.nn.utils.spectral_norm(_linear(yaten))
    assert y.state_dict()._metadata[""]["spectral_norm"] == {"weight.version": 1}


ERRORS = {
    "weight_norm twice": lambda m: m.nn.utils.weight_norm(m.nn.utils.weight_norm(_linear(m))),
    "remove weight_norm missing": lambda m: m.nn.utils.remove_weight_norm(_linear(m)),
    "spectral_norm twice": lambda m: m.nn.utils.spectral_norm(m.nn.utils.spectral_norm(_linear(m))),
    "spectral_norm iterations": lambda m: m.nn.utils.spectral_norm(_linear(m), n_power_iterations=0),
    "spectral_norm no bias": lambda m: m.nn.utils.spectral_norm(m.nn.Linear(2, 2, bias=False), "bias"),
    "remove spectral_norm missing": lambda m: m.nn.utils.remove_spectral_norm(_linear(m)),
    "weight_norm keys": lambda m: list(m.nn.utils.weight_norm(_linear(m), dim=None).state_dict()),
    "weight_norm g": lambda m: m.nn.utils.weight_norm(_linear(m), dim=1).weight_g,
}


@pytest.mark.parametrize("name", ERRORS)
def test_legacy_errors_match_torch(name):
    same(ERRORS[name])
