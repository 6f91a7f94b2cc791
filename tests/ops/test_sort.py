"""sort, sort.stable, argsort and topk on the CPU against torch: values, indices, dtypes, layouts, NaN,
0-d and empty inputs, errors with torch's messages, gradients.

yaten's sort is always stable; torch's non-stable sort may order ties otherwise, so the data here
is tie-free unless the call asks for ``stable=True``.
"""

import re

import numpy as np
import pytest
import torch

import yaten

INT_DTYPES = (np.int64, np.int32, np.int16, np.int8, np.uint8)
FLOAT_DTYPES = (np.float64, np.float32, np.float16)


def _distinct(shape, dt, seed=0):
    """Tie-free values of ``dt`` (a permutation of small integers, in a random order)."""
    n = int(np.prod(shape))
    return np.random.default_rng(seed).permutation(n).reshape(shape).astype(dt)


def _ties(shape, dt, seed=0):
    return np.random.default_rng(seed).integers(0, 3, shape).astype(dt)


def _same(got, want):
    """yaten's result equals torch's: dtype, shape, strides, values (NaN where torch's are)."""
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            _same(g, w)
        return
    assert str(want.dtype) == f"torch.{got.dtype.name}"
    assert tuple(got.shape) == tuple(want.shape)
    if got.numel():  # torch gives tensors made from empty NumPy arrays zero strides
        assert got.stride() == want.stride(), (got.stride(), want.stride())
    np.testing.assert_array_equal(got.detach().numpy(), want.detach().numpy())


def _both(fn, a):
    _same(fn(yaten, yaten.from_numpy(a.copy())), fn(torch, torch.from_numpy(a.copy())))


@pytest.mark.parametrize("dt", FLOAT_DTYPES + INT_DTYPES)
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_sort_tie_free_matches_torch(dt, descending, dim):
    a = _distinct((4, 6), dt)
    _both(lambda m, t: tuple(m.sort(t, dim, descending)), a)
    _both(lambda m, t: tuple(t.sort(dim=dim, descending=descending)), a)
    _both(lambda m, t: m.argsort(t, dim, descending), a)


@pytest.mark.parametrize("dt", FLOAT_DTYPES + INT_DTYPES + (np.bool_,))
@pytest.mark.parametrize("descending", [False, True])
def test_stable_sort_with_ties_matches_torch(dt, descending):
    a = _ties((3, 9), dt) if dt is not np.bool_ else _ties((3, 9), np.int8).astype(bool)
    for dim in (0, 1):
        _both(lambda m, t, d=dim: tuple(m.sort(t, stable=True, dim=d, descending=descending)), a)
        _both(lambda m, t, d=dim: m.argsort(t, stable=True, dim=d, descending=descending), a)
        _both(lambda m, t, d=dim: tuple(t.sort(stable=True, dim=d, descending=descending)), a)


def test_sort_is_stable_whatever_stable_says():
    a = _ties((2, 12), np.float32)
    want = torch.sort(torch.from_numpy(a), stable=True, descending=True)
    for stable in (None, False, True):
        _same(tuple(yaten.sort(yaten.from_numpy(a), stable=stable, descending=True)), tuple(want))
    _same(tuple(yaten.sort(yaten.from_numpy(a), descending=True)), tuple(want))


@pytest.mark.parametrize("dt", FLOAT_DTYPES)
def test_nan_sorts_as_the_largest(dt):
    a = np.array(
        [[3.0, np.nan, 1.0, -np.inf, np.nan, 2.0, np.inf, -0.0], [np.nan] * 4 + [0.0, 1.0, np.nan, 5.0]], dt
    )
    for descending in (False, True):
        _both(lambda m, t, d=descending: tuple(m.sort(t, stable=True, descending=d)), a)
        _both(lambda m, t, d=descending: m.argsort(t, stable=True, descending=d), a)
    b = np.array([3.0, np.nan, 1.0, -np.inf, 2.0, np.inf, -0.0, 5.0], dt)  # one NaN: topk is not stable
    for k in range(9):
        for largest in (False, True):
            _both(lambda m, t, k=k, lg=largest: tuple(m.topk(t, k, largest=lg)), b)


def test_sort_keeps_the_input_layout_as_torch():
    base = _distinct((3, 4, 5), np.float32)
    views = [
        lambda t: t.permute(2, 0, 1),
        lambda t: t.transpose(0, 1),
        lambda t: t[:, ::2],  # not dense: a contiguous result
        lambda t: t[:, :1].expand(3, 2, 5),
    ]
    for view in views:
        for dim in range(3):
            _both(lambda m, t, v=view, d=dim: tuple(m.sort(v(t), d)), base)
            _both(lambda m, t, v=view, d=dim: tuple(m.topk(v(t), 1, d)), base)


def test_0d_and_empty_inputs():
    for a in (np.array(2.5), np.array(7, np.int32), np.zeros((0, 3)), np.zeros((2, 0), np.int64)):
        for dim in (0, -1):
            _both(lambda m, t, d=dim: tuple(m.sort(t, d)), a)
            _both(lambda m, t, d=dim: tuple(m.sort(t, d, True)), a)
            _both(lambda m, t, d=dim: m.argsort(t, d), a)
    _both(lambda m, t: tuple(m.sort(t, stable=True)), np.array(True))
    for k in (0, 1):
        _both(lambda m, t, k=k: tuple(m.topk(t, k)), np.array(2.5))  # torch returns the element for k=0 too
    _both(lambda m, t: tuple(m.topk(t, 0, 0)), np.zeros((0, 3)))
    _both(lambda m, t: tuple(m.topk(t, 2, 1)), np.zeros((0, 3)))
    _both(lambda m, t: tuple(m.topk(t, 0)), np.zeros((4,)))


@pytest.mark.parametrize("dt", FLOAT_DTYPES + INT_DTYPES)
def test_topk_matches_torch(dt):
    a = _distinct((4, 7), dt, seed=3)
    for dim in (0, 1, -1):
        n = a.shape[dim]
        for k in (0, 1, 3, n):
            if k > n:
                continue
            for largest in (True, False):
                _both(lambda m, t, d=dim, k=k, lg=largest: tuple(m.topk(t, k, d, lg)), a)
                _both(
                    lambda m, t, d=dim, k=k, lg=largest: tuple(t.topk(k, dim=d, largest=lg, sorted=True)), a
                )


def test_topk_unsorted_holds_the_same_elements():
    # torch leaves the order of sorted=False unspecified; yaten's is the sorted one.
    a = _distinct((3, 8), np.float64, seed=5)
    got = yaten.topk(yaten.from_numpy(a), 3, sorted=False)
    want = torch.topk(torch.from_numpy(a), 3, sorted=False)
    np.testing.assert_array_equal(np.sort(got.values.numpy(), 1), np.sort(want.values.numpy(), 1))
    np.testing.assert_array_equal(np.sort(got.indices.numpy(), 1), np.sort(want.indices.numpy(), 1))
    _same(tuple(got), tuple(torch.topk(torch.from_numpy(a), 3)))


def _same_error(fn, a):
    with pytest.raises(Exception) as want:
        fn(torch, torch.from_numpy(a))
    with pytest.raises(want.type, match=re.escape(str(want.value))):
        fn(yaten, yaten.from_numpy(a))


def test_errors_match_torch():
    _same_error(lambda m, t: m.sort(t, 2), np.zeros((2, 3)))
    _same_error(lambda m, t: m.sort(t, -3), np.zeros((2, 3)))
    _same_error(lambda m, t: m.sort(t, 1), np.array(1.0))
    _same_error(lambda m, t: m.sort(t, stable=True, dim=-2), np.array(1.0))
    _same_error(lambda m, t: m.argsort(t, 2), np.zeros((2, 3)))
    _same_error(lambda m, t: m.topk(t, 4), np.zeros((2, 3)))
    _same_error(lambda m, t: m.topk(t, -1), np.zeros((2, 3)))
    _same_error(lambda m, t: m.topk(t, 2), np.array(1.0))
    _same_error(lambda m, t: m.topk(t, 1, 0), np.zeros((0, 3)))
    _same_error(lambda m, t: m.topk(t, 1, 2), np.zeros((2, 3)))
    _same_error(lambda m, t: m.topk(t, 1), np.array([True, False]))


def test_argument_errors_are_type_errors_as_torchs():
    a = np.zeros((2, 3))
    for fn in (
        lambda m, t: m.topk(t, 1.5),
        lambda m, t: m.sort(t, 1.5),
        lambda m, t: m.argsort(t, stable=None),  # argsort.stable's stable is not optional
    ):
        with pytest.raises(TypeError):
            fn(torch, torch.from_numpy(a))
        with pytest.raises(TypeError):
            fn(yaten, yaten.from_numpy(a))


def _grads(m, a, fn, w):
    x = m.from_numpy(a.copy()).requires_grad_()
    out = fn(m, x)
    (out * m.from_numpy(w)).sum().backward()
    return out, x.grad


@pytest.mark.parametrize(
    "fn",
    [
        lambda m, x: m.sort(x, 1).values,
        lambda m, x: m.sort(x, 0, True).values,
        lambda m, x: m.sort(x, stable=True, dim=1, descending=True).values,
        lambda m, x: x.sort(dim=0).values,
        lambda m, x: m.topk(x, 2, 1).values,
        lambda m, x: m.topk(x, 1, 0, False).values,
        lambda m, x: x.topk(3).values,
    ],
)
def test_gradients_match_torch_and_gradcheck(fn):
    a = np.random.default_rng(0).standard_normal((3, 4))
    w = np.random.default_rng(1).standard_normal(tuple(fn(torch, torch.from_numpy(a)).shape))
    (yo, yg), (to, tg) = _grads(yaten, a, fn, w), _grads(torch, a, fn, w)
    _same(yo, to)
    np.testing.assert_allclose(yg.numpy(), tg.numpy())
    x = yaten.from_numpy(a).requires_grad_()
    assert yaten.autograd.gradcheck(lambda t: fn(yaten, t), (x,), eps=1e-6, atol=1e-5, rtol=1e-3)
    assert yaten.autograd.gradgradcheck(lambda t: fn(yaten, t), (x,), eps=1e-6, atol=1e-5, rtol=1e-3)


def test_backward_nodes_and_indices_are_not_differentiable():
    for name, call in [
        ("SortBackward0", lambda m, x: m.sort(x)),
        ("SortBackward1", lambda m, x: m.sort(x, stable=True)),
        ("TopkBackward0", lambda m, x: m.topk(x, 2)),
    ]:
        xt, xy = torch.ones(3, requires_grad=True), yaten.ones(3, requires_grad=True)
        (tv, ti), (yv, yi) = call(torch, xt), call(yaten, xy)
        assert yv.grad_fn.name() == tv.grad_fn.name() == name
        assert not yi.requires_grad and not ti.requires_grad
    x = yaten.tensor([3.0, 1.0, 2.0], requires_grad=True)
    assert not yaten.argsort(x).requires_grad


def test_0d_gradients():
    for fn in (lambda m, x: m.sort(x).values, lambda m, x: m.topk(x, 1).values):
        w = np.array(2.0)
        (yo, yg), (to, tg) = _grads(yaten, np.array(1.5), fn, w), _grads(torch, np.array(1.5), fn, w)
        _same(yo, to)
        np.testing.assert_allclose(yg.numpy(), tg.numpy())
