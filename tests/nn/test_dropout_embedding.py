"""Dropout, Embedding and one_hot side by side with torch (dropout's random stream is yaten's own, so its
masks are checked by their statistics and by the gradient they give)."""

import numpy as np
import pytest
import torch
from _module_parity import same

import yaten
from tests.tolerances import assert_matches as _close

F = yaten.nn.functional


# --- dropout --------------------------------------------------------------------------------------
def test_dropout_zeroes_about_p_and_scales_the_rest():
    yaten.manual_seed(0)
    x = yaten.ones(20000)
    y = F.dropout(x, 0.3)
    v = y.numpy()
    kept = v != 0
    assert abs(kept.mean() - 0.7) < 0.02
    np.testing.assert_allclose(v[kept], 1 / 0.7, rtol=1e-6)


def test_dropout_is_reproducible_under_manual_seed():
    x = yaten.randn(50)
    yaten.manual_seed(3)
    a = F.dropout(x, 0.5)
    yaten.manual_seed(3)
    b = F.dropout(x, 0.5)
    assert a.tolist() == b.tolist()


def test_dropout_gradient_is_the_saved_mask():
    x = yaten.randn(1000, dtype=yaten.float64, requires_grad=True)
    y = F.dropout(x, 0.4)
    assert type(y.grad_fn).__name__ == "MulBackward0"  # as torch on CPU: input * scaled noise
    y.sum().backward()
    mask = (y.detach() != 0).numpy()
    np.testing.assert_allclose(x.grad.numpy(), np.where(mask, 1 / 0.6, 0.0))


@pytest.mark.parametrize(
    "call",
    [
        lambda m, x: m.nn.functional.dropout(x, 0.5, training=False),
        lambda m, x: m.nn.functional.dropout(x, 0.0),
        lambda m, x: m.nn.functional.dropout(x, 1.0),
        lambda m, x: m.dropout(x, 1.0, True),
        lambda m, x: m.nn.functional.dropout(x * 1, 1.0, inplace=True),
    ],
)
def test_dropout_edge_cases_match_torch(call):
    a = np.random.default_rng(0).standard_normal((3, 4))
    outs = []
    for m in (torch, yaten):
        x = m.tensor(a, requires_grad=True)
        y = call(m, x)
        y.sum().backward()
        outs.append((y.detach().numpy().copy(), x.grad.numpy().copy(), y is x))
    np.testing.assert_array_equal(outs[1][0], outs[0][0])
    np.testing.assert_array_equal(outs[1][1], outs[0][1])
    assert outs[1][2] == outs[0][2]  # p=0 and eval return the input itself


def test_dropout_inplace():
    yaten.manual_seed(1)
    x = yaten.ones(1000)
    y = F.dropout(x, 0.5, inplace=True)
    assert y is x and x._version == 1
    assert set(np.unique(x.numpy()).tolist()) == {0.0, 2.0}


def test_dropout_module():
    yaten.manual_seed(2)
    y, t = yaten.nn.Dropout(), torch.nn.Dropout()
    assert repr(y) == repr(t) == "Dropout(p=0.5, inplace=False)"
    assert repr(yaten.nn.Dropout(0.2, True)) == repr(torch.nn.Dropout(0.2, True))
    x = yaten.ones(10000)
    assert abs((y(x) == 0).float().mean().item() - 0.5) < 0.03
    y.eval()
    assert y(x) is x
    assert list(y.state_dict()) == []


ERRORS = [
    lambda m: m.nn.functional.dropout(m.zeros(3), 1.5),
    lambda m: m.nn.functional.dropout(m.zeros(3), -0.1),
    lambda m: m.dropout(m.zeros(3), 1.5, True),
    lambda m: m.nn.Dropout(2.0),
    lambda m: m.nn.functional.dropout(m.tensor([1, 2]), 0.5),
    lambda m: m.nn.functional.embedding(m.tensor([1.0]), m.zeros(4, 3)),
    lambda m: m.nn.functional.embedding(m.tensor([1], dtype=m.uint8), m.zeros(4, 3)),
    lambda m: m.nn.functional.embedding(m.tensor([4]), m.zeros(4, 3)),
    lambda m: m.nn.functional.embedding(m.tensor([-1]), m.zeros(4, 3)),
    lambda m: m.nn.functional.embedding(m.tensor([1]), m.zeros(4)),
    lambda m: m.nn.functional.embedding(m.tensor([1]), m.zeros(4, 3), padding_idx=4),
    lambda m: m.nn.functional.embedding(m.tensor([1]), m.zeros(4, 3), padding_idx=-5),
    lambda m: m.nn.Embedding(4, 3, padding_idx=4),
    lambda m: m.nn.Embedding(4, 3, _weight=m.zeros(3, 3)),
    lambda m: m.nn.Embedding.from_pretrained(m.zeros(3)),
    lambda m: m.nn.functional.one_hot(m.tensor([0, 2]), 2),
    lambda m: m.nn.functional.one_hot(m.tensor([0, -1])),
    lambda m: m.nn.functional.one_hot(m.tensor([0.0, 1.0])),
    lambda m: m.nn.functional.one_hot(m.tensor([0, 1], dtype=m.int32)),
    lambda m: m.nn.functional.one_hot(m.tensor([], dtype=m.int64)),
]


@pytest.mark.parametrize("case", ERRORS, ids=range(len(ERRORS)))
def test_errors_match_torch(case):
    got = same(case)
    assert isinstance(got[0], type) and issubclass(got[0], Exception)


# --- embedding ------------------------------------------------------------------------------------


INDICES = np.array([[0, 2, 2], [4, 1, 2]])


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"padding_idx": 2}, {"padding_idx": -1}, {"scale_grad_by_freq": True},
     {"padding_idx": 0, "scale_grad_by_freq": True}],
)  # fmt: skip
@pytest.mark.parametrize(
    "indices", [INDICES, INDICES[0], INDICES.astype(np.int32)], ids=["2d", "1d", "int32"]
)
def test_embedding_values_and_gradients_match_torch(kwargs, indices):
    w = np.random.default_rng(0).standard_normal((5, 3))
    tw, yw = torch.tensor(w, requires_grad=True), yaten.tensor(w, requires_grad=True)
    t = torch.nn.functional.embedding(torch.from_numpy(indices.copy()), tw, **kwargs)
    y = F.embedding(yaten.from_numpy(indices.copy()), yw, **kwargs)
    _close(y, t)
    g = np.random.default_rng(1).standard_normal(tuple(t.shape))
    t.backward(torch.from_numpy(g))
    y.backward(yaten.from_numpy(g))
    _close(yw.grad, tw.grad)
    assert type(y.grad_fn).__name__ == "EmbeddingBackward0"


def test_embedding_gradcheck():
    w = yaten.randn(5, 3, dtype=yaten.float64, requires_grad=True)
    idx = yaten.tensor([[0, 2], [2, 4]])
    f = lambda a: F.embedding(idx, a)
    assert yaten.autograd.gradcheck(f, (w,))
    assert yaten.autograd.gradgradcheck(f, (w,))


def test_embedding_max_norm_renormalizes_rows_in_place():
    w = np.random.default_rng(2).standard_normal((5, 3)) * 3
    tw, yw = torch.tensor(w), yaten.tensor(w)
    idx = np.array([0, 2, 2])
    t = torch.nn.functional.embedding(torch.from_numpy(idx), tw, max_norm=1.0)
    y = F.embedding(yaten.from_numpy(idx), yw, max_norm=1.0)
    _close(y, t)
    _close(yw, tw)  # the looked-up rows of the weight itself were scaled


def test_embedding_module():
    y, t = yaten.nn.Embedding(10, 3, padding_idx=0), torch.nn.Embedding(10, 3, padding_idx=0)
    assert repr(y) == repr(t) == "Embedding(10, 3, padding_idx=0)"
    assert list(y.state_dict()) == list(t.state_dict()) == ["weight"]
    assert (y.weight[0] == 0).all()
    kw = {"max_norm": 2.0, "norm_type": 1.0, "scale_grad_by_freq": True, "sparse": True}
    assert repr(yaten.nn.Embedding(5, 2, **kw)) == repr(torch.nn.Embedding(5, 2, **kw))
    assert repr(yaten.nn.Embedding(5, 2, padding_idx=-1)) == repr(torch.nn.Embedding(5, 2, padding_idx=-1))
    with yaten.no_grad():
        y.weight.copy_(yaten.from_numpy(t.weight.detach().numpy().copy()))
    idx = np.array([[0, 3], [3, 9]])
    yo, to = y(yaten.from_numpy(idx)), t(torch.from_numpy(idx))
    _close(yo, to)
    yo.sum().backward()
    to.sum().backward()
    _close(y.weight.grad, t.weight.grad)


def test_embedding_from_pretrained():
    w = np.arange(6.0).reshape(3, 2)
    for freeze in (True, False):
        y = yaten.nn.Embedding.from_pretrained(yaten.tensor(w), freeze=freeze, padding_idx=1)
        t = torch.nn.Embedding.from_pretrained(torch.tensor(w), freeze=freeze, padding_idx=1)
        assert repr(y) == repr(t)
        assert y.weight.requires_grad == t.weight.requires_grad == (not freeze)
        _close(y(yaten.tensor([2, 1])), t(torch.tensor([2, 1])))


# --- one_hot --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "case",
    [
        lambda m: m.nn.functional.one_hot(m.tensor([0, 2, 1])),
        lambda m: m.nn.functional.one_hot(m.tensor([[0], [2]]), 4),
        lambda m: m.nn.functional.one_hot(m.tensor(3), 5),
        lambda m: m.nn.functional.one_hot(m.tensor([], dtype=m.int64), 3),
    ],
)
def test_one_hot_matches_torch(case):
    got = same(case)
    assert got[1] == "yaten.int64"


def test_embedding_module_with_max_norm_trains_like_torch():
    w = np.random.default_rng(3).standard_normal((5, 3)) * 3
    got = []
    for m in (torch, yaten):
        e = m.nn.Embedding(5, 3, max_norm=1.0)
        with m.no_grad():
            e.weight.copy_(m.tensor(w, dtype=m.float32))
        out = e(m.tensor([[0, 2], [2, 4]]))
        out.sum().backward()
        got.append([out.detach().numpy(), e.weight.grad.numpy(), e.weight.detach().numpy()])
    for y, t in zip(got[1], got[0]):
        np.testing.assert_allclose(y, t, rtol=1e-5, atol=1e-6)
