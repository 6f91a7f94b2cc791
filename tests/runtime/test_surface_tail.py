"""The tail of torch's surface that real programs use, beside torch: the in-place samplers of other
distributions (by their statistics; the streams are not torch's), fill_diagonal_, in-place
comparisons' autograd, set_default_tensor_type, NumPy's keyword names and the bernoulli method."""

import warnings

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_matches

N = 200_000


def _draw(lib, method, dtype, *args):
    g = lib.Generator().manual_seed(3)
    return getattr(lib.empty(N, dtype=getattr(lib, dtype)), method)(*args, generator=g)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(
    "method, args, stat, want",
    [
        ("exponential_", (2.0,), lambda x: x.mean(), 0.5),
        ("exponential_", (2.0,), lambda x: x.std(), 0.5),
        ("geometric_", (0.25,), lambda x: x.mean(), 4.0),
        ("geometric_", (0.25,), lambda x: (x == 1).mean(), 0.25),
        ("cauchy_", (1.0, 2.0), lambda x: np.median(x), 1.0),
        ("cauchy_", (1.0, 2.0), lambda x: np.percentile(x, 75) - np.percentile(x, 25), 4.0),
        ("log_normal_", (0.5, 0.3), lambda x: np.log(x).mean(), 0.5),
        ("log_normal_", (0.5, 0.3), lambda x: np.log(x).std(), 0.3),
    ],
)
def test_samplers_have_torchs_statistics(method, args, stat, want, dtype):
    for lib in (torch, yaten):
        x = _draw(lib, method, dtype, *args).numpy().astype(np.float64)
        assert abs(stat(x) - want) < 0.03 * max(want, 1), (lib.__name__, stat(x))


@pytest.mark.parametrize("method, args", [("geometric_", (0.5,)), ("exponential_", ())])
def test_samplers_keep_dtype_write_once_and_follow_the_generator(method, args):
    for dt in ("float16", "float64") + (("int64", "int32") if method == "geometric_" else ()):
        x = getattr(yaten.empty(10, dtype=getattr(yaten, dt)), method)(*args)
        assert x.dtype is getattr(yaten, dt) and x._version == 1
    a = _draw(yaten, method, "float64", *args)
    b = _draw(yaten, method, "float64", *args)
    assert a.tolist() == b.tolist()


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.empty(3).exponential_(-1),
        lambda m: m.empty(3).exponential_(0),
        lambda m: m.empty(3, dtype=m.int64).exponential_(),
        lambda m: m.empty(3).geometric_(0),
        lambda m: m.empty(3).geometric_(1.5),
        lambda m: m.empty(3, dtype=m.bool).geometric_(0.5),
        lambda m: m.empty(3).cauchy_(0, -1),
        lambda m: m.empty(3, dtype=m.int64).cauchy_(),
        lambda m: m.empty(3).log_normal_(1, 0),
        lambda m: m.empty(3, dtype=m.int64).log_normal_(),
        lambda m: m.ones(3, requires_grad=True).exponential_(),
    ],
)
def test_sampler_errors_match_torch(call):
    with pytest.raises(Exception) as want:
        call(torch)
    with pytest.raises(want.type) as got:
        call(yaten)
    assert str(got.value) == str(want.value)


def test_bernoulli_method():
    assert yaten.tensor([0.0, 1.0]).bernoulli().tolist() == [0.0, 1.0]
    assert yaten.tensor([0.2, 0.9]).bernoulli(p=1.0).tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError):
        yaten.tensor([1, 2]).bernoulli()


@pytest.mark.parametrize(
    "shape, value, wrap",
    [
        ((3, 4), 5, False),
        ((4, 3), 2.5, False),
        ((7, 3), 5, True),
        ((7, 3), 5, False),
        ((2, 2, 2), -1, False),
        ((3, 3), 1, True),
    ],
)
def test_fill_diagonal_matches_torch(shape, value, wrap):
    t = torch.zeros(shape).fill_diagonal_(value, wrap=wrap)
    y = yaten.zeros(shape)
    assert y.fill_diagonal_(value, wrap=wrap) is y
    assert_matches(y, t)


def test_fill_diagonal_of_a_view_and_its_gradient():
    base = np.arange(24.0).reshape(4, 6)
    t, y = torch.from_numpy(base.copy()), yaten.from_numpy(base.copy())
    t[:, 1:4].fill_diagonal_(0)
    y[:, 1:4].fill_diagonal_(0)
    assert_matches(y, t)
    grads = []
    for lib in (torch, yaten):
        x = lib.ones(3, 3, requires_grad=True)
        z = x * 2
        z.fill_diagonal_(7)
        (z * lib.arange(9.0).reshape(3, 3)).sum().backward()
        grads.append(x.grad)
    assert_matches(grads[1], grads[0])


@pytest.mark.parametrize("shape", [(2,), (2, 3, 2)])
def test_fill_diagonal_errors(shape):
    with pytest.raises(RuntimeError) as want:
        torch.zeros(shape).fill_diagonal_(1)
    with pytest.raises(RuntimeError, match=str(want.value)):
        yaten.zeros(shape).fill_diagonal_(1)


@pytest.mark.parametrize("op", ["eq_", "ne_", "lt_", "le_", "gt_", "ge_", "greater_", "less_equal_"])
def test_inplace_comparisons_record_a_zero_gradient(op):
    result = []
    for lib in (torch, yaten):
        a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b = lib.tensor([2.0, 2.0, 2.0], requires_grad=True)
        x = a * 1
        y = getattr(x, op)(b)
        assert y is x and y.requires_grad
        (y * 3).sum().backward()
        result.append((type(y.grad_fn).__name__, x.tolist(), a.grad.tolist(), b.grad.tolist()))
    assert result[0] == result[1]


def test_set_default_tensor_type():
    try:
        for name in ("DoubleTensor", "torch.FloatTensor", "torch.DoubleTensor"):
            with pytest.warns(UserWarning, match="set_default_tensor_type"):
                yaten.set_default_tensor_type(getattr(yaten, name) if "." not in name else name)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                torch.set_default_tensor_type(getattr(torch, name) if "." not in name else name)
            assert str(yaten.ones(1).dtype).split(".")[1] == str(torch.ones(1).dtype).split(".")[1]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for bad, kind in (
                (yaten.LongTensor, TypeError),
                (3, TypeError),
                ("torch.Foo", AttributeError),
                ("torch.cuda.FloatTensor", TypeError),
            ):
                with pytest.raises(kind):
                    yaten.set_default_tensor_type(bad)
    finally:
        yaten.set_default_dtype(yaten.float32)
        torch.set_default_dtype(torch.float32)


def test_numpy_keyword_names():
    x = np.arange(6.0).reshape(2, 3)
    assert_matches(
        yaten.from_numpy(x).sum(axis=0, keepdims=True), torch.from_numpy(x).sum(axis=0, keepdims=True)
    )
    y = yaten.concatenate([yaten.from_numpy(x)] * 2, axis=1)
    assert_matches(y, torch.concatenate([torch.from_numpy(x)] * 2, axis=1))
    with pytest.raises(TypeError):
        yaten.from_numpy(x).sum(dim=0, axis=1)


def test_vander_gradient():
    """torch's own vander backward fails (it differentiates an in-place cumprod); yaten's is gradchecked."""
    x = yaten.from_numpy(np.array([0.5, -1.5, 2.0])).requires_grad_()
    assert yaten.autograd.gradcheck(lambda t: yaten.vander(t, 4), (x,))
    assert yaten.autograd.gradcheck(lambda t: yaten.vander(t, increasing=True), (x,))


@pytest.mark.parametrize("feature", [False, True])
def test_alpha_dropout_keeps_mean_and_variance(feature):
    x = np.random.default_rng(0).standard_normal((4000, 50, 1) if feature else 200_000)
    for lib in (torch, yaten):
        f = lib.nn.functional.feature_alpha_dropout if feature else lib.nn.functional.alpha_dropout
        y = f(lib.from_numpy(x), 0.3, training=True).numpy()
        assert abs(y.mean()) < 0.02 and abs(y.std() - 1) < 0.02, lib.__name__
        sat, p = 1.7580993408473766, 0.3
        dropped = np.isclose(y, -sat * (1 - p) / np.sqrt((sat * sat * p + 1) * (1 - p)))
        assert abs(dropped.mean() - p) < 0.02, lib.__name__


def test_alpha_dropout_gradient_is_the_scaled_mask():
    for lib in (torch, yaten):
        a = lib.ones(1000, dtype=lib.float64, requires_grad=True)
        lib.nn.functional.alpha_dropout(a * 1, 0.5, True, inplace=True).sum().backward()
        scale = 1 / np.sqrt((1.7580993408473766**2 * 0.5 + 1) * 0.5)
        np.testing.assert_allclose(sorted(set(a.grad.numpy().tolist())), [0.0, scale], rtol=1e-12)


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.tensor([1.0, 2.0, 3.0]).apply_(lambda v: v * 2),
        lambda m: m.tensor([1, 2]).apply_(lambda v: v / 3),
        lambda m: m.tensor([True, False]).apply_(lambda v: not v),
        lambda m: m.zeros(2, 3)[:, 1].apply_(lambda v: 5.0),
        lambda m: m.tensor([[1.0, 2.0], [3.0, 4.0]]).map_(m.tensor([10.0, 20.0]), lambda a, b: a + b),
        lambda m: m.tensor([1.0, 2.0]).map2_(
            m.tensor([1.0, 1.0]), m.tensor([2.0, 2.0]), lambda a, b, c: a + b * c
        ),
        lambda m: m.ones(2, requires_grad=True).apply_(lambda v: v),
        lambda m: m.ones(2).apply_(lambda v: "a"),
        lambda m: m.ones(2).map_(m.ones(3), lambda a, b: a),
        lambda m: m.ones(2).map_(m.ones(2, dtype=m.int64), lambda a, b: a),
        lambda m: m.ones(2).map_(m.ones(2, requires_grad=True), lambda a, b: a),
    ],
)
def test_python_callables_over_elements_match_torch(call):
    try:
        want = call(torch)
    except (RuntimeError, TypeError) as e:
        with pytest.raises(type(e)) as got:
            call(yaten)
        assert str(got.value).replace("yaten.", "torch.") == str(e)
        return
    got = call(yaten)
    assert_matches(got, want)
    assert got._version == want._version == 0


@pytest.mark.parametrize(
    "args",
    [
        ([4, 1], (2, 3)),
        ([[4, -1]], (2, 3)),
        (5, (2, 3)),
        ([7], (2, 3)),
        ([1], 4),
        ([0], ()),
        ([1.0], (2, 3)),
        ([1], (2, -3)),
        ([1], [2.0]),
        ([True], (2, 3)),
    ],
)
def test_unravel_index_matches_torch(args):
    results = []
    for lib in (torch, yaten):
        try:
            results.append([t.tolist() for t in lib.unravel_index(lib.tensor(args[0]), args[1])])
        except (TypeError, ValueError) as e:
            results.append((type(e), str(e).replace("yaten.", "torch.")))
    assert results[0] == results[1]


def test_polygamma_in_place():
    for n in (0, 1, 2):
        t, y = (
            torch.tensor([1.0, 2.5, 4.0], dtype=torch.float64),
            yaten.tensor([1.0, 2.5, 4.0], dtype=yaten.float64),
        )
        assert y.polygamma_(n) is y
        assert_matches(y, t.polygamma_(n))
