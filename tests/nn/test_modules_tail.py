"""The tail of torch.nn's layers side by side with torch: GLU, Softmin, Softmax2d, RReLU, the alpha
dropouts, ChannelShuffle, LPPool*, MaxUnpool*, FractionalMaxPool*, CrossMapLRN2d, NLLLoss2d, Container,
SyncBatchNorm, EmbeddingBag and AdaptiveLogSoftmaxWithLoss: outputs, gradients (input and parameters,
with torch's parameters copied across), repr, state_dict keys and errors; and every class of torch.nn
present in yaten.nn."""

import importlib
import warnings

import numpy as np
import pytest
import torch

import yaten
from tests.nn._module_parity import errors_alike, pair
from tests.tolerances import assert_matches


def _twins(name, *args, **kwargs):
    """The same layer in both libraries (float64), yaten's holding torch's parameters and buffers."""
    t = getattr(torch.nn, name)(*args, **kwargs).double()
    y = getattr(yaten.nn, name)(*args, **kwargs).double()
    assert repr(y) == repr(t)
    assert list(y.state_dict()) == list(t.state_dict())
    y.load_state_dict({k: yaten.from_numpy(v.numpy().copy()) for k, v in t.state_dict().items()})
    return y, t


def _compare(y, t, shape, *extra, seed=0):
    """Outputs and the gradients of input and parameters for one (float64) input of ``shape``."""
    xy, xt = pair(*shape, seed=seed)
    xy.requires_grad_(), xt.requires_grad_()
    out_y, out_t = y(xy, *extra[::2]), t(xt, *extra[1::2])
    assert_matches(out_y, out_t)
    g = np.random.default_rng(seed + 1).standard_normal(tuple(out_t.shape))
    out_y.backward(yaten.from_numpy(g.copy()))
    out_t.backward(torch.from_numpy(g))
    assert_matches(xy.grad, xt.grad)
    for (ky, py), (kt, pt) in zip(y.named_parameters(), t.named_parameters()):
        assert ky == kt
        assert_matches(py.grad, pt.grad)


# --- activations -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, args, shape",
    [
        ("GLU", (), (3, 4)),
        ("GLU", (1,), (2, 6, 3)),
        ("Softmin", (1,), (3, 4)),
        ("Softmax2d", (), (2, 3, 2, 2)),
        ("Softmax2d", (), (3, 2, 2)),
        ("RReLU", (0.1, 0.3), (3, 5)),
    ],
)
def test_activation_layers_match_torch(name, args, shape):
    y, t = _twins(name, *args)
    y.eval(), t.eval()
    _compare(y, t, shape)


def test_activation_errors_and_reprs_match_torch():
    errors_alike(
        lambda: yaten.nn.Softmax2d()(yaten.ones(2, 2)), lambda: torch.nn.Softmax2d()(torch.ones(2, 2))
    )
    errors_alike(lambda: yaten.nn.GLU()(yaten.ones(3)), lambda: torch.nn.GLU()(torch.ones(3)))
    assert repr(yaten.nn.RReLU(inplace=True)) == repr(torch.nn.RReLU(inplace=True))
    assert repr(yaten.nn.Softmin()) == repr(torch.nn.Softmin()) == "Softmin(dim=None)"


def test_rrelu_training_draws_each_slope_from_its_bounds():
    x = -yaten.ones(2000, dtype=yaten.float64)
    slopes = -yaten.nn.RReLU(0.1, 0.3)(x).numpy()
    assert slopes.min() >= 0.1 and slopes.max() <= 0.3 and abs(slopes.mean() - 0.2) < 0.01


# --- dropout -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["AlphaDropout", "FeatureAlphaDropout"])
def test_alpha_dropouts_are_identity_in_eval_and_keep_selu_statistics_in_training(name):
    y, _ = _twins(name, 0.2)
    assert repr(y) == f"{name}(p=0.2, inplace=False)"
    x = yaten.randn(200, 50, 4, dtype=yaten.float64)
    assert y.eval()(x) is x
    out = y.train()(x).numpy()
    assert abs(out.mean()) < 0.05 and abs(out.std() - 1) < 0.05
    dropped = np.ptp(out, axis=2) < 1e-12  # a dropped element (channel) is one constant
    if name == "FeatureAlphaDropout":
        assert abs(dropped.mean() - 0.2) < 0.03
    else:
        assert abs((np.ptp(out[..., :1], axis=2) < 1e-12).mean() - 1) < 1e-12 and dropped.mean() < 0.01
    errors_alike(lambda: getattr(yaten.nn, name)(1.5), lambda: getattr(torch.nn, name)(1.5))


# --- shuffles and pooling -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, args, shape",
    [
        ("ChannelShuffle", (3,), (2, 6, 2, 2)),
        ("LPPool1d", (2, 3), (2, 3, 7)),
        ("LPPool1d", (1.5, 2, 1), (2, 6)),
        ("LPPool2d", (2, (2, 3), 2), (2, 2, 5, 7)),
        ("LPPool2d", (3, 2), (1, 2, 4, 4)),
        ("LPPool3d", (2, 2), (1, 2, 4, 4, 4)),
    ],
)
def test_shuffle_and_lp_pool_layers_match_torch(name, args, shape):
    y, t = _twins(name, *args)
    seed = 3
    if name.startswith("LPPool"):  # positive inputs: fractional powers of negatives are NaN in both
        xy, xt = pair(*shape, seed=seed)
        xy, xt = xy.abs() + 0.1, xt.abs() + 0.1
        xy.requires_grad_(), xt.requires_grad_()
        assert_matches(y(xy), t(xt))
        y(xy).sum().backward(), t(xt).sum().backward()
        assert_matches(xy.grad, xt.grad)
    else:
        _compare(y, t, shape, seed=seed)


@pytest.mark.parametrize(
    "dims, shape, kwargs",
    [
        (1, (2, 3, 8), {}),
        (2, (2, 2, 6, 6), {"stride": 2}),
        (2, (1, 2, 5, 5), {"padding": 1}),
        (3, (1, 2, 4, 4, 4), {}),
    ],
)
def test_max_unpool_inverts_max_pool_as_torch(dims, shape, kwargs):
    y_pool = getattr(yaten.nn, f"MaxPool{dims}d")(2, return_indices=True, **kwargs)
    t_pool = getattr(torch.nn, f"MaxPool{dims}d")(2, return_indices=True, **kwargs)
    y, t = _twins(f"MaxUnpool{dims}d", 2, **kwargs)
    xy, xt = pair(*shape)
    (vy, iy), (vt, it) = y_pool(xy), t_pool(xt)
    vy.requires_grad_(), vt.requires_grad_()
    out_y, out_t = y(vy, iy, output_size=shape[2:]), t(vt, it, output_size=shape[2:])
    assert_matches(out_y, out_t)
    out_y.sum().backward(), out_t.sum().backward()
    assert_matches(vy.grad, vt.grad)
    try:  # the default output size: too small for the indices of a padded pooling
        expected = t(vt, it)
    except RuntimeError:
        with pytest.raises(RuntimeError):
            y(vy, iy)
    else:
        assert_matches(y(vy, iy), expected)


def _samples(n, c, dims, seed=0):
    return np.random.default_rng(seed).uniform(0.05, 0.95, (n, c, dims))


@pytest.mark.parametrize(
    "dims, shape, kwargs",
    [
        (2, (2, 3, 9, 8), {"output_size": (4, 3)}),
        (2, (2, 3, 10, 10), {"output_ratio": (0.5, 0.7)}),
        (2, (3, 7, 7), {"output_size": 3}),
        (3, (1, 2, 7, 6, 8), {"output_size": (3, 2, 4)}),
        (3, (2, 6, 6, 6), {"output_ratio": 0.5}),
    ],
)
@pytest.mark.parametrize("dtype", ["bfloat16", "float32", "float64"])
def test_fractional_max_pool_matches_torch_for_the_same_samples(dims, shape, kwargs, dtype):
    batched = len(shape) == dims + 2
    samples = _samples(shape[0] if batched else 1, shape[-dims - 1], dims)
    t = getattr(torch.nn, f"FractionalMaxPool{dims}d")(2, return_indices=True, **kwargs,
                                                      _random_samples=torch.from_numpy(samples).to(getattr(torch, dtype)))  # fmt: skip
    y = getattr(yaten.nn, f"FractionalMaxPool{dims}d")(2, return_indices=True, **kwargs,
                                                      _random_samples=yaten.from_numpy(samples).to(getattr(yaten, dtype)))  # fmt: skip
    assert repr(y) == repr(t) and list(y.state_dict()) == list(t.state_dict()) == ["_random_samples"]
    xy, xt = pair(*shape)
    xy, xt = xy.to(getattr(yaten, dtype)).requires_grad_(), xt.to(getattr(torch, dtype)).requires_grad_()
    (vy, iy), (vt, it) = y(xy), t(xt)
    assert iy.tolist() == it.tolist()
    assert_matches(vy, vt)
    g = np.random.default_rng(2).standard_normal(tuple(vt.shape))
    vy.backward(yaten.from_numpy(g).to(vy.dtype)), vt.backward(torch.from_numpy(g).to(vt.dtype))
    assert_matches(xy.grad, xt.grad)


def test_fractional_max_pool_keeps_the_first_maximum_but_the_last_nan():
    x = [[[[1.0, float("nan"), 3.0], [float("nan"), 2.0, 0.0], [1.0, 1.0, 1.0]]]]
    ones = [[[[1.0, 1, 1], [1, 1, 0], [1, 1, 1]]]]
    for data in (x, ones):
        vy, iy = yaten.nn.functional.fractional_max_pool2d(
            yaten.tensor(data),
            2,
            output_size=2,
            return_indices=True,
            _random_samples=yaten.full((1, 1, 2), 0.5),
        )
        vt, it = torch.nn.functional.fractional_max_pool2d(
            torch.tensor(data),
            2,
            output_size=2,
            return_indices=True,
            _random_samples=torch.full((1, 1, 2), 0.5),
        )
        assert iy.tolist() == it.tolist()
        assert_matches(vy, vt)


def test_fractional_max_pool_draws_its_samples_when_none_are_given():
    out = yaten.nn.FractionalMaxPool2d(2, output_size=(3, 3))(yaten.randn(2, 3, 7, 7))
    assert tuple(out.shape) == (2, 3, 3, 3)
    with pytest.raises(TypeError):  # torch's len() of a bare float ratio
        yaten.nn.functional.fractional_max_pool2d(yaten.randn(1, 1, 4, 4), 2, output_ratio=0.5)


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.nn.functional.fractional_max_pool2d(m.ones(1, 1, 4, 4), 2),
        lambda m: m.nn.functional.fractional_max_pool2d(m.ones(1, 1, 4, 4), 2, output_ratio=(0.5, 0.5, 0.5)),
        lambda m: m.nn.functional.fractional_max_pool2d(
            m.ones(1, 1, 5, 5), 2, 5, _random_samples=m.rand(1, 1, 2)
        ),
        lambda m: m.nn.functional.fractional_max_pool2d(m.ones(5, 5), 2, 2, _random_samples=m.rand(1, 1, 2)),
        lambda m: m.nn.functional.fractional_max_pool2d(
            m.ones(1, 2, 5, 5), 2, 2, _random_samples=m.rand(1, 1, 2)
        ),
        lambda m: m.nn.functional.fractional_max_pool2d(
            m.ones(2, 2, 5, 5), 2, 2, _random_samples=m.rand(1, 2, 2)
        ),
        lambda m: m.nn.functional.fractional_max_pool2d(
            m.ones(1, 2, 5, 5), 2, 2, _random_samples=m.rand(1, 2, 3)
        ),
        lambda m: m.nn.functional.fractional_max_pool2d(
            m.ones(1, 2, 5, 5), 2, 2, _random_samples=m.rand(2, 2)
        ),
        lambda m: m.nn.functional.fractional_max_pool2d(
            m.ones(1, 2, 5, 5), 2, 2, _random_samples=m.rand(1, 2, 2, dtype=m.float64)
        ),
        lambda m: m.nn.functional.fractional_max_pool2d(
            m.ones(1, 0, 5, 5), 2, 2, _random_samples=m.rand(1, 0, 2)
        ),
        lambda m: m.nn.functional.fractional_max_pool3d(
            m.ones(1, 2, 4, 5, 5), 2, 3, _random_samples=m.rand(1, 2, 3)
        ),
        lambda m: m.nn.functional.fractional_max_pool3d(
            m.ones(1, 2, 6, 5, 5), 2, (3, 4, 3), _random_samples=m.rand(1, 2, 3)
        ),
        lambda m: m.nn.functional.fractional_max_pool3d(
            m.ones(1, 2, 6, 5, 5), 2, (3, 3, 4), _random_samples=m.rand(1, 2, 3)
        ),
        lambda m: m.nn.functional.fractional_max_pool3d(
            m.ones(5, 5, 5), 2, 2, _random_samples=m.rand(1, 1, 3)
        ),
        lambda m: m.nn.functional.fractional_max_pool2d(
            m.ones(1, 1, 5, 5, dtype=m.long), 2, 2, _random_samples=m.ones(1, 1, 2, dtype=m.long)
        ),
        lambda m: m.nn.FractionalMaxPool2d(2),
        lambda m: m.nn.FractionalMaxPool3d(2, output_size=2, output_ratio=0.5),
        lambda m: m.nn.FractionalMaxPool3d(0, output_size=2),
    ],
)
def test_fractional_max_pool_errors_match_torch(call):
    errors_alike(lambda: call(yaten), lambda: call(torch))


def test_fractional_random_samples_may_not_require_grad():
    errors_alike(
        lambda: yaten.fractional_max_pool2d(
            yaten.ones(1, 1, 4, 4), [2, 2], [2, 2], yaten.rand(1, 1, 2).requires_grad_()
        ),
        lambda: torch._C._nn.fractional_max_pool2d(
            torch.ones(1, 1, 4, 4), [2, 2], [2, 2], torch.rand(1, 1, 2).requires_grad_()
        ),
    )


# --- normalization ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "size, shape", [(5, (2, 7, 3, 2)), (4, (1, 6, 2, 2)), (3, (2, 2, 2, 3)), (2, (1, 9, 1, 2))]
)
def test_cross_map_lrn2d_matches_torchs_legacy_forward_and_backward(size, shape):
    y, t = _twins("CrossMapLRN2d", size, 0.5, 0.7, 1.5)
    assert repr(y) == f"CrossMapLRN2d({size}, alpha=0.5, beta=0.7, k=1.5)"
    _compare(y, t, shape)
    errors_alike(lambda: y(yaten.ones(2, 3, 4)), lambda: t(torch.ones(2, 3, 4)))


@pytest.mark.parametrize("shape", [(4, 3), (4, 3, 5), (2, 3, 2, 2), (2, 3, 2, 2, 2)])
def test_sync_batch_norm_is_batch_norm_without_a_process_group(shape):
    y, t = _twins("SyncBatchNorm", 3, momentum=0.3)
    _compare(y, t, shape)
    for name in ("running_mean", "running_var", "num_batches_tracked"):
        assert_matches(getattr(y, name), getattr(t, name))
    y.eval(), t.eval()
    _compare(y, t, shape, seed=5)


def test_sync_batch_norm_errors_match_torch():
    y, t = yaten.nn.SyncBatchNorm(3), torch.nn.SyncBatchNorm(3)
    errors_alike(lambda: y(yaten.ones(3)), lambda: t(torch.ones(3)))
    y0, t0 = yaten.nn.SyncBatchNorm(0), torch.nn.SyncBatchNorm(0)
    errors_alike(lambda: y0(yaten.ones(2, 0)), lambda: t0(torch.ones(2, 0)))


def test_convert_sync_batchnorm_shares_the_parameters_and_state():
    def net(m):
        return m.nn.Sequential(m.nn.Conv2d(3, 4, 1), m.nn.Sequential(m.nn.BatchNorm2d(4, affine=False)),
                               m.nn.BatchNorm1d(4)).eval()  # fmt: skip

    y_net, t_net = net(yaten), net(torch)
    old = y_net[2]
    y_conv = yaten.nn.SyncBatchNorm.convert_sync_batchnorm(y_net)
    t_conv = torch.nn.SyncBatchNorm.convert_sync_batchnorm(t_net)
    assert repr(y_conv) == repr(t_conv)
    assert y_conv[2].weight is old.weight and y_conv[2].running_mean is old.running_mean
    assert not y_conv[2].training and list(y_conv.state_dict()) == list(t_conv.state_dict())
    assert (
        type(yaten.nn.SyncBatchNorm.convert_sync_batchnorm(yaten.nn.BatchNorm2d(2))) is yaten.nn.SyncBatchNorm
    )


# --- losses and containers ----------------------------------------------------------------------------
def test_nll_loss2d_warns_and_is_nll_loss():
    for lib in (yaten, torch):
        with pytest.warns(
            FutureWarning, match="^`NLLLoss2d` has been deprecated. Please use `NLLLoss` instead"
        ):
            lib.nn.NLLLoss2d(ignore_index=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y, t = _twins("NLLLoss2d", reduction="sum")
    target = np.random.default_rng(3).integers(0, 3, (2, 4, 4))
    _compare(y, t, (2, 3, 4, 4), yaten.from_numpy(target), torch.from_numpy(target))


def test_container_warns_and_registers_its_keyword_children():
    for lib in (yaten, torch):
        with pytest.warns(FutureWarning, match="^`nn.Container` is deprecated"):
            c = lib.nn.Container(a=lib.nn.Linear(2, 3), b=lib.nn.ReLU())
        assert list(dict(c.named_children())) == ["a", "b"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert repr(yaten.nn.Container(a=yaten.nn.ReLU())) == repr(torch.nn.Container(a=torch.nn.ReLU()))


# --- EmbeddingBag --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"mode": "sum"}, {"mode": "max"}, {"padding_idx": 2}, {"mode": "sum", "include_last_offset": True}],
)
def test_embedding_bag_with_offsets_matches_torch(kwargs):
    y, t = _twins("EmbeddingBag", 6, 3, **kwargs)
    if kwargs.get("include_last_offset"):
        # torch's float64 CPU forward, and its backward in any dtype, let the last bag run to the input's
        # end; its float32 forward (and the documentation) ends it at the last offset, as yaten does.
        y, t = y.float(), t.float()
    idx = np.array([1, 2, 4, 4, 0, 5, 2])
    offsets = np.array([0, 3, 3, 5])
    out_y = y(yaten.from_numpy(idx), yaten.from_numpy(offsets))
    out_t = t(torch.from_numpy(idx), torch.from_numpy(offsets))
    assert_matches(out_y, out_t)
    if kwargs.get("include_last_offset"):
        return
    g = np.random.default_rng(4).standard_normal(tuple(out_t.shape))
    out_y.backward(yaten.from_numpy(g)), out_t.backward(torch.from_numpy(g))
    assert_matches(y.weight.grad, t.weight.grad)


def test_embedding_bag_2d_input_and_per_sample_weights_match_torch():
    y, t = _twins("EmbeddingBag", 5, 4, mode="sum")
    idx = np.array([[0, 1, 3], [4, 4, 2]])
    wy, wt = pair(2, 3, seed=2)
    wy.requires_grad_(), wt.requires_grad_()
    out_y = y(yaten.from_numpy(idx), per_sample_weights=wy)
    out_t = t(torch.from_numpy(idx), per_sample_weights=wt)
    assert_matches(out_y, out_t)
    out_y.sum().backward(), out_t.sum().backward()
    assert_matches(wy.grad, wt.grad)
    assert_matches(y.weight.grad, t.weight.grad)


def test_embedding_bag_init_repr_and_from_pretrained_match_torch():
    m = yaten.nn.EmbeddingBag(10, 3, padding_idx=-1)
    w = m.weight.detach().numpy()
    assert m.padding_idx == 9 and not w[9].any() and w.std() > 0.3
    for kwargs in (
        {},
        {"max_norm": 1.0, "norm_type": 1.0, "mode": "max"},
        {"scale_grad_by_freq": True, "padding_idx": 0},
    ):
        assert repr(yaten.nn.EmbeddingBag(4, 2, **kwargs)) == repr(torch.nn.EmbeddingBag(4, 2, **kwargs))
    weights = np.arange(6.0).reshape(3, 2)
    y = yaten.nn.EmbeddingBag.from_pretrained(yaten.from_numpy(weights), mode="max")
    t = torch.nn.EmbeddingBag.from_pretrained(torch.from_numpy(weights), mode="max")
    assert repr(y) == repr(t) and not y.weight.requires_grad
    assert_matches(y(yaten.tensor([[0, 2], [1, 1]])), t(torch.tensor([[0, 2], [1, 1]])))
    assert yaten.nn.EmbeddingBag.from_pretrained(yaten.ones(2, 2), freeze=False).weight.requires_grad
    errors_alike(
        lambda: yaten.nn.EmbeddingBag(3, 2, padding_idx=3), lambda: torch.nn.EmbeddingBag(3, 2, padding_idx=3)
    )
    errors_alike(
        lambda: yaten.nn.EmbeddingBag.from_pretrained(yaten.ones(3)),
        lambda: torch.nn.EmbeddingBag.from_pretrained(torch.ones(3)),
    )


# --- AdaptiveLogSoftmaxWithLoss --------------------------------------------------------------------------
@pytest.mark.parametrize("head_bias", [False, True])
def test_adaptive_log_softmax_matches_torch(head_bias):
    y, t = _twins("AdaptiveLogSoftmaxWithLoss", 8, 12, [3, 7], div_value=2.0, head_bias=head_bias)
    first = ["head.weight", "head.bias"] if head_bias else ["head.weight", "tail.0.0.weight"]
    assert list(y.state_dict())[:2] == first
    xy, xt = pair(6, 8)
    target = np.array([0, 4, 11, 2, 7, 5])
    xy.requires_grad_(), xt.requires_grad_()
    out_y, out_t = y(xy, yaten.from_numpy(target)), t(xt, torch.from_numpy(target))
    assert_matches(out_y.output, out_t.output)
    assert_matches(out_y.loss, out_t.loss)
    out_y.loss.backward(), out_t.loss.backward()
    assert_matches(xy.grad, xt.grad)
    for (ky, py), (kt, pt) in zip(y.named_parameters(), t.named_parameters()):
        assert ky == kt
        assert_matches(py.grad, pt.grad)
    with torch.no_grad():
        assert_matches(y.log_prob(xy.detach()), t.log_prob(xt.detach()))
        assert y.predict(xy.detach()).tolist() == t.predict(xt.detach()).tolist()
    single = y(xy[0].detach(), yaten.tensor(4))
    assert tuple(single.output.shape) == () and tuple(single.loss.shape) == ()


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.nn.AdaptiveLogSoftmaxWithLoss(4, 10, []),
        lambda m: m.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [5, 3]),
        lambda m: m.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [3, 10]),
        lambda m: m.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [3])(m.ones(2, 4), m.tensor([1, 10])),
        lambda m: m.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [3])(m.ones(2, 4), m.tensor([1])),
        lambda m: m.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [3])(m.ones(2, 4), m.tensor(1)),
        lambda m: m.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [3])(m.ones(2, 4), m.ones(2, 2).long()),
    ],
)
def test_adaptive_log_softmax_errors_match_torch(call):
    errors_alike(lambda: call(yaten), lambda: call(torch))


# --- the whole surface -----------------------------------------------------------------------------------
def test_every_torch_nn_module_class_is_in_yaten_nn_at_torchs_class_path():
    # Each class also where torch keeps it (torch.nn.modules.<file>), so pickles and allowlists find it.
    missing = []
    for name in dir(torch.nn):
        cls = getattr(torch.nn, name)
        if not isinstance(cls, type) or not cls.__module__.startswith("torch.nn"):
            continue
        module = importlib.import_module("yaten" + cls.__module__.removeprefix("torch"))
        if not hasattr(yaten.nn, name) or not hasattr(module, name):
            missing.append(f"{cls.__module__}.{name}")
    assert missing == []
