"""Adafactor against torch.optim.Adafactor: step for step, with each option, on vectors, matrices
and higher-dimensional parameters (factored second moments), its state dict and its errors."""

import numpy as np
import pytest
import torch
from _optim_parity import make_params, run_parity
from _scheduler_parity import outcome

import yaten

CASES = {
    "default": {},
    "lr": {"lr": 0.1},
    "weight_decay": {"lr": 0.01, "weight_decay": 0.1},
    "maximize": {"maximize": True},
    "options": {"eps": (1e-6, 1e-2), "d": 2.0, "beta2_decay": -0.5},
    "foreach": {"foreach": True},
}


@pytest.mark.parametrize("kwargs", CASES.values(), ids=CASES.keys())
def test_matches_torch_step_for_step(kwargs):
    run_parity(yaten.optim.Adafactor, torch.optim.Adafactor, kwargs)


def test_higher_dimensional_parameters_match_torch():
    rng = np.random.default_rng(4)
    start = [rng.standard_normal((2, 3, 4)), rng.standard_normal((3, 1))]

    def run(lib):
        params = [lib.tensor(s, requires_grad=True) for s in start]
        opt = lib.optim.Adafactor(params, lr=0.05)
        for step in range(10):
            for p in params:
                p.grad = lib.tensor(np.random.default_rng(step).standard_normal(tuple(p.shape)))
            opt.step()
        return params, opt.state[params[0]]

    (yp, ys), (tp, ts) = run(yaten), run(torch)
    for a, b in zip(yp, tp):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-12, atol=1e-14)
    assert {k: tuple(v.shape) for k, v in ys.items()} == {k: tuple(v.shape) for k, v in ts.items()}


def test_float32_and_tensor_lr_match_torch():
    params = make_params(yaten, dtype="float32"), make_params(torch, dtype="float32")
    run_parity(yaten.optim.Adafactor, torch.optim.Adafactor, {"lr": 0.05}, params=params)
    y_params, t_params = make_params(yaten), make_params(torch)
    y_opt = yaten.optim.Adafactor(y_params, lr=yaten.tensor(0.05))
    t_opt = torch.optim.Adafactor(t_params, lr=torch.tensor(0.05))
    run_parity(None, None, {}, y_opt=y_opt, t_opt=t_opt, params=(y_params, t_params))


def test_state_dict_round_trip_with_torch():
    _, t_opt, y_params, t_params = run_parity(yaten.optim.Adafactor, torch.optim.Adafactor, {}, steps=5)
    sd = t_opt.state_dict()
    state = {i: {k: yaten.tensor(v.numpy()) for k, v in s.items()} for i, s in sd["state"].items()}
    fresh = yaten.optim.Adafactor(y_params, lr=0.5)
    fresh.load_state_dict({"state": state, "param_groups": sd["param_groups"]})
    assert fresh.param_groups == [{**sd["param_groups"][0], "params": y_params}]
    run_parity(None, None, {}, y_opt=fresh, t_opt=t_opt, params=(y_params, t_params), steps=5)


def test_repr_and_defaults_match_torch():
    y = yaten.optim.Adafactor([yaten.zeros(2, requires_grad=True)], d=1.5)
    t = torch.optim.Adafactor([torch.zeros(2, requires_grad=True)], d=1.5)
    assert y.defaults == t.defaults
    assert repr(y) == repr(t)


ERRORS = {
    "lr": lambda m: m.optim.Adafactor([m.zeros(2, requires_grad=True)], lr=-1.0),
    "beta2_decay": lambda m: m.optim.Adafactor([m.zeros(2, requires_grad=True)], beta2_decay=0.5),
    "eps1": lambda m: m.optim.Adafactor([m.zeros(2, requires_grad=True)], eps=(-1.0, 1e-3)),
    "eps2": lambda m: m.optim.Adafactor([m.zeros(2, requires_grad=True)], eps=(None, -1.0)),
    "d": lambda m: m.optim.Adafactor([m.zeros(2, requires_grad=True)], d=0.5),
    "weight_decay": lambda m: m.optim.Adafactor([m.zeros(2, requires_grad=True)], weight_decay=-1.0),
    "tensor_lr_size": lambda m: m.optim.Adafactor([m.zeros(2, requires_grad=True)], lr=m.tensor([0.1, 0.2])),
    "no_differentiable": lambda m: m.optim.Adafactor([m.zeros(2, requires_grad=True)], differentiable=True),
}


@pytest.mark.parametrize("case", ERRORS.values(), ids=ERRORS.keys())
def test_errors_match_torch(case):
    got, want = outcome(case, yaten), outcome(case, torch)
    assert want is not None, "torch raised nothing: the case is wrong"
    assert got == want
