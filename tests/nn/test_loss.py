"""Loss functions and loss modules side by side with torch: values, gradients (both inputs), every
reduction, weights, ignore_index, label smoothing, K-dim inputs, gradcheck, reprs and errors."""

import warnings

import numpy as np
import pytest
import torch
from _module_parity import same

import yaten
from tests.tolerances import assert_matches as _close

RNG = np.random.default_rng(0)
X = RNG.standard_normal((4, 5))
PROBS = RNG.random((4, 5))
PROBS /= PROBS.sum(1, keepdims=True)
W = RNG.random(5) + 0.5
IDX = np.array([1, 0, 4, 2])
IDX_IGNORED = np.array([1, -100, 4, 2])


def _both(a, grad):
    t, y = torch.from_numpy(a.copy()), yaten.from_numpy(a.copy())
    if grad:
        t.requires_grad_()
        y.requires_grad_()
    return t, y


def _compare(call, *arrays, grad=(0,), grad_rtol=None):
    """``call(lib, *tensors)`` in torch and yaten: same values, and same gradients of a weighted sum
    (``grad_rtol``: where a gradient loses more than its dtype's tolerance)."""
    pairs = [_both(a, i in grad) for i, a in enumerate(arrays)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = call(torch, *[p[0] for p in pairs])
        y = call(yaten, *[p[1] for p in pairs])
    _close(y, t)
    if grad:
        w = RNG.standard_normal(tuple(t.shape))
        (t * torch.from_numpy(w)).sum().backward()
        (y * yaten.from_numpy(w)).sum().backward()
        for i in grad:
            _close(pairs[i][1].grad, pairs[i][0].grad, rtol=grad_rtol)
    return y


REDUCTIONS = ["none", "mean", "sum"]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize(
    "name, kwargs",
    [("mse_loss", {}), ("l1_loss", {}), ("smooth_l1_loss", {}), ("smooth_l1_loss", {"beta": 0.3}),
     ("smooth_l1_loss", {"beta": 0.0}), ("huber_loss", {}), ("huber_loss", {"delta": 0.4})],
)  # fmt: skip
def test_regression_losses(name, kwargs, reduction):
    target = X[::-1].copy()
    target[0, 0] = X[0, 0]  # a zero difference: the kink of l1 / the quadratic piece at 0
    _compare(lambda m, a, b: getattr(m.nn.functional, name)(a, b, reduction=reduction, **kwargs), X, target,
             grad=(0, 1))  # fmt: skip


@pytest.mark.parametrize("name", ["mse_loss", "l1_loss"])
def test_regression_losses_with_weight(name):
    _compare(lambda m, a, b, w: getattr(m.nn.functional, name)(a, b, weight=w), X, X[::-1].copy(), PROBS,
             grad=(0, 1))  # fmt: skip


def test_huber_loss_with_weight_and_at_delta():
    target = X.copy()
    target[0, :2] = X[0, :2] - np.array([1.0, -1.0])  # |d| == delta exactly
    for red in REDUCTIONS:
        _compare(lambda m, a, b, w, r=red: m.nn.functional.huber_loss(a, b, reduction=r, weight=w), X, target, PROBS,
                 grad=(0, 1))  # fmt: skip


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_class_indices(reduction):
    _compare(lambda m, a, t: m.nn.functional.cross_entropy(a, t, reduction=reduction), X, IDX)
    _compare(
        lambda m, a, t, w: m.nn.functional.cross_entropy(a, t, w, reduction=reduction), X, IDX_IGNORED, W
    )
    _compare(lambda m, a, t: m.nn.functional.cross_entropy(a, t, reduction=reduction, ignore_index=4), X, IDX)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_label_smoothing(reduction):
    _compare(lambda m, a, t: m.nn.functional.cross_entropy(a, t, reduction=reduction, label_smoothing=0.2),
             X, IDX_IGNORED)  # fmt: skip
    _compare(lambda m, a, t, w: m.nn.functional.cross_entropy(a, t, w, reduction=reduction, label_smoothing=0.3),
             X, IDX_IGNORED, W)  # fmt: skip


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_class_probabilities(reduction):
    _compare(lambda m, a, p: m.nn.functional.cross_entropy(a, p, reduction=reduction), X, PROBS, grad=(0, 1))
    _compare(lambda m, a, p, w: m.nn.functional.cross_entropy(a, p, w, reduction=reduction, label_smoothing=0.1),
             X, PROBS, W, grad=(0, 1))  # fmt: skip


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_k_dim_and_unbatched(reduction):
    x = RNG.standard_normal((2, 3, 4, 5))
    t = RNG.integers(0, 3, (2, 4, 5))
    _compare(lambda m, a, b: m.nn.functional.cross_entropy(a, b, reduction=reduction, ignore_index=2), x, t)
    _compare(lambda m, a, b, w: m.nn.functional.cross_entropy(a, b, w, reduction=reduction), x, t, W[:3])
    x3 = RNG.standard_normal((2, 3, 4))
    _compare(lambda m, a, b: m.nn.functional.cross_entropy(a, b, reduction=reduction), x3, t[:, :, 0])
    _compare(lambda m, a, b: m.nn.functional.cross_entropy(a, b, reduction=reduction), X[0], np.array(3))
    # torch's own backward fails for this one ("size mismatch"): forward only.
    _compare(
        lambda m, a, b: m.nn.functional.cross_entropy(a, b, reduction=reduction), X[0], np.array([3]), grad=()
    )
    x4, t4 = RNG.standard_normal((2, 3, 2, 2)), RNG.integers(0, 3, (2, 2, 2))
    _compare(lambda m, a, b: m.nn.functional.cross_entropy(a, b, reduction=reduction), x4, t4)
    p4 = RNG.random((2, 3, 4))
    _compare(lambda m, a, b, w: m.nn.functional.cross_entropy(a, b, w, reduction=reduction, label_smoothing=0.1),
             x3, p4 / p4.sum(1, keepdims=True), W[:3], grad=(0, 1))  # fmt: skip
    _compare(
        lambda m, a, b: m.nn.functional.cross_entropy(a, b, reduction=reduction), X[0], PROBS[0], grad=(0, 1)
    )


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_nll_loss(reduction):
    logp = np.log(PROBS)
    _compare(lambda m, a, t: m.nn.functional.nll_loss(a, t, reduction=reduction), logp, IDX_IGNORED)
    _compare(lambda m, a, t, w: m.nn.functional.nll_loss(a, t, w, reduction=reduction, ignore_index=0),
             logp, IDX, W)  # fmt: skip
    byte = IDX.astype(np.uint8)
    _compare(lambda m, a, t: m.nn.functional.nll_loss(a, t, reduction=reduction), logp, byte)


@pytest.mark.parametrize("reduction", [0, 1, 2])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize(
    "target", [IDX_IGNORED, np.array([-100, -100, -100, -100])], ids=["some", "all ignored"]
)
def test_nll_loss_backward_op_matches_aten(reduction, weighted, target):
    grad_out = RNG.standard_normal(4) if reduction == 0 else np.array(0.7)
    outs = []
    for lib, call in ((torch, torch.ops.aten.nll_loss_backward), (yaten, yaten.nll_loss_backward)):
        w = lib.from_numpy(W.copy()) if weighted else None
        x, t = lib.from_numpy(np.log(PROBS)), lib.from_numpy(target.copy())
        total = (torch.ops.aten.nll_loss_forward if lib is torch else yaten.nll_loss_forward)(
            x, t, w, reduction, -100
        )[1]
        outs.append(call(lib.from_numpy(grad_out.copy()), x, t, w, reduction, -100, total))
    _close(outs[1], outs[0])


def test_nll_loss_weight_that_requires_grad_is_refused_as_in_torch():
    msg = "The function 'nll_loss_forward' is not differentiable with respect to argument 'weight'"
    for lib in (torch, yaten):
        x, t, w = lib.zeros(2, 3), lib.tensor([0, 2]), lib.ones(3, requires_grad=True)
        with pytest.raises(RuntimeError, match=msg):
            lib.nn.functional.nll_loss(x, t, w)
        with lib.no_grad():
            assert lib.nn.functional.nll_loss(x, t, w).item() == 0


def test_all_targets_ignored_mean_is_nan():
    _compare(lambda m, a, t: m.nn.functional.cross_entropy(a, t), X[:2], np.array([-100, -100]))
    _compare(lambda m, a, t: m.nn.functional.nll_loss(a, t), X[:0], IDX[:0])


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_binary_cross_entropy(reduction):
    p = 1 / (1 + np.exp(-X))
    p[0, 0], p[0, 1] = 0.0, 1.0  # log clamped at -100; gradient finite (PyTorch's eps) for the input

    # There the gradient divides by max((1 - p) * p, 1e-12): ~1e11, a few 1e-9 relative from torch's.
    def bce(m, a, b, w=None):
        return m.nn.functional.binary_cross_entropy(a, b, w, reduction=reduction)

    _compare(bce, p, PROBS, grad_rtol=1e-7)
    _compare(bce, p, PROBS, W, grad_rtol=1e-7)
    q = p.copy()
    q[0, :2] = 0.5
    _compare(
        lambda m, a, b: m.nn.functional.binary_cross_entropy(a, b, reduction=reduction), q, PROBS, grad=(0, 1)
    )


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_binary_cross_entropy_with_logits(reduction):
    x = X.copy()
    x[0, 0], x[0, 1], x[0, 2] = 0.0, 60.0, -60.0  # smooth at 0, no overflow on either tail
    f = lambda m, a, b, w=None, pw=None: m.nn.functional.binary_cross_entropy_with_logits(
        a, b, w, reduction=reduction, pos_weight=pw
    )
    _compare(f, x, PROBS, grad=(0, 1))
    _compare(f, x, PROBS, PROBS[::-1].copy(), W, grad=(0, 1))
    _compare(f, x.astype(np.float32), PROBS.astype(np.float32), grad=(0, 1))


@pytest.mark.parametrize("reduction", ["none", "mean", "sum", "batchmean"])
@pytest.mark.parametrize("log_target", [False, True])
def test_kl_div(reduction, log_target):
    target = np.log(PROBS[::-1]) if log_target else PROBS[::-1].copy()
    _compare(lambda m, a, b: m.nn.functional.kl_div(a, b, reduction=reduction, log_target=log_target),
             np.log(PROBS), target, grad=(0, 1))  # fmt: skip


def test_kl_div_zero_target_contributes_zero():
    target = PROBS.copy()
    target[0, 0] = 0.0
    _compare(lambda m, a, b: m.nn.functional.kl_div(a, b, reduction="sum"), np.log(PROBS), target)


def test_legacy_size_average_and_reduce():
    for kw in ({"size_average": False}, {"reduce": False}, {"size_average": True, "reduce": True}):
        _compare(lambda m, a, b, kw=kw: m.nn.functional.mse_loss(a, b, **kw), X, PROBS)
        _compare(lambda m, a, t, kw=kw: m.nn.functional.cross_entropy(a, t, **kw), X, IDX)
    with pytest.warns(UserWarning, match="please use reduction='sum' instead"):
        yaten.nn.functional.l1_loss(yaten.ones(2), yaten.ones(2), size_average=False)


def test_broadcasting_target_warns_like_torch():
    msg = "Using a target size .* that is different to the input size"
    with pytest.warns(UserWarning, match=msg):
        y = yaten.nn.functional.mse_loss(yaten.from_numpy(X), yaten.from_numpy(X[0]))
    with pytest.warns(UserWarning, match=msg):
        t = torch.nn.functional.mse_loss(torch.from_numpy(X), torch.from_numpy(X[0]))
    _close(y, t)


def test_kl_div_mean_warns():
    with pytest.warns(UserWarning, match="'batchmean' divides only by the batch size"):
        yaten.nn.functional.kl_div(yaten.zeros(2), yaten.ones(2))


def test_float32_cross_entropy_dtype_and_grad_fn():
    x = yaten.randn(8, 10, requires_grad=True)
    loss = yaten.nn.functional.cross_entropy(x, yaten.randint(0, 10, (8,)))
    assert loss.dtype is yaten.float32 and loss.shape == ()
    assert loss.grad_fn.name() == "NllLossBackward0"  # torch drops "Forward" from nll_loss_forward's node
    loss.backward()
    assert x.grad.shape == (8, 10)
    np.testing.assert_allclose(x.grad.sum(1).numpy(), 0, atol=1e-6)  # softmax - one_hot rows sum to 0


@pytest.mark.parametrize(
    "kwargs, target",
    [
        ({}, IDX),
        ({"reduction": "none"}, IDX_IGNORED),
        ({"label_smoothing": 0.1}, IDX),
        ({}, PROBS),
        ({"weight": W, "reduction": "sum"}, IDX),
    ],
)
def test_float16_cross_entropy_computes_in_float32_as_torch(kwargs, target):
    """torch's CPU kernels take half and compute in float32: a float16 result and gradient, within
    half precision of torch's."""
    results = []
    for lib in (torch, yaten):
        x = lib.tensor(X.astype(np.float16), requires_grad=True)
        t = lib.tensor(target.astype(np.float16) if target.dtype.kind == "f" else target)
        kw = {k: lib.tensor(v.astype(np.float16)) if k == "weight" else v for k, v in kwargs.items()}
        loss = lib.nn.functional.cross_entropy(x, t, **kw)
        loss.sum().backward()
        results.append((loss, x.grad))
    for y, t in zip(results[1], results[0]):
        assert str(t.dtype) == f"torch.{y.dtype.name}" == "torch.float16"
        np.testing.assert_allclose(y.detach().numpy(), t.detach().numpy(), rtol=2e-3, atol=1e-3)


@pytest.mark.parametrize(
    "call",
    [
        lambda F, x, t: F.cross_entropy(x, t, reduction="none"),
        lambda F, x, t: F.cross_entropy(x, t, label_smoothing=0.2),
        lambda F, x, t: F.nll_loss(x.log_softmax(1), t, reduction="sum", ignore_index=1),
    ],
)
def test_gradcheck_class_index_losses(call):
    x = yaten.from_numpy(X.copy()).requires_grad_()
    t = yaten.tensor([1, 0, 4, 1])
    f = lambda a: call(yaten.nn.functional, a, t)
    assert yaten.autograd.gradcheck(f, (x,))
    assert yaten.autograd.gradgradcheck(f, (x,))


@pytest.mark.parametrize(
    "call",
    [
        lambda F, x, p: F.cross_entropy(x, p, label_smoothing=0.1),
        lambda F, x, p: F.binary_cross_entropy_with_logits(x, p, pos_weight=p[0] + 1),
        lambda F, x, p: F.binary_cross_entropy(x.sigmoid(), p, reduction="sum"),
        lambda F, x, p: F.kl_div(x.log_softmax(1), p, reduction="batchmean"),
        lambda F, x, p: F.smooth_l1_loss(x, p, beta=0.5),
        lambda F, x, p: F.huber_loss(x, p, reduction="sum", delta=0.5),
    ],
)
def test_gradcheck_probability_losses(call):
    x = yaten.from_numpy(X.copy()).requires_grad_()
    p = yaten.from_numpy(PROBS.copy()).requires_grad_()
    f = lambda a, b: call(yaten.nn.functional, a, b)
    assert yaten.autograd.gradcheck(f, (x, p))
    assert yaten.autograd.gradgradcheck(f, (x, p))


ERRORS = [
    lambda m: m.nn.functional.cross_entropy(m.zeros(3, 5), m.tensor([1, 0, 5])),
    lambda m: m.nn.functional.cross_entropy(m.zeros(3, 5), m.tensor([1, 0, -2])),
    lambda m: m.nn.functional.cross_entropy(m.zeros(3, 5), m.zeros(3)),
    lambda m: m.nn.functional.cross_entropy(m.zeros(3, 5), m.tensor([1, 0, 2], dtype=m.int32)),
    lambda m: m.nn.functional.cross_entropy(m.zeros(3, 5), m.tensor([1, 0])),
    lambda m: m.nn.functional.cross_entropy(m.zeros(3, 5), m.ones(3, 5), ignore_index=1),
    lambda m: m.nn.functional.cross_entropy(m.zeros(3, 5), m.ones(3, 5, dtype=m.int64)),
    lambda m: m.nn.functional.cross_entropy(m.zeros(3, 5), m.tensor([1, 0, 2]), label_smoothing=1.5),
    lambda m: m.nn.functional.cross_entropy(m.zeros(3, 5), m.tensor([1, 0, 2]), reduction="bogus"),
    lambda m: m.nn.functional.cross_entropy(m.zeros(3, 5, dtype=m.int64), m.tensor([1, 0, 2])),
    lambda m: m.nn.functional.nll_loss(m.zeros(3, 5), m.tensor([1, 0, 2]), weight=m.ones(2)),
    lambda m: m.nn.functional.nll_loss(m.zeros(3, 5), m.zeros(3, 1, dtype=m.int64)),
    lambda m: m.nn.functional.nll_loss(m.zeros(2, 3, 4), m.zeros(2, 5, dtype=m.int64)),
    lambda m: m.nn.functional.nll_loss(m.tensor(1.0), m.tensor(0)),
    lambda m: m.nn.functional.nll_loss(m.zeros(2, 3), m.tensor(1)),
    lambda m: m.nn.functional.nll_loss(m.zeros(3), m.tensor([1, 2])),
    lambda m: m.nn.functional.nll_loss(m.zeros(2, 3, 4, 5), m.zeros(2, 4, 6, dtype=m.int64)),
    lambda m: m.nn.functional.nll_loss(m.zeros(2, 3, 4, 5), m.zeros(2, 4, dtype=m.int64)),
    lambda m: m.nn.functional.nll_loss(m.zeros(3, 5), m.tensor([1, 0, 2]), weight=m.ones(5, dtype=m.float64)),
    lambda m: m.nn.functional.nll_loss(m.zeros(3, 5, dtype=m.int64), m.tensor([1, 0, 2])),
    lambda m: m.nn.functional.mse_loss(m.zeros(3, 5), m.zeros(4)),
    lambda m: m.nn.functional.mse_loss(m.tensor([1, 2]), m.tensor([1, 2])),
    lambda m: m.nn.functional.mse_loss(m.zeros(3), m.zeros(3), reduction=None),
    lambda m: m.nn.functional.mse_loss(m.zeros(3), m.zeros(3), weight=m.ones(2)),
    lambda m: m.nn.functional.l1_loss(m.tensor([1, 2]), m.tensor([1, 2])),
    lambda m: m.nn.functional.smooth_l1_loss(m.zeros(3), m.zeros(3), beta=-1.0),
    lambda m: m.nn.functional.huber_loss(m.zeros(3), m.zeros(3), delta=0.0),
    lambda m: m.nn.functional.binary_cross_entropy(m.rand(3), m.rand(3, 1)),
    lambda m: m.nn.functional.binary_cross_entropy(m.tensor([1.5]), m.tensor([1.0])),
    lambda m: m.nn.functional.binary_cross_entropy(m.tensor([0.5]), m.tensor([1.0], dtype=m.float64)),
    lambda m: m.nn.functional.binary_cross_entropy_with_logits(m.rand(3), m.rand(3, 1)),
    lambda m: m.nn.functional.binary_cross_entropy_with_logits(m.tensor([1, 2]), m.tensor([1, 2])),
    lambda m: m.nn.functional.kl_div(m.tensor([1, 2]), m.tensor([1, 2]), reduction="sum"),
]


@pytest.mark.parametrize("case", ERRORS, ids=range(len(ERRORS)))
def test_errors_match_torch(case):
    got = same(case)
    assert isinstance(got, tuple) and isinstance(got[0], type) and issubclass(got[0], Exception)


# --- modules --------------------------------------------------------------------------------------
MODULES = [
    ("MSELoss", {}, "MSELoss()"),
    ("L1Loss", {"reduction": "sum"}, "L1Loss()"),
    ("SmoothL1Loss", {"beta": 0.5}, "SmoothL1Loss()"),
    ("HuberLoss", {"delta": 0.5}, "HuberLoss()"),
    ("CrossEntropyLoss", {"label_smoothing": 0.1}, "CrossEntropyLoss()"),
    ("NLLLoss", {"ignore_index": 1}, "NLLLoss()"),
    ("BCELoss", {}, "BCELoss()"),
    ("BCEWithLogitsLoss", {}, "BCEWithLogitsLoss()"),
    ("KLDivLoss", {"reduction": "batchmean", "log_target": True}, "KLDivLoss()"),
]


@pytest.mark.parametrize("cls, kwargs, text", MODULES, ids=[m[0] for m in MODULES])
def test_loss_module_repr_and_attributes(cls, kwargs, text):
    y, t = getattr(yaten.nn, cls)(**kwargs), getattr(torch.nn, cls)(**kwargs)
    assert repr(y) == repr(t) == text
    assert y.reduction == t.reduction
    assert list(y.state_dict()) == list(t.state_dict()) == []


def test_weighted_loss_modules_keep_weights_as_buffers():
    w = W.astype(np.float32)
    for cls, kw in (
        ("CrossEntropyLoss", "weight"),
        ("NLLLoss", "weight"),
        ("BCEWithLogitsLoss", "pos_weight"),
    ):
        y = getattr(yaten.nn, cls)(**{kw: yaten.from_numpy(w.copy())})
        t = getattr(torch.nn, cls)(**{kw: torch.from_numpy(w.copy())})
        assert list(y.state_dict()) == list(t.state_dict()) == [kw]
        assert list(dict(y.named_buffers())) == list(dict(t.named_buffers()))


def test_legacy_args_in_module():
    with pytest.warns(UserWarning, match="reduction='sum'"):
        assert yaten.nn.MSELoss(size_average=False).reduction == "sum"


@pytest.mark.parametrize(
    "cls, kwargs, make",
    [
        ("CrossEntropyLoss", {"weight": W, "ignore_index": 2, "label_smoothing": 0.1}, lambda: (X, IDX)),
        ("NLLLoss", {"weight": W}, lambda: (np.log(PROBS), IDX)),
        ("BCEWithLogitsLoss", {"pos_weight": W, "reduction": "sum"}, lambda: (X, PROBS)),
        ("BCELoss", {"weight": W}, lambda: (PROBS, PROBS[::-1].copy())),
        ("KLDivLoss", {"reduction": "batchmean"}, lambda: (np.log(PROBS), PROBS[::-1].copy())),
        ("HuberLoss", {"delta": 0.2, "reduction": "none"}, lambda: (X, PROBS)),
    ],
)
def test_loss_modules_match_torch(cls, kwargs, make):
    def call(m, a, b):
        kw = {k: (m.from_numpy(v.copy()) if isinstance(v, np.ndarray) else v) for k, v in kwargs.items()}
        return getattr(m.nn, cls)(**kw)(a, b)

    _compare(call, *make())
