"""Adadelta, Adamax, NAdam, RAdam, ASGD, Rprop and SparseAdam, step for step against torch.optim
on the same parameters and gradients, with each of their options."""

import itertools

import pytest
import torch
from _optim_parity import differentiable_steps, make_params, run_parity

import yaten
from tests.tolerances import assert_close


def _cases(**options):
    keys = list(options)
    return [dict(zip(keys, values)) for values in itertools.product(*options.values())]


def _id(kwargs):
    return ",".join(f"{k}={v}" for k, v in kwargs.items())


CASES = {
    "Adadelta": _cases(lr=[1.0, 0.5], rho=[0.9, 0.3], weight_decay=[0, 0.1], maximize=[False, True])
    + [{"eps": 1e-3}],
    "Adamax": _cases(
        lr=[0.01], betas=[(0.9, 0.999), (0.3, 0.6)], weight_decay=[0, 0.1], maximize=[False, True]
    )
    + [{"lr": 0.1, "eps": 1e-3}],
    "NAdam": _cases(
        lr=[0.01],
        betas=[(0.9, 0.999), (0.3, 0.6)],
        weight_decay=[0, 0.1],
        decoupled_weight_decay=[False, True],
        maximize=[False, True],
    )
    + [{"lr": 0.01, "momentum_decay": 0.1}, {"lr": 0.01, "momentum_decay": 0}],
    # beta2 = 0.6 keeps rho_t <= 5 (SGD with momentum) for all steps; 0.999 switches after step 5
    "RAdam": _cases(
        lr=[0.01],
        betas=[(0.9, 0.999), (0.3, 0.6)],
        weight_decay=[0, 0.1],
        decoupled_weight_decay=[False, True],
        maximize=[False, True],
    )
    + [{"lr": 0.01, "betas": (0.9, 0.9)}, {"lr": 0.01, "eps": 1e-3}],
    # t0 = 10 starts the averaging within the run (torch's default 1e6 never does)
    "ASGD": _cases(lr=[0.05], t0=[10, 1e6], weight_decay=[0, 0.1], maximize=[False, True])
    + [{"lr": 0.1, "lambd": 0.1, "alpha": 0.5, "t0": 3}],
    "Rprop": _cases(lr=[0.01, 0.1], etas=[(0.5, 1.2), (0.3, 1.5)], maximize=[False, True])
    + [{"lr": 0.1, "step_sizes": (0.05, 0.2)}, {"lr": 0.01, "step_sizes": (1e-3, 1.0), "etas": (0.1, 2.0)}],
}
PARITY = [(name, kwargs) for name, cases in CASES.items() for kwargs in cases]


@pytest.mark.parametrize("name,kwargs", PARITY, ids=[f"{n}-{_id(k)}" for n, k in PARITY])
def test_matches_torch_step_for_step(name, kwargs):
    run_parity(getattr(yaten.optim, name), getattr(torch.optim, name), kwargs)


def test_rprop_with_zero_and_repeated_gradients_matches_torch():
    # gradient entries that are 0, keep their sign, or flip it, exercise every branch of the update
    def run(lib):
        p = lib.tensor([1.0, -2.0, 0.5, 3.0], dtype=lib.float64, requires_grad=True)
        opt = lib.optim.Rprop([p], lr=0.1)
        for g in (
            [1.0, 0.0, -1.0, 2.0],
            [1.0, 1.0, 1.0, -2.0],
            [0.0, 1.0, -1.0, -2.0],
            [-1.0, 0.0, 1.0, 0.0],
        ):
            p.grad = lib.tensor(g, dtype=lib.float64)
            opt.step()
        return p, opt.state[p]

    (yp, ys), (tp, ts) = run(yaten), run(torch)
    assert yp.tolist() == tp.tolist()
    for key in ("prev", "step_size", "step"):
        assert ys[key].tolist() == ts[key].tolist(), key


def test_asgd_state_is_on_the_parameter_device_and_tracks_eta_and_mu():
    _, t_opt, y_params, _ = run_parity(yaten.optim.ASGD, torch.optim.ASGD, {"lr": 0.1, "t0": 2}, steps=5)
    y_opt = yaten.optim.ASGD(y_params, lr=0.1)
    state = t_opt.state[next(iter(t_opt.state))]
    assert sorted(state) == ["ax", "eta", "mu", "step"]
    y_params[0].grad = yaten.ones_like(y_params[0])
    y_opt.step()
    assert {k: str(v.dtype) for k, v in y_opt.state[y_params[0]].items() if v.dim() == 0} == {
        "eta": "yaten.float32",
        "mu": "yaten.float32",
        "step": "yaten.float32",
    }


def test_nadam_mu_product_is_a_float32_scalar_like_torch():
    y_opt, t_opt, y_params, t_params = run_parity(yaten.optim.NAdam, torch.optim.NAdam, {"lr": 0.01}, steps=3)
    ym, tm = y_opt.state[y_params[0]]["mu_product"], t_opt.state[t_params[0]]["mu_product"]
    assert ym.dtype == yaten.float32 and ym.shape == () and ym.item() == tm.item()


FOREACH = [(name, cases[0]) for name, cases in CASES.items()]


@pytest.mark.parametrize("name,kwargs", FOREACH, ids=[c[0] for c in FOREACH])
def test_foreach_computes_the_same(name, kwargs):
    # torch's foreach kernels order some operations differently
    run_parity(
        getattr(yaten.optim, name), getattr(torch.optim, name), {**kwargs, "foreach": True}, rtol=1e-10
    )


@pytest.mark.parametrize("name,kwargs", FOREACH, ids=[c[0] for c in FOREACH])
def test_foreach_with_differentiable_fails_as_torch(name, kwargs):
    def message(lib):
        p = lib.zeros(2, requires_grad=True).clone()
        p.grad = lib.ones(2)
        opt = getattr(lib.optim, name)([p], foreach=True, differentiable=True)
        with pytest.raises(AssertionError) as info:
            opt.step()
        return str(info.value)

    assert message(yaten) == message(torch)


@pytest.mark.parametrize("name", list(CASES))
def test_fused_is_not_an_argument_as_in_torch(name):
    for lib in (yaten, torch):
        with pytest.raises(TypeError, match="unexpected keyword argument 'fused'"):
            getattr(lib.optim, name)([lib.zeros(1, requires_grad=True)], fused=True)


@pytest.mark.parametrize("name", list(CASES))
def test_capturable_needs_an_accelerator(name):
    def message(lib):
        p = lib.zeros(2, requires_grad=True)
        p.grad = lib.ones(2)
        with pytest.raises(AssertionError) as info:
            getattr(lib.optim, name)([p], capturable=True).step()
        return str(info.value)

    # the same words; the device list is each library's own (yaten's is ['cuda'])
    assert message(yaten).split(": [")[0] == message(torch).split(": [")[0]
    assert message(yaten).endswith(": ['cuda'].")


@pytest.mark.parametrize("name", list(CASES))
def test_float32_matches_torch(name):
    params = make_params(yaten, dtype="float32"), make_params(torch, dtype="float32")
    run_parity(getattr(yaten.optim, name), getattr(torch.optim, name), CASES[name][0], params=params)


@pytest.mark.parametrize("name", list(CASES))
def test_tensor_lr_matches_torch(name):
    y_params, t_params = make_params(yaten), make_params(torch)
    lr = CASES[name][0].get("lr", 0.01)
    y_opt = getattr(yaten.optim, name)(y_params, lr=yaten.tensor(lr))
    t_opt = getattr(torch.optim, name)(t_params, lr=torch.tensor(lr))
    run_parity(None, None, {}, y_opt=y_opt, t_opt=t_opt, params=(y_params, t_params))


@pytest.mark.parametrize("name", list(CASES))
def test_parameters_without_grad_and_groups_match_torch(name):
    y_params, t_params = make_params(yaten), make_params(torch)

    def build(lib, params):
        return getattr(lib.optim, name)([{"params": params[:1], "lr": 0.02}, {"params": params[1:]}])

    def skip(step):
        return {2} if step % 2 == 0 else {1, 2}

    y_opt, t_opt = build(yaten, y_params), build(torch, t_params)
    run_parity(None, None, {}, y_opt=y_opt, t_opt=t_opt, params=(y_params, t_params), skip_grad=skip)
    assert y_params[2] not in y_opt.state


def test_differentiable_adamax_first_step_gradient_matches_torch():
    # From the second step on, torch's differentiable Adamax fails in backward (an in-place update
    # of a tensor its autograd saved); yaten's saves other tensors and goes on. The first step agrees.
    kwargs, grads = {"lr": 0.1, "weight_decay": 0.1}, [[0.5, 0.25, -1.0]]
    (yw, yg) = differentiable_steps(yaten, "Adamax", kwargs, grads)
    (tw, tg) = differentiable_steps(torch, "Adamax", kwargs, grads)
    assert_close(yw, tw)
    assert_close(yg, tg)


def test_step_with_closure_returns_the_loss_like_torch():
    def run(lib):
        w = lib.tensor([1.0, -2.0, 0.5], dtype=lib.float64, requires_grad=True)
        x = lib.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], dtype=lib.float64)
        opt = lib.optim.NAdam([w], lr=0.05)

        def closure():
            opt.zero_grad()
            loss = ((x @ w) ** 2).sum()
            loss.backward()
            return loss

        return [opt.step(closure).item() for _ in range(10)]

    assert run(yaten) == pytest.approx(run(torch), rel=1e-12)


# ---- SparseAdam: yaten has only dense gradients, which torch's SparseAdam refuses ---------------


def _outcome(case, lib):
    try:
        case(lib)
    except (RuntimeError, ValueError, TypeError) as e:
        return type(e), str(e)
    return None


SPARSE_ADAM = {
    "dense_grad": lambda m: (lambda p: (setattr(p, "grad", m.ones(2)), m.optim.SparseAdam([p]).step()))(
        m.zeros(2, requires_grad=True)
    ),
    "lr_zero": lambda m: m.optim.SparseAdam([m.zeros(2, requires_grad=True)], lr=0.0),
    "eps_zero": lambda m: m.optim.SparseAdam([m.zeros(2, requires_grad=True)], eps=0.0),
    "beta0": lambda m: m.optim.SparseAdam([m.zeros(2, requires_grad=True)], betas=(1.0, 0.9)),
    "beta1": lambda m: m.optim.SparseAdam([m.zeros(2, requires_grad=True)], betas=(0.9, -0.1)),
    "tensor_lr_size": lambda m: m.optim.SparseAdam([m.zeros(2, requires_grad=True)], lr=m.tensor([0.1, 0.2])),
}


@pytest.mark.parametrize("case", SPARSE_ADAM.values(), ids=SPARSE_ADAM.keys())
def test_sparse_adam_errors_match_torch(case):
    want = _outcome(case, torch)
    assert want is not None
    assert _outcome(case, yaten) == want


def test_sparse_adam_without_gradients_steps_and_keeps_torch_defaults():
    y = yaten.optim.SparseAdam([yaten.zeros(2, requires_grad=True)])
    t = torch.optim.SparseAdam([torch.zeros(2, requires_grad=True)])
    assert y.step(lambda: 3.0) == t.step(lambda: 3.0) == 3.0
    assert y.defaults == t.defaults
    assert repr(y) == repr(t)
    assert y.state_dict() == t.state_dict()


@pytest.mark.parametrize("name", [*CASES, "SparseAdam", "LBFGS"])
def test_repr_defaults_and_group_keys_match_torch(name):
    def build(lib):
        a, b = (lib.zeros(2, requires_grad=True) for _ in range(2))
        groups = [{"params": [a, b]}] if name == "LBFGS" else [{"params": [a]}, {"params": [b], "lr": 0.5}]
        return getattr(lib.optim, name)(groups)

    y, t = build(yaten), build(torch)
    assert repr(y) == repr(t)
    assert y.defaults == t.defaults
    assert [list(g) for g in y.param_groups] == [list(g) for g in t.param_groups]
    assert issubclass(getattr(yaten.optim, name), yaten.optim.Optimizer)


def test_every_torch_optim_name_exists():
    names = ["ASGD", "Adadelta", "Adamax", "LBFGS", "NAdam", "RAdam", "Rprop", "SparseAdam"]
    assert all(getattr(yaten.optim, n).__module__.startswith("yaten.optim.") for n in names)
    assert sorted(set(torch.optim.__all__) - set(yaten.optim.__all__)) == []
    for name in torch.optim.__all__:  # the same class paths (pickles name them)
        y, t = getattr(yaten.optim, name), getattr(torch.optim, name)
        if hasattr(t, "__module__"):  # not the modules lr_scheduler and swa_utils
            assert y.__module__.replace("yaten", "torch") == t.__module__, name


def test_old_state_dicts_with_number_steps_are_upgraded_as_torch():
    # state dicts from old PyTorch versions keep "step" (and NAdam's mu_product) as plain numbers
    for name, extra in [("NAdam", {"mu_product": 0.5}), ("ASGD", {"eta": 0.01, "mu": 1.0}), ("Rprop", {})]:
        for lib in (yaten, torch):
            p = lib.zeros(2, requires_grad=True)
            opt = getattr(lib.optim, name)([p])
            p.grad = lib.ones(2)
            opt.step()
            sd = opt.state_dict()
            sd["state"][0].update({"step": 3, **extra})
            del sd["param_groups"][0]["maximize"]
            opt.load_state_dict(sd)
            state = opt.state[p]
            assert opt.param_groups[0]["maximize"] is False
            for key in ("step", *extra):
                assert isinstance(state[key], lib.Tensor), (name, key)
                assert str(state[key].dtype).endswith("float32") and state[key].shape == ()
