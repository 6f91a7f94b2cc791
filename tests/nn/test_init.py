"""nn.init side by side with torch: distributions (statistically), shapes, gains, fans, errors."""

import math
import warnings

import numpy as np
import pytest
import torch

import yaten
from yaten.nn import init


@pytest.fixture(autouse=True)
def _seeded():
    """Fixed seeds: the statistical checks below then give the same verdict in any test order."""
    yaten.manual_seed(0)
    torch.manual_seed(0)


def _values(t):
    return t.detach().numpy().astype(np.float64).ravel()


@pytest.mark.parametrize(
    "args",
    [
        ("linear",),
        ("conv2d",),
        ("sigmoid",),
        ("tanh",),
        ("relu",),
        ("leaky_relu",),
        ("leaky_relu", 0.2),
        ("leaky_relu", 1),
        ("selu",),
    ],
)
def test_calculate_gain_matches_torch(args):
    assert init.calculate_gain(*args) == torch.nn.init.calculate_gain(*args)


@pytest.mark.parametrize("shape", [(3, 4), (5, 2, 3), (4, 3, 2, 2)])
def test_fans_match_torch(shape):
    got = init._calculate_fan_in_and_fan_out(yaten.empty(shape))
    assert got == torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(shape))


def _message(fn):
    with pytest.raises(Exception) as info:
        fn()
    return type(info.value), str(info.value)


@pytest.mark.parametrize(
    "case",
    [
        lambda m: m.nn.init._calculate_fan_in_and_fan_out(m.empty(3)),
        lambda m: m.nn.init.xavier_uniform_(m.empty(3)),
        lambda m: m.nn.init.kaiming_normal_(m.empty(3)),
        lambda m: m.nn.init.kaiming_uniform_(m.empty(3, 4), mode="fan"),
        lambda m: m.nn.init.calculate_gain("swish"),
        lambda m: m.nn.init.calculate_gain("leaky_relu", "0.1"),
        lambda m: m.nn.init.calculate_gain("leaky_relu", True),
        lambda m: m.nn.init.orthogonal_(m.empty(3)),
        lambda m: m.nn.init.eye_(m.empty(3, 3, 3)),
        lambda m: m.nn.init.dirac_(m.empty(3, 3)),
        lambda m: m.nn.init.dirac_(m.empty(3, 3, 3), groups=2),
        lambda m: m.nn.init.uniform_(m.empty(3), 2.0, 1.0),
    ],
)
def test_errors_match_torch(case):
    t_type, t_msg = _message(lambda: case(torch))
    y_type, y_msg = _message(lambda: case(yaten))
    assert y_type is t_type
    assert y_msg == t_msg


def test_uniform_and_normal_statistics():
    w = init.uniform_(yaten.empty(200, 300), -2.0, 3.0)
    v = _values(w)
    assert v.min() >= -2.0 and v.max() < 3.0
    assert abs(v.mean() - 0.5) < 0.05 and abs(v.std() - 5 / math.sqrt(12)) < 0.05
    v = _values(init.normal_(yaten.empty(200, 300), 1.5, 0.5))
    assert abs(v.mean() - 1.5) < 0.01 and abs(v.std() - 0.5) < 0.01


def test_fills_are_in_place_without_history_and_return_the_tensor():
    p = yaten.nn.Parameter(yaten.empty(4, 5))
    for fn in (init.uniform_, init.normal_, init.xavier_uniform_, init.xavier_normal_, init.kaiming_uniform_,
               init.kaiming_normal_, init.trunc_normal_, init.orthogonal_, init.ones_, init.zeros_, init.eye_):  # fmt: skip
        out = fn(p)
        assert out is p
        assert p.grad_fn is None and p.requires_grad and p.is_leaf
    assert init.constant_(p, 0.25) is p and set(_values(p)) == {0.25}
    assert p.dtype is yaten.float32


@pytest.mark.parametrize("shape", [(300, 200), (64, 32, 3, 3)])
@pytest.mark.parametrize("gain", [1.0, 2.0])
def test_xavier_bounds_and_std(shape, gain):
    fan_in, fan_out = init._calculate_fan_in_and_fan_out(yaten.empty(shape))
    std = gain * math.sqrt(2.0 / (fan_in + fan_out))
    v = _values(init.xavier_uniform_(yaten.empty(shape), gain=gain))
    assert np.abs(v).max() <= math.sqrt(3.0) * std
    assert abs(v.std() / std - 1) < 0.03
    v = _values(init.xavier_normal_(yaten.empty(shape), gain=gain))
    assert abs(v.mean()) < 0.05 * std and abs(v.std() / std - 1) < 0.03


@pytest.mark.parametrize("mode", ["fan_in", "fan_out", "FAN_OUT"])
@pytest.mark.parametrize(
    "nonlinearity, a", [("leaky_relu", 0), ("relu", 0), ("leaky_relu", 0.2), ("tanh", 0)]
)
def test_kaiming_std_matches_torch_formula(mode, nonlinearity, a):
    shape = (128, 64, 3, 3)
    t = torch.nn.init.kaiming_normal_(torch.empty(shape), a=a, mode=mode, nonlinearity=nonlinearity)
    y = init.kaiming_normal_(yaten.empty(shape), a=a, mode=mode, nonlinearity=nonlinearity)
    expected = t.std().item()
    assert abs(_values(y).std() / expected - 1) < 0.03
    tu = torch.nn.init.kaiming_uniform_(torch.empty(shape), a=a, mode=mode, nonlinearity=nonlinearity)
    yu = _values(init.kaiming_uniform_(yaten.empty(shape), a=a, mode=mode, nonlinearity=nonlinearity))
    assert np.abs(yu).max() <= tu.abs().max().item() * 1.01
    assert abs(yu.std() / tu.std().item() - 1) < 0.03


def test_kaiming_on_an_empty_tensor_warns_and_does_nothing():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t = yaten.empty(0, 3)
        assert init.kaiming_uniform_(t) is t
    assert [str(w.message) for w in caught] == ["Initializing zero-element tensors is a no-op"]


@pytest.mark.parametrize(
    "mean, std, a, b", [(0.0, 1.0, -2.0, 2.0), (0.5, 0.2, 0.0, 1.0), (0.0, 1.0, -0.5, 0.5)]
)
def test_trunc_normal_matches_torch_distribution(mean, std, a, b):
    torch.manual_seed(0)
    t = torch.nn.init.trunc_normal_(torch.empty(200_000, dtype=torch.float64), mean, std, a, b).numpy()
    v = _values(init.trunc_normal_(yaten.empty(200_000, dtype=yaten.float64), mean, std, a, b))
    assert v.min() >= a and v.max() <= b
    assert abs(v.mean() - t.mean()) < 0.01 * std
    assert abs(v.std() / t.std() - 1) < 0.01
    for q in (0.1, 0.5, 0.9):
        assert abs(np.quantile(v, q) - np.quantile(t, q)) < 0.02 * std


def test_trunc_normal_warns_as_torch_when_the_mean_is_far_from_the_interval():
    with pytest.warns(UserWarning, match=r"mean is more than 2 std from \[a, b\] in nn.init.trunc_normal_"):
        v = _values(init.trunc_normal_(yaten.empty(1000), mean=5.0, std=1.0, a=-1.0, b=1.0))
    assert v.min() >= -1.0 and v.max() <= 1.0


@pytest.mark.parametrize("shape", [(5, 5), (3, 7), (7, 3), (4, 2, 3)])
@pytest.mark.parametrize("gain", [1.0, 0.5])
def test_orthogonal(shape, gain):
    w = init.orthogonal_(yaten.empty(shape, dtype=yaten.float64), gain=gain).numpy().reshape(shape[0], -1)
    rows, cols = w.shape
    gram = w @ w.T if rows <= cols else w.T @ w
    np.testing.assert_allclose(gram, gain**2 * np.eye(min(rows, cols)), atol=1e-12)


def test_eye_dirac_constant_match_torch():
    for shape in [(3, 3), (2, 4), (4, 2)]:
        np.testing.assert_array_equal(
            init.eye_(yaten.empty(shape)).numpy(), torch.nn.init.eye_(torch.empty(shape))
        )
    for shape, groups in [((4, 2, 3), 1), ((4, 2, 3, 3), 2), ((2, 3, 3, 3, 3), 1), ((6, 2, 5), 3)]:
        got = init.dirac_(yaten.empty(shape), groups).numpy()
        np.testing.assert_array_equal(got, torch.nn.init.dirac_(torch.empty(shape), groups).numpy())
    np.testing.assert_array_equal(init.ones_(yaten.empty(2, 2)).numpy(), np.ones((2, 2)))
    np.testing.assert_array_equal(init.zeros_(yaten.empty(2, 2)).numpy(), np.zeros((2, 2)))


def test_generator_gives_reproducible_fills():
    g = yaten.Generator().manual_seed(3)
    a = init.kaiming_uniform_(yaten.empty(4, 5), generator=g).numpy().copy()
    g.manual_seed(3)
    b = init.kaiming_uniform_(yaten.empty(4, 5), generator=g).numpy()
    np.testing.assert_array_equal(a, b)
    yaten.manual_seed(11)
    c = init.orthogonal_(yaten.empty(3, 3)).numpy().copy()
    yaten.manual_seed(11)
    np.testing.assert_array_equal(c, init.orthogonal_(yaten.empty(3, 3)).numpy())


# --- sparse_, the deprecated names, nn.factory_kwargs ---------------------------------------------
@pytest.mark.parametrize("shape, sparsity", [((10, 4), 0.3), ((5, 6), 0.5), ((3, 3), 0.0)])
def test_sparse_zeros_the_same_count_per_column_as_torch(shape, sparsity):
    y = init.sparse_(yaten.empty(*shape), sparsity, std=0.5)
    t = torch.nn.init.sparse_(torch.empty(*shape), sparsity, std=0.5)
    assert (y == 0).sum(dim=0).tolist() == (t == 0).sum(dim=0).tolist()
    nonzero = y.numpy()[y.numpy() != 0]
    assert abs(nonzero.std() - 0.5) < 0.25 and nonzero.size == shape[1] * (
        shape[0] - math.ceil(sparsity * shape[0])
    )


def test_sparse_rejects_non_matrices_as_torch():
    with pytest.raises(ValueError, match="^Only tensors with 2 dimensions are supported$"):
        init.sparse_(yaten.empty(3), 0.1)
    with pytest.raises(ValueError, match="^Only tensors with 2 dimensions are supported$"):
        torch.nn.init.sparse_(torch.empty(3), 0.1)


DEPRECATED = [
    ("uniform", ()), ("normal", ()), ("constant", (0.5,)), ("eye", ()), ("dirac", ()), ("xavier_uniform", ()),
    ("xavier_normal", ()), ("kaiming_uniform", ()), ("kaiming_normal", ()), ("orthogonal", ()), ("sparse", (0.2,)),
]  # fmt: skip


@pytest.mark.parametrize("name, args", DEPRECATED)
def test_the_deprecated_names_warn_as_torch_and_fill(name, args):
    shape = (3, 3, 3) if name == "dirac" else (4, 3)
    messages = []
    for lib in (yaten, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = getattr(lib.nn.init, name)(lib.zeros(*shape), *args)
        assert [w.category for w in caught] == [FutureWarning]
        assert caught[0].filename == __file__  # stacklevel=2: the caller's line
        messages.append(str(caught[0].message))
        assert tuple(out.shape) == shape and bool((out != 0).any())
    assert messages[0] == messages[1]
    assert getattr(init, name).__name__ == name


def test_factory_kwargs_matches_torch():
    for kwargs in (None, {}, {"dtype": "d"}, {"device": "cpu", "factory_kwargs": {"dtype": "d"}}):
        assert yaten.nn.factory_kwargs(kwargs) == torch.nn.factory_kwargs(kwargs)
    for bad in ({"bias": 1}, {"dtype": 1, "factory_kwargs": {"dtype": 2}}):
        with pytest.raises(TypeError) as expected:
            torch.nn.factory_kwargs(bad)
        with pytest.raises(TypeError) as got:
            yaten.nn.factory_kwargs(bad)
        assert str(got.value) == str(expected.value)
