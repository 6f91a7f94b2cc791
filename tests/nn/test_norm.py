"""BatchNorm, LayerNorm, GroupNorm (ops, functional and modules) side by side with torch."""

import numpy as np
import pytest
import torch

import yaten
import yaten.nn.functional as YF
from tests.tolerances import assert_matches as _close


def _pair(*shape, seed=0, dtype=np.float64):
    a = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return yaten.from_numpy(a.copy()), torch.from_numpy(a.copy())


def _copy_state(ymod, tmod):
    """Load torch's module state (parameters and buffers) into the yaten module."""
    with yaten.no_grad():
        for name, t in tmod.state_dict().items():
            ymod.state_dict()[name].copy_(yaten.from_numpy(t.detach().numpy().copy()))


# --- batch norm ---------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(4, 3), (4, 3, 5), (2, 3, 4, 2)])
@pytest.mark.parametrize("momentum", [0.1, 0.5])
def test_batch_norm_training_updates_running_stats_as_torch(shape, momentum):
    rm_y, rv_y = yaten.zeros(3, dtype=yaten.float64), yaten.ones(3, dtype=yaten.float64)
    rm_t, rv_t = torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)
    for step in range(3):
        xy, xt = _pair(*shape, seed=step)
        y = YF.batch_norm(xy, rm_y, rv_y, training=True, momentum=momentum, eps=1e-3)
        t = torch.nn.functional.batch_norm(xt, rm_t, rv_t, training=True, momentum=momentum, eps=1e-3)
        _close(y, t)
    _close(rm_y, rm_t)
    _close(rv_y, rv_t)  # the unbiased batch variance goes into running_var
    assert rm_y._version == 3 and rv_y._version == 3


def test_batch_norm_eval_uses_running_stats():
    xy, xt = _pair(5, 3, 2)
    wy, wt = _pair(3, seed=1)
    by, bt = _pair(3, seed=2)
    rm = np.array([0.5, -1.0, 0.0])
    rv = np.array([2.0, 0.5, 1.0])
    y = YF.batch_norm(
        xy, yaten.from_numpy(rm.copy()), yaten.from_numpy(rv.copy()), wy, by, training=False, eps=0.1
    )
    t = torch.nn.functional.batch_norm(xt, torch.from_numpy(rm), torch.from_numpy(rv), wt, bt, False, eps=0.1)
    _close(y, t)


def test_batch_norm_gradients_match_torch_in_both_modes():
    for training in (True, False):
        xy, xt = _pair(4, 3, 2)
        wy, wt = _pair(3, seed=1)
        by, bt = _pair(3, seed=2)
        for t in (xy, xt, wy, wt, by, bt):
            t.requires_grad_()
        g = np.random.default_rng(5).standard_normal((4, 3, 2))
        rm, rv = np.array([0.1, 0.2, 0.3]), np.array([1.0, 2.0, 3.0])
        y = YF.batch_norm(xy, yaten.from_numpy(rm.copy()), yaten.from_numpy(rv.copy()), wy, by, training)
        t = torch.nn.functional.batch_norm(xt, torch.from_numpy(rm), torch.from_numpy(rv), wt, bt, training)
        (y * yaten.from_numpy(g)).sum().backward()
        (t * torch.from_numpy(g)).sum().backward()
        for a, b in ((xy, xt), (wy, wt), (by, bt)):
            _close(a.grad, b.grad, rtol=1e-9, atol=1e-10)


def test_batch_norm_gradcheck_and_gradgradcheck_in_eval_mode():
    rm, rv = yaten.tensor([0.1, -0.2], dtype=yaten.float64), yaten.tensor([1.5, 0.5], dtype=yaten.float64)
    x = yaten.randn(3, 2, 2, dtype=yaten.float64, requires_grad=True)
    w = yaten.randn(2, dtype=yaten.float64, requires_grad=True)
    b = yaten.randn(2, dtype=yaten.float64, requires_grad=True)
    fn = lambda x, w, b: yaten.batch_norm(x, w, b, rm, rv, False, 0.1, 1e-5, False)
    assert yaten.autograd.gradcheck(fn, (x, w, b))
    assert yaten.autograd.gradgradcheck(fn, (x, w, b))


def test_batch_norm_errors_as_torch():
    x = yaten.randn(1, 3)
    with pytest.raises(
        ValueError, match=r"Expected more than 1 value per channel when training, got input size"
    ):
        YF.batch_norm(x, None, None, training=True)
    with pytest.raises(RuntimeError, match="running_mean should contain 3 elements not 4"):
        YF.batch_norm(yaten.randn(2, 3), yaten.zeros(4), yaten.ones(4))
    with pytest.raises(RuntimeError, match="not differentiable with respect to argument 'running_mean'"):
        YF.batch_norm(yaten.randn(2, 3), yaten.zeros(3, requires_grad=True), yaten.ones(3))


@pytest.mark.parametrize("momentum", [0.1, None])
@pytest.mark.parametrize(
    "cls, shape", [("BatchNorm1d", (6, 3)), ("BatchNorm1d", (4, 3, 5)), ("BatchNorm2d", (2, 3, 4, 2))]
)
def test_batch_norm_module_training_then_eval_matches_torch(cls, shape, momentum):
    tm = getattr(torch.nn, cls)(3, momentum=momentum).double()
    ym = getattr(yaten.nn, cls)(3, momentum=momentum, dtype=yaten.float64)
    with torch.no_grad():
        tm.weight.uniform_(0.5, 1.5)
        tm.bias.uniform_(-1, 1)
    _copy_state(ym, tm)
    for step in range(4):
        xy, xt = _pair(*shape, seed=step)
        _close(ym(xy), tm(xt))
    for name, t in tm.state_dict().items():
        _close(ym.state_dict()[name], t)
    assert ym.num_batches_tracked.dtype is yaten.int64 and ym.num_batches_tracked.item() == 4
    ym.eval()
    tm.eval()
    xy, xt = _pair(*shape, seed=9)
    _close(ym(xy), tm(xt))
    assert ym.num_batches_tracked.item() == 4  # eval mode does not count batches


def test_batch_norm_module_without_running_stats_uses_batch_stats_in_eval():
    tm = torch.nn.BatchNorm1d(3, track_running_stats=False, affine=False).double().eval()
    ym = yaten.nn.BatchNorm1d(3, track_running_stats=False, affine=False, dtype=yaten.float64).eval()
    xy, xt = _pair(5, 3)
    _close(ym(xy), tm(xt))
    assert ym.running_mean is None and ym.num_batches_tracked is None


@pytest.mark.parametrize(
    "make",
    [
        lambda nn: nn.BatchNorm1d(3),
        lambda nn: nn.BatchNorm1d(3, eps=1e-3, momentum=None, affine=False),
        lambda nn: nn.BatchNorm2d(4, track_running_stats=False, bias=False),
        lambda nn: nn.BatchNorm3d(2),
        lambda nn: nn.LayerNorm(4),
        lambda nn: nn.LayerNorm([3, 4], eps=1e-6, elementwise_affine=False),
        lambda nn: nn.LayerNorm((4,), bias=False),
        lambda nn: nn.GroupNorm(2, 4),
        lambda nn: nn.GroupNorm(1, 3, affine=False),
        lambda nn: nn.GroupNorm(3, 6, eps=0.01, bias=False),
        lambda nn: nn.RMSNorm(4),
        lambda nn: nn.RMSNorm([2, 3], eps=1e-6, elementwise_affine=False),
    ],
)
def test_norm_module_repr_and_state_dict_keys_match_torch(make):
    ym, tm = make(yaten.nn), make(torch.nn)
    assert repr(ym) == repr(tm)
    assert list(ym.state_dict()) == list(tm.state_dict())
    assert [n for n, _ in ym.named_parameters()] == [n for n, _ in tm.named_parameters()]
    for name, t in tm.state_dict().items():
        y = ym.state_dict()[name]
        _close(
            y.to(yaten.float64) if y.dtype.is_floating_point else y,
            t.double() if t.is_floating_point() else t,
        )


@pytest.mark.parametrize(
    "cls, shape, message",
    [
        ("BatchNorm1d", (2, 3, 4, 5), "expected 2D or 3D input (got 4D input)"),
        ("BatchNorm1d", (3,), "expected 2D or 3D input (got 1D input)"),
        ("BatchNorm2d", (2, 3, 4), "expected 4D input (got 3D input)"),
        ("BatchNorm3d", (2, 3, 4, 4), "expected 5D input (got 4D input)"),
    ],
)
def test_batch_norm_module_checks_input_dims_as_torch(cls, shape, message):
    with pytest.raises(ValueError) as expected:
        getattr(torch.nn, cls)(3)(torch.zeros(shape))
    assert str(expected.value) == message
    with pytest.raises(ValueError) as got:
        getattr(yaten.nn, cls)(3)(yaten.zeros(shape))
    assert str(got.value) == message


def test_batch_norm_state_dict_round_trip_with_torch():
    tm = torch.nn.BatchNorm2d(2)
    tm(torch.randn(3, 2, 2, 2))
    ym = yaten.nn.BatchNorm2d(2)
    result = ym.load_state_dict({k: yaten.from_numpy(v.numpy().copy()) for k, v in tm.state_dict().items()})
    assert not result.missing_keys and not result.unexpected_keys
    assert ym.num_batches_tracked.item() == 1
    ym.eval()
    tm.eval()
    xy, xt = _pair(2, 2, 3, 3, dtype=np.float32)
    _close(ym(xy), tm(xt), rtol=1e-5, atol=1e-6)


# --- layer norm and group norm --------------------------------------------------------------------
@pytest.mark.parametrize("normalized_shape", [(4,), (3, 4)])
def test_layer_norm_module_forward_and_gradients_match_torch(normalized_shape):
    tm = torch.nn.LayerNorm(normalized_shape).double()
    ym = yaten.nn.LayerNorm(normalized_shape, dtype=yaten.float64)
    with torch.no_grad():
        tm.weight.normal_()
        tm.bias.normal_()
    _copy_state(ym, tm)
    xy, xt = _pair(2, 3, 4)
    xy.requires_grad_()
    xt.requires_grad_()
    y, t = ym(xy), tm(xt)
    _close(y, t)
    g = np.random.default_rng(3).standard_normal(t.shape)
    (y * yaten.from_numpy(g)).sum().backward()
    (t * torch.from_numpy(g)).sum().backward()
    _close(xy.grad, xt.grad, rtol=1e-9, atol=1e-10)
    _close(ym.weight.grad, tm.weight.grad, rtol=1e-9, atol=1e-10)
    _close(ym.bias.grad, tm.bias.grad, rtol=1e-9, atol=1e-10)


def test_group_norm_module_forward_and_gradients_match_torch():
    tm = torch.nn.GroupNorm(2, 4).double()
    ym = yaten.nn.GroupNorm(2, 4, dtype=yaten.float64)
    with torch.no_grad():
        tm.weight.normal_()
        tm.bias.normal_()
    _copy_state(ym, tm)
    xy, xt = _pair(3, 4, 5)
    xy.requires_grad_()
    xt.requires_grad_()
    y, t = ym(xy), tm(xt)
    _close(y, t)
    y.pow(2).sum().backward()
    t.pow(2).sum().backward()
    _close(xy.grad, xt.grad, rtol=1e-9, atol=1e-10)
    _close(ym.weight.grad, tm.weight.grad, rtol=1e-9, atol=1e-10)


def test_norm_float32_matches_torch():
    xy, xt = _pair(4, 6, 3, dtype=np.float32)
    _close(YF.layer_norm(xy, (6, 3)), torch.nn.functional.layer_norm(xt, (6, 3)), rtol=1e-5, atol=1e-5)
    _close(YF.group_norm(xy, 3), torch.nn.functional.group_norm(xt, 3), rtol=1e-5, atol=1e-5)


def test_layer_norm_and_group_norm_gradgradcheck_with_affine():
    x = yaten.randn(2, 4, 3, dtype=yaten.float64, requires_grad=True)
    w = yaten.randn(4, dtype=yaten.float64, requires_grad=True)
    b = yaten.randn(4, dtype=yaten.float64, requires_grad=True)
    gn = lambda x, w, b: YF.group_norm(x, 2, w, b)
    assert yaten.autograd.gradcheck(gn, (x, w, b))
    assert yaten.autograd.gradgradcheck(gn, (x, w, b))
    w3 = yaten.randn(3, dtype=yaten.float64, requires_grad=True)
    ln = lambda x, w: YF.layer_norm(x, (3,), w)
    assert yaten.autograd.gradgradcheck(ln, (x, w3))


def _message(fn):
    with pytest.raises(Exception) as info:
        fn()
    return type(info.value), str(info.value)


@pytest.mark.parametrize(
    "case",
    [
        lambda m: m.nn.functional.layer_norm(m.zeros(2, 3), (4,)),
        lambda m: m.nn.functional.layer_norm(m.zeros(2, 3), (3,), m.ones(4)),
        lambda m: m.nn.functional.layer_norm(m.zeros(2, 3), (3,), None, m.ones(2)),
        lambda m: m.nn.functional.layer_norm(m.zeros(2, 3), ()),
        lambda m: m.nn.functional.rms_norm(m.zeros(2, 3), (3, 4)),
        lambda m: m.nn.functional.rms_norm(m.zeros(2, 3), (3,), m.ones(2)),
        lambda m: m.nn.functional.group_norm(m.zeros(2, 6, 2), 4),
        lambda m: m.nn.functional.group_norm(m.zeros(2, 6, 2), 3, m.ones(3)),
        lambda m: m.nn.functional.group_norm(m.zeros(6), 3),
        lambda m: m.nn.functional.group_norm(m.zeros(1, 3), 3),
        lambda m: m.nn.GroupNorm(4, 6),
        lambda m: m.nn.functional.batch_norm(m.zeros(2, 3), None, None, training=False),
        lambda m: m.nn.functional.batch_norm(m.zeros(2, 3), m.zeros(3), m.ones(3), m.ones(2)),
    ],
)
def test_norm_errors_match_torch(case):
    t_type, t_msg = _message(lambda: case(torch))
    y_type, y_msg = _message(lambda: case(yaten))
    assert y_type is t_type
    assert y_msg == t_msg.replace("torch.", "yaten.")


# --- the fused backward kernels, against torch.ops.aten ---------------------------------------------
@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("normalized_shape", [(4,), (3, 4)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_native_layer_norm_and_backward_match_aten(normalized_shape, affine, dtype):
    xy, xt = _pair(2, 3, 4, dtype=dtype)
    wy, wt = _pair(*normalized_shape, seed=1, dtype=dtype) if affine else (None, None)
    by, bt = _pair(*normalized_shape, seed=2, dtype=dtype) if affine else (None, None)
    tol = {"rtol": 1e-5, "atol": 1e-5} if dtype == np.float32 else {}
    yo = yaten.native_layer_norm(xy, normalized_shape, wy, by, 1e-5)
    to = torch.ops.aten.native_layer_norm(xt, normalized_shape, wt, bt, 1e-5)
    for y, t in zip(yo, to):
        _close(y, t, **tol)
    gy, gt = _pair(2, 3, 4, seed=3, dtype=dtype)
    mask = [True, affine, affine]
    yg = yaten.native_layer_norm_backward(gy, xy, normalized_shape, yo[1], yo[2], wy, by, mask)
    tg = torch.ops.aten.native_layer_norm_backward(gt, xt, normalized_shape, to[1], to[2], wt, bt, mask)
    for y, t in zip(yg, tg):
        if t is not None:
            _close(y, t, **tol)


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("shape", [(4, 3), (3, 3, 5)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_native_batch_norm_and_backward_match_aten(training, shape, dtype):
    xy, xt = _pair(*shape, dtype=dtype)
    wy, wt = _pair(3, seed=1, dtype=dtype)
    by, bt = _pair(3, seed=2, dtype=dtype)
    stats = np.array([0.2, -0.1, 0.3]).astype(dtype), np.array([1.5, 0.7, 2.0]).astype(dtype)
    rmy, rvy = (yaten.from_numpy(a.copy()) for a in stats)
    rmt, rvt = (torch.from_numpy(a.copy()) for a in stats)
    tol = {"rtol": 1e-5, "atol": 1e-5} if dtype == np.float32 else {}
    yo = yaten.native_batch_norm(xy, wy, by, rmy, rvy, training, 0.3, 1e-3)
    to = torch.ops.aten.native_batch_norm(xt, wt, bt, rmt, rvt, training, 0.3, 1e-3)
    for y, t in zip(yo, to):
        _close(y, t, **tol)
    _close(rmy, rmt, **tol)
    _close(rvy, rvt, **tol)
    gy, gt = _pair(*shape, seed=3, dtype=dtype)
    mask = [True, True, True]
    yg = yaten.native_batch_norm_backward(gy, xy, wy, rmy, rvy, yo[1], yo[2], training, 1e-3, mask)
    tg = torch.ops.aten.native_batch_norm_backward(gt, xt, wt, rmt, rvt, to[1], to[2], training, 1e-3, mask)
    for y, t in zip(yg, tg):
        _close(y, t, **tol)


def test_first_order_backward_uses_the_fused_kernels_and_create_graph_the_composite():
    x = yaten.randn(3, 4, dtype=yaten.float64, requires_grad=True)
    w = yaten.randn(4, dtype=yaten.float64, requires_grad=True)
    y = yaten.layer_norm(x, (4,), w)
    assert type(y.grad_fn).__name__ == "NativeLayerNormBackward0"
    (g1,) = yaten.autograd.grad(y.pow(2).sum(), (x,))
    (g2,) = yaten.autograd.grad(yaten.layer_norm(x, (4,), w).pow(2).sum(), (x,), create_graph=True)
    assert g1.grad_fn is None and g2.grad_fn is not None
    np.testing.assert_allclose(g1.numpy(), g2.detach().numpy(), rtol=1e-10, atol=1e-12)
    xb = yaten.randn(4, 3, 2, dtype=yaten.float64, requires_grad=True)
    yb = yaten.batch_norm(xb, w[:3], None, None, None, True, 0.1, 1e-5, False)
    assert type(yb.grad_fn).__name__ == "NativeBatchNormBackward0"
    (h1,) = yaten.autograd.grad(yb.pow(3).sum(), (xb,))
    yb = yaten.batch_norm(xb, w[:3], None, None, None, True, 0.1, 1e-5, False)
    (h2,) = yaten.autograd.grad(yb.pow(3).sum(), (xb,), create_graph=True)
    np.testing.assert_allclose(h1.numpy(), h2.detach().numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("eps", [None, 1e-3])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_rms_norm_module_forward_and_gradients_match_torch(eps, dtype):
    tm = torch.nn.RMSNorm((3, 4), eps=eps).to(getattr(torch, np.dtype(dtype).name))
    ym = yaten.nn.RMSNorm((3, 4), eps=eps, dtype=getattr(yaten, np.dtype(dtype).name))
    with torch.no_grad():
        tm.weight.normal_()
    _copy_state(ym, tm)
    xy, xt = _pair(2, 3, 4, dtype=dtype)
    xy.requires_grad_()
    xt.requires_grad_()
    y, t = ym(xy), tm(xt)
    tol = {"rtol": 1e-5, "atol": 1e-6} if dtype == np.float32 else {"rtol": 1e-9, "atol": 1e-10}
    _close(y, t, **tol)
    y.pow(2).sum().backward()
    t.pow(2).sum().backward()
    _close(xy.grad, xt.grad, **tol)
    _close(ym.weight.grad, tm.weight.grad, **tol)


def test_batch_norm_loads_a_state_dict_from_before_num_batches_tracked():
    from collections import OrderedDict

    tm = torch.nn.BatchNorm1d(3)
    state = OrderedDict((k, v) for k, v in tm.state_dict().items() if k != "num_batches_tracked")
    state._metadata = {"": {"version": 1}}
    ystate = OrderedDict((k, yaten.from_numpy(v.numpy().copy())) for k, v in state.items())
    ystate._metadata = {"": {"version": 1}}
    ym = yaten.nn.BatchNorm1d(3)
    ym.num_batches_tracked.fill_(5)
    assert repr(ym.load_state_dict(ystate)) == repr(tm.load_state_dict(state))
    assert ym.num_batches_tracked.item() == 5  # kept, as torch keeps its own count
