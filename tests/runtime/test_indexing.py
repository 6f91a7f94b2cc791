"""``x[index]`` and ``x[index] = value`` (runtime/_indexing.py) side by side with PyTorch.

Every case is a Python expression (or statement) evaluated twice on the same data: once with
``M = torch`` and once with ``M = yaten``. Results are compared for values, shape, dtype and whether
they are views of ``x`` (offset and strides too); errors for exception type and message; gradients
value for value.
"""

import ast
import doctest
import warnings

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_close
from yaten import _indexing

SHAPE = (3, 4, 5)


def _data(shape, dtype: str = "float32") -> np.ndarray:
    # Distinct values, so a wrong element cannot go unnoticed.
    return (np.arange(int(np.prod(shape))) - 7).reshape(shape).astype(dtype)


def _pair(shape=SHAPE, dtype: str = "float32"):
    a = _data(shape, dtype)
    return torch.tensor(a), yaten.tensor(a)


class _Key:
    """``_KEY[...]`` is the index written between the brackets (slices and all)."""

    def __getitem__(self, index):
        return index


_KEY = _Key()


def _eval(expr: str, M, **names):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # deprecation warnings are checked on their own below
        return eval(expr, {"M": M, "np": np, "_KEY": _KEY, **names})


def _assign(stmt: str, M, **names) -> None:
    """Run ``stmt``, one ``target[index] = value`` assignment (by its parts, with no exec)."""
    node = ast.parse(stmt).body[0]
    assert isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript), stmt
    target = node.targets[0]
    obj = _eval(ast.get_source_segment(stmt, target.value), M, **names)
    index = _eval(f"_KEY[{ast.get_source_segment(stmt, target.slice)}]", M, **names)
    value = _eval(ast.get_source_segment(stmt, node.value), M, **names)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        obj[index] = value


def _same(y, t, exact: bool = True) -> None:
    """Same dtype, shape and values: exactly what indexing computes (it only copies); gradients, which
    sum over repeated and broadcast positions, to the dtype's tolerance (tests/tolerances.py)."""
    assert y.dtype.name == str(t.dtype).removeprefix("torch."), (y.dtype, t.dtype)
    assert tuple(y.shape) == tuple(t.shape), (y.shape, t.shape)
    if exact:
        np.testing.assert_array_equal(np.asarray(y.detach()), t.detach().numpy(), strict=True)
    else:
        assert_close(y, t)


# --- x[index] -----------------------------------------------------------------------------------------

GETITEM = [
    # ints, negative ints, NumPy ints, 0-d integer tensors
    "x[0]",
    "x[-1]",
    "x[2, 3]",
    "x[-3, -4, -5]",
    "x[1][2]",
    "x[np.int64(1), np.int32(2)]",
    "x[M.tensor(1)]",
    "x[0, M.tensor(-1)]",
    "x[M.tensor(2, dtype=M.int32)]",
    "x[M.tensor(1, dtype=M.int16)]",
    # slices
    "x[1:]",
    "x[:2]",
    "x[::2]",
    "x[1:, ::2]",
    "x[-2:, 1:3, ::3]",
    "x[:]",
    "x[:, :]",
    "x[5:10]",
    "x[-100:100]",
    "x[2:1]",
    "x[:, 2**70:]",
    "x[M.tensor(1):M.tensor(3)]",
    "x[0:3:2, 1::2, -1]",
    # None, Ellipsis, bools
    "x[None]",
    "x[..., None]",
    "x[None, 1, None, ..., None]",
    "x[...]",
    "x[..., 0]",
    "x[1, ...]",
    "x[..., 1:, None]",
    "x[()]",
    "x[True]",
    "x[False]",
    "x[0, True]",
    "x[False, 1]",
    "x[..., True]",
    "x[M.tensor(True)]",
    "x[:, M.tensor(False)]",
    "x[M.tensor(1, dtype=M.uint8)]",
    # lists and integer tensors
    "x[[0, 2]]",
    "x[[2, 0, 2, -1]]",
    "x[[]]",
    "x[[1.7]]",
    "x[[0, True]]",
    "x[M.tensor([0, 2])]",
    "x[M.tensor([[0, 1], [2, -3]])]",
    "x[M.tensor([1, 0], dtype=M.int32)]",
    "x[:, [1, 3]]",
    "x[[0, 1], [1, 2]]",
    "x[[[0], [2]], [[0, 1, 3]]]",
    "x[range(2)]",
    "x[np.array([2, 0])]",
    "x[(0, 1),]",
    # masks
    "x[[True, False, True]]",
    "x[x > 3]",
    "x[M.tensor([True, False, True])]",
    "x[:, M.tensor([0, 1, 1, 0]) == 1]",
    "x[M.ones(3, 4, dtype=M.bool)]",
    "x[(x > 10)[..., 0]]",
    "x[np.array([True, False, True])]",
    "x[M.tensor([1, 0, 1], dtype=M.uint8)]",
    "x[M.ones(3, 4, dtype=M.bool), 2:]",
    "x[M.ones(3, 4, dtype=M.bool), [0]]",
    # basic and advanced together: separated index dims lead, adjacent ones stay in place
    "x[0, :, [1, 2]]",
    "x[[0, 1], :, [1, 2]]",
    "x[:, [0, 1], [1, 2]]",
    "x[[0, 1], 1, [1, 2]]",
    "x[1, [0, 1], :, None]",
    "x[None, ..., [0, 1]]",
    "x[..., [0, 1], 1:3]",
    "x[[0, 1], ..., [0, 1]]",
    "x[[0, 1], None, [0, 1]]",
    "x[True, [0, 1]]",
    "x[[0, 1], True]",
    "x[1:, M.tensor([[0], [3]]), ::2]",
    "x[M.tensor([0, 1]), None, M.tensor([1, 2], dtype=M.int32)]",
    # sequences read as tuples (deprecated in torch)
    "x[[0, slice(None)]]",
    "x[[[0, 1], [1, 2]]]",
    "x[[1, None]]",
    "x[[M.tensor(0), M.tensor(1)]]",
]


@pytest.mark.parametrize("expr", GETITEM)
def test_getitem_matches_torch(expr):
    t, y = _pair()
    rt, ry = _eval(expr, torch, x=t), _eval(expr, yaten, x=y)
    _same(ry, rt)
    if rt._base is None:
        assert ry._base is None, "torch copies here, yaten returned a view"
    else:
        assert ry._base is y, "torch returns a view here"
        assert ry.stride() == rt.stride()
        assert ry.storage_offset() == rt.storage_offset()
        if rt.numel():  # torch's data_ptr() of an empty tensor is 0
            assert ry.data_ptr() - y.data_ptr() == rt.data_ptr() - t.data_ptr()
        assert ry._version == y._version
    # Writing to x shows through views, and not through copies.
    t.add_(100)
    y.add_(100)
    _same(ry, rt)


@pytest.mark.parametrize(
    "shape, expr",
    [
        ((), "x[...]"),
        ((), "x[None]"),
        ((), "x[()]"),
        ((), "x[True]"),
        ((), "x[False]"),
        ((), "x[None, ..., None]"),
        ((0, 3), "x[[]]"),
        ((0, 3), "x[:, [0, 2]]"),
        ((0, 3), "x[1:]"),
        ((3, 0), "x[:, []]"),
        ((3, 0), "x[M.tensor([], dtype=M.int64)]"),
    ],
)
def test_getitem_scalar_and_empty(shape, expr):
    t, y = _pair(shape)
    rt, ry = _eval(expr, torch, x=t), _eval(expr, yaten, x=y)
    _same(ry, rt)
    assert (ry._base is None) == (rt._base is None)


@pytest.mark.parametrize("dtype", ["int64", "bool", "uint8", "float64", "float16"])
def test_getitem_keeps_dtype(dtype):
    t, y = _pair((3, 4), dtype)
    for expr in ("x[1]", "x[:, 1:3]", "x[[0, 2], -1]", "x[M.tensor([True, False, True])]"):
        _same(_eval(expr, yaten, x=y), _eval(expr, torch, x=t))


def test_view_shares_version_counter():
    x = yaten.zeros(3, 4)
    v = x[1:, ::2]
    before = x._version
    v[0] = 1
    assert x._version == v._version == before + 1
    assert x[1].tolist() == [1.0, 0.0, 1.0, 0.0]


@pytest.mark.parametrize("expr", ["x[...]", "x[:, :]", "x[1:, ::2]", "x[0, None]", "x[:, [0, 1]]"])
def test_getitem_on_non_contiguous_base(expr):
    t, y = _pair()
    t, y = t.transpose(0, 2)[::2], y.transpose(0, 2)[::2]
    rt, ry = _eval(expr, torch, x=t), _eval(expr, yaten, x=y)
    _same(ry, rt)
    assert (ry._base is None) == (rt._base is None)
    if rt._base is not None:
        assert ry.stride() == rt.stride() and ry.storage_offset() == rt.storage_offset()


def test_views_record_view_backward_nodes():
    x = yaten.randn(3, 4, 5, requires_grad=True)
    assert x[0].grad_fn.name() == "SelectBackward0"
    assert x[1:].grad_fn.name() == "SliceBackward0"
    assert x[None].grad_fn.name() == "UnsqueezeBackward0"
    assert x[[0, 1]].grad_fn.name() == "IndexBackward0"
    assert x[x > 0].grad_fn.name() == "IndexBackward0"
    assert x[:, :, :].grad_fn is not None  # torch records AliasBackward0; yaten has no alias op


# --- x[index] = value ---------------------------------------------------------------------------------

SETITEM = [
    ("float32", "x[0] = 7"),
    ("float32", "x[-1, 2] = 2.5"),
    ("float32", "x[1:] = M.arange(5.)"),
    ("float32", "x[:, 1] = M.ones(3, 1) * 9"),
    ("float32", "x[:, ::2, 1:] = M.tensor([[1.], [2.]])"),
    ("float32", "x[...] = M.tensor(3.)"),
    ("float32", "x[None] = M.ones(1, 1, 3, 4, 5)"),
    ("float32", "x[True] = 1"),
    ("float32", "x[False] = 1"),
    ("float32", "x[(None, 1, None, 2)] = 0"),
    ("float32", "x[1, True] = M.zeros(1, 5)"),
    ("float32", "x[False, 0] = 1"),
    ("float32", "x[0, 0] = np.float64(1.5)"),
    ("float32", "x[0, 0] = np.int64(3)"),
    ("int64", "x[0] = 2.7"),
    ("int64", "x[0, :] = M.tensor([1.5, 2.5, -3.5, 4.5, 5.5])"),
    ("uint8", "x[0] = -1"),
    ("bool", "x[0] = 2"),
    ("float32", "x[[0, 2]] = 5"),
    ("float32", "x[[0, 0]] = M.arange(20.).reshape(4, 5)"),
    ("float32", "x[:, [1, 3]] = M.tensor([10., 20., 30., 40., 50.])"),
    ("float32", "x[:, [1, 3]] = M.tensor([[[10.]], [[20.]], [[30.]]])"),
    ("float32", "x[[0, 1], [1, 2]] = M.ones(1, 1, 5)"),
    ("float32", "x[0, :, [1, 2]] = M.arange(8.).reshape(4, 2)"),
    ("float32", "x[[0, 1], :, [1, 2]] = M.arange(8.).reshape(2, 4)"),
    ("float32", "x[x > 20] = -1"),
    ("float32", "x[M.tensor([True, False, True])] = M.arange(5.)"),
    ("float32", "x[M.tensor([1, 0, 1], dtype=M.uint8)] = M.arange(5.)"),
    ("int64", "x[M.tensor([True, False, True])] = M.tensor(2.9)"),
    ("int64", "x[M.tensor([True, False, True])] = M.tensor([2.9])"),
    ("float32", "x[M.tensor(1)] = 1"),
    ("float32", "x[..., M.tensor([4, 0])] = M.tensor([7., 8.])"),
]


@pytest.mark.parametrize("dtype, stmt", SETITEM)
def test_setitem_matches_torch(dtype, stmt):
    t, y = _pair(SHAPE, dtype)
    vt, vy = t._version, y._version
    _assign(stmt, torch, x=t)
    _assign(stmt, yaten, x=y)
    _same(y, t)
    assert (y._version > vy) == (t._version > vt)


@pytest.mark.parametrize("stmt", ["x[...] = 4", "x[None] = M.tensor([5.])", "x[()] = 6", "x[True] = 2"])
def test_setitem_on_0d(stmt):
    t, y = _pair(())
    _assign(stmt, torch, x=t)
    _assign(stmt, yaten, x=y)
    _same(y, t)


def test_setitem_through_a_view_writes_the_base():
    x = yaten.zeros(3, 4)
    row = x[1]
    row[[0, 3]] = 5
    x[:, 1][x[:, 1] == 0] = 2
    assert x.tolist() == [[0, 2, 0, 0], [5, 2, 0, 5], [0, 2, 0, 0]]


# --- errors -------------------------------------------------------------------------------------------

ERRORS = [
    "x[3]",
    "x[-4]",
    "x[0, 5]",
    "x[None, 4]",
    "x[:, None, 5]",
    "x[0, 0, 0, 0]",
    "x[..., 0, 0, 0, 0]",
    "x[[0], [0], [0], [0]]",
    "x[1.5]",
    "x[0, 1.5]",
    "x[{}]",
    "x[object()]",
    "x['a']",
    "x[b'a']",
    "x[1, 'a']",
    "x[::0]",
    "x[::-1]",
    "x[0, ::-2]",
    "x[1.0:2]",
    "x[[0, 5]]",
    "x[:, [0, 4]]",
    "x[:, :, [-6]]",
    "x[[0, 1], [0, 1, 2]]",
    "x[M.tensor([0., 1.])]",
    "x[M.tensor(1.)]",
    "x[M.tensor([1, 0], dtype=M.int16)]",
    "x[M.tensor([True, False])]",
    "x[:, M.tensor([True, False])]",
    "x[M.ones(3, 5, dtype=M.bool)]",
    "x[M.tensor(5)]",
    "M.zeros(3, 0)[:, [0]]",
    "x[0][0][0][0]",
    "x[0, 0, 0][0]",
    "x[0, 0, 0][...][5]",
    "x[0, 0, 0][:]",
]


def _raises_alike(run):
    with pytest.raises(Exception) as et:
        run(torch)
    with pytest.raises(Exception) as ey:
        run(yaten)
    assert type(ey.value) is type(et.value), (ey.value, et.value)
    return str(ey.value), str(et.value)


@pytest.mark.parametrize("expr", ERRORS)
def test_getitem_errors_match_torch(expr):
    pair = dict(zip((torch, yaten), _pair()))
    got, want = _raises_alike(lambda M: _eval(expr, M, x=pair[M]))
    assert got == want


SETITEM_ERRORS = [
    "x[0] = 'a'",
    "x[0] = None",
    "x[0] = [1, 2]",
    "x[0] = np.float32(1)",
    "x[0] = np.ones(5)",
    "x[0] = M.ones(3)",
    "x[0:2] = M.ones(3, 5)",
    "x[[0, 1]] = M.ones(3, 5)",
    "x[[0, 1]] = M.ones(5, dtype=M.int64)",
    "x[M.tensor([True, False, True])] = M.ones(5, dtype=M.float64)",
    "x[[0, 1]] = M.tensor(1, dtype=M.int64)",
    "x[3] = 1",
    "x[0, 1.5] = 1",
    "x[::-1] = 1",
    "x[[0, 7]] = 1",
    "x[M.tensor([True, False])] = 1",
    "x.to(M.uint8)[0] = 300",
    "x[0] = 1e40",
    "x[M.tensor([1, 0, 1], dtype=M.uint8)] = 4",
    "x[:, M.tensor([1, 0, 1, 1], dtype=M.uint8)] = M.ones(1)",
    "x[M.ones(3, 5, dtype=M.bool)] = 1",
]


@pytest.mark.parametrize("stmt", SETITEM_ERRORS)
def test_setitem_errors_match_torch(stmt):
    pair = dict(zip((torch, yaten), _pair()))
    got, want = _raises_alike(lambda M: _assign(stmt, M, x=pair[M]))
    assert got == want


def test_setitem_expand_error():
    # Same type and wording; torch names the tensor type as torch.FloatTensor where yaten says float32.
    with pytest.raises(RuntimeError, match=r"the number of sizes provided \(1\) must be greater or equal"):
        yaten.zeros(3, 4)[0] = yaten.ones(2, 4)


def test_delitem():
    with pytest.raises(TypeError, match="Tensor does not support deleting items"):
        del yaten.zeros(3)[0]


def test_warnings():
    x = yaten.zeros(3, 4)
    with pytest.warns(UserWarning, match="non-tuple sequence for multidimensional indexing is deprecated"):
        x[[0, slice(None)]]
    with pytest.warns(UserWarning, match="indexing with dtype torch.uint8 is now deprecated"):
        x[yaten.tensor([1, 0, 1], dtype=yaten.uint8)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x[[0, 1]]
        x[(0, slice(None))]


# --- gradients ----------------------------------------------------------------------------------------

GRAD = [
    "x[1:, ::2]",
    "x[0]",
    "x[[0, 2]]",
    "x[x > 0]",
    "x[None, 0, ..., 1]",
    "x[[0, 0, 2], 1:]",
    "x[:, [1, 3]]",
    "x[..., None][0]",
    "x[M.tensor([[0, 1], [2, 0]])]",
    "x[0, :, [1, 2]]",
    "x[True, [0, 1]]",
]


def _grad_pair(shape=SHAPE):
    a = np.random.RandomState(0).randn(*shape)
    return torch.tensor(a, requires_grad=True), yaten.tensor(a, requires_grad=True)


@pytest.mark.parametrize("expr", GRAD)
def test_getitem_gradient_matches_torch(expr):
    t, y = _grad_pair()
    rt, ry = _eval(expr, torch, x=t), _eval(expr, yaten, x=y)
    g = np.random.RandomState(1).randn(*rt.shape)
    rt.backward(torch.tensor(g))
    ry.backward(yaten.tensor(g))
    _same(y.grad, t.grad, exact=False)


@pytest.mark.parametrize(
    "stmt",
    [
        "y[[0, 1]] = v * 2",
        "y[:, [1, 3]] = v[0]",
        "y[y > 0] = 0",
        "y[M.tensor([True, False, True])] = v[1, 0]",
    ],
)
def test_advanced_setitem_gradient_matches_torch(stmt):
    grads = []
    for M in (torch, yaten):
        rs = np.random.RandomState(0)
        x = M.tensor(rs.randn(*SHAPE), requires_grad=True)
        v = M.tensor(rs.randn(*SHAPE[1:]), requires_grad=True)
        y = x * 1
        _assign(stmt, M, x=x, y=y, v=v)
        (y * y).sum().backward()
        grads.append((x.grad, v.grad))
    (xt, vt), (xy, vy) = grads
    _same(xy, xt, exact=False)
    assert (vy is None) == (vt is None)
    if vt is not None:
        _same(vy, vt, exact=False)


@pytest.mark.parametrize("stmt", ["y[0] = 5", "y[0:2] = x[2] * 3"])
def test_basic_setitem_on_non_leaf_gradient(stmt):
    grads = []
    for M in (torch, yaten):
        x = M.tensor(np.random.RandomState(0).randn(*SHAPE), requires_grad=True)
        y = x * 1
        _assign(stmt, M, x=x, y=y)
        (y * y).sum().backward()
        grads.append(x.grad)
    _same(grads[1], grads[0], exact=False)


def test_basic_setitem_on_leaf_requiring_grad_is_refused():
    x = yaten.zeros(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        x[0] = 1


def test_doctests():
    assert doctest.testmod(_indexing).failed == 0
