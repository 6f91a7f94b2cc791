"""MultiplicativeLR, ConstantLR, LinearLR, PolynomialLR, CosineAnnealingWarmRestarts, CyclicLR,
SequentialLR and ChainedScheduler: every lr (and momentum) sequence equal to torch's."""

import pickle
import warnings

import pytest
import torch
from _scheduler_parity import EPOCHS, assert_same_trace, make_optimizer, outcome, trace

import yaten

CASES = {
    "multiplicative": [("MultiplicativeLR", {"lr_lambda": lambda e: 0.97})],
    "multiplicative_per_group": [
        ("MultiplicativeLR", {"lr_lambda": [lambda e: 0.9 if e % 3 else 1.1, lambda e: 1.0 - e / 500]})
    ],
    "constant": [("ConstantLR", {})],
    "constant_factor": [("ConstantLR", {"factor": 0.25, "total_iters": 17})],
    "constant_zero_iters": [("ConstantLR", {"factor": 0.5, "total_iters": 0})],
    "linear": [("LinearLR", {})],
    "linear_range": [("LinearLR", {"start_factor": 0.1, "end_factor": 0.9, "total_iters": 40})],
    "linear_decay": [("LinearLR", {"start_factor": 1.0, "end_factor": 0.0, "total_iters": 30})],
    "polynomial": [("PolynomialLR", {})],
    "polynomial_power": [("PolynomialLR", {"total_iters": 50, "power": 2.5})],
    "warm_restarts": [("CosineAnnealingWarmRestarts", {"T_0": 10})],
    "warm_restarts_mult": [("CosineAnnealingWarmRestarts", {"T_0": 5, "T_mult": 2, "eta_min": 0.001})],
    "warm_restarts_one": [("CosineAnnealingWarmRestarts", {"T_0": 1})],
    "cyclic": [("CyclicLR", {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 7})],
    "cyclic_triangular2": [
        ("CyclicLR", {"base_lr": [0.01, 0.001], "max_lr": 0.2, "step_size_up": 5, "mode": "triangular2"})
    ],
    "cyclic_exp_range": [
        (
            "CyclicLR",
            {
                "base_lr": 0.01,
                "max_lr": 0.1,
                "step_size_up": 4,
                "step_size_down": 9,
                "mode": "exp_range",
                "gamma": 0.99,
            },
        )
    ],
    "cyclic_scale_fn": [
        ("CyclicLR", {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 6, "scale_fn": lambda x: 0.5**x})
    ],
    "cyclic_scale_fn_iterations": [
        (
            "CyclicLR",
            {
                "base_lr": 0.01,
                "max_lr": 0.1,
                "step_size_up": 6,
                "scale_fn": lambda x: 1 / (1 + x / 50),
                "scale_mode": "iterations",
            },
        )
    ],
    "cyclic_momentum_range": [
        ("CyclicLR", {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 3, "base_momentum": [0.5, 0.6]})
    ],
    "cyclic_no_momentum": [("CyclicLR", {"base_lr": 0.01, "max_lr": 0.1, "cycle_momentum": False})],
    "linear_then_cosine_chained": [
        ("LinearLR", {"start_factor": 0.2, "total_iters": 10}),
        ("CosineAnnealingLR", {"T_max": 50}),
    ],
    "constant_and_polynomial": [("ConstantLR", {"total_iters": 8}), ("PolynomialLR", {"total_iters": 90})],
}


@pytest.mark.parametrize("scheds", CASES.values(), ids=CASES.keys())
def test_lr_sequence_matches_torch(scheds):
    assert_same_trace({"scheds": scheds})


def test_cyclic_lr_cycles_adam_beta1_like_torch():
    kwargs = {
        "base_lr": 0.001,
        "max_lr": 0.01,
        "step_size_up": 4,
        "base_momentum": 0.85,
        "max_momentum": 0.95,
    }
    assert_same_trace({"opt": ("Adam",), "scheds": [("CyclicLR", kwargs)]})


def _sequential(milestones, *makers):
    def build(lib, opt):
        schedulers = [getattr(lib.optim.lr_scheduler, n)(opt, **kw) for n, kw in makers]
        return [lib.optim.lr_scheduler.SequentialLR(opt, schedulers, milestones=milestones)]

    return build


def _chained(*makers, pass_optimizer=False):
    def build(lib, opt):
        schedulers = [getattr(lib.optim.lr_scheduler, n)(opt, **kw) for n, kw in makers]
        optimizer = {"optimizer": opt} if pass_optimizer else {}
        return [lib.optim.lr_scheduler.ChainedScheduler(schedulers, **optimizer)]

    return build


COMPOSITES = {
    "warmup_then_cosine": _sequential(
        [10], ("LinearLR", {"start_factor": 0.1, "total_iters": 10}), ("CosineAnnealingLR", {"T_max": 100})
    ),
    "three_phases": _sequential(
        [5, 30],
        ("ConstantLR", {"factor": 0.5, "total_iters": 5}),
        ("ExponentialLR", {"gamma": 0.95}),
        ("StepLR", {"step_size": 10, "gamma": 0.5}),
    ),
    "warmup_then_multistep": _sequential(
        [3], ("LinearLR", {"start_factor": 0.3, "total_iters": 3}), ("MultiStepLR", {"milestones": [20, 60]})
    ),
    "chained": _chained(("ConstantLR", {"factor": 0.1, "total_iters": 2}), ("ExponentialLR", {"gamma": 0.9})),
    "chained_three": _chained(
        ("LinearLR", {"start_factor": 0.5, "total_iters": 7}),
        ("StepLR", {"step_size": 9, "gamma": 0.7}),
        ("PolynomialLR", {"total_iters": 100, "power": 0.5}),
        pass_optimizer=True,
    ),
}


@pytest.mark.parametrize("build", COMPOSITES.values(), ids=COMPOSITES.keys())
def test_composite_sequence_matches_torch(build):
    assert_same_trace({"build": build})


def test_sequential_of_chained_fails_at_the_milestone_as_torch():
    # a ChainedScheduler has no closed form nor get_lr: torch's SequentialLR cannot restart it
    def build(lib, opt):
        sched = lib.optim.lr_scheduler
        chained = sched.ChainedScheduler([sched.ExponentialLR(opt, 0.9), sched.StepLR(opt, 4, gamma=0.5)])
        return [sched.SequentialLR(opt, [sched.LinearLR(opt, total_iters=5), chained], milestones=[5])]

    assert_same_trace({"build": build}, epochs=4)
    for lib in (yaten, torch):
        with pytest.raises(NotImplementedError):
            trace(lib, {"build": build}, epochs=5)


# ---- closed form (step(epoch)), state dicts ---------------------------------------------------


@pytest.mark.parametrize(
    "name,kwargs",
    [
        ("ConstantLR", {"factor": 0.5, "total_iters": 5}),
        ("LinearLR", {"start_factor": 0.2, "total_iters": 6}),
        ("PolynomialLR", {"total_iters": 8, "power": 2.0}),
        ("MultiplicativeLR", {"lr_lambda": lambda e: 0.9}),
        ("CyclicLR", {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 3}),
    ],
)
def test_step_with_epoch_matches_torch(name, kwargs):
    def run(lib):
        opt = make_optimizer(lib)
        sched = getattr(lib.optim.lr_scheduler, name)(opt, **kwargs)
        lrs = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the deprecated epoch argument warns in both
            for epoch in [4, 9, 2, 11, 3]:
                opt.step()
                sched.step(epoch)
                lrs.append(sched.get_last_lr())
        return lrs

    assert run(yaten) == run(torch)


def test_warm_restarts_fractional_epochs_match_torch():
    def run(lib):
        opt = make_optimizer(lib)
        sched = lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.01)
        lrs = []
        for epoch in range(20):
            for batch in range(4):
                opt.step()
                sched.step(epoch + batch / 4)
                lrs.append(sched.get_last_lr())
        sched.step(100)  # far past T_0, T_mult > 1: found by the log formula
        lrs.append((sched.get_last_lr(), sched.T_i, sched.T_cur, sched.last_epoch))
        return lrs

    assert run(yaten) == run(torch)


RESUME = {
    "constant": ("ConstantLR", {"factor": 0.5, "total_iters": 20}),
    "linear": ("LinearLR", {"start_factor": 0.25, "total_iters": 40}),
    "polynomial": ("PolynomialLR", {"total_iters": 50, "power": 1.5}),
    "warm_restarts": ("CosineAnnealingWarmRestarts", {"T_0": 7, "T_mult": 2}),
    "cyclic": (
        "CyclicLR",
        {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 6, "mode": "exp_range", "gamma": 0.98},
    ),
}


@pytest.mark.parametrize("name,kwargs", RESUME.values(), ids=RESUME.keys())
def test_state_dict_round_trip_then_continue_matches_torch(name, kwargs):
    def run(lib):
        opt = make_optimizer(lib)
        sched = getattr(lib.optim.lr_scheduler, name)(opt, **kwargs)
        lrs = []
        for _ in range(25):
            opt.step()
            sched.step()
            lrs.append(sched.get_last_lr())
        sched_sd, opt_sd = sched.state_dict(), opt.state_dict()
        opt2 = make_optimizer(lib, lr=5.0)
        sched2 = getattr(lib.optim.lr_scheduler, name)(opt2, **kwargs)
        sched2.load_state_dict(sched_sd)
        opt2.load_state_dict(opt_sd)
        for _ in range(35):
            opt2.step()
            sched2.step()
            lrs.append(sched2.get_last_lr())
        return lrs, sched_sd

    (got, y_sd), (want, t_sd) = run(yaten), run(torch)
    assert got == want
    assert sorted(y_sd) == sorted(t_sd)
    for key, value in t_sd.items():
        if not callable(value) and key != "lr_lambdas":
            assert y_sd[key] == value, key


def test_sequential_and_chained_state_dicts_match_torch():
    def run(lib):
        opt = make_optimizer(lib)
        s = lib.optim.lr_scheduler
        seq = s.SequentialLR(opt, [s.LinearLR(opt, total_iters=4), s.ExponentialLR(opt, 0.9)], milestones=[4])
        for _ in range(6):
            opt.step()
            seq.step()
        sd = seq.state_dict()
        opt2 = make_optimizer(lib)
        opt2.load_state_dict(opt.state_dict())
        seq2 = s.SequentialLR(
            opt2, [s.LinearLR(opt2, total_iters=4), s.ExponentialLR(opt2, 0.9)], milestones=[4]
        )
        seq2.load_state_dict(sd)
        lrs = []
        for _ in range(5):
            opt2.step()
            seq2.step()
            lrs.append(seq2.get_last_lr())
        chained_sd = s.ChainedScheduler([s.ConstantLR(opt2), s.StepLR(opt2, 3)]).state_dict()
        return sd, lrs, chained_sd

    (ysd, ylrs, ych), (tsd, tlrs, tch) = run(yaten), run(torch)
    assert ylrs == tlrs
    assert sorted(ysd) == sorted(tsd) and ysd["_milestones"] == tsd["_milestones"]
    assert ysd["last_epoch"] == tsd["last_epoch"]
    assert [sorted(s) for s in ysd["_schedulers"]] == [sorted(s) for s in tsd["_schedulers"]]
    assert [s["last_epoch"] for s in ych["_schedulers"]] == [s["last_epoch"] for s in tch["_schedulers"]]


def test_cyclic_state_dict_keeps_a_callable_object_scale_fn_only():
    class Halve:
        def __init__(self):
            self.base = 0.5

        def __call__(self, x):
            return self.base**x

    for fn, saved in [(Halve(), {"base": 0.5}), (lambda x: 1.0, None)]:
        opt = make_optimizer(yaten)
        sched = yaten.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, scale_fn=fn)
        sd = sched.state_dict()
        assert sd["_scale_fn_custom"] == saved and "_scale_fn_ref" not in sd
        pickle.dumps(sd)
        sched.load_state_dict(sd)
    plain = yaten.optim.lr_scheduler.CyclicLR(make_optimizer(yaten), 0.01, 0.1, mode="exp_range", gamma=0.5)
    sd = plain.state_dict()
    plain.load_state_dict(sd)
    assert plain.scale_fn(2) == 0.25


def test_classes_live_at_torch_paths_and_pickle():
    import importlib

    module = importlib.import_module("yaten.optim.lr_scheduler")
    for name in module.__all__:
        cls = getattr(module, name)
        assert cls.__module__ == "yaten.optim.lr_scheduler", name
        assert hasattr(torch.optim.lr_scheduler, name), name
        assert pickle.loads(pickle.dumps(cls)) is cls
    assert issubclass(module._LRScheduler, module.LRScheduler)
    opt = make_optimizer(yaten)
    sched = pickle.loads(pickle.dumps(yaten.optim.lr_scheduler.LinearLR(opt, total_iters=3)))
    assert sched.total_iters == 3


# ---- errors and warnings ----------------------------------------------------------------------


def _two(m, opt):
    return [m.optim.lr_scheduler.ConstantLR(opt), m.optim.lr_scheduler.ExponentialLR(opt, 0.9)]


ERRORS = {
    "multiplicative_not_callable": lambda m: m.optim.lr_scheduler.MultiplicativeLR(make_optimizer(m), 0.9),
    "multiplicative_count": lambda m: m.optim.lr_scheduler.MultiplicativeLR(
        make_optimizer(m), [lambda e: 1.0]
    ),
    "constant_factor": lambda m: m.optim.lr_scheduler.ConstantLR(make_optimizer(m), factor=1.5),
    "constant_factor_negative": lambda m: m.optim.lr_scheduler.ConstantLR(make_optimizer(m), factor=-0.1),
    "linear_start": lambda m: m.optim.lr_scheduler.LinearLR(make_optimizer(m), start_factor=0),
    "linear_end": lambda m: m.optim.lr_scheduler.LinearLR(make_optimizer(m), end_factor=1.5),
    "warm_t0": lambda m: m.optim.lr_scheduler.CosineAnnealingWarmRestarts(make_optimizer(m), T_0=0),
    "warm_t0_float": lambda m: m.optim.lr_scheduler.CosineAnnealingWarmRestarts(make_optimizer(m), T_0=2.0),
    "warm_tmult": lambda m: m.optim.lr_scheduler.CosineAnnealingWarmRestarts(make_optimizer(m), 2, T_mult=0),
    "warm_eta_min": lambda m: m.optim.lr_scheduler.CosineAnnealingWarmRestarts(
        make_optimizer(m), 2, eta_min="0"
    ),
    "warm_negative_epoch": lambda m: m.optim.lr_scheduler.CosineAnnealingWarmRestarts(
        make_optimizer(m), 2
    ).step(-1),
    "cyclic_not_optimizer": lambda m: m.optim.lr_scheduler.CyclicLR("sgd", 0.1, 1.0),
    "cyclic_mode": lambda m: m.optim.lr_scheduler.CyclicLR(make_optimizer(m), 0.1, 1.0, mode="sine"),
    "cyclic_base_lr_len": lambda m: m.optim.lr_scheduler.CyclicLR(make_optimizer(m), [0.1], 1.0),
    "cyclic_no_momentum": lambda m: m.optim.lr_scheduler.CyclicLR(make_optimizer(m, "Adagrad"), 0.1, 1.0),
    "cyclic_momentum_len": lambda m: m.optim.lr_scheduler.CyclicLR(
        make_optimizer(m), 0.1, 1.0, base_momentum=[0.8]
    ),
    "sequential_empty": lambda m: m.optim.lr_scheduler.SequentialLR(make_optimizer(m), [], []),
    "sequential_milestones": lambda m: (
        lambda opt: m.optim.lr_scheduler.SequentialLR(opt, _two(m, opt), milestones=[2, 3])
    )(make_optimizer(m)),
    "sequential_other_optimizer": lambda m: m.optim.lr_scheduler.SequentialLR(
        make_optimizer(m), _two(m, make_optimizer(m)), milestones=[2]
    ),
    "sequential_plateau": lambda m: (
        lambda opt: m.optim.lr_scheduler.SequentialLR(
            opt, [m.optim.lr_scheduler.ReduceLROnPlateau(opt), m.optim.lr_scheduler.ConstantLR(opt)], [2]
        )
    )(make_optimizer(m)),
    "sequential_not_a_scheduler": lambda m: (
        lambda opt: m.optim.lr_scheduler.SequentialLR(opt, [3, m.optim.lr_scheduler.ConstantLR(opt)], [2])
    )(make_optimizer(m)),
    "chained_empty": lambda m: m.optim.lr_scheduler.ChainedScheduler([]),
    "chained_other_optimizer": lambda m: m.optim.lr_scheduler.ChainedScheduler(
        _two(m, make_optimizer(m)), optimizer=make_optimizer(m)
    ),
}


@pytest.mark.parametrize("case", ERRORS.values(), ids=ERRORS.keys())
def test_errors_match_torch(case):
    got, want = outcome(case, yaten), outcome(case, torch)
    assert want is not None, "torch raised nothing: the case is wrong"
    if want[1].count(" object at 0x"):  # messages that print an optimizer's repr
        want, got = (want[0], want[1].split(" has ")[0]), (got[0], got[1].split(" has ")[0])
    assert got == want


@pytest.mark.parametrize("name,kwargs", [("LinearLR", {}), ("CyclicLR", {"base_lr": 0.01, "max_lr": 0.1})])
def test_warnings_match_torch(name, kwargs):
    def caught(lib):
        opt = make_optimizer(lib)
        sched = getattr(lib.optim.lr_scheduler, name)(opt, **kwargs)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            sched.step()  # before optimizer.step()
            sched.get_lr()  # outside step()
        return [str(x.message) for x in w]

    assert caught(yaten) == caught(torch)
    assert len(caught(torch)) == 2


def test_every_torch_scheduler_exists():
    names = [n for n in torch.optim.lr_scheduler.__all__ if n[0].isupper()]
    assert [n for n in names if not hasattr(yaten.optim.lr_scheduler, n)] == []
    assert EPOCHS > 0
