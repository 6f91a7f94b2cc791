"""The argument handling of nn.functional's vision, pooling, distance, dropout and loss wrappers, side
by side with torch: F.pad, F.interpolate (every mode, size / scale_factor / recompute_scale_factor, the
area mode's adaptive pooling, torch's errors), the deprecated upsample names, the 1-d and adaptive
max pooling wrappers (return_indices, None sizes), normalize, channel dropout, and the losses whose
reduction strings the wrappers turn into ATen's enum. The ops under them are in the op table."""

import warnings

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_matches

RNG = np.random.default_rng(0)


def _arr(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def _same(name, arrays, *args, **kwargs):
    """F.<name> on yaten and torch: outputs (every one) and the gradients of the floating inputs."""
    ys = [yaten.from_numpy(a.copy()).requires_grad_(a.dtype.kind == "f") for a in arrays]
    ts = [torch.from_numpy(a.copy()).requires_grad_(a.dtype.kind == "f") for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yo = getattr(yaten.nn.functional, name)(*ys, *args, **kwargs)
        to = getattr(torch.nn.functional, name)(*ts, *args, **kwargs)
    yo, to = (yo, to) if isinstance(to, tuple) else ((yo,), (to,))
    for a, b in zip(yo, to):
        assert_matches(a, b)
    w = _arr(*to[0].shape, seed=5)
    (yo[0] * yaten.from_numpy(w)).sum().backward()
    (to[0] * torch.from_numpy(w)).sum().backward()
    for y, t in zip(ys, ts):
        if t.grad is not None:
            assert_matches(y.grad, t.grad)


def _raises_like(name, arrays, *args, **kwargs):
    with pytest.raises(Exception) as te:
        getattr(torch.nn.functional, name)(*[torch.from_numpy(a) for a in arrays], *args, **kwargs)
    with pytest.raises(type(te.value)) as ye:
        getattr(yaten.nn.functional, name)(*[yaten.from_numpy(a) for a in arrays], *args, **kwargs)
    assert str(ye.value).replace("yaten.Size", "torch.Size") == str(te.value)


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
@pytest.mark.parametrize(
    "shape, pad", [((2, 3, 5), (2, 1)), ((2, 3, 4, 5), (1, 2, 2, 1)), ((1, 2, 3, 4, 5), (1, 0, 2, 1, 1, 2))]
)
def test_pad_modes(mode, shape, pad):
    _same("pad", [_arr(*shape)], pad, mode=mode)


def test_pad_constant_value_and_negative():
    _same("pad", [_arr(2, 3, 4)], (-1, 2, 1, 0), value=2.5)
    _same("pad", [_arr(4)], (1, 3), "constant", -1.0)


@pytest.mark.parametrize(
    "shape, kwargs",
    [
        ((2, 3, 6), {"size": 9, "mode": "nearest"}),
        ((2, 3, 6), {"scale_factor": 1.5, "mode": "nearest-exact"}),
        ((2, 3, 6), {"scale_factor": 0.5, "mode": "linear", "align_corners": True}),
        ((2, 3, 6), {"size": 4, "mode": "area"}),
        ((2, 3, 5, 4), {"size": (7, 3), "mode": "bilinear"}),
        ((2, 3, 5, 4), {"scale_factor": 2, "mode": "bicubic", "align_corners": True}),
        ((2, 3, 5, 4), {"scale_factor": (1.7, 0.6), "mode": "bilinear", "recompute_scale_factor": True}),
        ((2, 3, 5, 4), {"scale_factor": 0.5, "mode": "area"}),
        ((2, 3, 5, 4), {"scale_factor": 2}),
        ((1, 2, 3, 4, 3), {"size": (4, 3, 5), "mode": "trilinear"}),
        ((1, 2, 3, 4, 3), {"scale_factor": 1.5, "mode": "nearest"}),
        ((1, 2, 4, 4, 6), {"size": (2, 3, 4), "mode": "area"}),
    ],
)
def test_interpolate(shape, kwargs):
    _same("interpolate", [_arr(*shape)], **kwargs)


@pytest.mark.parametrize(
    "shape, kwargs",
    [
        ((2, 3, 4), {"size": 2, "scale_factor": 2}),
        ((2, 3, 4), {}),
        ((2, 3, 4), {"size": (2, 2)}),
        ((2, 3, 4), {"scale_factor": (2, 2)}),
        ((2, 3, 4), {"size": 2, "align_corners": True}),
        ((2, 3, 4), {"size": 2, "mode": "bilinear"}),
        ((2, 3, 4, 4), {"size": 2, "mode": "linear"}),
        ((2, 3), {"size": 2}),
        ((2, 3, 4), {"size": 2, "mode": "foo"}),
        ((2, 3, 4), {"size": 2, "recompute_scale_factor": True}),
    ],
)
def test_interpolate_errors(shape, kwargs):
    _raises_like("interpolate", [_arr(*shape)], **kwargs)


def test_deprecated_upsample_names_warn_and_match():
    for name, kwargs in [("upsample", {"scale_factor": 2, "mode": "bilinear"}), ("upsample_nearest", {"size": 5}),
                         ("upsample_bilinear", {"scale_factor": 2})]:  # fmt: skip
        with pytest.warns(UserWarning, match="is deprecated"):
            getattr(yaten.nn.functional, name)(yaten.ones(1, 1, 2, 3), **kwargs)
        _same(name, [_arr(1, 2, 3, 4)], **kwargs)


def test_pooling_wrappers():
    _same("avg_pool1d", [_arr(2, 3, 8)], 3, padding=1, count_include_pad=False)
    _same("max_pool1d", [_arr(2, 3, 8)], 3, stride=2, return_indices=True)
    _same("max_pool1d", [_arr(3, 9)], 2, dilation=2, ceil_mode=True)
    _same("adaptive_avg_pool1d", [_arr(2, 3, 7)], 3)
    _same("adaptive_avg_pool3d", [_arr(2, 2, 5, 4, 6)], (2, None, 4))
    _same("adaptive_max_pool1d", [_arr(2, 3, 7)], 3, return_indices=True)
    _same("adaptive_max_pool2d", [_arr(2, 3, 5, 7)], (None, 3), return_indices=True)
    _same("adaptive_max_pool2d", [_arr(2, 3, 5, 7)], 2)
    _same("adaptive_max_pool3d", [_arr(2, 2, 5, 4, 6)], (2, 3, None), return_indices=True)


def test_distances_and_gated():
    _same("normalize", [_arr(3, 4)])
    _same("normalize", [_arr(3, 4, 2)], p=1.0, dim=-1)
    _same("cosine_similarity", [_arr(3, 4), _arr(1, 4, seed=1)])
    _same("pairwise_distance", [_arr(3, 4), _arr(3, 4, seed=1)], p=3.0, keepdim=True)
    _same("glu", [_arr(4, 3)], 0)
    _same("prelu", [_arr(2, 3, 4), _arr(3, seed=1)])
    _same("pixel_shuffle", [_arr(2, 8, 2, 3)], 2)
    _same("pixel_unshuffle", [_arr(2, 2, 4, 6)], 2)
    _raises_like("glu", [np.array(1.0)])


def test_normalize_out():
    x, out = yaten.tensor([[3.0, 4.0]]), yaten.empty(1, 2)
    assert yaten.nn.functional.normalize(x, out=out) is out
    assert out.flatten().tolist() == pytest.approx([0.6, 0.8])


@pytest.mark.parametrize("name, shape", [("dropout1d", (4, 6, 5)), ("dropout1d", (6, 5)), ("dropout2d", (4, 6, 3, 3)),
                                         ("dropout3d", (4, 6, 2, 2, 2)), ("dropout3d", (6, 2, 2, 2))])  # fmt: skip
@pytest.mark.parametrize("inplace", [False, True])
def test_channel_dropout_drops_whole_channels(name, shape, inplace):
    yaten.manual_seed(0)
    x = yaten.ones(*shape)
    out = getattr(yaten.nn.functional, name)(x, 0.5, True, inplace)
    assert (out is x) == inplace
    lead = 2 if len(shape) == {"dropout1d": 3, "dropout2d": 4, "dropout3d": 5}[name] else 1  # (N, C) or (C,)
    channels = out.reshape(int(np.prod(shape[:lead])), -1)
    values = {tuple(sorted(set(row))) for row in channels.tolist()}
    assert values <= {(0.0,), (2.0,)} and len(values) == 2  # every channel all kept (x2) or all dropped


def test_channel_dropout_checks():
    _raises_like("dropout1d", [_arr(2, 3, 4, 5)], 0.5)
    _raises_like("dropout2d", [_arr(2, 3, 4)], 1.5)
    with pytest.warns(UserWarning, match="Received a 3D input to dropout2d"):
        yaten.nn.functional.dropout2d(yaten.ones(2, 3, 4), 0.5)
    with pytest.warns(UserWarning, match="Received a 2-D input to dropout3d"):
        yaten.nn.functional.dropout3d(yaten.ones(2, 3), 0.5)
    x = yaten.ones(2, 3, 4)
    assert yaten.nn.functional.dropout1d(x, 0.5, training=False) is x


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_loss_wrappers(reduction):
    x, y, z = _arr(4, 3), _arr(4, 3, seed=1), _arr(4, 3, seed=2)
    sign = np.sign(_arr(4, seed=3))
    _same("margin_ranking_loss", [x[:, 0], y[:, 0], sign], margin=0.2, reduction=reduction)
    _same("hinge_embedding_loss", [x, np.sign(y)], reduction=reduction)
    _same("soft_margin_loss", [x, np.sign(y).astype(np.int64)], reduction=reduction)  # no target grad
    _same("cosine_embedding_loss", [x, y, sign], margin=0.1, reduction=reduction)
    _same("triplet_margin_loss", [x, y, z], swap=True, reduction=reduction)
    _same("triplet_margin_with_distance_loss", [x, y, z], reduction=reduction,
          distance_function=lambda a, b: (a - b).abs().sum(-1))  # fmt: skip
    _same("poisson_nll_loss", [x, np.abs(y) * 3], full=True, reduction=reduction)
    _same("gaussian_nll_loss", [x, y, np.abs(z[:, :1]) + 0.1], full=True, reduction=reduction)
    _same("multilabel_soft_margin_loss", [x, (y > 0).astype(np.float64), np.abs(z[0])], reduction=reduction)


def test_loss_wrapper_checks():
    x = _arr(4, 3)
    _raises_like("triplet_margin_loss", [x, x, x], margin=0.0)
    _raises_like("margin_ranking_loss", [x, x, x[:, 0]])
    _raises_like("gaussian_nll_loss", [x, x, _arr(2, 2)])
    _raises_like("gaussian_nll_loss", [x, x, -np.abs(x)])
    _raises_like("poisson_nll_loss", [x, x], reduction="foo")
    _raises_like("multilabel_soft_margin_loss", [x, x], reduction="foo")
    with pytest.warns(UserWarning, match="size_average and reduce args will be deprecated"):
        yaten.nn.functional.soft_margin_loss(yaten.ones(2), yaten.ones(2), size_average=False)


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
def test_affine_grid_and_grid_sample(mode, padding_mode):
    theta = _arr(2, 2, 3) * 0.6
    _same("affine_grid", [theta], [2, 3, 4, 5], align_corners=False)
    _same(
        "grid_sample",
        [_arr(2, 3, 5, 4), _arr(2, 3, 6, 2, seed=1) * 1.4],
        mode,
        padding_mode,
        align_corners=True,
    )


def test_sampling_checks():
    with pytest.warns(UserWarning, match="align_corners=False since 1.3.0"):
        yaten.nn.functional.affine_grid(yaten.zeros(1, 2, 3), [1, 1, 2, 2])
    _raises_like("affine_grid", [_arr(1, 2, 4)], [1, 1, 2, 2], align_corners=False)
    _raises_like("affine_grid", [_arr(1, 2, 3)], [1, 2], align_corners=False)
    _raises_like("grid_sample", [_arr(1, 1, 2, 2), _arr(1, 2, 2, 2)], mode="foo")
    _raises_like("grid_sample", [_arr(1, 1, 2, 2), _arr(1, 2, 2, 2)], padding_mode="foo")


def test_gumbel_softmax():
    yaten.manual_seed(0)
    logits = yaten.tensor([[0.0, 5.0, -5.0]] * 200, requires_grad=True)
    soft = yaten.nn.functional.gumbel_softmax(logits, tau=0.5)
    assert_matches(soft.sum(-1), torch.ones(200, dtype=torch.float32))
    hard = yaten.nn.functional.gumbel_softmax(logits, hard=True)
    assert set(hard.flatten().tolist()) == {0.0, 1.0}
    assert hard.argmax(-1).eq(1).float().mean().item() > 0.9  # the largest logit wins most draws
    (hard * yaten.arange(3.0)).sum().backward()  # the straight-through gradient is the soft sample's
    assert logits.grad is not None and logits.grad.abs().sum().item() > 0
    with pytest.warns(UserWarning, match="`eps` parameter is deprecated"):
        yaten.nn.functional.gumbel_softmax(logits, eps=1e-5)


def test_pooling_3d_wrappers():
    _same("max_pool3d", [_arr(2, 2, 5, 6, 4)], 3, stride=2, padding=1, return_indices=True)
    _same("max_pool3d", [_arr(2, 5, 6, 4)], (2, 3, 2), ceil_mode=True)
    _same("avg_pool3d", [_arr(2, 2, 5, 6, 4)], 3, stride=2, padding=1, count_include_pad=False)
    _same("avg_pool3d", [_arr(2, 5, 6, 4)], 2, divisor_override=3)


def test_conv3d_wrappers():
    x, w = _arr(2, 4, 4, 5, 4), _arr(6, 2, 2, 3, 2, seed=1)
    _same("conv3d", [x, w, _arr(6, seed=2)], stride=(2, 1, 1), padding=1, dilation=(1, 2, 1), groups=2)
    _same("conv3d", [x, w], padding="same", groups=2)
    _same(
        "conv_transpose3d", [x, _arr(4, 3, 2, 3, 2, seed=1)], stride=2, padding=1, output_padding=1, groups=2
    )


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_multi_margin_wrappers(reduction):
    x = _arr(3, 4)
    _same("multi_margin_loss", [x, np.array([0, 3, 1])], p=2, margin=0.5, reduction=reduction)
    targets = np.array([[0, 3, -1, 2], [1, -1, 0, 0], [3, 2, 1, 0]])
    _same("multilabel_margin_loss", [x, targets], reduction=reduction)
    _raises_like("multi_margin_loss", [x, np.array([0, 3, 1])], p=3)
    with pytest.raises(ValueError, match="weight must be one-dimensional"):
        yaten.nn.functional.multi_margin_loss(
            yaten.ones(3, 4), yaten.tensor([0, 3, 1]), weight=yaten.ones(2, 2)
        )


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag(mode):
    weight, flat, offsets = _arr(6, 3), np.array([1, 2, 4, 5, 4, 3, 2, 0]), np.array([0, 2, 2, 5])
    _same("embedding_bag", [flat, weight, offsets], mode=mode)  # with an empty bag
    _same("embedding_bag", [flat, weight, offsets], mode=mode, padding_idx=2)
    _same("embedding_bag", [flat, weight, np.array([0, 2, 2, 5, 8])], mode=mode, include_last_offset=True)
    _same("embedding_bag", [flat.reshape(2, 4), weight], mode=mode)


def test_embedding_bag_checks():
    flat, weight = np.array([1, 2, 0]), _arr(4, 3)
    _raises_like("embedding_bag", [flat, weight])
    with pytest.raises(
        ValueError, match="if input is 2D, then offsets has to be None"
    ):  # names yaten's class
        yaten.nn.functional.embedding_bag(
            yaten.tensor([[1, 2, 0]]), yaten.from_numpy(weight), yaten.tensor([0])
        )
    _raises_like("embedding_bag", [flat, weight, np.array([0])], mode="foo")
    _raises_like("embedding_bag", [flat, weight, np.array([0]), None, 2, True], mode="max")
    w = yaten.from_numpy(weight)
    psw = yaten.ones(3)
    with pytest.raises(NotImplementedError, match="only supported for mode='sum'"):
        yaten.nn.functional.embedding_bag(
            yaten.tensor([1, 2, 0]), w, yaten.tensor([0]), per_sample_weights=psw
        )


@pytest.mark.parametrize(
    "name, args, kwargs, shape",
    [
        ("Upsample", (), {"scale_factor": 2, "mode": "bilinear"}, (2, 3, 4, 5)),
        ("Upsample", (), {"size": (3, 7)}, (2, 3, 4, 5)),
        ("UpsamplingNearest2d", (), {"scale_factor": 2}, (2, 3, 4, 5)),
        ("UpsamplingBilinear2d", (), {"size": 5}, (2, 3, 4, 5)),
        ("PixelShuffle", (2,), {}, (2, 8, 2, 3)),
        ("PixelUnshuffle", (2,), {}, (2, 2, 4, 6)),
        ("Unfold", (2,), {"padding": 1}, (2, 3, 4, 5)),
        ("Fold", ((3, 4), 2), {}, (2, 12, 6)),
        ("ZeroPad2d", ((1, 0, 2, 1),), {}, (2, 3, 4, 5)),
        ("ConstantPad1d", (2, 3.5), {}, (2, 3, 4)),
        ("ConstantPad3d", (1, 0.5), {}, (2, 3, 4, 5)),
        ("ReflectionPad1d", ((2, 1),), {}, (2, 3, 4)),
        ("ReflectionPad3d", (1,), {}, (1, 2, 3, 4, 5)),
        ("ReplicationPad2d", (2,), {}, (2, 3, 4, 5)),
        ("CircularPad2d", (1,), {}, (2, 3, 4, 5)),
        ("CircularPad3d", ((1, 0, 1, 2, 0, 1),), {}, (1, 2, 3, 4, 5)),
    ],
)
def test_modules(name, args, kwargs, shape):
    y, t = getattr(yaten.nn, name)(*args, **kwargs), getattr(torch.nn, name)(*args, **kwargs)
    assert repr(y) == repr(t)
    x = _arr(*shape)
    assert_matches(y(yaten.from_numpy(x)), t(torch.from_numpy(x)))


def test_distance_modules_and_circular_check():
    a, b = _arr(3, 4), _arr(3, 4, seed=1)
    for name in ("CosineSimilarity", "PairwiseDistance"):
        y, t = getattr(yaten.nn, name)(), getattr(torch.nn, name)()
        assert repr(y) == repr(t)
        assert_matches(
            y(yaten.from_numpy(a), yaten.from_numpy(b)), t(torch.from_numpy(a), torch.from_numpy(b))
        )
    with pytest.raises(ValueError, match=r"expected 2D or 3D input \(got 4D input\)"):
        yaten.nn.CircularPad1d(1)(yaten.ones(1, 1, 1, 1))


@pytest.mark.parametrize(
    "name, shape", [("Dropout1d", (4, 6, 5)), ("Dropout2d", (4, 6, 3, 3)), ("Dropout3d", (6, 2, 2, 2))]
)
def test_channel_dropout_modules(name, shape):
    y, t = getattr(yaten.nn, name)(0.3), getattr(torch.nn, name)(0.3)
    assert repr(y) == repr(t) and not isinstance(y, yaten.nn.Dropout)  # torch's siblings of Dropout
    x = yaten.ones(*shape)
    assert y.eval()(x).tolist() == x.tolist()
    yaten.manual_seed(0)
    out = y.train()(x)
    assert {round(v, 5) for v in out.flatten().tolist()} <= {0.0, round(1 / 0.7, 5)}


@pytest.mark.parametrize("padding_mode", ["zeros", "reflect", "replicate", "circular"])
def test_conv3d_modules_match_torch(padding_mode):
    torch.manual_seed(0)
    t = torch.nn.Conv3d(
        2, 4, (3, 2, 3), stride=(1, 2, 1), padding=1, groups=2, padding_mode=padding_mode
    ).double()
    y = yaten.nn.Conv3d(
        2, 4, (3, 2, 3), stride=(1, 2, 1), padding=1, groups=2, padding_mode=padding_mode
    ).double()
    assert repr(y) == repr(t)
    y.load_state_dict({k: yaten.from_numpy(v.detach().numpy().copy()) for k, v in t.state_dict().items()})
    x = _arr(2, 2, 4, 5, 4)
    assert_matches(y(yaten.from_numpy(x)), t(torch.from_numpy(x)))
    tt = torch.nn.ConvTranspose3d(4, 2, 3, stride=2, padding=1).double()
    yt = yaten.nn.ConvTranspose3d(4, 2, 3, stride=2, padding=1).double()
    assert repr(yt) == repr(tt)
    yt.load_state_dict({k: yaten.from_numpy(v.detach().numpy().copy()) for k, v in tt.state_dict().items()})
    x = _arr(1, 4, 2, 3, 3)
    out = [4, 6, 5]
    assert_matches(yt(yaten.from_numpy(x), output_size=out), tt(torch.from_numpy(x), output_size=out))


@pytest.mark.parametrize(
    "name, args, kwargs, shape",
    [
        ("MaxPool1d", (3,), {"stride": 2, "padding": 1, "return_indices": True}, (2, 3, 8)),
        ("MaxPool3d", (2,), {"ceil_mode": True}, (2, 2, 5, 4, 3)),
        ("AvgPool1d", (3,), {"padding": 1, "count_include_pad": False}, (2, 3, 8)),
        ("AvgPool3d", (2,), {"divisor_override": 3}, (2, 4, 4, 4)),
        ("AdaptiveAvgPool1d", (3,), {}, (2, 3, 7)),
        ("AdaptiveAvgPool3d", ((2, None, 1),), {}, (2, 2, 5, 4, 3)),
        ("AdaptiveMaxPool1d", (3,), {"return_indices": True}, (2, 3, 7)),
        ("AdaptiveMaxPool2d", ((2, 3),), {}, (2, 3, 5, 7)),
        ("AdaptiveMaxPool3d", (2,), {"return_indices": True}, (2, 2, 5, 4, 3)),
    ],
)
def test_pooling_modules(name, args, kwargs, shape):
    y, t = getattr(yaten.nn, name)(*args, **kwargs), getattr(torch.nn, name)(*args, **kwargs)
    assert repr(y) == repr(t)
    x = _arr(*shape)
    yo, to = y(yaten.from_numpy(x)), t(torch.from_numpy(x))
    for a, b in zip(*((yo, to) if isinstance(to, tuple) else ((yo,), (to,)))):
        assert_matches(a, b)


def test_loss_modules():
    x, y, z = _arr(4, 3), _arr(4, 3, seed=1), _arr(4, 3, seed=2)
    sign = np.sign(_arr(4, seed=3))
    cases = [
        ("MarginRankingLoss", {"margin": 0.2}, [x[:, 0], y[:, 0], sign]),
        ("HingeEmbeddingLoss", {"margin": 0.5}, [x, np.sign(y)]),
        ("SoftMarginLoss", {"reduction": "sum"}, [x, np.sign(y)]),
        ("CosineEmbeddingLoss", {"margin": 0.1}, [x, y, sign]),
        ("TripletMarginLoss", {"swap": True, "p": 1.0}, [x, y, z]),
        ("TripletMarginWithDistanceLoss", {"margin": 0.5}, [x, y, z]),
        ("PoissonNLLLoss", {"full": True}, [x, np.abs(y) * 3]),
        ("GaussianNLLLoss", {"full": True}, [x, y, np.abs(z) + 0.1]),
        ("MultiLabelSoftMarginLoss", {}, [x, (y > 0).astype(np.float64)]),
        ("MultiMarginLoss", {"p": 2}, [x, np.array([0, 2, 1, 1])]),
        ("MultiLabelMarginLoss", {}, [x, np.array([[0, 2, -1], [1, -1, 0], [2, 1, 0], [-1, 0, 0]])]),
    ]
    for name, kwargs, arrays in cases:
        ym, tm = getattr(yaten.nn, name)(**kwargs), getattr(torch.nn, name)(**kwargs)
        assert repr(ym) == repr(tm), name
        yo = ym(*[yaten.from_numpy(a) for a in arrays])
        assert_matches(yo, tm(*[torch.from_numpy(a) for a in arrays]))
    with pytest.raises(ValueError, match="only p == 1 and p == 2 supported"):
        yaten.nn.MultiMarginLoss(p=3)
    with pytest.raises(ValueError, match="expected margin to be greater than 0"):
        yaten.nn.TripletMarginLoss(margin=0.0)
