"""Muon against torch.optim.Muon: step for step (its Newton-Schulz iterations run in bfloat16 in
both), with each option, its state dict and its errors."""

import pickle

import numpy as np
import pytest
import torch
from _scheduler_parity import outcome

import yaten
from tests.tolerances import assert_close

START = [np.random.default_rng(0).standard_normal(s) for s in ((4, 6), (5, 3), (3, 3))]


def _run(lib, kwargs, steps=6, dtype="float64"):
    params = [lib.tensor(w, dtype=getattr(lib, dtype), requires_grad=True) for w in START]
    opt = lib.optim.Muon(params, **kwargs)
    for step in range(steps):
        rng = np.random.default_rng(step)
        for p in params:
            p.grad = lib.tensor(rng.standard_normal(tuple(p.shape)), dtype=p.dtype)
        opt.step()
    return opt, params


CASES = {
    "default": {},
    "no_nesterov": {"lr": 0.02, "nesterov": False},
    "match_rms_adamw": {"adjust_lr_fn": "match_rms_adamw"},
    "original": {"adjust_lr_fn": "original", "weight_decay": 0.0},
    "momentum": {"momentum": 0.3},  # lerp's other formula
    "ns": {"ns_steps": 3, "ns_coefficients": (3.0, -3.2, 1.2), "eps": 1e-5},
}


@pytest.mark.parametrize("kwargs", CASES.values(), ids=CASES.keys())
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_matches_torch_step_for_step(kwargs, dtype):
    (y_opt, y_params), (t_opt, t_params) = _run(yaten, kwargs, dtype=dtype), _run(torch, kwargs, dtype=dtype)
    for i, (yp, tp) in enumerate(zip(y_params, t_params)):
        assert_close(yp, tp, what=f"param {i}")
        ys, ts = y_opt.state[yp], t_opt.state[tp]
        assert list(ys) == list(ts) == ["momentum_buffer"]
        assert_close(ys["momentum_buffer"], ts["momentum_buffer"], what=f"buffer {i}")


def test_state_dict_round_trip_with_torch():
    t_opt, _ = _run(torch, {})
    y_opt, y_params = _run(yaten, {})
    sd = t_opt.state_dict()
    fresh = yaten.optim.Muon(y_params, lr=0.5)
    state = {i: {k: yaten.tensor(v.numpy()) for k, v in s.items()} for i, s in sd["state"].items()}
    fresh.load_state_dict({"state": state, "param_groups": sd["param_groups"]})
    assert fresh.param_groups[0]["lr"] == 1e-3
    assert sorted(y_opt.state_dict()["state"][0]) == sorted(sd["state"][0])
    assert y_opt.defaults == t_opt.defaults and repr(y_opt) == repr(t_opt)


ERRORS = {
    "lr": lambda m: m.optim.Muon([m.zeros(2, 2, requires_grad=True)], lr=-1.0),
    "momentum": lambda m: m.optim.Muon([m.zeros(2, 2, requires_grad=True)], momentum=-0.1),
    "weight_decay": lambda m: m.optim.Muon([m.zeros(2, 2, requires_grad=True)], weight_decay=-0.1),
    "adjust_lr_fn": lambda m: m.optim.Muon([m.zeros(2, 2, requires_grad=True)], adjust_lr_fn="sqrt"),
    "not_2d": lambda m: m.optim.Muon([m.zeros(2, requires_grad=True)]),
    "ns_steps": lambda m: (
        lambda p: (setattr(p, "grad", m.ones(2, 2)), m.optim.Muon([p], ns_steps=100).step())
    )(m.zeros(2, 2, requires_grad=True)),
}


@pytest.mark.parametrize("case", ERRORS.values(), ids=ERRORS.keys())
def test_errors_match_torch(case):
    got, want = outcome(case, yaten), outcome(case, torch)
    assert want is not None, "torch raised nothing: the case is wrong"
    assert got == want


def test_foreach_is_refused_as_torch():
    with pytest.raises(RuntimeError, match="^Foreach is not supported for Muon yet$"):
        yaten.optim._muon.muon(
            [], [], [], foreach=True, lr=0.1, weight_decay=0.0, momentum=0.9, nesterov=True,
            ns_coefficients=(1.0, 1.0, 1.0), eps=1e-7, ns_steps=1, adjust_lr_fn=None,
        )  # fmt: skip


def test_classes_live_at_torch_paths():
    for name in ("Muon", "Adafactor"):
        assert (
            getattr(yaten.optim, name).__module__.replace("yaten", "torch")
            == getattr(torch.optim, name).__module__
        )
        cls = getattr(yaten.optim, name)
        assert pickle.loads(pickle.dumps(cls)) is cls
