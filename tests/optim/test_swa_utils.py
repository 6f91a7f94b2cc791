"""optim.swa_utils against torch's: AveragedModel (SWA, EMA, buffers), update_bn, SWALR."""

import numpy as np
import pytest
import torch
from _scheduler_parity import assert_same_trace, make_optimizer, outcome

import yaten
from tests.tolerances import assert_close


def _models(seed=0):
    """The same small network (Linear, BatchNorm1d, ReLU, Linear) in both libraries, same weights."""
    torch.manual_seed(seed)
    t_model = torch.nn.Sequential(
        torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4), torch.nn.ReLU(), torch.nn.Linear(4, 2)
    ).double()
    y_model = yaten.nn.Sequential(
        yaten.nn.Linear(3, 4), yaten.nn.BatchNorm1d(4), yaten.nn.ReLU(), yaten.nn.Linear(4, 2)
    ).double()
    _copy_weights(t_model, y_model)
    return y_model, t_model


def _copy_weights(t_model, y_model):
    state = {k: yaten.tensor(v.detach().numpy()) for k, v in t_model.state_dict().items()}
    y_model.load_state_dict(state)


def _perturb(step, y_model, t_model):
    # a training step stand-in: new weights and new BatchNorm statistics, the same in both
    rng = np.random.default_rng(step)
    with torch.no_grad():
        for p in t_model.parameters():
            p.add_(torch.tensor(rng.standard_normal(tuple(p.shape))))
        t_model.train()
        t_model(torch.tensor(rng.standard_normal((6, 3))))
    _copy_weights(t_model, y_model)


def _assert_same_state(y, t):
    y_sd, t_sd = y.state_dict(), t.state_dict()
    assert list(y_sd) == list(t_sd)
    for k, v in t_sd.items():
        assert_close(y_sd[k], v, what=k)


AVERAGING = {
    "swa": lambda m: {},
    "swa_buffers": lambda m: {"use_buffers": True},
    "ema": lambda m: {"avg_fn": m.optim.swa_utils.get_ema_avg_fn(0.9)},
    "ema_multi": lambda m: {"multi_avg_fn": m.optim.swa_utils.get_ema_multi_avg_fn(0.8)},
    "ema_multi_buffers": lambda m: {
        "multi_avg_fn": m.optim.swa_utils.get_ema_multi_avg_fn(),
        "use_buffers": True,
    },
    "swa_multi": lambda m: {"multi_avg_fn": m.optim.swa_utils.get_swa_multi_avg_fn()},
    "swa_avg_fn": lambda m: {"avg_fn": m.optim.swa_utils.get_swa_avg_fn()},
}


@pytest.mark.parametrize("make", AVERAGING.values(), ids=AVERAGING.keys())
def test_averaged_model_matches_torch(make):
    y_model, t_model = _models()
    y_avg = yaten.optim.swa_utils.AveragedModel(y_model, **make(yaten))
    t_avg = torch.optim.swa_utils.AveragedModel(t_model, **make(torch))
    for step in range(6):
        _perturb(step, y_model, t_model)
        y_avg.update_parameters(y_model)
        t_avg.update_parameters(t_model)
        _assert_same_state(y_avg, t_avg)
    x = np.random.default_rng(9).standard_normal((5, 3))
    y_avg.eval()
    t_avg.eval()
    assert_close(y_avg(yaten.tensor(x)), t_avg(torch.tensor(x)).detach())
    assert y_avg.n_averaged.item() == 6 and y_avg.n_averaged.dtype == yaten.int64


def test_averaged_model_is_a_copy_and_a_module():
    y_model, _ = _models()
    avg = yaten.optim.swa_utils.AveragedModel(y_model)
    assert isinstance(avg, yaten.nn.Module)
    assert avg.module is not y_model and avg.module[0].weight is not y_model[0].weight
    assert next(n for n, _ in avg.named_buffers()) == "n_averaged"


def test_update_bn_matches_torch():
    y_model, t_model = _models()
    rng = np.random.default_rng(3)
    batches = [rng.standard_normal((8, 3)) for _ in range(4)]
    t_model[1].momentum = 0.3
    y_model[1].momentum = 0.3
    t_model.eval()
    y_model.eval()
    # batches as (input, target) pairs: only the input is used
    torch.optim.swa_utils.update_bn([(torch.tensor(b), 0) for b in batches], t_model)
    yaten.optim.swa_utils.update_bn([(yaten.tensor(b), 0) for b in batches], y_model)
    _assert_same_state(y_model, t_model)
    assert not y_model.training and y_model[1].momentum == 0.3


def test_update_bn_without_batchnorm_does_nothing():
    model = yaten.nn.Linear(2, 2)
    yaten.optim.swa_utils.update_bn([yaten.ones(1, 2)], model)  # the loader is not even read
    assert model.training


SWALR = {
    "cos": {"swa_lr": 0.05},
    "linear": {"swa_lr": 0.05, "anneal_epochs": 5, "anneal_strategy": "linear"},
    "per_group": {"swa_lr": [0.01, 0.2], "anneal_epochs": 3},
    "no_anneal": {"swa_lr": 0.03, "anneal_epochs": 0},
}


@pytest.mark.parametrize("kwargs", SWALR.values(), ids=SWALR.keys())
def test_swalr_matches_torch(kwargs):
    def build(lib, opt):
        return [lib.optim.swa_utils.SWALR(opt, **kwargs)]

    assert_same_trace({"build": build}, epochs=20)


def test_swalr_after_another_scheduler_matches_torch():
    # the usual SWA recipe: cosine annealing, then SWALR from epoch 10
    def run(lib):
        opt = make_optimizer(lib)
        cosine = lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=30)
        swa = lib.optim.swa_utils.SWALR(opt, swa_lr=0.01, anneal_epochs=4)
        lrs = []
        for epoch in range(20):
            opt.step()
            (swa if epoch >= 10 else cosine).step()
            lrs.append([g["lr"] for g in opt.param_groups])
        sd = swa.state_dict()
        swa.load_state_dict(sd)
        return lrs, sorted(sd), swa.anneal_func(0.5)

    assert run(yaten) == run(torch)


ERRORS = {
    "ema_decay": lambda m: m.optim.swa_utils.get_ema_avg_fn(1.5),
    "ema_multi_decay": lambda m: m.optim.swa_utils.get_ema_multi_avg_fn(-0.1),
    "both_fns": lambda m: m.optim.swa_utils.AveragedModel(
        m.nn.Linear(1, 1),
        avg_fn=m.optim.swa_utils.get_swa_avg_fn(),
        multi_avg_fn=m.optim.swa_utils.get_swa_multi_avg_fn(),
    ),
    "swalr_strategy": lambda m: m.optim.swa_utils.SWALR(make_optimizer(m), 0.1, anneal_strategy="exp"),
    "swalr_epochs": lambda m: m.optim.swa_utils.SWALR(make_optimizer(m), 0.1, anneal_epochs=-1),
    "swalr_epochs_float": lambda m: m.optim.swa_utils.SWALR(make_optimizer(m), 0.1, anneal_epochs=2.0),
    "swalr_lr_count": lambda m: m.optim.swa_utils.SWALR(make_optimizer(m), [0.1, 0.2, 0.3]),
}


@pytest.mark.parametrize("case", ERRORS.values(), ids=ERRORS.keys())
def test_errors_match_torch(case):
    got, want = outcome(case, yaten), outcome(case, torch)
    assert want is not None, "torch raised nothing: the case is wrong"
    assert got == want


def test_names_match_torch():
    assert sorted(yaten.optim.swa_utils.__all__) == sorted(torch.optim.swa_utils.__all__)
