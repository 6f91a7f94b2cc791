"""Optimizer state dicts: torch's structure, round trips, loading then continuing, torch's checks."""

import pytest
import torch
from _optim_parity import make_params, run_parity

import yaten
from tests.tolerances import assert_close

CASES = [
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True}),
    ("Adam", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.1}),
    ("AdamW", {"lr": 0.01, "amsgrad": True}),
    ("RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.9}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.01, "initial_accumulator_value": 0.1}),
    ("Adadelta", {"lr": 0.5, "weight_decay": 0.1}),
    ("Adamax", {"lr": 0.01, "weight_decay": 0.1}),
    ("NAdam", {"lr": 0.01, "decoupled_weight_decay": True, "weight_decay": 0.1}),
    ("RAdam", {"lr": 0.01, "weight_decay": 0.1}),
    ("ASGD", {"lr": 0.05, "t0": 5}),
    ("Rprop", {"lr": 0.05}),
]
IDS = [c[0] for c in CASES]


def _groups(params):
    return [{"params": params[:1], "lr": 0.05}, {"params": params[1:]}]


def _pair(name, kwargs, steps=20):
    y_params, t_params = make_params(yaten), make_params(torch)
    y_opt = getattr(yaten.optim, name)(_groups(y_params), **kwargs)
    t_opt = getattr(torch.optim, name)(_groups(t_params), **kwargs)
    return run_parity(None, None, {}, y_opt=y_opt, t_opt=t_opt, params=(y_params, t_params), steps=steps)


def _to_torch(x):
    if isinstance(x, yaten.Tensor):
        return torch.tensor(x.tolist(), dtype=getattr(torch, str(x.dtype).split(".")[1]))
    if isinstance(x, dict):
        return {k: _to_torch(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_to_torch(v) for v in x]
    return x


def _to_yaten(x):
    if isinstance(x, torch.Tensor):
        return yaten.tensor(x.tolist(), dtype=getattr(yaten, str(x.dtype).split(".")[1]))
    if isinstance(x, dict):
        return {k: _to_yaten(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_to_yaten(v) for v in x]
    return x


def _picture(sd):
    """The structure of a state dict: groups exactly, state as keys, dtypes and shapes."""
    state = {
        i: {k: (str(v.dtype).split(".")[1], tuple(v.shape)) for k, v in s.items()}
        for i, s in sd["state"].items()
    }
    return sd["param_groups"], state


@pytest.mark.parametrize("name,kwargs", CASES, ids=IDS)
def test_state_dict_structure_equals_torch(name, kwargs):
    y_opt, t_opt, _, _ = _pair(name, kwargs, steps=3)
    y_sd, t_sd = y_opt.state_dict(), t_opt.state_dict()
    assert list(y_sd) == list(t_sd) == ["state", "param_groups"]
    assert _picture(y_sd) == _picture(t_sd)
    for i, s in t_sd["state"].items():
        assert list(y_sd["state"][i]) == list(s)  # same key order
        for k, v in s.items():
            assert_close(y_sd["state"][i][k], v, what=f"state {i} {k}")


@pytest.mark.parametrize("name,kwargs", CASES, ids=IDS)
def test_state_dict_before_any_step_equals_torch(name, kwargs):
    y = getattr(yaten.optim, name)(_groups(make_params(yaten)), **kwargs)
    t = getattr(torch.optim, name)(_groups(make_params(torch)), **kwargs)
    assert _picture(y.state_dict()) == _picture(t.state_dict())


def test_state_dict_holds_the_live_state_tensors():
    y_opt, *_ = _pair("Adam", {"lr": 0.01}, steps=1)
    p = y_opt.param_groups[0]["params"][0]
    assert y_opt.state_dict()["state"][0]["exp_avg"] is y_opt.state[p]["exp_avg"]


@pytest.mark.parametrize("name,kwargs", CASES, ids=IDS)
def test_round_trip_yaten_to_yaten_then_continue(name, kwargs):
    y_opt, t_opt, y_params, t_params = _pair(name, kwargs, steps=25)
    sd = y_opt.state_dict()
    # a fresh optimizer, built with other options, takes them all from the state dict
    fresh = getattr(yaten.optim, name)(_groups(y_params), lr=0.5)
    fresh.load_state_dict(sd)
    # as torch's round trip: loading casts scalar state but "step" (NAdam's mu_product, ASGD's eta
    # and mu) to the param's dtype
    t_fresh = getattr(torch.optim, name)(_groups(t_params), lr=0.5)
    t_fresh.load_state_dict(t_opt.state_dict())
    assert _picture(fresh.state_dict()) == _picture(t_fresh.state_dict())
    assert fresh.param_groups[0]["lr"] == 0.05
    assert fresh.param_groups[0]["params"][0] is y_params[0]
    run_parity(None, None, {}, y_opt=fresh, t_opt=t_fresh, params=(y_params, t_params), steps=25)


@pytest.mark.parametrize("name,kwargs", CASES, ids=IDS)
def test_torch_state_dict_loads_into_yaten(name, kwargs):
    _, t_opt, y_params, t_params = _pair(name, kwargs, steps=25)
    fresh = getattr(yaten.optim, name)(_groups(y_params), lr=0.5)
    fresh.load_state_dict(_to_yaten(t_opt.state_dict()))
    t_fresh = getattr(torch.optim, name)(_groups(t_params), lr=0.5)  # loading casts some state
    t_fresh.load_state_dict(t_opt.state_dict())
    run_parity(None, None, {}, y_opt=fresh, t_opt=t_fresh, params=(y_params, t_params), steps=25)


@pytest.mark.parametrize("name,kwargs", CASES, ids=IDS)
def test_yaten_state_dict_loads_into_torch(name, kwargs):
    y_opt, _, y_params, t_params = _pair(name, kwargs, steps=25)
    fresh = getattr(torch.optim, name)(_groups(t_params), lr=0.5)
    fresh.load_state_dict(_to_torch(y_opt.state_dict()))
    y_fresh = getattr(yaten.optim, name)(_groups(y_params), lr=0.5)  # loading casts some state
    y_fresh.load_state_dict(y_opt.state_dict())
    run_parity(None, None, {}, y_opt=y_fresh, t_opt=fresh, params=(y_params, t_params), steps=25)


def test_load_casts_state_to_the_param_dtype_but_not_step():
    def run(lib):
        p32 = lib.zeros(3, dtype=lib.float32, requires_grad=True)
        opt = lib.optim.Adam([p32])
        p32.grad = lib.ones(3, dtype=lib.float32)
        opt.step()
        p64 = lib.zeros(3, dtype=lib.float64, requires_grad=True)
        opt64 = lib.optim.Adam([p64])
        opt64.load_state_dict(opt.state_dict())
        return {k: str(v.dtype).split(".")[1] for k, v in opt64.state[p64].items()}

    assert run(yaten) == run(torch) == {"step": "float32", "exp_avg": "float64", "exp_avg_sq": "float64"}


def test_load_keeps_non_tensor_state_and_unknown_keys():
    p = yaten.zeros(2, requires_grad=True)
    opt = yaten.optim.SGD([p], momentum=0.9)
    sd = {
        "state": {0: {"momentum_buffer": yaten.ones(2), "note": "x"}, "extra": 3},
        "param_groups": opt.state_dict()["param_groups"],
    }
    opt.load_state_dict(sd)
    assert opt.state[p]["note"] == "x" and opt.state["extra"] == 3


def test_loaded_param_groups_are_copies():
    y_opt, *_ = _pair("Adam", {"lr": 0.01}, steps=1)
    sd = y_opt.state_dict()
    fresh = yaten.optim.Adam(_groups(make_params(yaten)))
    fresh.load_state_dict(sd)
    fresh.param_groups[0]["lr"] = 9.0
    assert sd["param_groups"][0]["lr"] == 0.05


def test_adamw_keeps_decoupled_weight_decay_when_loading_an_adam_state():
    p = yaten.zeros(2, requires_grad=True)
    adam = yaten.optim.Adam([p])
    adamw = yaten.optim.AdamW([p])
    adamw.load_state_dict(adam.state_dict())
    assert adamw.param_groups[0]["decoupled_weight_decay"] is True


def _error(fn):
    with pytest.raises(Exception) as info:
        fn()
    return info.type, str(info.value)


def test_load_errors_match_torch():
    def different_group_count(lib):
        a, b = lib.zeros(1, requires_grad=True), lib.zeros(1, requires_grad=True)
        sd = lib.optim.SGD([{"params": [a]}, {"params": [b]}]).state_dict()
        return lambda: lib.optim.SGD([a, b]).load_state_dict(sd)

    def different_group_size(lib):
        a, b = lib.zeros(1, requires_grad=True), lib.zeros(1, requires_grad=True)
        sd = lib.optim.SGD([a]).state_dict()
        return lambda: lib.optim.SGD([a, b]).load_state_dict(sd)

    y, t = _error(different_group_count(yaten)), _error(different_group_count(torch))
    assert y == t == (ValueError, "loaded state dict has a different number of parameter groups")
    y, t = _error(different_group_size(yaten)), _error(different_group_size(torch))
    assert y == t
    assert t == (
        ValueError,
        "loaded state dict contains a parameter group that doesn't match the size of optimizer's group",
    )


def test_state_dict_and_load_hooks():
    p = yaten.zeros(2, requires_grad=True)
    opt = yaten.optim.SGD([p], lr=0.1)
    calls = []
    opt.register_state_dict_pre_hook(lambda o: calls.append("pre"))
    opt.register_state_dict_post_hook(lambda o, sd: {**sd, "tag": 1})
    opt.register_state_dict_post_hook(lambda o, sd: calls.append("first"), prepend=True)
    sd = opt.state_dict()
    assert sd["tag"] == 1 and calls == ["pre", "first"]

    def pre_load(o, sd):
        sd = dict(sd)
        sd["param_groups"] = [{**sd["param_groups"][0], "lr": 0.7}]
        return sd

    opt.register_load_state_dict_pre_hook(pre_load)
    opt.register_load_state_dict_post_hook(lambda o: calls.append("loaded"))
    opt.load_state_dict(sd)
    assert opt.param_groups[0]["lr"] == 0.7 and calls[-1] == "loaded"


def test_pickle_state_through_getstate():
    import copy

    p = yaten.zeros(2, requires_grad=True)
    opt = yaten.optim.SGD([p], lr=0.1)
    state = opt.__getstate__()
    assert set(state) == {"defaults", "state", "param_groups"}
    clone = copy.copy(opt)
    clone.__setstate__(state)
    assert clone.param_groups is opt.param_groups
