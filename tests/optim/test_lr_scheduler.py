"""Learning-rate schedulers: every lr (and momentum) sequence equal to torch's, epoch by epoch."""

import math

import pytest
import torch
from _scheduler_parity import EPOCHS, assert_same_trace, outcome
from _scheduler_parity import make_optimizer as _optimizer

import yaten

CASES = {
    "step": [("StepLR", {"step_size": 7, "gamma": 0.5})],
    "step_default_gamma": [("StepLR", {"step_size": 3})],
    "multistep": [("MultiStepLR", {"milestones": [5, 20, 20, 60], "gamma": 0.3})],
    "multistep_unsorted": [("MultiStepLR", {"milestones": [50, 10]})],
    "exponential": [("ExponentialLR", {"gamma": 0.97})],
    "cosine": [("CosineAnnealingLR", {"T_max": 25})],
    "cosine_eta_min": [("CosineAnnealingLR", {"T_max": 10, "eta_min": 0.001})],
    "lambda": [("LambdaLR", {"lr_lambda": lambda e: 0.95**e})],
    "lambda_per_group": [("LambdaLR", {"lr_lambda": [lambda e: 1 / (1 + e), lambda e: math.cos(e / 10)]})],
    "chained_step_exponential": [
        ("StepLR", {"step_size": 10, "gamma": 0.5}),
        ("ExponentialLR", {"gamma": 0.99}),
    ],
    "chained_cosine_multistep": [
        ("CosineAnnealingLR", {"T_max": 30, "eta_min": 0.01}),
        ("MultiStepLR", {"milestones": [40, 80], "gamma": 0.1}),
    ],
    "chained_three": [
        ("ExponentialLR", {"gamma": 0.9}),
        ("StepLR", {"step_size": 5, "gamma": 2.0}),
        ("CosineAnnealingLR", {"T_max": 12}),
    ],
}


@pytest.mark.parametrize("scheds", CASES.values(), ids=CASES.keys())
def test_lr_sequence_matches_torch(scheds):
    assert_same_trace({"scheds": scheds})


ONE_CYCLE = {
    "cos": {"max_lr": 1.0, "total_steps": EPOCHS},
    "linear": {"max_lr": [1.0, 0.5], "total_steps": EPOCHS, "anneal_strategy": "linear"},
    "three_phase": {"max_lr": 0.8, "total_steps": EPOCHS, "three_phase": True, "pct_start": 0.25},
    "three_phase_linear": {
        "max_lr": 0.8,
        "total_steps": EPOCHS,
        "three_phase": True,
        "anneal_strategy": "linear",
    },
    "factors": {"max_lr": 2.0, "total_steps": EPOCHS, "div_factor": 10.0, "final_div_factor": 100.0},
    "epochs": {"max_lr": 1.0, "epochs": 12, "steps_per_epoch": 10},
    "no_momentum": {"max_lr": 1.0, "total_steps": EPOCHS, "cycle_momentum": False},
    "momentum_range": {
        "max_lr": 1.0,
        "total_steps": EPOCHS,
        "base_momentum": [0.7, 0.8],
        "max_momentum": 0.99,
    },
}


@pytest.mark.parametrize("kwargs", ONE_CYCLE.values(), ids=ONE_CYCLE.keys())
@pytest.mark.parametrize("opt", ["SGD", "Adam"])
def test_one_cycle_matches_torch(kwargs, opt):
    # total steps = EPOCHS; the momentum (SGD) or beta1 (Adam) cycles too
    assert_same_trace({"opt": (opt,), "scheds": [("OneCycleLR", kwargs)]})


def test_one_cycle_past_total_steps_raises_as_torch():
    def run(lib):
        opt = _optimizer(lib)
        sched = lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10)
        for _ in range(10):
            opt.step()
            sched.step()
        opt.step()
        with pytest.raises(ValueError) as info:
            sched.step()
        return str(info.value)

    assert run(yaten) == run(torch) == "Tried to step 11 times. The specified number of total steps is 10"


PLATEAU_METRICS = [
    10.0, 9.0, 9.0, 9.0, 9.5, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 7.9999, 7.0, 7.0, 7.0, 7.0, 7.0,
    6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 6.0, 5.0, 5.0, 5.0, 5.0, 5.0,
    5.0, 5.0, 5.0, 5.0, 5.0,
]  # fmt: skip
PLATEAU = {
    "default": {},
    "patience": {"factor": 0.5, "patience": 2},
    "cooldown": {"factor": 0.5, "patience": 1, "cooldown": 3},
    "max": {"mode": "max", "factor": 0.5, "patience": 1},
    "abs": {"threshold_mode": "abs", "threshold": 0.5, "factor": 0.5, "patience": 1},
    "max_abs": {"mode": "max", "threshold_mode": "abs", "threshold": 0.5, "patience": 0},
    "min_lr": {"factor": 0.1, "patience": 0, "min_lr": 0.001},
    "min_lr_list": {"factor": 0.1, "patience": 0, "min_lr": [0.005, 0.0001]},
    "eps": {"factor": 0.9, "patience": 0, "eps": 0.01},
}


@pytest.mark.parametrize("kwargs", PLATEAU.values(), ids=PLATEAU.keys())
def test_reduce_on_plateau_matches_torch(kwargs):
    n = len(PLATEAU_METRICS)
    assert_same_trace({"scheds": [("ReduceLROnPlateau", kwargs)]}, epochs=n, metrics=PLATEAU_METRICS)


def test_reduce_on_plateau_takes_a_tensor_metric():
    opt = _optimizer(yaten)
    sched = yaten.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0)
    sched.step(yaten.tensor(1.0))
    sched.step(yaten.tensor(2.0))
    assert sched.get_last_lr() == pytest.approx([0.01, 0.002])


# ---- state dicts ------------------------------------------------------------------------------

RESUME = {
    "step": ("StepLR", {"step_size": 7, "gamma": 0.5}),
    "multistep": ("MultiStepLR", {"milestones": [5, 30, 45]}),
    "exponential": ("ExponentialLR", {"gamma": 0.95}),
    "cosine": ("CosineAnnealingLR", {"T_max": 20, "eta_min": 0.001}),
    "lambda": ("LambdaLR", {"lr_lambda": lambda e: 0.9**e}),
    "one_cycle": ("OneCycleLR", {"max_lr": 1.0, "total_steps": 60}),
    "plateau": ("ReduceLROnPlateau", {"factor": 0.5, "patience": 1}),
}


def _metric(epoch):
    return 1.0 if epoch % 5 else 0.5 / (epoch + 1)


@pytest.mark.parametrize("name,kwargs", RESUME.values(), ids=RESUME.keys())
def test_state_dict_round_trip_then_continue_matches_torch(name, kwargs):
    def step(opt, sched, epoch):
        opt.step()
        if name == "ReduceLROnPlateau":
            sched.step(_metric(epoch))
        else:
            sched.step()

    def uninterrupted(lib):
        opt = _optimizer(lib)
        sched = getattr(lib.optim.lr_scheduler, name)(opt, **kwargs)
        lrs = []
        for epoch in range(60):
            step(opt, sched, epoch)
            lrs.append(sched.get_last_lr())
        return lrs, sched.state_dict()

    def resumed(lib):
        opt = _optimizer(lib)
        sched = getattr(lib.optim.lr_scheduler, name)(opt, **kwargs)
        lrs = []
        for epoch in range(25):
            step(opt, sched, epoch)
            lrs.append(sched.get_last_lr())
        sched_sd, opt_sd = sched.state_dict(), opt.state_dict()
        # as the docs say: a new scheduler first, then the optimizer's state
        opt2 = _optimizer(lib, lr=5.0)
        sched2 = getattr(lib.optim.lr_scheduler, name)(opt2, **kwargs)
        sched2.load_state_dict(sched_sd)
        opt2.load_state_dict(opt_sd)
        for epoch in range(25, 60):
            step(opt2, sched2, epoch)
            lrs.append(sched2.get_last_lr())
        return lrs

    want, t_sd = uninterrupted(torch)
    got, y_sd = uninterrupted(yaten)
    assert got == want
    assert resumed(yaten) == want
    assert sorted(y_sd) == sorted(t_sd)
    for key, value in t_sd.items():
        if key not in ("lr_lambdas", "_anneal_func_type") and not callable(value):
            assert y_sd[key] == value, key


def test_lambda_state_dict_saves_callable_objects_only():
    class Decay:
        def __init__(self):
            self.rate = 0.5

        def __call__(self, epoch):
            return self.rate**epoch

    opt = _optimizer(yaten)
    sched = yaten.optim.lr_scheduler.LambdaLR(opt, [Decay(), lambda e: 1.0])
    sd = sched.state_dict()
    assert sd["lr_lambdas"] == [{"rate": 0.5}, None]
    sd["lr_lambdas"][0]["rate"] = 0.25
    sched.load_state_dict(sd)
    assert sched.lr_lambdas[0].rate == 0.25


# ---- closed form, warnings, errors ------------------------------------------------------------


@pytest.mark.parametrize(
    "name,kwargs",
    [
        ("StepLR", {"step_size": 3, "gamma": 0.5}),
        ("MultiStepLR", {"milestones": [2, 5, 5]}),
        ("ExponentialLR", {"gamma": 0.9}),
        ("CosineAnnealingLR", {"T_max": 7}),
        ("LambdaLR", {"lr_lambda": lambda e: 1 / (e + 1)}),
    ],
)
def test_step_with_epoch_uses_the_closed_form_and_warns(name, kwargs):
    def run(lib):
        opt = _optimizer(lib)
        sched = getattr(lib.optim.lr_scheduler, name)(opt, **kwargs)
        lrs = []
        for epoch in [4, 9, 2, 11]:
            opt.step()
            with pytest.warns(
                UserWarning, match="The epoch parameter in `scheduler.step\\(\\)` was not necessary"
            ):
                sched.step(epoch)
            lrs.append(sched.get_last_lr())
        return lrs

    assert run(yaten) == run(torch)


def test_warns_when_the_scheduler_steps_before_the_optimizer():
    opt = _optimizer(yaten)
    sched = yaten.optim.lr_scheduler.StepLR(opt, 2)
    with pytest.warns(
        UserWarning, match=r"Detected call of `lr_scheduler.step\(\)` before `optimizer.step\(\)`"
    ):
        sched.step()


def test_warns_when_get_lr_is_called_outside_step():
    sched = yaten.optim.lr_scheduler.StepLR(_optimizer(yaten), 2)
    with pytest.warns(UserWarning, match=r"please use `get_last_lr\(\)`"):
        sched.get_lr()


def test_scheduler_keeps_the_optimizer_step_and_its_hooks():
    opt = _optimizer(yaten)
    seen = []
    opt.register_step_post_hook(lambda o, a, k: seen.append(o))
    yaten.optim.lr_scheduler.ExponentialLR(opt, 0.5)
    yaten.optim.lr_scheduler.StepLR(opt, 2)  # a second scheduler does not wrap twice
    opt.step()
    assert seen == [opt] and opt._opt_called


def test_initial_lr_is_recorded_and_base_lrs_follow_it():
    opt = _optimizer(yaten)
    sched = yaten.optim.lr_scheduler.ExponentialLR(opt, 0.5)
    assert [g["initial_lr"] for g in opt.param_groups] == [0.1, 0.02] == sched.base_lrs
    assert sched.last_epoch == 0 and sched._step_count == 1


ERRORS = {
    "not_an_optimizer": lambda m: m.optim.lr_scheduler.StepLR(3, 2),
    "resume_without_initial_lr": lambda m: m.optim.lr_scheduler.StepLR(_optimizer(m), 2, last_epoch=5),
    "lambda_count": lambda m: m.optim.lr_scheduler.LambdaLR(_optimizer(m), [lambda e: 1.0]),
    "one_cycle_no_steps": lambda m: m.optim.lr_scheduler.OneCycleLR(_optimizer(m), max_lr=1.0),
    "one_cycle_bad_total": lambda m: m.optim.lr_scheduler.OneCycleLR(_optimizer(m), 1.0, total_steps=0),
    "one_cycle_bad_epochs": lambda m: m.optim.lr_scheduler.OneCycleLR(
        _optimizer(m), 1.0, epochs=-1, steps_per_epoch=2
    ),
    "one_cycle_bad_spe": lambda m: m.optim.lr_scheduler.OneCycleLR(
        _optimizer(m), 1.0, epochs=2, steps_per_epoch=0
    ),
    "one_cycle_pct": lambda m: m.optim.lr_scheduler.OneCycleLR(_optimizer(m), 1.0, 10, pct_start=1.5),
    "one_cycle_pct_int": lambda m: m.optim.lr_scheduler.OneCycleLR(_optimizer(m), 1.0, 10, pct_start=1),
    "one_cycle_anneal": lambda m: m.optim.lr_scheduler.OneCycleLR(
        _optimizer(m), 1.0, 10, anneal_strategy="exp"
    ),
    "one_cycle_max_lr_len": lambda m: m.optim.lr_scheduler.OneCycleLR(_optimizer(m), [1.0], 10),
    "one_cycle_no_momentum": lambda m: m.optim.lr_scheduler.OneCycleLR(_optimizer(m, "Adagrad"), 1.0, 10),
    "plateau_factor": lambda m: m.optim.lr_scheduler.ReduceLROnPlateau(_optimizer(m), factor=1.0),
    "plateau_mode": lambda m: m.optim.lr_scheduler.ReduceLROnPlateau(_optimizer(m), mode="up"),
    "plateau_threshold_mode": lambda m: m.optim.lr_scheduler.ReduceLROnPlateau(
        _optimizer(m), threshold_mode="x"
    ),
    "plateau_min_lrs": lambda m: m.optim.lr_scheduler.ReduceLROnPlateau(_optimizer(m), min_lr=[0.1]),
    "plateau_not_an_optimizer": lambda m: m.optim.lr_scheduler.ReduceLROnPlateau("sgd"),
    "base_get_lr": lambda m: m.optim.lr_scheduler.LRScheduler(_optimizer(m)),
}


@pytest.mark.parametrize("case", ERRORS.values(), ids=ERRORS.keys())
def test_errors_match_torch(case):
    got, want = outcome(case, yaten), outcome(case, torch)
    assert want is not None, "torch raised nothing: the case is wrong"
    assert got == want


@pytest.mark.parametrize(
    "name,kwargs",
    [
        ("StepLR", {"step_size": 4, "gamma": 0.5}),
        ("ExponentialLR", {"gamma": 0.9}),
        ("CosineAnnealingLR", {"T_max": 9, "eta_min": 0.001}),  # its _step_count == 1 branch
        ("OneCycleLR", {"max_lr": 1.0, "total_steps": 40}),
    ],
)
def test_resume_with_last_epoch_matches_torch(name, kwargs):
    def run(lib):
        opt = _optimizer(lib)
        sched = getattr(lib.optim.lr_scheduler, name)(opt, **kwargs)
        for _ in range(10):
            opt.step()
            sched.step()
        opt2 = _optimizer(lib)
        opt2.load_state_dict(opt.state_dict())  # brings initial_lr (and max_lr, ...) along
        sched2 = getattr(lib.optim.lr_scheduler, name)(opt2, last_epoch=10, **kwargs)
        lrs = [sched2.get_last_lr()]
        for _ in range(20):
            opt2.step()
            sched2.step()
            lrs.append(sched2.get_last_lr())
        return lrs

    assert run(yaten) == run(torch)
