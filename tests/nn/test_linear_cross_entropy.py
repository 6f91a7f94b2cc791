"""F.linear_cross_entropy, LinearCrossEntropyLoss and LinearCrossEntropyOptions side by side with torch:
the reference path and the chunked one (values, gradients of input, weight and bias), the options'
resolution, the fallback warning, errors, repr and state_dict."""

import warnings

import numpy as np
import pytest
import torch

import yaten
from tests.nn._module_parity import errors_alike, pair
from tests.tolerances import assert_close, assert_matches

OPTIONS = [None, {"batch_chunk_size": 1}, {"batch_chunk_size": 3}, {}, {"chunking_method": "aspect_ratio"}]


def _options(lib, spec):
    return None if spec is None else lib.nn.LinearCrossEntropyOptions(**spec)


def _run(lib, x, w, b, target, options, **kwargs):
    out = lib.nn.functional.linear_cross_entropy(x, w, target, linear_bias=b, options=options, **kwargs)
    g = np.random.default_rng(7).standard_normal(tuple(out.shape))
    out.backward(lib.from_numpy(g) if lib is yaten else torch.from_numpy(g))
    return out


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"reduction": "sum"},
        {"reduction": "none"},
        {"ignore_index": 2},
        {"class_weight": True},
        {"class_weight": True, "ignore_index": 0, "reduction": "mean"},
    ],
)
@pytest.mark.parametrize("bias", [False, True])
def test_linear_cross_entropy_matches_torch(options, kwargs, bias):
    kwargs = dict(kwargs)
    (xy, xt), (wy, wt) = pair(7, 4), pair(6, 4, seed=1)
    by, bt = pair(6, seed=2) if bias else (None, None)
    target = np.array([0, 2, 5, 2, 1, 3, 2])
    if kwargs.pop("class_weight", False):
        cy, ct = pair(6, seed=3)
        kwargs_y, kwargs_t = {**kwargs, "weight": cy.abs()}, {**kwargs, "weight": ct.abs()}
    else:
        kwargs_y = kwargs_t = kwargs
    leaves_y = [t for t in (xy, wy, by) if t is not None]
    leaves_t = [t for t in (xt, wt, bt) if t is not None]
    for t in leaves_y + leaves_t:
        t.requires_grad_()
    out_y = _run(yaten, xy, wy, by, yaten.from_numpy(target), _options(yaten, options), **kwargs_y)
    out_t = _run(torch, xt, wt, bt, torch.from_numpy(target), _options(torch, options), **kwargs_t)
    assert_matches(out_y, out_t)
    for ly, lt in zip(leaves_y, leaves_t):
        assert_matches(ly.grad, lt.grad)


@pytest.mark.parametrize("options", [None, {"batch_chunk_size": 1}])
def test_unbatched_input_matches_torch(options):
    (xy, xt), (wy, wt) = pair(4), pair(5, 4, seed=1)
    xy.requires_grad_(), xt.requires_grad_()
    out_y = _run(yaten, xy, wy, None, yaten.tensor(3), _options(yaten, options))
    out_t = _run(torch, xt, wt, None, torch.tensor(3), _options(torch, options))
    assert_matches(out_y, out_t)
    assert_matches(xy.grad, xt.grad)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"out_features": True},
        {"probabilities": True},
        {"label_smoothing": 0.2},
        {"reduction": "sum", "out_features": True},
    ],
)
def test_the_reference_path_and_the_fallback_warning_match_torch(kwargs):
    kwargs = dict(kwargs)
    k_dim = kwargs.pop("out_features", False)
    probabilities = kwargs.pop("probabilities", False)
    (xy, xt), (wy, wt) = pair(5, 3), pair(*((4, 2, 3) if k_dim else (4, 3)), seed=1)
    if probabilities:
        target = np.random.default_rng(2).dirichlet(np.ones(4), size=5)
    elif k_dim:
        target = np.random.default_rng(2).integers(0, 4, (5, 2))
    else:
        target = np.array([0, 3, 1, 1, 2])
    messages = []
    results = []
    for lib, x, w in ((yaten, xy, wy), (torch, xt, wt)):
        x.requires_grad_()
        tgt = lib.from_numpy(target.copy()) if lib is yaten else torch.from_numpy(target.copy())
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            results.append(_run(lib, x, w, None, tgt, lib.nn.LinearCrossEntropyOptions(), **kwargs))
        messages.append([str(c.message).replace("yaten.", "torch.") for c in caught])
    assert messages[0] == messages[1] and len(messages[0]) == 1
    assert_matches(*results)
    assert_matches(xy.grad, xt.grad)


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.nn.functional.linear_cross_entropy(m.ones(2, 3, 4), m.ones(5, 4), m.tensor([0, 1])),
        lambda m: m.nn.functional.linear_cross_entropy(m.ones(2, 4), m.ones(4), m.tensor([0, 1])),
        lambda m: m.nn.functional.linear_cross_entropy(m.ones(2, 4), m.ones(5, 3), m.tensor([0, 1])),
        lambda m: m.nn.functional.linear_cross_entropy(
            m.ones(2, 4), m.ones(5, 4), m.tensor([0, 1]), linear_bias=m.ones(4)
        ),
        lambda m: m.nn.functional.linear_cross_entropy(m.ones(4), m.ones(5, 2, 4), m.tensor([0, 1])),
        lambda m: m.nn.functional.linear_cross_entropy(
            m.ones(2, 4), m.ones(5, 4), m.ones(2, 5) / 5, ignore_index=1
        ),
        lambda m: m.nn.LinearCrossEntropyLoss(4, 5, weight=m.ones(4)),
        lambda m: m.nn.LinearCrossEntropyLoss(4, 5, label_smoothing=1.5),
        lambda m: m.nn.LinearCrossEntropyOptions(acc_policy="fast"),
        lambda m: m.nn.LinearCrossEntropyOptions(chunking_method="aspect_ratio:0"),
        lambda m: m.nn.LinearCrossEntropyOptions(batch_chunk_size=0),
        lambda m: m.nn.LinearCrossEntropyOptions(acc_dtype=m.int32),
        lambda m: m.nn.LinearCrossEntropyOptions(batch_chunk_size=3, chunking_method="aspect_ratio")._adjust(
            10, 8, 100, m.float32, m.device("cpu")
        ),
    ],
)
def test_errors_match_torch(call):
    errors_alike(lambda: call(yaten), lambda: call(torch))


@pytest.mark.parametrize(
    "spec, args",
    [
        ({}, (10, 8, 100, "float32", "cpu")),
        ({}, (1000, 64, 50000, "bfloat16", "cpu")),
        ({}, (37, 5, 3, "float64", None)),
        ({"batch_chunk_size": 4}, (10, 8, 100, "float32", "cpu")),
        ({"batch_chunk_size": 40}, (10, 8, 100, "float16", "cpu")),
        (
            {"chunking_method": "aspect_ratio:4", "acc_policy": "balanced", "acc_dtype": "float64"},
            (300, 16, 64, "float32", "cpu"),
        ),
        ({"chunking_method": None}, (30, 16, 64, "bfloat16", "cpu")),
    ],
)
def test_options_resolve_as_torch(spec, args):
    n, f, c, dtype, device = args
    resolved = []
    for lib in (yaten, torch):
        s = {k: getattr(lib, v) if k == "acc_dtype" else v for k, v in spec.items()}
        opts = lib.nn.LinearCrossEntropyOptions(**s)
        dev = None if device is None else lib.device(device)
        resolved.append(repr(opts._adjust(n, f, c, getattr(lib, dtype), dev)).replace("yaten.", "torch."))
    assert resolved[0] == resolved[1]


def test_module_matches_torch_with_torchs_weights():
    for kwargs in ({}, {"bias": True, "out_features": (2,), "ignore_index": 1, "label_smoothing": 0.1}):
        t = torch.nn.LinearCrossEntropyLoss(4, 3, **kwargs).double()
        y = yaten.nn.LinearCrossEntropyLoss(4, 3, **kwargs).double()
        assert repr(y) == repr(t) and list(y.state_dict()) == list(t.state_dict())
        y.load_state_dict({k: yaten.from_numpy(v.numpy().copy()) for k, v in t.state_dict().items()})
        xy, xt = pair(5, 4)
        shape = (5, 2) if kwargs else (5,)
        target = np.random.default_rng(1).integers(0, 3, shape)
        out_y, out_t = y(xy, yaten.from_numpy(target)), t(xt, torch.from_numpy(target))
        assert_matches(out_y, out_t)
        out_y.backward(), out_t.backward()
        assert_matches(y.linear.weight.grad, t.linear.weight.grad)


def test_the_chunked_path_keeps_no_logits_for_backward():
    x, w = yaten.randn(64, 8, requires_grad=True), yaten.randn(1000, 8, requires_grad=True)
    target = yaten.randint(0, 1000, (64,))
    opts = yaten.nn.LinearCrossEntropyOptions(batch_chunk_size=8)
    loss = yaten.nn.functional.linear_cross_entropy(x, w, target, options=opts)
    saved = [t for t in loss.grad_fn.saved_tensors if t is not None]
    assert all(t.numel() <= 8000 for t in saved)  # the inputs themselves, no (64, 1000) logits
    loss.backward()
    reference = yaten.nn.functional.cross_entropy(x.detach() @ w.detach().t(), target)
    assert_close(loss, reference)
