"""optim.swap_in_optimizer_params_and_state against torch's: the step inside the block, what is
restored after it, and its checks."""

import copy

import pytest
import torch
from _optim_parity import grads_for, make_params, set_grads
from _scheduler_parity import outcome

import yaten
from tests.tolerances import assert_close


def _trained(lib, name="Adam", **kwargs):
    params = make_params(lib)
    opt = getattr(lib.optim, name)([{"params": params[:2]}, {"params": params[2:], "lr": 0.05}], **kwargs)
    for step in range(3):
        set_grads(params, lib, grads_for(step))
        opt.step()
    return opt, params


@pytest.mark.parametrize("name,kwargs", [("Adam", {"lr": 0.01}), ("SGD", {"lr": 0.1, "momentum": 0.9})])
def test_step_inside_the_block_matches_torch(name, kwargs):
    def run(lib):
        opt, params = _trained(lib, name, **kwargs)
        sd = opt.state_dict()
        swap_sd = {"state": copy.deepcopy(sd["state"]), "param_groups": copy.deepcopy(sd["param_groups"])}
        swap_sd["param_groups"][0]["lr"] = 0.5
        others = {f"p{i}": p.detach().clone().mul_(2).requires_grad_() for i, p in enumerate(params)}
        set_grads(list(others.values()), lib, grads_for(7))
        before = [p.detach().clone() for p in params]
        groups_before = [dict(g) for g in opt.param_groups]
        with lib.optim.swap_in_optimizer_params_and_state(opt, others, swap_sd):
            assert opt.param_groups[0]["params"] == list(others.values())[:2]
            assert opt.param_groups[0]["lr"] == 0.5
            opt.step()
        # the live optimizer is back: its params, groups and state untouched
        assert [g["params"] for g in opt.param_groups] == [g["params"] for g in groups_before]
        assert opt.param_groups[0]["lr"] == groups_before[0]["lr"]
        for p, b in zip(params, before):
            assert p.tolist() == b.tolist()
        return list(others.values()), swap_sd["state"]

    (y_others, y_state), (t_others, t_state) = run(yaten), run(torch)
    for a, b in zip(y_others, t_others):
        assert_close(a, b)
    for i, s in t_state.items():  # in-place updates of the swap-in state's tensors are kept
        for k, v in s.items():
            assert_close(y_state[i][k], v, what=f"state {i} {k}")


def _swap_trained(m, edit, params=lambda ps: dict(enumerate(ps))):
    # enter the block on a trained optimizer, with an edited copy of its state dict
    opt = _trained(m)[0]
    swap = m.optim.swap_in_optimizer_params_and_state(opt, params(make_params(m)), edit(opt.state_dict()))
    swap.__enter__()


ERRORS = {
    "no_state": lambda m: m.optim.swap_in_optimizer_params_and_state(
        m.optim.SGD(make_params(m), lr=0.1), {}, {"state": {}, "param_groups": []}
    ).__enter__(),
    "not_a_dict": lambda m: m.optim.swap_in_optimizer_params_and_state(_trained(m)[0], {}, []).__enter__(),
    "state_not_a_dict": lambda m: m.optim.swap_in_optimizer_params_and_state(
        _trained(m)[0], {}, {"state": [], "param_groups": []}
    ).__enter__(),
    "state_entry_not_a_dict": lambda m: m.optim.swap_in_optimizer_params_and_state(
        _trained(m)[0], {}, {"state": {0: 1}, "param_groups": []}
    ).__enter__(),
    "groups_not_a_list": lambda m: m.optim.swap_in_optimizer_params_and_state(
        _trained(m)[0], {}, {"state": {}, "param_groups": ()}
    ).__enter__(),
    "group_count": lambda m: m.optim.swap_in_optimizer_params_and_state(
        _trained(m)[0], {}, {"state": {}, "param_groups": [{}]}
    ).__enter__(),
    "group_keys": lambda m: _swap_trained(
        m, lambda sd: {**sd, "param_groups": [{**sd["param_groups"][0], "x": 1}, sd["param_groups"][1]]}
    ),
    "too_few_params": lambda m: _swap_trained(m, lambda sd: sd, params=lambda ps: {"a": ps[0]}),
    "extra_state": lambda m: _swap_trained(m, lambda sd: {**sd, "state": {**sd["state"], 9: {}}}),
}


@pytest.mark.parametrize("case", ERRORS.values(), ids=ERRORS.keys())
def test_errors_match_torch(case):
    got, want = outcome(case, yaten), outcome(case, torch)
    assert want is not None, "torch raised nothing: the case is wrong"
    assert got == want
