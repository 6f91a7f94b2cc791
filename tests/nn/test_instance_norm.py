"""InstanceNorm1d/2d/3d, F.instance_norm, LocalResponseNorm and F.local_response_norm side by side with
torch: outputs, running statistics, gradients, state_dict keys, repr and errors."""

import warnings

import numpy as np
import pytest
import torch

import yaten
import yaten.nn.functional as YF
from tests.nn._module_parity import errors_alike
from tests.tolerances import assert_close, assert_matches

# (class name, batched input shape): one of each dimensionality.
LAYERS = [
    ("InstanceNorm1d", (2, 3, 5)),
    ("InstanceNorm2d", (2, 3, 4, 3)),
    ("InstanceNorm3d", (2, 3, 2, 3, 2)),
]


def _pair(*shape, seed=0, dtype=np.float64):
    a = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return yaten.from_numpy(a.copy()), torch.from_numpy(a.copy())


def _twins(name, *args, **kwargs):
    """The same layer in both libraries, yaten's with torch's parameters (random, not the ones/zeros init)."""
    t = getattr(torch.nn, name)(*args, **kwargs).double()
    y = getattr(yaten.nn, name)(*args, **kwargs).double()
    with torch.no_grad():
        for p in t.parameters():
            p.normal_()
    y.load_state_dict({k: yaten.from_numpy(v.numpy().copy()) for k, v in t.state_dict().items()})
    return y, t


# --- F.instance_norm ----------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(2, 3, 5), (3, 2, 4, 4), (1, 2, 2, 2, 3)])
def test_functional_training_updates_the_running_stats_with_their_batch_average(shape):
    channels = shape[1]
    stats_y = [yaten.zeros(channels, dtype=yaten.float64), yaten.ones(channels, dtype=yaten.float64)]
    stats_t = [torch.zeros(channels, dtype=torch.float64), torch.ones(channels, dtype=torch.float64)]
    for step in range(3):
        xy, xt = _pair(*shape, seed=step)
        y = YF.instance_norm(xy, *stats_y, momentum=0.3, eps=1e-3)
        t = torch.nn.functional.instance_norm(xt, *stats_t, momentum=0.3, eps=1e-3)
        assert_matches(y, t)
    for a, b in zip(stats_y, stats_t):
        assert_matches(a, b)  # the running variance takes each instance's unbiased variance
    assert stats_y[0]._version == 3


def test_functional_uses_the_running_stats_without_input_stats():
    xy, xt = _pair(2, 3, 4)
    wy, wt = _pair(3, seed=1)
    rm, rv = np.array([0.5, -1.0, 0.0]), np.array([2.0, 0.5, 1.0])
    y = YF.instance_norm(xy, yaten.from_numpy(rm.copy()), yaten.from_numpy(rv.copy()), wy, None, False)
    t = torch.nn.functional.instance_norm(xt, torch.from_numpy(rm), torch.from_numpy(rv), wt, None, False)
    assert_matches(y, t)


@pytest.mark.parametrize("use_input_stats", [True, False])
def test_functional_gradients_match_torch(use_input_stats):
    xy, xt = _pair(3, 2, 5)
    wy, wt = _pair(2, seed=1)
    by, bt = _pair(2, seed=2)
    for t in (xy, xt, wy, wt, by, bt):
        t.requires_grad_()
    g = np.random.default_rng(5).standard_normal((3, 2, 5))
    rm, rv = np.array([0.1, 0.2]), np.array([1.5, 0.5])
    y = YF.instance_norm(
        xy, yaten.from_numpy(rm.copy()), yaten.from_numpy(rv.copy()), wy, by, use_input_stats
    )
    t = torch.nn.functional.instance_norm(
        xt, torch.from_numpy(rm), torch.from_numpy(rv), wt, bt, use_input_stats
    )
    (y * yaten.from_numpy(g)).sum().backward()
    (t * torch.from_numpy(g)).sum().backward()
    for a, b in ((xy, xt), (wy, wt), (by, bt)):
        assert_matches(a.grad, b.grad)


def test_functional_gradcheck():
    x = yaten.randn(2, 3, 4, dtype=yaten.float64, requires_grad=True)
    w = yaten.randn(3, dtype=yaten.float64, requires_grad=True)
    b = yaten.randn(3, dtype=yaten.float64, requires_grad=True)
    assert yaten.autograd.gradcheck(lambda x, w, b: YF.instance_norm(x, weight=w, bias=b), (x, w, b))


def test_float32_matches_torch():
    xy, xt = _pair(4, 3, 6, 6, dtype=np.float32)
    assert_matches(YF.instance_norm(xy), torch.nn.functional.instance_norm(xt))


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(lambda m: (m.randn(2, 3, 1),), id="one spatial element"),
        pytest.param(lambda m: (m.ones(2, 3, 4), None, None, None, None, False), id="no running stats"),
        pytest.param(lambda m: (m.ones(2, 3, 4), m.zeros(4), m.ones(4)), id="running stats size"),
        pytest.param(lambda m: (m.ones(2, 3, 4), None, None, m.ones(2)), id="weight size"),
        pytest.param(lambda m: (m.ones(2, 3, 4, dtype=m.int64),), id="integer input"),
    ],
)
def test_functional_errors_as_torch(args):
    errors_alike(
        lambda: YF.instance_norm(*args(yaten)), lambda: torch.nn.functional.instance_norm(*args(torch))
    )


# --- the modules ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name, shape", LAYERS)
@pytest.mark.parametrize("affine", [False, True])
def test_module_outputs_and_gradients_match_torch(name, shape, affine):
    y_mod, t_mod = _twins(name, 3, affine=affine)
    xy, xt = _pair(*shape)
    xy.requires_grad_()
    xt.requires_grad_()
    out_y, out_t = y_mod(xy), t_mod(xt)
    assert_matches(out_y, out_t)
    (out_y**2).sum().backward()
    (out_t**2).sum().backward()
    assert_matches(xy.grad, xt.grad)
    for (ny, py), (nt, pt) in zip(y_mod.named_parameters(), t_mod.named_parameters()):
        assert ny == nt
        assert_matches(py.grad, pt.grad)


@pytest.mark.parametrize("name, shape", LAYERS)
def test_unbatched_input_is_normalized_as_a_batch_of_one(name, shape):
    y_mod, t_mod = _twins(name, 3, affine=True)
    xy, xt = _pair(*shape[1:])
    assert_matches(y_mod(xy), t_mod(xt))


@pytest.mark.parametrize("momentum", [0.1, None])
def test_tracked_running_stats_update_in_training_and_normalize_in_eval(momentum):
    y_mod, t_mod = _twins("InstanceNorm2d", 3, momentum=momentum, track_running_stats=True)
    for step in range(3):
        xy, xt = _pair(2, 3, 4, 4, seed=step)
        assert_matches(y_mod(xy), t_mod(xt))
    for name, buf in t_mod.named_buffers():
        assert_matches(dict(y_mod.named_buffers())[name], buf)
    y_mod.eval()
    t_mod.eval()
    xy, xt = _pair(2, 3, 4, 4, seed=9)
    assert_matches(y_mod(xy), t_mod(xt))


def test_without_tracking_eval_still_uses_the_input_stats():
    y_mod, t_mod = _twins("InstanceNorm1d", 3)
    y_mod.eval()
    t_mod.eval()
    xy, xt = _pair(2, 3, 5)
    assert_matches(y_mod(xy), t_mod(xt))
    assert y_mod.running_mean is None


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"affine": True}, {"track_running_stats": True}, {"affine": True, "bias": False, "eps": 1e-3}],
)
def test_state_dict_keys_and_repr_as_torch(kwargs):
    for name, _ in LAYERS:
        y_mod, t_mod = getattr(yaten.nn, name)(4, **kwargs), getattr(torch.nn, name)(4, **kwargs)
        assert list(y_mod.state_dict()) == list(t_mod.state_dict())
        assert repr(y_mod) == repr(t_mod)
        assert y_mod.state_dict()._metadata[""]["version"] == t_mod.state_dict()._metadata[""]["version"]


def test_pre_0_4_checkpoint_with_running_stats_is_reported_as_torch():
    state = {"running_mean": np.zeros(3), "running_var": np.ones(3)}
    messages = []
    for lib in (yaten, torch):
        mod = lib.nn.InstanceNorm2d(3)
        sd = {k: lib.from_numpy(v.copy()) for k, v in state.items()}
        sd = type(mod.state_dict())(sd)  # an OrderedDict without _metadata: version None, as before 0.4
        with pytest.raises(RuntimeError) as err:
            mod.load_state_dict(sd)
        messages.append(str(err.value))
    assert messages[0] == messages[1]


def test_module_errors_and_warnings_as_torch():
    errors_alike(
        lambda: yaten.nn.InstanceNorm2d(3)(yaten.ones(2, 3)),
        lambda: torch.nn.InstanceNorm2d(3)(torch.ones(2, 3)),
    )
    errors_alike(
        lambda: yaten.nn.InstanceNorm1d(3, affine=True)(yaten.ones(2, 4, 5)),
        lambda: torch.nn.InstanceNorm1d(3, affine=True)(torch.ones(2, 4, 5)),
    )
    caught = []
    for lib in (yaten, torch):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            lib.nn.InstanceNorm1d(3)(lib.ones(2, 4, 5))
        caught.append([(str(x.message), x.category, x.filename) for x in w])
    assert caught[0][0][:2] == caught[1][0][:2]
    assert caught[0][0][2] == __file__  # pointed at the caller's line


# --- local response norm ------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(2, 5, 4), (2, 5, 3, 3), (1, 6, 2, 2, 3)])
@pytest.mark.parametrize("size", [1, 2, 3])
def test_local_response_norm_matches_torch(shape, size):
    xy, xt = _pair(*shape)
    xy.requires_grad_()
    xt.requires_grad_()
    y_mod, t_mod = (
        yaten.nn.LocalResponseNorm(size, 0.5, 0.75, 2.0),
        torch.nn.LocalResponseNorm(size, 0.5, 0.75, 2.0),
    )
    assert repr(y_mod) == repr(t_mod)
    out_y, out_t = y_mod(xy), t_mod(xt)
    assert_matches(out_y, out_t)
    out_y.sum().backward()
    out_t.sum().backward()
    assert_matches(xy.grad, xt.grad)


def test_local_response_norm_edges_as_torch():
    empty_y = yaten.ones(2, 0, 3)
    assert YF.local_response_norm(empty_y, 2) is empty_y
    errors_alike(
        lambda: YF.local_response_norm(yaten.ones(2, 3), 2),
        lambda: torch.nn.functional.local_response_norm(torch.ones(2, 3), 2),
    )
    xy, xt = _pair(2, 4, 3, dtype=np.float32)
    assert_close(YF.local_response_norm(xy, 3), torch.nn.functional.local_response_norm(xt, 3))
