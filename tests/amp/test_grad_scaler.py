"""GradScaler and its two ops against torch: scale trajectories, skipped steps, state_dict, errors."""

import pickle
import warnings

import numpy as np
import pytest
import torch

import yaten
from tests.runtime.parity import same
from tests.tolerances import assert_close


def _raises(case) -> None:
    """``case(lib)`` raises the same exception type with the same message in both libraries."""
    result = same(case)
    assert isinstance(result, tuple) and isinstance(result[0], type) and issubclass(result[0], Exception), (
        result
    )


def test_unscale_op_writes_as_torchs():
    def run(lib):
        grads = [lib.tensor([1.0, float("inf")]), lib.tensor([2.0, 4.0]), lib.tensor([float("nan")])]
        found = lib.zeros(())
        lib._amp_foreach_non_finite_check_and_unscale_(grads, found, lib.tensor(0.5))
        return grads, found

    same(run)
    assert run(yaten)[1].item() == 1.0  # found_inf set


def test_unscale_op_keeps_found_inf_clear_and_bfloat16_grads():
    def run(lib):
        grads = [lib.tensor([3.0, -6.0], dtype=lib.bfloat16)]
        found = lib.zeros(())
        lib._amp_foreach_non_finite_check_and_unscale_(grads, found, lib.tensor(0.25))
        return grads[0], found

    same(run)
    assert run(yaten)[1].item() == 0.0


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: ([lib.ones(2)], lib.zeros(2), lib.tensor(0.5)),
        lambda lib: ([lib.ones(2)], lib.zeros(()), lib.ones(2)),
        lambda lib: ([lib.ones(2)], lib.zeros((), dtype=lib.float64), lib.tensor(0.5)),
        lambda lib: ([lib.ones(2)], lib.zeros(()), lib.tensor(0.5, dtype=lib.float64)),
        lambda lib: ([lib.ones(2, dtype=lib.int64)], lib.zeros(()), lib.tensor(0.5)),
    ],
    ids=["found_inf size", "inv_scale size", "found_inf dtype", "inv_scale dtype", "int grads"],
)
def test_unscale_op_errors(make):
    _raises(lambda lib: lib._amp_foreach_non_finite_check_and_unscale_(*make(lib)))


@pytest.mark.parametrize(
    "found, tracker, interval, scale",
    [(0.0, 0, 2, 4.0), (0.0, 1, 2, 4.0), (1.0, 1, 2, 4.0), (0.0, 0, 1, 3e38)],
    ids=["count", "grow", "back off", "growth would overflow"],
)
def test_update_scale_op_as_torchs(found, tracker, interval, scale):
    def run(lib):
        s, t = lib.tensor(scale), lib.tensor(tracker, dtype=lib.int32)
        out = lib._amp_update_scale_(s, t, lib.tensor(found), 2.0, 0.5, interval)
        return out is s, s, t

    same(run)
    assert run(yaten)[0]


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: (lib.tensor(4.0), lib.tensor(0), lib.tensor(0.0)),
        lambda lib: (lib.tensor(4.0, dtype=lib.float64), lib.tensor(0, dtype=lib.int32), lib.tensor(0.0)),
        lambda lib: (lib.tensor(4.0), lib.tensor(0, dtype=lib.int32), lib.tensor(0.0, dtype=lib.float64)),
        lambda lib: (lib.ones(2), lib.tensor(0, dtype=lib.int32), lib.tensor(0.0)),
        lambda lib: (lib.tensor(4.0), lib.zeros(2, dtype=lib.int32), lib.tensor(0.0)),
        lambda lib: (lib.tensor(4.0), lib.tensor(0, dtype=lib.int32), lib.zeros(2)),
    ],
    ids=["int64 tracker", "double scale", "double found_inf", "scale size", "tracker size", "found_inf size"],
)
def test_update_scale_op_errors(make):
    _raises(lambda lib: lib._amp_update_scale_(*make(lib), 2.0, 0.5, 2))


def _train(lib, scaler_kwargs, steps=8, inf_at=(2, 5), unscale_first=False):
    """A small regression trained with a GradScaler("cpu"); the loss of the steps in ``inf_at`` is made
    infinite. Returns per step: scale before update, whether the weights moved, the weights."""
    rng = np.random.default_rng(0)
    w0 = rng.standard_normal((3, 4)).astype(np.float32)
    x = lib.from_numpy(rng.standard_normal((6, 4)).astype(np.float32))
    y = lib.from_numpy(rng.standard_normal((6, 3)).astype(np.float32))
    w = lib.nn.Parameter(lib.from_numpy(w0.copy()))
    opt = lib.optim.SGD([w], lr=0.1)
    scaler = lib.amp.GradScaler("cpu", **scaler_kwargs)
    history = []
    for step in range(steps):
        opt.zero_grad()
        loss = ((x @ w.t() - y) ** 2).mean()
        if step in inf_at:
            loss = loss * float("inf")
        before = w.detach().clone()
        scaler.scale(loss).backward()
        if unscale_first:
            scaler.unscale_(opt)
        scaler.step(opt)
        scale = scaler.get_scale()
        scaler.update()
        moved = not bool((w.detach() == before).all())
        history.append((scale, moved, scaler.get_scale(), scaler._get_growth_tracker(), w.detach().clone()))
    return history, scaler


@pytest.mark.parametrize("unscale_first", [False, True], ids=["step unscales", "unscale_ first"])
def test_scale_trajectory_and_skipped_steps_match_torch(unscale_first):
    kwargs = dict(init_scale=2.0**10, growth_factor=2.0, backoff_factor=0.5, growth_interval=2)
    want, _ = _train(torch, kwargs, unscale_first=unscale_first)
    got, _ = _train(yaten, kwargs, unscale_first=unscale_first)
    for step, (g, t) in enumerate(zip(got, want)):
        assert g[:4] == t[:4], f"step {step}: {g[:4]} vs {t[:4]}"
        assert_close(g[4], t[4], f"weights after step {step}")
    assert [moved for _, moved, *_ in got] == [True, True, False, True, True, False, True, True]


def test_disabled_scaler_is_a_pass_through():
    w = yaten.nn.Parameter(yaten.ones(2))
    opt = yaten.optim.SGD([w], lr=0.5)
    scaler = yaten.amp.GradScaler("cpu", enabled=False)
    loss = (w * 2).sum()
    assert scaler.scale(loss) is loss
    loss.backward()
    scaler.unscale_(opt)
    scaler.step(opt)
    scaler.update()
    assert_close(w.detach(), yaten.zeros(2))
    assert not scaler.is_enabled() and scaler.get_scale() == 1.0 and scaler.state_dict() == {}


def test_cuda_scaler_without_cuda_warns_and_disables():
    if yaten.cuda.is_available():
        pytest.skip("this machine has CUDA: the scaler stays enabled there")
    with pytest.warns(
        UserWarning, match="torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling."
    ):
        scaler = yaten.amp.GradScaler()
    assert not scaler.is_enabled()


def test_deprecated_forms_warn_as_torchs():
    for lib in (torch, yaten):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.cuda.amp.GradScaler(enabled=False)
            lib.cpu.amp.GradScaler()
        messages = [str(w.message) for w in caught if w.category is FutureWarning]
        assert messages == [
            "`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cuda', args...)` "
            "instead.",
            "`torch.cpu.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cpu', args...)` "
            "instead.",
        ]


def test_state_dict_round_trip_and_pickle():
    kwargs = dict(init_scale=2.0**10, growth_interval=2)
    (_, t_scaler), (_, y_scaler) = _train(torch, kwargs), _train(yaten, kwargs)
    assert y_scaler.state_dict() == t_scaler.state_dict()
    fresh = yaten.amp.GradScaler("cpu")
    fresh.load_state_dict(y_scaler.state_dict())
    assert fresh.state_dict() == t_scaler.state_dict()
    clone = pickle.loads(pickle.dumps(y_scaler))
    assert clone.state_dict() == y_scaler.state_dict()
    with pytest.raises(RuntimeError, match="The source state dict is empty"):
        fresh.load_state_dict({})


def _scaled(lib):
    """A parameter, its SGD and a GradScaler("cpu") that has scaled a loss of it (backward done)."""
    w = lib.nn.Parameter(lib.ones(2))
    opt = lib.optim.SGD([w], lr=0.1)
    scaler = lib.amp.GradScaler("cpu")
    scaler.scale(w.sum()).backward()
    return w, opt, scaler


@pytest.mark.parametrize(
    "case",
    [
        lambda lib: (lambda w, o, s: (s.unscale_(o), s.unscale_(o)))(*_scaled(lib)),
        lambda lib: (lambda w, o, s: (s.step(o), s.step(o)))(*_scaled(lib)),
        lambda lib: (lambda w, o, s: (s.unscale_(o), s.step(o), s.unscale_(o)))(*_scaled(lib)),
        lambda lib: (lambda w, o, s: s.step(o, closure=lambda: 0))(*_scaled(lib)),
        lambda lib: lib.amp.GradScaler("cpu").update(),
        lambda lib: lib.amp.GradScaler("cpu", growth_factor=1.0),
        lambda lib: lib.amp.GradScaler("cpu", backoff_factor=1.0),
    ],
    ids=[
        "unscale twice",
        "step twice",
        "unscale after step",
        "closure",
        "update unscaled",
        "growth",
        "backoff",
    ],
)
def test_misuse_raises_torchs_errors(case):
    _raises(case)
