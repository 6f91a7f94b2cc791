"""Pooling side by side with torch: max_pool2d (values, indices), avg_pool2d and adaptive_avg_pool2d over
a grid of configurations (forward and gradients), gradcheck and gradgradcheck, the backward ops against
torch.ops.aten, NaN/-inf handling, error messages, and the pooling modules."""

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


def _both(fn_name, xa, *args, **kwargs):
    """Forward (every output) and the input's gradient of a weighted sum of the first output."""
    x, tx = yaten.from_numpy(xa.copy()), torch.from_numpy(xa.copy())
    floating = xa.dtype.kind == "f"
    if floating:
        x.requires_grad_()
        tx.requires_grad_()
    yo = getattr(yaten.nn.functional, fn_name)(x, *args, **kwargs)
    to = getattr(torch.nn.functional, fn_name)(tx, *args, **kwargs)
    yo, to = (yo, to) if isinstance(to, tuple) else ((yo,), (to,))
    for a, b in zip(yo, to):
        _close(a, b)
    if floating:
        w = _arr(*to[0].shape, dtype=xa.dtype, seed=5)
        (yo[0] * yaten.from_numpy(w)).sum().backward()
        (to[0] * torch.from_numpy(w)).sum().backward()
        _close(x.grad, tx.grad)


MAX = [
    ((2, 3, 6, 7), (2,), {}),
    ((2, 3, 7, 7), (3,), {"stride": 2, "padding": 1}),
    ((2, 2, 7, 6), ((3, 2),), {"stride": (2, 1), "padding": (1, 0), "dilation": (1, 2)}),
    ((2, 2, 7, 7), (3, 2, 1), {"ceil_mode": True}),
    ((2, 2, 6, 6), (2, 2, 1), {"ceil_mode": True}),  # the last window would start in the padding: dropped
    ((2, 2, 8, 9), ((2, 3),), {"stride": (3, 2), "dilation": 2, "ceil_mode": True}),
    ((3, 5, 5), (2,), {"return_indices": True}),  # unbatched
    ((2, 3, 5, 5), (5,), {}),  # one window
    ((0, 3, 5, 5), (2,), {}),  # empty batch
]


@pytest.mark.parametrize("shape, args, kwargs", MAX, ids=[f"{m[0]}{m[1]}{m[2]}" for m in MAX])
@pytest.mark.parametrize("indices", [False, True])
def test_max_pool2d_matches_torch(shape, args, kwargs, indices):
    kwargs = dict(kwargs, return_indices=indices or kwargs.get("return_indices", False))
    _both("max_pool2d", _arr(*shape), *args, **kwargs)


def test_max_pool2d_float32_int64_and_non_contiguous():
    _both(
        "max_pool2d", _arr(2, 3, 7, 6, dtype=np.float32).transpose(0, 1, 3, 2), 3, 2, 1, return_indices=True
    )
    _both("max_pool2d", RNG.integers(-9, 9, (2, 3, 6, 6)), 2, return_indices=True)


def test_max_pool2d_with_indices_function():
    _both("max_pool2d_with_indices", _arr(2, 3, 6, 7), 3, 2, 1, 1, True)


def test_max_pool2d_nan_and_neg_inf_like_torch():
    xa = _arr(1, 1, 4, 4)
    xa[0, 0, 0, 1] = np.nan
    xa[0, 0, 2:, 2:] = -np.inf
    x, tx = yaten.from_numpy(xa), torch.from_numpy(xa)
    y, yi = yaten.nn.functional.max_pool2d(x, 2, return_indices=True)
    t, ti = torch.nn.functional.max_pool2d(tx, 2, return_indices=True)
    np.testing.assert_array_equal(y.numpy(), t.numpy())
    np.testing.assert_array_equal(yi.numpy(), ti.numpy())


AVG = [
    ((2, 3, 6, 7), (2,), {}),
    ((2, 3, 7, 7), (3,), {"stride": 2, "padding": 1}),
    ((2, 3, 7, 7), (3,), {"stride": 2, "padding": 1, "count_include_pad": False}),
    ((2, 2, 7, 6), ((3, 2),), {"stride": (2, 1), "padding": (1, 0), "ceil_mode": True}),
    ((2, 2, 6, 6), (3, 2, 1), {"ceil_mode": True, "count_include_pad": False}),
    ((2, 2, 5, 5), (3, 2, 1), {"ceil_mode": True}),
    ((2, 2, 7, 7), (3, 2, 1), {"divisor_override": 5}),
    ((3, 5, 5), (2,), {}),  # unbatched
    ((0, 3, 5, 5), (2,), {}),  # empty batch
]


@pytest.mark.parametrize("shape, args, kwargs", AVG, ids=[f"{m[0]}{m[1]}{m[2]}" for m in AVG])
def test_avg_pool2d_matches_torch(shape, args, kwargs):
    _both("avg_pool2d", _arr(*shape), *args, **kwargs)


def test_avg_pool2d_float32_and_int64():
    _both("avg_pool2d", _arr(2, 3, 7, 6, dtype=np.float32), 3, 2, 1)
    _both("avg_pool2d", RNG.integers(-9, 9, (2, 3, 6, 6)), 3, 2, 1)


ADAPTIVE = [((2, 3, 7, 9), (3, 4)), ((2, 3, 7, 9), 1), ((2, 3, 7, 9), (None, 2)), ((3, 5, 4), (5, 4)),
            ((1, 2, 3, 3), (5, 7)), ((2, 3, 8, 8), (2, 2))]  # fmt: skip


@pytest.mark.parametrize("shape, size", ADAPTIVE)
def test_adaptive_avg_pool2d_matches_torch(shape, size):
    _both("adaptive_avg_pool2d", _arr(*shape), size)


def test_adaptive_avg_pool2d_float32():
    _both("adaptive_avg_pool2d", _arr(2, 3, 7, 6, dtype=np.float32), (3, 5))


# --- gradcheck ------------------------------------------------------------------------------------------


def _leaf(*shape, seed=1):
    return yaten.from_numpy(_arr(*shape, seed=seed)).requires_grad_()


GRADCHECK = [
    lambda x: yaten.nn.functional.max_pool2d(x, 2),
    lambda x: yaten.nn.functional.max_pool2d(x, 3, 2, 1, 1, True),
    lambda x: yaten.nn.functional.max_pool2d(x, (2, 3), 1, 0, (2, 1)),
    lambda x: yaten.nn.functional.avg_pool2d(x, 3, 2, 1),
    lambda x: yaten.nn.functional.avg_pool2d(x, 3, 2, 1, True, False),
    lambda x: yaten.nn.functional.avg_pool2d(x, 2, 1, 0, False, True, 3),
    lambda x: yaten.nn.functional.adaptive_avg_pool2d(x, (3, 2)),
    lambda x: yaten.nn.functional.adaptive_avg_pool2d(x, (6, 7)),
]


@pytest.mark.parametrize("f", GRADCHECK)
def test_gradcheck_and_gradgradcheck(f):
    x = _leaf(2, 2, 5, 6)
    assert yaten.autograd.gradcheck(f, (x,), eps=1e-6, atol=1e-6, rtol=1e-4)
    assert yaten.autograd.gradgradcheck(f, (x,), eps=1e-6, atol=1e-6, rtol=1e-4)


def _aten_backward_cases():
    xa = _arr(2, 2, 5, 6, seed=3)
    x = torch.from_numpy(xa)
    mp = (3, 2, 1, 1, True)
    out, idx = torch.nn.functional.max_pool2d_with_indices(x, *mp)
    mp_list = ([3, 3], [2, 2], [1, 1], [1, 1], True)
    ap = ([3, 3], [2, 2], [1, 1], True, False, None)
    aout = torch.nn.functional.avg_pool2d(x, *ap)
    adout = torch.nn.functional.adaptive_avg_pool2d(x, (3, 4))
    return xa, [
        ("max_pool2d_with_indices_backward", (out.shape,), lambda g, x: (g, x, *mp_list, idx)),
        ("avg_pool2d_backward", (aout.shape,), lambda g, x: (g, x, *ap)),
        ("_adaptive_avg_pool2d_backward", (adout.shape,), lambda g, x: (g, x)),
    ]


@pytest.mark.parametrize("i", range(3))
def test_backward_ops_match_aten_and_gradcheck(i):
    xa, cases = _aten_backward_cases()
    name, (shape,), args = cases[i]
    ga = _arr(*shape, seed=4)

    def to_yaten(a):
        return yaten.from_numpy(a.numpy()) if isinstance(a, torch.Tensor) else a

    want = getattr(torch.ops.aten, name)(*args(torch.from_numpy(ga), torch.from_numpy(xa)))
    yargs = [to_yaten(a) for a in args(yaten.from_numpy(ga), yaten.from_numpy(xa))]
    got = getattr(yaten, name)(*yargs)
    _close(got, want)

    # the backward op is differentiable in grad_output (it is linear in it)
    def f(g):
        return getattr(yaten, name)(g, *yargs[1:])

    assert yaten.autograd.gradcheck(f, (_leaf(*shape, seed=4),), eps=1e-6, atol=1e-6, rtol=1e-4)


# --- errors ---------------------------------------------------------------------------------------------

ERRORS = [
    lambda m: m.nn.functional.max_pool2d(m.zeros(1, 3, 5, 5), 3, padding=2),
    lambda m: m.nn.functional.max_pool2d(m.zeros(1, 3, 5, 5), 0),
    lambda m: m.nn.functional.max_pool2d(m.zeros(1, 3, 5, 5), 2, stride=0),
    lambda m: m.nn.functional.max_pool2d(m.zeros(1, 3, 5, 5), 2, dilation=0),
    lambda m: m.nn.functional.max_pool2d(m.zeros(1, 3, 5, 5), 2, 1, 0, 0),
    lambda m: m.nn.functional.max_pool2d(m.zeros(1, 3, 5, 5), 2, 1, -1),
    lambda m: m.nn.functional.max_pool2d(m.zeros(1, 3, 1, 1), 2),
    lambda m: m.nn.functional.max_pool2d(m.zeros(3, 5), 2),
    lambda m: m.nn.functional.max_pool2d(m.zeros(1, 0, 5, 5), 2),
    lambda m: m.nn.functional.max_pool2d(m.zeros(1, 3, 5, 5), (2, 2, 2)),
    lambda m: m.nn.functional.max_pool2d(m.zeros(1, 3, 5, 5), 2, (1, 1, 1)),
    lambda m: m.nn.functional.avg_pool2d(m.zeros(1, 3, 5, 5), 3, padding=2),
    lambda m: m.nn.functional.avg_pool2d(m.zeros(1, 3, 5, 5), 0),
    lambda m: m.nn.functional.avg_pool2d(m.zeros(1, 3, 1, 1), 2),
    lambda m: m.nn.functional.avg_pool2d(m.zeros(1, 3, 5, 5), 2, divisor_override=0),
    lambda m: m.nn.functional.avg_pool2d(m.zeros(3, 5), 2),
    lambda m: m.nn.functional.adaptive_avg_pool2d(m.zeros(3, 5), 2),
    lambda m: m.nn.functional.adaptive_avg_pool2d(m.zeros(3, 5), (2, 2)),
    lambda m: m.nn.functional.adaptive_avg_pool2d(m.zeros(1, 3, 5, 5), (2, 2, 2)),
    lambda m: m.nn.functional.adaptive_avg_pool2d(m.zeros(1, 3, 5, 5), -1),
    lambda m: m.nn.functional.adaptive_avg_pool2d(m.zeros(1, 3, 0, 5), 2),
    lambda m: m.nn.functional.adaptive_avg_pool2d(m.zeros(1, 3, 5, 5, dtype=m.int64), 2),
]


@pytest.mark.parametrize("case", ERRORS)
def test_errors_match_torch(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kind, message = same(case)
    assert isinstance(kind, type) and issubclass(kind, Exception), message


# --- modules --------------------------------------------------------------------------------------------

MODULES = [
    ("MaxPool2d", (2,), {}),
    ("MaxPool2d", (3,), {"stride": 2, "padding": 1, "dilation": 1, "ceil_mode": True}),
    ("MaxPool2d", ((3, 2),), {"stride": (2, 1), "return_indices": True}),
    ("AvgPool2d", (3,), {"stride": 2, "padding": 1}),
    ("AvgPool2d", ((2, 3),), {"ceil_mode": True, "count_include_pad": False, "divisor_override": 4}),
    ("AdaptiveAvgPool2d", ((1, 1),), {}),
    ("AdaptiveAvgPool2d", (3,), {}),
    ("AdaptiveAvgPool2d", ((None, 2),), {}),
]


@pytest.mark.parametrize("cls, args, kwargs", MODULES, ids=[f"{m[0]}-{m[1]}-{m[2]}" for m in MODULES])
def test_module_matches_torch(cls, args, kwargs):
    ymod, tmod = getattr(yaten.nn, cls)(*args, **kwargs), getattr(torch.nn, cls)(*args, **kwargs)
    assert repr(ymod) == repr(tmod)
    assert list(ymod.state_dict()) == list(tmod.state_dict()) == []
    xa = _arr(2, 3, 7, 6)
    yo, to = ymod(yaten.from_numpy(xa)), tmod(torch.from_numpy(xa))
    yo, to = (yo, to) if isinstance(to, tuple) else ((yo,), (to,))
    for a, b in zip(yo, to):
        _close(a, b)
