"""Convolutions side by side with torch: conv1d/conv2d/conv_transpose1d/conv_transpose2d over a grid of
configurations (forward, gradients of input/weight/bias), gradcheck and gradgradcheck in float64,
convolution_backward against torch.ops.aten, error messages, and the Conv modules (reprs, state_dict
keys, initialization, outputs with torch's weights copied in)."""

import math
import warnings

import numpy as np
import pytest
import torch
from _module_parity import same

import yaten
from tests.tolerances import assert_matches as _close

RNG = np.random.default_rng(0)


def _arr(*shape, dtype=np.float64, seed=None):
    rng = RNG if seed is None else np.random.default_rng(seed)
    return rng.standard_normal(shape).astype(dtype)


def _both(fn_name, arrays, *args, **kwargs):
    """Call yaten.nn.functional.<fn_name> and torch's on the same data; compare outputs and the gradients
    of a weighted sum w.r.t. every array (None entries stay None)."""
    ys = [None if a is None else yaten.from_numpy(a.copy()).requires_grad_() for a in arrays]
    ts = [None if a is None else torch.from_numpy(a.copy()).requires_grad_() for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yo = getattr(yaten.nn.functional, fn_name)(*ys, *args, **kwargs)
        to = getattr(torch.nn.functional, fn_name)(*ts, *args, **kwargs)
    _close(yo, to)
    w = _arr(*to.shape, dtype=arrays[0].dtype, seed=5)
    (yo * yaten.from_numpy(w)).sum().backward()
    (to * torch.from_numpy(w)).sum().backward()
    for y, t in zip(ys, ts):
        if t is not None:
            _close(y.grad, t.grad)
    return yo


CONV2D = [
    # (input shape, weight shape, bias, kwargs)
    ((2, 3, 7, 6), (4, 3, 3, 3), True, {}),
    ((2, 3, 7, 6), (4, 3, 3, 3), True, {"stride": 2, "padding": 1}),
    ((2, 3, 9, 8), (4, 3, 3, 2), False, {"stride": (2, 3), "padding": (1, 2), "dilation": (2, 1)}),
    ((2, 4, 6, 7), (6, 2, 3, 3), True, {"groups": 2, "padding": 1}),
    ((1, 6, 5, 5), (6, 1, 3, 3), True, {"groups": 6}),  # depthwise
    ((2, 3, 5, 5), (5, 3, 1, 1), True, {}),  # 1x1
    ((3, 7, 6), (4, 3, 3, 3), True, {"padding": 1}),  # unbatched
    ((2, 3, 7, 6), (4, 3, 3, 3), True, {"padding": "same"}),
    ((2, 3, 7, 6), (4, 3, 4, 2), True, {"padding": "same"}),  # even kernels: an odd total pad
    ((2, 3, 7, 8), (4, 3, 3, 2), False, {"padding": "same", "dilation": (2, 3)}),
    ((2, 3, 7, 6), (4, 3, 3, 3), True, {"padding": "valid"}),
    ((1, 2, 3, 3), (3, 2, 3, 3), True, {}),  # kernel as large as the input
    ((0, 3, 5, 5), (4, 3, 3, 3), True, {}),  # empty batch
]


@pytest.mark.parametrize("xs, ws, bias, kwargs", CONV2D, ids=[str(c[3]) + str(c[0]) for c in CONV2D])
def test_conv2d_matches_torch(xs, ws, bias, kwargs):
    _both("conv2d", [_arr(*xs), _arr(*ws), _arr(ws[0]) if bias else None], **kwargs)


def test_conv2d_float32_and_non_contiguous_input():
    x = _arr(2, 5, 6, 3, dtype=np.float32).transpose(0, 3, 1, 2)  # (2, 3, 5, 6), channels-last strides
    _both("conv2d", [x, _arr(4, 3, 3, 3, dtype=np.float32), _arr(4, dtype=np.float32)], padding=1)


CONV1D = [
    ((2, 3, 9), (4, 3, 3), True, {}),
    ((2, 3, 9), (4, 3, 3), False, {"stride": 2, "padding": 2, "dilation": 2}),
    ((2, 4, 9), (6, 2, 4), True, {"groups": 2, "padding": "same"}),
    ((3, 9), (4, 3, 3), True, {"padding": 1}),
]


@pytest.mark.parametrize("xs, ws, bias, kwargs", CONV1D)
def test_conv1d_matches_torch(xs, ws, bias, kwargs):
    _both("conv1d", [_arr(*xs), _arr(*ws), _arr(ws[0]) if bias else None], **kwargs)


CONV_T2D = [
    # (input shape, weight shape (C_in, C_out/groups, kh, kw), bias, kwargs)
    ((2, 3, 4, 5), (3, 2, 3, 3), True, {}),
    ((2, 3, 4, 5), (3, 2, 3, 3), True, {"stride": 2, "padding": 1, "output_padding": 1}),
    (
        (2, 4, 3, 4),
        (4, 3, 3, 2),
        False,
        {"stride": (2, 3), "padding": (0, 1), "output_padding": (1, 2), "groups": 2},
    ),
    ((2, 3, 4, 4), (3, 2, 2, 3), True, {"dilation": (2, 1), "stride": 2, "output_padding": 1}),
    ((3, 4, 4), (3, 2, 3, 3), True, {"stride": 2}),  # unbatched
]


@pytest.mark.parametrize("xs, ws, bias, kwargs", CONV_T2D)
def test_conv_transpose2d_matches_torch(xs, ws, bias, kwargs):
    groups = kwargs.get("groups", 1)
    _both("conv_transpose2d", [_arr(*xs), _arr(*ws), _arr(ws[1] * groups) if bias else None], **kwargs)


def test_conv_transpose1d_matches_torch():
    _both("conv_transpose1d", [_arr(2, 4, 6), _arr(4, 3, 3), _arr(6)], stride=2, padding=1, output_padding=1,
          groups=2)  # fmt: skip


def test_conv_integer_dtype_matches_torch():
    x = RNG.integers(-3, 4, (1, 2, 5, 5))
    w = RNG.integers(-3, 4, (3, 2, 3, 3))
    y = yaten.nn.functional.conv2d(yaten.from_numpy(x), yaten.from_numpy(w), padding=1)
    t = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w), padding=1)
    assert y.dtype == yaten.int64
    np.testing.assert_array_equal(y.numpy(), t.numpy())


def test_grad_fn_is_convolution_backward():
    x = yaten.randn(1, 2, 4, 4, requires_grad=True)
    w = yaten.randn(3, 2, 3, 3, requires_grad=True)
    assert type(yaten.nn.functional.conv2d(x, w).grad_fn).__name__ == "ConvolutionBackward0"


# --- gradcheck ------------------------------------------------------------------------------------------


def _leaf(*shape, seed):
    return yaten.from_numpy(_arr(*shape, seed=seed)).requires_grad_()


GRADCHECK = [
    ("conv2d", (1, 2, 5, 4), (3, 2, 3, 2), True, {"stride": (2, 1), "padding": 1, "dilation": (1, 2)}),
    ("conv2d", (2, 4, 4, 4), (4, 2, 2, 2), False, {"groups": 2}),
    ("conv2d", (1, 2, 4, 5), (2, 2, 2, 3), True, {"padding": "same"}),
    ("conv1d", (2, 2, 6), (3, 2, 3), True, {"stride": 2, "padding": 1}),
    ("conv_transpose2d", (1, 2, 3, 3), (2, 2, 3, 2), True, {"stride": 2, "padding": 1, "output_padding": 1}),
    ("conv_transpose2d", (1, 4, 2, 3), (4, 1, 2, 2), False, {"groups": 2, "dilation": 2}),
]


@pytest.mark.parametrize("name, xs, ws, bias, kwargs", GRADCHECK, ids=[f"{g[0]}-{g[4]}" for g in GRADCHECK])
def test_gradcheck_and_gradgradcheck(name, xs, ws, bias, kwargs):
    fn = getattr(yaten.nn.functional, name)
    groups = kwargs.get("groups", 1)
    out_ch = ws[1] * groups if name.startswith("conv_transpose") else ws[0]
    inputs = [_leaf(*xs, seed=1), _leaf(*ws, seed=2)] + ([_leaf(out_ch, seed=3)] if bias else [])

    def f(*args):
        return fn(*args, **kwargs)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert yaten.autograd.gradcheck(f, tuple(inputs), eps=1e-6, atol=1e-6, rtol=1e-4)
        assert yaten.autograd.gradgradcheck(f, tuple(inputs), eps=1e-6, atol=1e-6, rtol=1e-4)


def test_third_order_gradient_matches_torch():
    """convolution_backward differentiates through itself, so a third derivative works (as in torch)."""
    xa, wa = _arr(1, 2, 4, 4, seed=1), _arr(2, 2, 3, 3, seed=2)
    results = []
    for lib in (yaten, torch):
        x = lib.from_numpy(xa.copy()).requires_grad_()
        w = lib.from_numpy(wa.copy()).requires_grad_()
        y = lib.nn.functional.conv2d(x, w, padding=1)
        (gx,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
        (gw,) = lib.autograd.grad((gx * gx).sum(), w, create_graph=True)
        (gx2,) = lib.autograd.grad(gw.sum(), x)
        results.append(gx2.numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-9, atol=1e-9)


MASKS = [(True, True, True), (True, False, False), (False, True, True), (False, False, True)]


@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("mask", MASKS)
def test_convolution_backward_matches_aten(transposed, mask):
    x = _arr(2, 4, 5, 4)
    w = _arr(4, 3, 3, 2) if transposed else _arr(6, 2, 3, 2)
    args = ([2, 1], [1, 0], [1, 2], transposed, [1, 0] if transposed else [0, 0], 2)
    y = torch.convolution(torch.from_numpy(x), torch.from_numpy(w), None, *args)
    g = _arr(*y.shape)
    want = torch.ops.aten.convolution_backward(torch.from_numpy(g), torch.from_numpy(x), torch.from_numpy(w),
                                               [y.shape[1]], *args, list(mask))  # fmt: skip
    got = yaten.convolution_backward(yaten.from_numpy(g), yaten.from_numpy(x), yaten.from_numpy(w), [y.shape[1]],
                                     *args, list(mask))  # fmt: skip
    for m, a, b in zip(mask, got, want):
        if m:
            _close(a, b)
        else:
            assert a.numel() == 0  # PyTorch's undefined tensor


def test_convolution_backward_gradcheck():
    """convolution_backward's own derivative (the double backward), checked directly."""
    args = ([1, 2], [1, 0], [1, 1], False, [0, 0], 1)
    x, w = _leaf(1, 2, 4, 5, seed=1), _leaf(3, 2, 2, 3, seed=2)
    g = _leaf(1, 3, 5, 2, seed=3)

    def f(g, x, w):
        return yaten.convolution_backward(g, x, w, [3], *args, [True, True, True])

    assert yaten.autograd.gradcheck(f, (g, x, w), eps=1e-6, atol=1e-6, rtol=1e-4)


# --- errors ---------------------------------------------------------------------------------------------

ERRORS = [
    lambda m: m.nn.functional.conv2d(m.zeros(1, 4, 5, 5), m.zeros(8, 3, 3, 3)),
    lambda m: m.nn.functional.conv2d(m.zeros(1, 3, 2, 2), m.zeros(8, 3, 3, 3)),
    lambda m: m.nn.functional.conv2d(m.zeros(2, 3), m.zeros(8, 3, 3, 3)),
    lambda m: m.nn.functional.conv1d(m.zeros(1, 3, 5, 5), m.zeros(8, 3, 3)),
    lambda m: m.nn.functional.conv2d(m.zeros(1, 3, 5, 5), m.zeros(8, 3, 3, 3), m.zeros(4)),
    lambda m: m.nn.functional.conv2d(m.zeros(1, 3, 5, 5), m.zeros(3, 3, 3, 3), groups=2),
    lambda m: m.nn.functional.conv2d(m.zeros(1, 3, 5, 5), m.zeros(8, 3, 3, 3), groups=0),
    lambda m: m.nn.functional.conv2d(m.zeros(1, 3, 5, 5), m.zeros(8, 3, 3, 3), padding=-1),
    lambda m: m.nn.functional.conv2d(m.zeros(1, 3, 5, 5), m.zeros(8, 3, 3, 3), stride=0),
    lambda m: m.nn.functional.conv2d(m.zeros(1, 3, 5, 5), m.zeros(8, 3, 3, 3), dilation=0),
    lambda m: m.nn.functional.conv2d(m.zeros(1, 3, 5, 5), m.zeros(8, 3, 3, 3), stride=(1, 1, 1)),
    lambda m: m.nn.functional.conv2d(m.zeros(1, 3, 5, 5), m.zeros(8, 3, 3, 3), stride=2, padding="same"),
    lambda m: m.nn.functional.conv2d(m.zeros(1, 3, 5, 5), m.zeros(8, 3, 3, 3), padding="foo"),
    lambda m: m.nn.functional.conv2d(m.zeros(1, 3, 5, 5, dtype=m.float64), m.zeros(8, 3, 3, 3)),
    lambda m: m.nn.functional.conv2d(m.zeros(1, 3, 5, 5), m.zeros(8, 3, 3, 3), m.zeros(8, dtype=m.float64)),
    lambda m: m.nn.functional.conv_transpose2d(m.zeros(1, 3, 5, 5), m.zeros(4, 2, 3, 3)),
    lambda m: m.nn.functional.conv_transpose2d(m.zeros(1, 4, 5, 5), m.zeros(4, 2, 3, 3), m.zeros(3)),
    lambda m: m.nn.functional.conv_transpose2d(
        m.zeros(1, 4, 5, 5), m.zeros(4, 2, 3, 3), stride=2, output_padding=2
    ),
    lambda m: m.nn.functional.conv_transpose2d(m.zeros(1, 4, 5, 5), m.zeros(4, 2, 3, 3), output_padding=-1),
    lambda m: m.nn.functional.conv_transpose2d(m.zeros(1, 4, 1, 1), m.zeros(4, 2, 3, 3), padding=3),
    lambda m: m.convolution(
        m.zeros(3, 5, 5), m.zeros(8, 3, 3, 3), None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1
    ),
]


@pytest.mark.parametrize("case", ERRORS)
def test_errors_match_torch(case):
    kind, message = same(case)
    assert isinstance(kind, type) and issubclass(kind, Exception), message


def test_same_padding_warns_like_torch_for_even_kernels():
    with pytest.warns(UserWarning, match="padding='same' with even kernel lengths"):
        yaten.nn.functional.conv2d(yaten.zeros(1, 1, 4, 4), yaten.zeros(1, 1, 2, 2), padding="same")


# --- modules --------------------------------------------------------------------------------------------

MODULES = [
    ("Conv2d", (3, 8, 3), {}),
    ("Conv2d", (3, 8, 3), {"padding": 1}),
    ("Conv2d", (3, 8, (3, 2)), {"stride": 2, "dilation": (1, 2), "bias": False}),
    ("Conv2d", (4, 8, 3), {"groups": 2, "padding": "same"}),
    ("Conv2d", (3, 8, 3), {"padding": "valid"}),
    ("Conv2d", (3, 8, 3), {"padding": 1, "padding_mode": "reflect"}),
    ("Conv2d", (3, 8, 3), {"padding": (1, 2), "padding_mode": "replicate"}),
    ("Conv2d", (3, 8, 3), {"padding": 2, "padding_mode": "circular"}),
    ("Conv2d", (3, 8, 4), {"padding": "same", "padding_mode": "circular"}),
    ("Conv1d", (3, 8, 5), {"stride": 2, "padding": 1}),
    ("Conv1d", (4, 4, 3), {"groups": 4, "padding": "same", "padding_mode": "reflect"}),
    ("ConvTranspose2d", (4, 2, 3), {"stride": 2, "padding": 1, "output_padding": 1}),
    ("ConvTranspose2d", (4, 6, (2, 3)), {"groups": 2, "dilation": 2, "bias": False}),
    ("ConvTranspose1d", (4, 2, 3), {"stride": 2}),
]


@pytest.mark.parametrize("cls, args, kwargs", MODULES, ids=[f"{m[0]}-{m[2]}" for m in MODULES])
def test_module_matches_torch(cls, args, kwargs):
    ymod, tmod = getattr(yaten.nn, cls)(*args, **kwargs), getattr(torch.nn, cls)(*args, **kwargs)
    assert repr(ymod) == repr(tmod)
    assert list(ymod.state_dict()) == list(tmod.state_dict())
    for name, t in tmod.state_dict().items():
        assert tuple(ymod.state_dict()[name].shape) == tuple(t.shape)
    with yaten.no_grad():
        for name, t in tmod.state_dict().items():
            ymod.state_dict()[name].copy_(yaten.from_numpy(t.detach().numpy().copy()))
    spatial = (7,) if cls.endswith("1d") else (7, 6)
    xa = _arr(2, args[0], *spatial, dtype=np.float32)
    x, tx = yaten.from_numpy(xa.copy()).requires_grad_(), torch.from_numpy(xa.copy()).requires_grad_()
    yo, to = ymod(x), tmod(tx)
    _close(yo, to)
    w = _arr(*to.shape, dtype=np.float32, seed=4)
    (yo * yaten.from_numpy(w)).sum().backward()
    (to * torch.from_numpy(w)).sum().backward()
    _close(x.grad, tx.grad)
    tparams = dict(tmod.named_parameters())
    for name, p in ymod.named_parameters():
        _close(p.grad, tparams[name].grad)


def test_module_initialization_bounds():
    """kaiming_uniform_(a=sqrt(5)) gives U(-1/sqrt(fan_in), 1/sqrt(fan_in)), and so does the bias."""
    yaten.manual_seed(0)
    conv = yaten.nn.Conv2d(16, 32, 3)
    bound = 1 / math.sqrt(16 * 9)
    for p in (conv.weight, conv.bias):
        a = p.detach().numpy()
        assert a.max() <= bound and a.min() >= -bound
        assert a.max() > 0.8 * bound and a.min() < -0.8 * bound  # spread over the whole range
    assert isinstance(conv.weight, yaten.nn.Parameter) and conv.weight.requires_grad
    tconv = yaten.nn.ConvTranspose2d(4, 6, 3, groups=2)
    assert tuple(tconv.weight.shape) == (4, 3, 3, 3)
    assert tconv.weight.detach().numpy().max() <= 1 / math.sqrt(3 * 9)


def test_conv_transpose_output_size_matches_torch():
    xa = _arr(1, 4, 5, 5, dtype=np.float32)
    for output_size in ([11, 11], [12, 12], [1, 2, 12, 11]):
        got = same(
            lambda m, s=output_size: list(m.nn.ConvTranspose2d(4, 2, 3, stride=2)(m.from_numpy(xa), s).shape)
        )
        assert got[1][-2:] == output_size[-2:]
    same(lambda m: m.nn.ConvTranspose2d(4, 2, 3, stride=2)(m.from_numpy(xa), [13, 13]))
    same(lambda m: m.nn.ConvTranspose2d(4, 2, 3, stride=2)(m.from_numpy(xa), [13]))


MODULE_ERRORS = [
    lambda m: m.nn.Conv2d(3, 8, 3, groups=0),
    lambda m: m.nn.Conv2d(3, 8, 3, groups=2),
    lambda m: m.nn.Conv2d(4, 6, 3, groups=4),
    lambda m: m.nn.Conv2d(3, 8, 3, padding="full"),
    lambda m: m.nn.Conv2d(3, 8, 3, stride=2, padding="same"),
    lambda m: m.nn.ConvTranspose2d(3, 8, 3, padding_mode="reflect"),
    lambda m: m.nn.Conv2d(3, 8, 3, padding=5, padding_mode="reflect")(m.zeros(1, 3, 4, 4)),
]


def test_unknown_padding_mode_as_torch():
    """The message shows a set, whose order depends on how each library's module was compiled: compared
    as a set."""

    def case(m):
        try:
            m.nn.Conv2d(3, 8, 3, padding_mode="mirror")
        except ValueError as e:
            head, _, rest = str(e).partition("{")
            modes, _, tail = rest.partition("}")
            return head, sorted(modes.split(", ")), tail

    assert "padding_mode must be one of " in str(same(case))


@pytest.mark.parametrize("case", MODULE_ERRORS)
def test_module_errors_match_torch(case):
    kind, _ = same(case)
    assert isinstance(kind, type)
