"""Every optimizer, step for step against torch.optim on the same parameters and gradients."""

import itertools
import warnings

import numpy as np
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


SGD_CASES = [
    {"lr": 0.1},
    {"lr": 0.1, "momentum": 0.9},
    {"lr": 0.1, "momentum": 0.9, "dampening": 0.5},
    {"lr": 0.05, "momentum": 0.9, "nesterov": True},
    {"lr": 0.1, "weight_decay": 0.1},
    {"lr": 0.1, "maximize": True},
    {"lr": 0.05, "momentum": 0.9, "weight_decay": 0.1, "nesterov": True, "maximize": True},
    {"lr": 0.1, "momentum": 0.5, "dampening": 0.1, "weight_decay": 0.01, "maximize": True},
]
ADAM_CASES = _cases(
    lr=[0.01],
    betas=[(0.9, 0.999), (0.3, 0.6)],  # beta1 < 0.5 takes lerp's other formula
    weight_decay=[0, 0.1],
    amsgrad=[False, True],
    maximize=[False, True],
)
RMSPROP_CASES = _cases(
    lr=[0.01],
    centered=[False, True],
    momentum=[0, 0.9],
    weight_decay=[0, 0.1],
    maximize=[False, True],
) + [{"lr": 0.01, "alpha": 0.3, "centered": True, "momentum": 0.5, "eps": 1e-3}]
ADAGRAD_CASES = _cases(
    lr=[0.1],
    lr_decay=[0, 0.01],
    weight_decay=[0, 0.1],
    initial_accumulator_value=[0, 0.1],
    maximize=[False, True],
) + [{"lr": 0.1, "eps": 1e-3}]


@pytest.mark.parametrize("kwargs", SGD_CASES, ids=_id)
def test_sgd_matches_torch(kwargs):
    run_parity(yaten.optim.SGD, torch.optim.SGD, kwargs)


@pytest.mark.parametrize("kwargs", ADAM_CASES, ids=_id)
def test_adam_matches_torch(kwargs):
    run_parity(yaten.optim.Adam, torch.optim.Adam, kwargs)


@pytest.mark.parametrize("kwargs", ADAM_CASES, ids=_id)
def test_adamw_matches_torch(kwargs):
    run_parity(yaten.optim.AdamW, torch.optim.AdamW, kwargs)


def test_adam_decoupled_weight_decay_matches_torch():
    kwargs = {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}
    run_parity(yaten.optim.Adam, torch.optim.Adam, kwargs)


@pytest.mark.parametrize("kwargs", RMSPROP_CASES, ids=_id)
def test_rmsprop_matches_torch(kwargs):
    run_parity(yaten.optim.RMSprop, torch.optim.RMSprop, kwargs)


@pytest.mark.parametrize("kwargs", ADAGRAD_CASES, ids=_id)
def test_adagrad_matches_torch(kwargs):
    run_parity(yaten.optim.Adagrad, torch.optim.Adagrad, kwargs)


ALL = [
    ("SGD", {"lr": 0.1, "momentum": 0.9}),
    ("Adam", {"lr": 0.01, "amsgrad": True}),
    ("AdamW", {"lr": 0.01, "amsgrad": True}),
    ("RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.9}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.01}),
]
FUSED = {"SGD", "Adam", "AdamW", "Adagrad"}  # torch's fused CPU kernels


FLAGGED = [
    (name, kwargs, flag)
    for name, kwargs in ALL
    for flag in ("foreach", "fused")
    if flag != "fused" or name in FUSED
]


@pytest.mark.parametrize("name,kwargs,flag", FLAGGED, ids=[f"{c[0]}-{c[2]}" for c in FLAGGED])
def test_foreach_and_fused_compute_the_same(name, kwargs, flag):
    kwargs = {**kwargs, flag: True}
    # torch's foreach/fused kernels order some operations differently
    run_parity(getattr(yaten.optim, name), getattr(torch.optim, name), kwargs, rtol=1e-10)


@pytest.mark.parametrize("name,kwargs", ALL, ids=[a[0] for a in ALL])
def test_parameters_without_grad_are_skipped(name, kwargs):
    # param 2 never has a gradient; param 1 only on even steps
    def skip(step):
        return {2} if step % 2 == 0 else {1, 2}

    y_opt, _, y_params, _ = run_parity(
        getattr(yaten.optim, name), getattr(torch.optim, name), kwargs, skip_grad=skip
    )
    if name != "Adagrad":  # Adagrad makes every state at construction
        assert y_params[2] not in y_opt.state


@pytest.mark.parametrize("name,kwargs", ALL, ids=[a[0] for a in ALL])
def test_float32_matches_torch(name, kwargs):
    params = make_params(yaten, dtype="float32"), make_params(torch, dtype="float32")
    run_parity(getattr(yaten.optim, name), getattr(torch.optim, name), kwargs, params=params)


GROUP_CASES = [
    ("SGD", [{"lr": 0.2, "momentum": 0.9}, {"nesterov": True, "momentum": 0.5}], {"lr": 0.1}),
    ("Adam", [{"amsgrad": True, "lr": 0.1}, {"betas": (0.5, 0.9), "weight_decay": 0.1}], {}),
    ("AdamW", [{"weight_decay": 0.5}, {"maximize": True}], {"lr": 0.01}),
    ("RMSprop", [{"centered": True}, {"momentum": 0.9, "alpha": 0.5}], {"lr": 0.01}),
    ("Adagrad", [{"lr_decay": 0.1}, {"weight_decay": 0.2, "eps": 1e-5}], {"lr": 0.1}),
]


@pytest.mark.parametrize("name,groups,defaults", GROUP_CASES, ids=[c[0] for c in GROUP_CASES])
def test_param_groups_with_their_own_options(name, groups, defaults):
    y_params, t_params = make_params(yaten), make_params(torch)

    def build(cls, params):
        return cls([{"params": params[:1], **groups[0]}, {"params": params[1:], **groups[1]}], **defaults)

    y_opt = build(getattr(yaten.optim, name), y_params)
    t_opt = build(getattr(torch.optim, name), t_params)
    run_parity(None, None, {}, y_opt=y_opt, t_opt=t_opt, params=(y_params, t_params))


def test_lr_changed_between_steps_is_used():
    y_opt, t_opt, y_params, t_params = run_parity(yaten.optim.Adam, torch.optim.Adam, {"lr": 0.01}, steps=10)
    for opt in (y_opt, t_opt):
        opt.param_groups[0]["lr"] = 0.3
        opt.param_groups[0]["betas"] = (0.5, 0.7)
    run_parity(None, None, {}, y_opt=y_opt, t_opt=t_opt, params=(y_params, t_params), steps=10)


TENSOR_HYPER = {
    "sgd_lr": ("SGD", lambda m: {"lr": m.tensor(0.1, dtype=m.float64), "momentum": 0.9}),
    "sgd_lr_float32": ("SGD", lambda m: {"lr": m.tensor([0.1])}),
    "adam_lr": ("Adam", lambda m: {"lr": m.tensor(0.01, dtype=m.float64)}),
    "adamw_lr_float32": ("AdamW", lambda m: {"lr": m.tensor([0.01]), "amsgrad": True}),
    "rmsprop_lr": ("RMSprop", lambda m: {"lr": m.tensor(0.01), "momentum": 0.5}),
    "adagrad_lr_decay": ("Adagrad", lambda m: {"lr": m.tensor(0.1), "lr_decay": 0.01}),
    "adam_betas": ("Adam", lambda m: {"lr": 0.01, "betas": (m.tensor(0.8), m.tensor(0.9))}),
}


@pytest.mark.parametrize("name,make", TENSOR_HYPER.values(), ids=TENSOR_HYPER.keys())
def test_tensor_hyperparameters_match_torch(name, make):
    # a float32 tensor lr makes torch's step size a float32 tensor; yaten keeps that precision
    y_params, t_params = make_params(yaten), make_params(torch)
    y_opt = getattr(yaten.optim, name)(y_params, **make(yaten))
    t_opt = getattr(torch.optim, name)(t_params, **make(torch))
    # float32 betas: torch's 0-dim float32 sqrt is not correctly rounded (yaten's is), 1 ulp apart
    tol = {"rtol": 1e-6} if "betas" in make(yaten) else {}
    run_parity(None, None, {}, y_opt=y_opt, t_opt=t_opt, params=(y_params, t_params), **tol)


# ---- step state, closure, no_grad -----------------------------------------------------------


@pytest.mark.parametrize("name", ["Adam", "AdamW", "RMSprop", "Adagrad"])
def test_step_is_a_float32_cpu_scalar_tensor(name):
    p = yaten.zeros(3, dtype=yaten.float64, requires_grad=True)
    opt = getattr(yaten.optim, name)([p])
    p.grad = yaten.ones(3, dtype=yaten.float64)
    opt.step()
    opt.step()
    step = opt.state[p]["step"]
    assert isinstance(step, yaten.Tensor)
    assert step.dtype == yaten.float32 and step.shape == () and step.device.type == "cpu"
    assert step.item() == 2.0


def test_step_follows_a_float64_default_dtype():
    previous = yaten.get_default_dtype()
    yaten.set_default_dtype(yaten.float64)
    try:
        p = yaten.zeros(3, requires_grad=True)
        opt = yaten.optim.Adam([p])
        p.grad = yaten.ones(3)
        opt.step()
        assert opt.state[p]["step"].dtype == yaten.float64
    finally:
        yaten.set_default_dtype(previous)


@pytest.mark.parametrize("name,kwargs", ALL, ids=[a[0] for a in ALL])
def test_step_with_closure_matches_torch(name, kwargs):
    def run(lib):
        w = lib.tensor([1.0, -2.0, 0.5], dtype=lib.float64, requires_grad=True)
        x = lib.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], dtype=lib.float64)
        opt = getattr(lib.optim, name)([w], **kwargs)
        losses = []

        def closure():
            opt.zero_grad()
            loss = ((x @ w) ** 2).sum()
            loss.backward()
            return loss

        for _ in range(20):
            losses.append(opt.step(closure).item())
        return w, losses

    (yw, yl), (tw, tl) = run(yaten), run(torch)
    assert_close(yl, tl)
    assert_close(yw, tw)


def test_step_runs_without_autograd_recording():
    p = yaten.ones(3, requires_grad=True)
    opt = yaten.optim.Adam([p], lr=0.1)
    p.grad = yaten.ones(3)
    with yaten.enable_grad():
        opt.step()
    assert p.is_leaf and p.requires_grad and p.grad_fn is None
    assert yaten.is_grad_enabled()


def test_step_with_no_grads_creates_no_state():
    p = yaten.ones(3, requires_grad=True)
    opt = yaten.optim.Adam([p])
    opt.step()
    assert len(opt.state) == 0
    assert p.tolist() == [1.0, 1.0, 1.0]


def test_momentum_buffer_is_the_first_gradient_copied():
    p = yaten.zeros(2, dtype=yaten.float64, requires_grad=True)
    opt = yaten.optim.SGD([p], lr=0.1, momentum=0.9)
    p.grad = yaten.tensor([1.0, 2.0], dtype=yaten.float64)
    opt.step()
    buf = opt.state[p]["momentum_buffer"]
    assert buf.tolist() == [1.0, 2.0] and buf is not p.grad
    p.grad.mul_(10)
    assert buf.tolist() == [1.0, 2.0]


def test_sgd_without_momentum_keeps_no_state():
    _, t_opt, _, _ = run_parity(yaten.optim.SGD, torch.optim.SGD, {"lr": 0.1}, steps=2)
    assert len(t_opt.state) == 0


# ---- zero_grad, repr, hooks -------------------------------------------------------------------


def test_zero_grad_set_to_none_and_to_zero():
    a = yaten.ones(2, requires_grad=True)
    b = yaten.ones(3, requires_grad=True)
    opt = yaten.optim.SGD([a, b])
    a.grad = yaten.full((2,), 3.0)
    b.grad = yaten.full((3,), 3.0)
    grad = a.grad
    opt.zero_grad(set_to_none=False)
    assert a.grad is grad and a.grad.tolist() == [0.0, 0.0] and b.grad.tolist() == [0.0] * 3
    opt.zero_grad()
    assert a.grad is None and b.grad is None
    opt.zero_grad()  # no grads: nothing to do


def test_zero_grad_detaches_a_grad_with_history():
    a = yaten.ones(2, requires_grad=True)
    opt = yaten.optim.SGD([a])
    a.grad = yaten.ones(2, requires_grad=True) * 2
    assert a.grad.grad_fn is not None
    opt.zero_grad(set_to_none=False)
    assert a.grad.grad_fn is None and a.grad.tolist() == [0.0, 0.0]


REPR_CASES = [
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True}),
    ("Adam", {"betas": (0.8, 0.99), "amsgrad": True}),
    ("AdamW", {}),
    ("RMSprop", {"centered": True}),
    ("Adagrad", {"lr_decay": 0.5}),
]


@pytest.mark.parametrize("name,kwargs", REPR_CASES, ids=[c[0] for c in REPR_CASES])
def test_repr_matches_torch(name, kwargs):
    def build(lib):
        a, b = (lib.zeros(2, requires_grad=True) for _ in range(2))
        opt = getattr(lib.optim, name)([{"params": [a]}, {"params": [b], "lr": 0.5}], **kwargs)
        return repr(opt)

    assert build(yaten) == build(torch)


def test_defaults_and_param_group_keys_match_torch():
    for name, kwargs in ALL:
        y = getattr(yaten.optim, name)([yaten.zeros(1, requires_grad=True)], **kwargs)
        t = getattr(torch.optim, name)([torch.zeros(1, requires_grad=True)], **kwargs)
        assert y.defaults == t.defaults, name
        assert list(y.param_groups[0]) == list(t.param_groups[0]), name


def test_step_pre_and_post_hooks():
    p = yaten.zeros(2, requires_grad=True)
    opt = yaten.optim.SGD([p], lr=1.0)
    p.grad = yaten.ones(2)
    calls = []

    def pre(o, args, kwargs):
        calls.append(("pre", o is opt, args[1:], kwargs))

    def post(o, args, kwargs):
        calls.append(("post", o is opt, args[1:], kwargs))

    h1 = opt.register_step_pre_hook(pre)
    h2 = opt.register_step_post_hook(post)
    assert isinstance(h1, yaten.utils.hooks.RemovableHandle)
    assert isinstance(h2, yaten.utils.hooks.RemovableHandle)
    opt.step()
    assert calls == [("pre", True, (), {}), ("post", True, (), {})]
    h1.remove()
    h2.remove()
    opt.step()
    assert len(calls) == 2
    assert p.tolist() == [-2.0, -2.0]


def test_step_pre_hook_can_replace_the_arguments():
    p = yaten.zeros(2, requires_grad=True)
    opt = yaten.optim.SGD([p], lr=1.0)
    p.grad = yaten.ones(2)
    opt.register_step_pre_hook(lambda o, args, kwargs: (args, {"closure": lambda: 42}))
    assert opt.step() == 42


def test_step_pre_hook_returning_junk_raises():
    p = yaten.zeros(2, requires_grad=True)
    opt = yaten.optim.SGD([p])
    opt.register_step_pre_hook(lambda o, args, kwargs: 3)
    with pytest.raises(RuntimeError, match=r"must return None or a tuple of \(new_args, new_kwargs\)"):
        opt.step()


def test_global_step_hooks_see_every_optimizer():
    from yaten.optim.optimizer import register_optimizer_step_post_hook, register_optimizer_step_pre_hook

    seen = []
    h1 = register_optimizer_step_pre_hook(lambda o, a, k: seen.append(("pre", type(o).__name__)))
    h2 = register_optimizer_step_post_hook(lambda o, a, k: seen.append(("post", type(o).__name__)))
    try:
        yaten.optim.Adam([yaten.zeros(1, requires_grad=True)]).step()
        yaten.optim.RMSprop([yaten.zeros(1, requires_grad=True)]).step()
    finally:
        h1.remove()
        h2.remove()
    assert seen == [("pre", "Adam"), ("post", "Adam"), ("pre", "RMSprop"), ("post", "RMSprop")]


def test_add_param_group_then_step_matches_torch():
    y_params, t_params = make_params(yaten), make_params(torch)
    y_opt = yaten.optim.Adam(y_params[:2], lr=0.01)
    t_opt = torch.optim.Adam(t_params[:2], lr=0.01)
    y_opt.add_param_group({"params": y_params[2], "lr": 0.1, "amsgrad": True})
    t_opt.add_param_group({"params": t_params[2], "lr": 0.1, "amsgrad": True})
    assert y_opt.param_groups[1]["params"] == [y_params[2]]
    run_parity(None, None, {}, y_opt=y_opt, t_opt=t_opt, params=(y_params, t_params))


def test_named_parameters_are_accepted():
    a, b = yaten.zeros(1, requires_grad=True), yaten.zeros(2, requires_grad=True)
    opt = yaten.optim.SGD([("a", a), ("b", b)])
    assert opt.param_groups[0]["param_names"] == ["a", "b"]
    assert opt.state_dict()["param_groups"][0]["param_names"] == ["a", "b"]


def test_duplicate_parameters_warn_as_torch():
    p = yaten.zeros(1, requires_grad=True)
    with pytest.warns(UserWarning, match="optimizer contains a parameter group with duplicate parameters"):
        yaten.optim.SGD([p, p])


def test_parameter_class_is_accepted():
    if not hasattr(yaten.nn, "Parameter"):
        pytest.skip("yaten.nn.Parameter is not written yet")
    p = yaten.nn.Parameter(yaten.ones(2))
    opt = yaten.optim.SGD([p], lr=0.5)
    p.grad = yaten.ones(2)
    opt.step()
    assert p.tolist() == [0.5, 0.5]


def test_differentiable_requires_non_leaf_or_raises_like_torch():
    # with differentiable=True the step records autograd, so updating a leaf in place fails
    for lib in (yaten, torch):
        p = lib.zeros(2, requires_grad=True)
        p.grad = lib.ones(2)
        opt = lib.optim.SGD([p], lr=0.1, differentiable=True)
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
            opt.step()


def test_differentiable_sgd_gradient_flows_like_torch():
    def run(lib):
        w0 = lib.tensor([1.0, -2.0], dtype=lib.float64, requires_grad=True)
        w = w0.clone()
        w.grad = lib.tensor([0.5, 0.25], dtype=lib.float64)
        opt = lib.optim.SGD([w], lr=0.1, momentum=0.9, differentiable=True)
        opt.step()
        w.grad = lib.tensor([0.1, 0.2], dtype=lib.float64)
        opt.step()
        (w * w).sum().backward()
        return w, w0.grad

    (yw, yg), (tw, tg) = run(yaten), run(torch)
    assert_close(yw, tw)
    assert_close(yg, tg)


def test_warnings_are_not_raised_by_a_plain_step():
    p = yaten.zeros(2, requires_grad=True)
    p.grad = yaten.ones(2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name, kwargs in ALL:
            getattr(yaten.optim, name)([p], **kwargs).step()
    assert np.isfinite(p.tolist()).all()


DIFFERENTIABLE = [
    ("SGD", {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.1, "nesterov": True}),
    ("Adam", {"lr": 0.1, "amsgrad": True}),
    ("Adam", {"lr": 0.1, "weight_decay": 0.1, "maximize": True}),
    ("AdamW", {"lr": 0.1, "amsgrad": True}),
    ("RMSprop", {"lr": 0.01, "momentum": 0.9, "weight_decay": 0.1, "maximize": True}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.1, "weight_decay": 0.1}),
    ("Adadelta", {"lr": 0.5, "weight_decay": 0.1}),
    ("NAdam", {"lr": 0.1, "weight_decay": 0.1}),
    ("NAdam", {"lr": 0.1, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("RAdam", {"lr": 0.1, "betas": (0.9, 0.9)}),
    ("RAdam", {"lr": 0.1, "betas": (0.9, 0.99)}),  # rho_t > 5 from the third step
    ("ASGD", {"lr": 0.1, "t0": 1}),
    ("Rprop", {"lr": 0.1}),
]


@pytest.mark.parametrize(
    "name,kwargs", DIFFERENTIABLE, ids=[_id({"opt": c[0], **c[1]}) for c in DIFFERENTIABLE]
)
def test_differentiable_step_gradient_matches_torch(name, kwargs):
    # the parameters are non-leaf clones of w0; the loss after three steps is differentiated to w0
    (yw, yg), (tw, tg) = differentiable_steps(yaten, name, kwargs), differentiable_steps(torch, name, kwargs)
    # The step is a float32 tensor (as torch's), so 1 - beta2**step is float32 and cancels three
    # digits: one ulp of float32 pow (which differs between CPUs) moves w by ~1e-5 relative.
    assert_close(yw, tw, rtol=1e-4)
    assert_close(yg, tg, rtol=1e-4)


def test_differentiable_centered_rmsprop_fails_as_torch():
    # torch's own algorithm modifies grad_avg in place after saving it: the same error in both
    def message(lib):
        w0 = lib.tensor([1.0, -2.0, 0.3], dtype=lib.float64, requires_grad=True)
        w = w0.clone()
        opt = lib.optim.RMSprop([w], lr=0.01, centered=True, weight_decay=0.1, differentiable=True)
        for g in ([0.5, 0.25, -1.0], [0.1, 0.2, 0.3], [-0.4, 0.0, 0.2]):
            w.grad = lib.tensor(g, dtype=lib.float64)
            opt.step()
        with pytest.raises(RuntimeError) as info:
            (w * w).sum().backward()
        return str(info.value).replace("torch.", "yaten.")

    assert message(yaten) == message(torch)


def test_optim_is_reachable_from_the_yaten_module():
    import importlib

    assert yaten.optim is importlib.import_module("yaten.optim")
    assert yaten.optim.SGD is importlib.import_module("yaten.optim.sgd").SGD
    assert yaten.optim.lr_scheduler.StepLR.__module__ == "yaten.optim.lr_scheduler"
    for name in ("Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad"):
        assert issubclass(getattr(yaten.optim, name), yaten.optim.Optimizer)
    assert issubclass(yaten.optim.AdamW, yaten.optim.Adam)  # as in torch
