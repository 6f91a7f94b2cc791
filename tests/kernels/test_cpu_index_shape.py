"""CPU indexing and copying shape kernels against torch on the same NumPy data.

Values are compared exactly (NaNs equal), with dtype and shape; in-place kernels run on views and the
whole base array is compared with torch doing the same on the same view. Errors compare exception type
and message.
"""

import doctest
import importlib.util
import warnings

import numpy as np
import pytest
import torch

K = importlib.import_module("yaten.kernels.cpu.index")
S = importlib.import_module("yaten.kernels.cpu.shape")

DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_]
TORCH = {
    np.dtype(k): v
    for k, v in [
        (np.float16, torch.float16),
        (np.float32, torch.float32),
        (np.float64, torch.float64),
        (np.int8, torch.int8),
        (np.int16, torch.int16),
        (np.int32, torch.int32),
        (np.int64, torch.int64),
        (np.uint8, torch.uint8),
        (np.bool_, torch.bool),
    ]
}
rng = np.random.default_rng(1234)


def data(shape, dtype, lo=-5, hi=6):
    """Small integer values (exact float sums in any order); non-negative for uint8."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    lo = 0 if dtype == np.uint8 else lo
    return rng.integers(lo, hi, shape).astype(dtype)


def t(a):
    """A torch tensor with ``a``'s values (torch cannot take negative strides or shared memory here)."""
    return torch.from_numpy(np.array(a, copy=True))


def same(np_out, torch_out):
    assert isinstance(np_out, np.ndarray), type(np_out)
    assert TORCH[np_out.dtype] == torch_out.dtype, (np_out.dtype, torch_out.dtype)
    assert np_out.shape == tuple(torch_out.shape), (np_out.shape, torch_out.shape)
    expected = torch_out.detach().numpy()
    assert np.array_equal(np_out, expected, equal_nan=np_out.dtype.kind == "f"), (np_out, expected)


def same_error(np_call, torch_call, replace=("", "")):
    with pytest.raises(Exception) as torch_err:
        torch_call()
    expected = str(torch_err.value).splitlines()[0].replace(*replace)
    with pytest.raises(type(torch_err.value)) as ours:
        np_call()
    assert str(ours.value) == expected


# Layouts: each gives a view of the values of ``a`` with other strides (works on arrays and tensors
# alike for the views that write through).
def layouts(a):
    yield "contiguous", a.copy()
    if a.ndim >= 2:
        yield "transposed", a.swapaxes(0, 1).copy().swapaxes(0, 1)
    if a.ndim >= 1:
        base = np.zeros(a.shape[:-1] + (2 * a.shape[-1],), a.dtype)
        base[..., ::2] = a
        yield "strided", base[..., ::2]
        yield "reversed", a[::-1].copy()[::-1]  # a negative stride, which torch never has


# Views to write through: (numpy view, torch view) of the same base.
VIEWS = {
    "base": lambda a: a,
    "swapaxes": lambda a: a.swapaxes(0, 1),
    "step": lambda a: a[:, ::2],
    "offset": lambda a: a[1:],
    "reversed": lambda a: a[::-1],  # NumPy only: torch runs on a flipped copy, flipped back
}


def inplace(np_fn, torch_fn, base, view):
    """Run an in-place kernel on ``VIEWS[view]`` of a copy of ``base`` and torch on the same view."""
    ours = base.copy()
    assert np_fn(VIEWS[view](ours)) is None
    if view == "reversed":
        theirs = t(base[::-1])
        torch_fn(theirs)
        theirs = torch.flip(theirs, (0,))
    else:
        theirs = t(base)
        torch_fn(VIEWS[view](theirs))
    same(ours, theirs)


def test_doctests():
    for module in (K, S):
        assert doctest.testmod(module).failed == 0


# --- index_select ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dim", [0, 1, -1, -3])
def test_index_select(dtype, dim):
    a = data((3, 4, 5), dtype)
    idx = np.array([2, 0, 2, 1], np.int64) % a.shape[dim]
    for _, x in layouts(a):
        for index in (idx, idx.astype(np.int32), idx[::-2], idx[:0], idx[1]):
            same(K.index_select(x, dim, index), torch.index_select(t(x), dim, t(index)))


def test_index_select_scalar_and_empty():
    s = np.array(3.5)
    same(K.index_select(s, 0, np.array([0])), torch.index_select(t(s), 0, t(np.array([0]))))
    same(K.index_select(s, -1, np.array(0)), torch.index_select(t(s), -1, t(np.array(0))))
    e = np.zeros((0, 3), np.float32)
    same(K.index_select(e, 0, np.zeros(0, np.int64)), torch.index_select(t(e), 0, torch.zeros(0).long()))
    same(K.index_select(e, 1, np.array([2, 0])), torch.index_select(t(e), 1, t(np.array([2, 0]))))


@pytest.mark.parametrize(
    "self_, dim, index",
    [
        (np.ones((2, 3)), 0, np.array([0, 5])),
        (np.ones((2, 3)), 0, np.array([-1])),
        (np.ones((2, 3)), 5, np.array([0])),
        (np.ones((2, 3)), 0, np.array([[0]])),
        (np.ones((2, 3)), 0, np.array([0], np.int16)),
        (np.ones((2, 3)), 0, np.array([0.0])),
        (np.array(1.0), 0, np.array([0, 0])),
        (np.array(1.0), 0, np.array([1])),
        (np.array(1.0), 1, np.array([0])),
        (np.ones((0, 3)), 0, np.array([0])),
    ],
)
def test_index_select_errors(self_, dim, index):
    same_error(lambda: K.index_select(self_, dim, index), lambda: torch.index_select(t(self_), dim, t(index)))


# --- gather ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_gather(dtype, dim):
    a = data((3, 4, 5), dtype)
    ishape = [2, 3, 4]  # smaller than self in every non-gathered dim
    ishape[dim] = 6
    idx = rng.integers(0, a.shape[dim], ishape)
    for _, x in layouts(a):
        for _, index in layouts(idx):
            same(K.gather(x, dim, index), torch.gather(t(x), dim, t(index)))
        same(K.gather(x, dim, idx.astype(np.int32)), torch.gather(t(x), dim, t(idx.astype(np.int32))))


@pytest.mark.parametrize(
    "self_, dim, index",
    [
        (np.array(2.0), 0, np.array(0)),
        (np.array(2.0), 0, np.array([0, 0])),
        (np.arange(3.0), 0, np.array(2)),
        (np.ones((2, 3)), 0, np.zeros((0, 7), np.int64)),
        (np.ones((2, 3)), 1, np.zeros((0,), np.int64)),
    ],
)
def test_gather_scalar_and_empty(self_, dim, index):
    same(K.gather(self_, dim, index), torch.gather(t(self_), dim, t(index)))


@pytest.mark.parametrize(
    "self_, dim, index",
    [
        (np.ones((2, 3)), 0, np.array([[5]])),
        (np.ones((2, 3)), 0, np.array([[-1]])),
        (np.ones((2, 3)), 0, np.array([1])),
        (np.ones((2, 3)), 0, np.array([[1, 1, 1, 1]])),
        (np.ones((2, 3)), -1, np.array([[1], [1], [1]])),
        (np.ones((2, 3)), 3, np.array([[1]])),
        (np.ones((2, 3)), 0, np.array([[1]], np.int16)),
        (np.ones((2, 3)), 0, np.array([[1.0]])),
        (np.ones((0, 3)), 0, np.array([[0]])),
    ],
)
def test_gather_errors(self_, dim, index):
    same_error(lambda: K.gather(self_, dim, index), lambda: torch.gather(t(self_), dim, t(index)))


# --- scatter family -------------------------------------------------------------------------------------


def _perm_index(shape, dim, n):
    """An index of ``shape`` with distinct targets along ``dim`` (scatter_ with duplicates is undefined)."""
    idx = np.argsort(rng.random(shape[:dim] + (n,) + shape[dim + 1 :]), axis=dim)
    return idx[tuple(slice(0, s) for s in shape)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("dim", [0, -1])
def test_scatter_src(dtype, view, dim):
    base = data((4, 6), dtype)
    target = VIEWS[view](base)
    ishape = [2, 2]
    ishape[dim] = target.shape[dim] - 1
    idx = _perm_index(tuple(ishape), dim % 2, target.shape[dim])
    src = data((7, 7), dtype)
    inplace(lambda x: K.scatter_src_(x, dim, idx, src), lambda x: x.scatter_(dim, t(idx), t(src)), base, view)
    inplace(
        lambda x: K.scatter_src_(x, dim, idx.astype(np.int32), src),
        lambda x: x.scatter_(dim, t(idx.astype(np.int32)), t(src)),
        base,
        view,
    )


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("value", [3, -1, 2.7, True, 0.0])
def test_scatter_value(dtype, view, value):
    base = data((4, 6), dtype)
    idx = _perm_index((2, 3), 1, VIEWS[view](base).shape[1])
    inplace(lambda x: K.scatter_value_(x, 1, idx, value), lambda x: x.scatter_(1, t(idx), value), base, view)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_scatter_add(dtype, view, dim):
    base = data((4, 6), dtype)
    target = VIEWS[view](base)
    ishape = [3, 2]
    ishape[dim] = 7  # many duplicate targets
    idx = rng.integers(0, target.shape[dim], ishape)
    src = data((7, 7), dtype)
    inplace(
        lambda x: K.scatter_add_(x, dim, idx, src), lambda x: x.scatter_add_(dim, t(idx), t(src)), base, view
    )


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.uint8, np.int8, np.bool_])
def test_scatter_add_rounding_and_wrap(dtype):
    # Random floats with many duplicates: the sums must round as torch's serial loop rounds them
    # (float16 accumulates in float32 there); integers wrap around.
    n = 400
    self_ = (rng.standard_normal(5) * 10).astype(dtype)
    src = (rng.standard_normal(n) * 100).astype(dtype) if dtype != np.bool_ else data(n, dtype)
    if dtype in (np.uint8, np.int8):
        src = rng.integers(0, 120, n).astype(dtype)
    idx = rng.integers(0, 5, n)
    inplace(
        lambda x: K.scatter_add_(x, 0, idx, src), lambda x: x.scatter_add_(0, t(idx), t(src)), self_, "base"
    )


def test_scatter_scalar_and_empty():
    s = np.array(3.0)
    inplace(
        lambda x: K.scatter_add_(x, 0, np.array([0, 0]), np.array([5.0, 1.0])),
        lambda x: x.scatter_add_(0, t(np.array([0, 0])), t(np.array([5.0, 1.0]))),
        s,
        "base",
    )
    inplace(
        lambda x: K.scatter_src_(x, 0, np.array(0), np.array(5.0)),
        lambda x: x.scatter_(0, t(np.array(0)), t(np.array(5.0))),
        s,
        "base",
    )
    a = np.arange(6.0).reshape(2, 3)
    empty = np.zeros((0, 7), np.int64)  # no shape checks when the index is empty
    inplace(lambda x: K.scatter_value_(x, 0, empty, 1.0), lambda x: x.scatter_(0, t(empty), 1.0), a, "base")
    inplace(
        lambda x: K.scatter_add_(x, 0, empty, np.ones((1, 1))),
        lambda x: x.scatter_add_(0, t(empty), torch.ones(1, 1, dtype=torch.float64)),
        a,
        "base",
    )


_E = np.zeros((1, 1), np.int64)
_F32_2x3 = np.arange(6, dtype=np.float32).reshape(2, 3)


@pytest.mark.parametrize(
    "index, src",
    [
        (np.array([[5]]), np.ones((1, 1), np.float32)),
        (np.array([[-1]]), np.ones((1, 1), np.float32)),
        (_E, np.ones((1, 1), np.float64)),
        (_E.astype(np.float32), np.ones((1, 1), np.float64)),
        (_E.astype(np.int16), np.ones((1, 1), np.float32)),
        (np.zeros(1, np.int64), np.ones(1, np.float32)),
        (np.zeros((1, 4), np.int64), np.ones((1, 4), np.float32)),
        (np.zeros((1, 2), np.int64), np.ones((1, 1), np.float32)),
        (_E, np.ones(1, np.float32)),
    ],
)
@pytest.mark.parametrize("op", ["scatter_", "scatter_add_"])
def test_scatter_src_errors(index, src, op):
    ours = K.scatter_src_ if op == "scatter_" else K.scatter_add_
    same_error(
        lambda: ours(_F32_2x3.copy(), 0, index, src), lambda: getattr(t(_F32_2x3), op)(0, t(index), t(src))
    )


@pytest.mark.parametrize(
    "dim, index, value",
    [
        (0, np.array([[5]]), 1.0),
        (0, np.zeros((1, 4), np.int64), 1.0),
        (2, _E, 1.0),
        (0, _E.astype(np.float64), 1.0),
        (0, _E, 1e300),
    ],
)
def test_scatter_value_errors(dim, index, value):
    same_error(
        lambda: K.scatter_value_(_F32_2x3.copy(), dim, index, value),
        lambda: t(_F32_2x3).scatter_(dim, t(index), value),
    )


def test_scatter_expanded_self_errors():
    ours = np.broadcast_to(np.zeros(3), (2, 3)).copy()  # writable with a zero stride
    ours = np.lib.stride_tricks.as_strided(ours, (2, 3), (0, 8))
    for ours_call, torch_call in [
        (
            lambda: K.scatter_add_(ours, 0, _E, np.ones((1, 1))),
            lambda: torch.zeros(3).double().expand(2, 3).scatter_add_(0, t(_E), torch.ones(1, 1).double()),
        ),
        (
            lambda: K.scatter_value_(ours, 0, _E, 1.0),
            lambda: torch.zeros(3).double().expand(2, 3).scatter_(0, t(_E), 1.0),
        ),
        (
            lambda: S.copy_(ours, np.ones((2, 3))),
            lambda: torch.zeros(3).double().expand(2, 3).copy_(torch.ones(2, 3)),
        ),
    ]:
        same_error(ours_call, torch_call)


# --- masks ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("value", [2, -1, 1.5, True, "tensor"])
def test_masked_fill(dtype, view, value):
    base = data((4, 6), dtype)
    shape = VIEWS[view](base).shape
    for mshape in (shape, shape[1:], (shape[0], 1)):
        mask = data(mshape, np.bool_)
        v_np = np.array(7.25) if value == "tensor" else value
        v_t = t(v_np) if value == "tensor" else value
        inplace(
            lambda x, m=mask, v=v_np: K.masked_fill_(x, m, v),
            lambda x, m=mask, v=v_t: x.masked_fill_(t(m), v),
            base,
            view,
        )


@pytest.mark.parametrize(
    "self_, mask, value",
    [
        (np.ones((2, 3)), np.array([1, 0, 1]), 1.0),
        (np.ones((2, 3)), np.array([1, 0, 1], np.uint8), 1.0),
        (np.ones((2, 3)), np.array([1.0, 0, 1]), 1.0),
        (np.ones((2, 3)), np.array([True, False]), 1.0),
        (np.ones((2, 3)), np.ones((1, 2, 3), bool), 1.0),
        (np.ones((2, 3)), np.ones(3, bool), np.array([1.0, 2.0])),
        (np.ones((2, 3), np.float32), np.ones(3, bool), 1e300),
        (np.ones((2, 3), np.uint8), np.ones(3, bool), 300),
        (np.ones((2, 3), np.int32), np.ones(3, bool), float("nan")),
        (np.ones((2, 3), np.int8), np.ones(3, bool), np.array(200.5)),
    ],
)
def test_masked_fill_errors(self_, mask, value):
    v_t = t(value) if isinstance(value, np.ndarray) else value
    same_error(lambda: K.masked_fill_(self_.copy(), mask, value), lambda: t(self_).masked_fill_(t(mask), v_t))


@pytest.mark.parametrize("dtype", DTYPES)
def test_masked_select(dtype):
    a = data((3, 4), dtype)
    for _, x in layouts(a):
        for mask in (data((3, 4), bool), data((4,), bool), data((2, 1, 4), bool), np.array(True)):
            same(K.masked_select(x, mask), torch.masked_select(t(x), t(mask)))
    s = np.array(5, dtype)
    same(K.masked_select(s, np.array(False)), torch.masked_select(t(s), torch.tensor(False)))


@pytest.mark.parametrize("mask", [np.array([1, 0, 1]), np.array([True, False])])
def test_masked_select_errors(mask):
    x = np.ones((2, 3))
    same_error(lambda: K.masked_select(x, mask), lambda: torch.masked_select(t(x), t(mask)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_nonzero(dtype):
    a = data((3, 4, 2), dtype, lo=-1, hi=2)
    for _, x in layouts(a):
        out = K.nonzero(x)
        same(out, torch.nonzero(t(x)))
        assert out.strides == (8, 8 * out.shape[0]) or out.shape[0] <= 1
    for x in (np.array(0, dtype), np.array(1, dtype), np.zeros((0, 3), dtype)):
        same(K.nonzero(x), torch.nonzero(t(x)))
    f = np.array([np.nan, -0.0, 0.0, 1.0])
    same(K.nonzero(f), torch.nonzero(t(f)))


# --- advanced indexing ----------------------------------------------------------------------------------

# Index lists by structure: None (full slice), "i" (int64 array of the case's broadcast shape), "i32",
# "i1" (int64 of shape (1,)), "s" (0-d int64), "m1"/"m2" (bool mask over 1 or 2 dims), "m0" (0-d mask,
# dropped by torch), "e" (empty int64), "f" (all-False mask over every dim).
_CASES = {
    "first": (["i"], (2,)),
    "middle": ([None, "i"], (2, 2)),
    "last": ([None, None, "i"], (2, 1)),
    "adjacent": ([None, "i", "i"], (2, 3)),
    "separated": (["i", None, "i"], (2, 3)),
    "all": (["i", "i", "i"], (2, 3)),
    "int32": ([None, "i32"], (2, 2)),
    "scalar": (["s", None, "i"], (3,)),
    "scalar_only": ([None, "s"], ()),
    "mask": ([None, "m2"], None),
    "mask_then_int": (["m1", "i1"], None),
    "mask_separated": (["m1", None, "s"], None),
    "mask0d": (["m0", None, "i"], (3,)),
    "empty": ([None, "e"], (0,)),
    "empty_mask": (["f"], None),
}


def _indices(shape, case, unique=False):
    """The index list of ``case`` for a self of ``shape``; ``unique`` makes every indexed position
    distinct (index_put_ without accumulate leaves the winner of duplicates unspecified)."""
    kinds, bshape = _CASES[case]
    dims, dim = [], 0  # the self dim each entry starts at
    for k in kinds:
        dims.append(dim)
        dim += {"m0": 0, "m2": 2, "f": len(shape)}.get(k, 1)
    int_dims = [d for d, k in zip(dims, kinds) if k in ("i", "i32")]
    sizes = [shape[d] for d in int_dims]
    if unique and int_dims:
        flat = rng.choice(int(np.prod(sizes)), int(np.prod(bshape)), replace=False)
        cols = iter([c.reshape(bshape) for c in np.unravel_index(flat, sizes)])
    else:
        cols = iter([rng.integers(0, n, bshape) for n in sizes])
    out = []
    for k, d in zip(kinds, dims):
        n = shape[d] if d < len(shape) else 1
        if k in ("i", "i32"):
            c = next(cols)
            c = np.where(rng.random(c.shape) < 0.5, c - n, c)  # some negative, same positions
            out.append(c.astype(np.int32 if k == "i32" else np.int64))
        else:
            out.append(
                {
                    None: lambda n, d: None,
                    "i1": lambda n, d: np.array([n - 1]),
                    "s": lambda n, d: np.array(-1),
                    "m0": lambda n, d: np.array(True),
                    "m1": lambda n, d: data((n,), bool),
                    "m2": lambda n, d: data(shape[d : d + 2], bool),
                    "e": lambda n, d: np.zeros(0, np.int64),
                    "f": lambda n, d: np.zeros(shape, bool),
                }[k](n, d)
            )
    return out


def _torch_indices(indices):
    return [None if i is None else t(i) for i in indices]


@pytest.mark.parametrize("case", list(_CASES))
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.uint8, np.bool_, np.float16])
def test_index(case, dtype):
    a = data((3, 4, 5), dtype)
    indices = _indices(a.shape, case)
    for _, x in layouts(a):
        same(K.index(x, indices), torch.ops.aten.index.Tensor(t(x), _torch_indices(indices)))


def test_index_nothing_indexed():
    # torch asserts internally when every index is None; we return a copy, as NumPy's x[:, :] would.
    x = np.arange(6.0).reshape(2, 3).T
    out = K.index(x, [None, None])
    assert np.array_equal(out, x) and not np.shares_memory(out, x)


def test_index_uint8_mask_warns():
    x = np.arange(6.0).reshape(2, 3)
    mask = np.array([1, 0], np.uint8)
    with pytest.warns(UserWarning, match="uint8 is now deprecated"):
        out = K.index(x, [mask])
    same(out, torch.ops.aten.index.Tensor(t(x), [t(mask).bool()]))


def test_index_empty_self():
    e = np.zeros((0, 3), np.float32)
    same(K.index(e, [np.zeros(0, np.int64)]), torch.ops.aten.index.Tensor(t(e), [torch.zeros(0).long()]))
    same(K.index(e, [None, np.array([0])]), torch.ops.aten.index.Tensor(t(e), [None, torch.tensor([0])]))
    for dtype in (np.float32, np.float16):
        for accumulate in (False, True):
            for indices in ([np.zeros(0, np.int64)], [None, np.array([0, 2])]):
                one = np.array(1, dtype)
                inplace(
                    lambda x, i=indices, v=one, a=accumulate: K.index_put_(x, i, v, a),
                    _torch_index_put(indices, one, accumulate),
                    np.zeros((0, 3), dtype),
                    "base",
                )


_X = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
_INDEX_ERRORS = [
    [np.array([0, 5])],
    [None, np.array([0, 5])],
    [None, np.array([-4])],
    [np.array([0]), None, np.array([0, 5])],
    [np.array([0, 9]), np.array([5, 0])],
    [np.array([0.0])],
    [np.array([0], np.int16)],
    [np.array([True, False, True])],
    [None, np.array([True, False])],
    [np.ones((2, 2), bool)],
    [np.array([0]), np.ones((3, 4, 5), bool)],
    [np.array([0, 1]), np.array([0, 1, 2])],
    [np.array([0])] * 4,
    [],
]


@pytest.mark.parametrize("indices", _INDEX_ERRORS)
def test_index_errors(indices):
    same_error(
        lambda: K.index(_X, indices), lambda: torch.ops.aten.index.Tensor(t(_X), _torch_indices(indices))
    )


def test_index_errors_on_scalar_and_empty():
    for x, indices in [
        (np.array(5.0), [np.array(0)]),
        (np.array(5.0), [np.array(True)]),
        (np.zeros((0, 3)), [np.array([0])]),
    ]:
        same_error(
            lambda x=x, i=indices: K.index(x, i),
            lambda x=x, i=indices: torch.ops.aten.index.Tensor(t(x), _torch_indices(i)),
        )


def _torch_index_put(indices, values, accumulate):
    return lambda x: torch.ops.aten.index_put_(x, _torch_indices(indices), t(values), accumulate)


@pytest.mark.parametrize("case", list(_CASES))
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_, np.float16])
@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put(case, dtype, accumulate):
    base = data((4, 4, 5), dtype)
    for view in ("base", "swapaxes", "offset", "reversed"):
        shape = VIEWS[view](base).shape
        indices = _indices(shape, case, unique=not accumulate)
        rshape = tuple(torch.ops.aten.index.Tensor(torch.empty(shape), _torch_indices(indices)).shape)
        for vshape in (rshape, rshape[1:], ()):
            values = data(vshape, dtype)
            inplace(
                lambda x, i=indices, v=values: K.index_put_(x, i, v, accumulate),
                _torch_index_put(indices, values, accumulate),
                base,
                view,
            )


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.uint8, np.bool_])
def test_index_put_accumulate_rounding_and_wrap(dtype):
    # float16 rounds back to float16 after every add (torch adds in Half); integers wrap.
    n = 400
    self_ = (rng.standard_normal(5) * 10).astype(dtype)
    values = (rng.standard_normal(n) * 100).astype(dtype) if dtype != np.bool_ else data(n, dtype)
    if dtype in (np.uint8, np.int8):
        values = rng.integers(0, 120, n).astype(dtype)
    idx = rng.integers(-5, 5, n)
    inplace(
        lambda x: K.index_put_(x, [idx], values, True), _torch_index_put([idx], values, True), self_, "base"
    )
    mat = data((4, 4), dtype)
    rows = rng.integers(0, 4, 50)
    vals = data((50, 4), dtype)
    for view in ("base", "swapaxes"):
        inplace(
            lambda x: K.index_put_(x, [rows], vals, True), _torch_index_put([rows], vals, True), mat, view
        )


def test_index_put_expanded_self_warns_and_adds_through_shared_memory():
    memory = np.zeros(3)
    ours = np.lib.stride_tricks.as_strided(memory, (2, 3), (0, 8))
    rows = np.array([0, 1, 1])
    with pytest.warns(UserWarning, match="index_put_ on expanded tensors is deprecated"):
        K.index_put_(ours, [rows], np.array(1.0), True)
    theirs = torch.zeros(3, dtype=torch.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        theirs.expand(2, 3).index_put_((t(rows),), torch.tensor(1.0, dtype=torch.float64), True)
    same(memory, theirs)  # three adds of 1 into the one shared row


def test_index_put_nothing_indexed():
    base = np.arange(6.0).reshape(2, 3)
    for accumulate in (False, True):
        ours = base.copy()
        K.index_put_(ours, [None], np.array([1.0, 2.0, 3.0]), accumulate)
        expected = base + [1.0, 2.0, 3.0] if accumulate else np.broadcast_to([1.0, 2.0, 3.0], (2, 3))
        assert np.array_equal(ours, expected)


@pytest.mark.parametrize(
    "indices, values",
    [
        ([np.array([0, 1])], np.ones((2, 3, 4))),  # float64 into float32
        ([np.array([0, 1])], np.ones((3, 3, 4), np.float32)),
        ([np.array([0, 1])], np.ones((1, 2, 3, 4), np.float32)),
        ([np.array([0, 5])], np.ones((1, 4), np.float32)),
        ([np.array([0, 5])], np.ones((2, 3, 4))),
        ([np.array([0.0])], np.ones(4, np.float32)),
        ([np.array([True, False, True])], np.ones(4, np.float32)),
        ([np.array([0, 1]), np.array([0, 1, 2])], np.ones(4, np.float32)),
        ([np.array([0])] * 4, np.ones(4, np.float32)),
    ],
)
@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put_errors(indices, values, accumulate):
    same_error(
        lambda: K.index_put_(_X.copy(), indices, values, accumulate),
        lambda: _torch_index_put(indices, values, accumulate)(t(_X)),
    )


# --- cat ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("d1", DTYPES)
@pytest.mark.parametrize("d2", DTYPES)
def test_cat_promotion(d1, d2):
    a, b = data((2, 3), d1), data((2, 2), d2)
    same(S.cat([a, b], 1), torch.cat([t(a), t(b)], 1))


@pytest.mark.parametrize("dim", [0, 1, 2, -1, -3])
def test_cat_layouts(dim):
    a = data((2, 3, 4), np.float64)
    parts = [
        a,
        data((2, 3, 4), np.int32),
        np.zeros((0,), np.float32),
        a[:1, :1, :1] * 0 + np.zeros((2, 3, 4)),
    ]
    for (_, x), (_, y) in zip(layouts(a), layouts(data((2, 3, 4), np.float16))):
        same(S.cat([x, y] + parts, dim), torch.cat([t(x), t(y)] + [t(p) for p in parts], dim))


def test_cat_empty_and_skipped():
    e, z = np.zeros((0,), np.float64), np.zeros((0, 2), np.int16)
    for parts, dim in [
        ([e, data(3, np.int8)], 0),
        ([e, e], 3),
        ([z, data((3, 2), np.int16)], 0),
        ([data((2, 2), bool), e, data((2, 1), bool)], -1),
    ]:
        same(S.cat(parts, dim), torch.cat([t(p) for p in parts], dim))


@pytest.mark.parametrize(
    "tensors, dim",
    [
        ([], 0),
        ([np.ones((2, 2)), np.ones((3, 3))], 1),
        ([np.ones((2, 2)), np.ones((3, 3))], 0),
        ([np.ones((2, 3)), np.ones((2, 2)), np.ones((3, 2))], 1),
        ([np.ones((2, 2)), np.ones(0), np.ones((3, 3))], -1),
        ([np.ones((2, 2)), np.ones((2, 2, 2))], 0),
        ([np.ones((2, 2)), np.ones((2, 2))], 2),
        ([np.ones((2, 2)), np.ones((2, 2))], -3),
        ([np.ones(2), np.array(2.0)], 0),
        ([np.ones(0), np.array(1.0)], 7),
        ([np.ones(0), np.ones((2, 2))], 7),
    ],
)
def test_cat_errors(tensors, dim):
    same_error(
        lambda: S.cat(tensors, dim),
        lambda: torch.cat([t(x) for x in tensors], dim),
        replace=("torch.cat()", "cat()"),
    )


# --- flip, roll, repeat ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dims", [(0,), (-1,), (0, 2), (), (2, 1, 0)])
def test_flip(dtype, dims):
    a = data((2, 3, 4), dtype)
    for _, x in layouts(a):
        out = S.flip(x, dims)
        expected = torch.flip(t(x), dims)
        same(out, expected)
    perm = a.transpose(2, 0, 1)  # torch keeps the input's layout
    out, expected = S.flip(perm, dims), torch.flip(torch.from_numpy(a.copy()).permute(2, 0, 1), dims)
    same(out, expected)
    assert tuple(s // out.itemsize for s in out.strides) == expected.stride()


def test_flip_scalar_and_errors():
    s = np.array(2.0)
    same(S.flip(s, (0,)), torch.flip(t(s), (0,)))
    for x, dims in [
        (np.ones((2, 3)), (0, 0)),
        (np.ones((2, 3)), (0, -2)),
        (np.ones((2, 3)), (2,)),
        (s, (1,)),
    ]:
        same_error(lambda x=x, d=dims: S.flip(x, d), lambda x=x, d=dims: torch.flip(t(x), d))


@pytest.mark.parametrize("dtype", [np.float16, np.int64, np.bool_])
@pytest.mark.parametrize(
    "shifts, dims",
    [
        ((1,), ()),
        ((-7,), ()),
        ((1,), (0,)),
        ((-7,), (1,)),
        ((1, 2), (0, -1)),
        ((1, 1), (0, 0)),
        ((3, 5), (2, 1)),
    ],
)
def test_roll(dtype, shifts, dims):
    a = data((2, 3, 4), dtype)
    for _, x in layouts(a):
        same(S.roll(x, shifts, dims), torch.roll(t(x), shifts, dims))
    for x in (np.array(5, dtype), np.zeros((0, 3), dtype)):
        if x.ndim or not dims:
            d = tuple(k % max(x.ndim, 1) for k in dims[:1])
            same(S.roll(x, shifts[:1], d), torch.roll(t(x), shifts[:1], d))


@pytest.mark.parametrize(
    "x, shifts, dims",
    [
        (np.ones((2, 3)), (1, 2), ()),
        (np.ones((2, 3)), (1, 2), (0,)),
        (np.ones((2, 3)), (1,), (0, 1)),
        (np.ones((2, 3)), (), ()),
        (np.ones((2, 3)), (1,), (3,)),
        (np.array(5), (1,), (0,)),
    ],
)
def test_roll_errors(x, shifts, dims):
    same_error(lambda: S.roll(x, shifts, dims), lambda: torch.roll(t(x), shifts, dims))


@pytest.mark.parametrize("dtype", [np.float32, np.uint8, np.bool_])
@pytest.mark.parametrize("repeats", [(1, 1), (2, 3), (2, 0), (3, 1, 2), (1, 2, 1, 1)])
def test_repeat(dtype, repeats):
    a = data((2, 3), dtype)
    for _, x in layouts(a):
        out = S.repeat(x, repeats)
        same(out, t(x).repeat(repeats))
        assert out.flags.c_contiguous
    s = np.array(2, dtype)
    same(S.repeat(s, repeats), t(s).repeat(repeats))
    same(S.repeat(s, ()), t(s).repeat(()))


@pytest.mark.parametrize("repeats", [(2,), (), (2, -1)])
def test_repeat_errors(repeats):
    x = np.ones((2, 3))
    same_error(lambda: S.repeat(x, repeats), lambda: t(x).repeat(repeats))


# --- clone, contiguous, to_dtype ------------------------------------------------------------------------


def _strided_pairs():
    """(numpy view, torch view) pairs with the same values and element strides."""
    a = np.arange(120.0).reshape(2, 3, 4, 5)
    ta = torch.from_numpy(a.copy())
    yield a, ta
    yield a.transpose(3, 0, 2, 1), ta.permute(3, 0, 2, 1)
    yield a[:, ::2], ta[:, ::2]
    yield a.transpose(0, 2, 3, 1)[1:, :, ::2], ta.permute(0, 2, 3, 1)[1:, :, ::2]
    yield np.broadcast_to(a[0, :1], (7, 1, 4, 5)), ta[0, :1].expand(7, 1, 4, 5)
    yield a[:, :1].transpose(1, 0, 2, 3), ta[:, :1].permute(1, 0, 2, 3)
    yield a[:0].transpose(3, 2, 1, 0), ta[:0].permute(3, 2, 1, 0)
    yield a[0, 0, 0, 0, ...], ta[0, 0, 0, 0]


def test_clone_keeps_layout():
    for x, tx in _strided_pairs():
        out, expected = S.clone(x), tx.clone()
        same(out, expected)
        assert tuple(s // out.itemsize for s in out.strides) == expected.stride(), (
            x.strides,
            expected.stride(),
        )
        assert not np.shares_memory(out, x)


def test_contiguous():
    for x, tx in _strided_pairs():
        out = S.contiguous(x)
        same(out, tx.contiguous())
        assert out.flags.c_contiguous and not np.shares_memory(out, x)


# Values every dtype converts the same way in torch and here: fractions, negatives, specials.
_CONVERT = {
    "f": np.array(
        [
            -100.7,
            -1.5,
            -0.0,
            0.0,
            0.5,
            2.7,
            100.2,
            65504.0,
            1 + 2**-11 + 2**-40,
            70000.0,
            np.inf,
            -np.inf,
            np.nan,
        ]
    ),
    "i": np.array([-128, -1, 0, 1, 2, 127, 255, 300, 65535, 70000, 2**31 - 1]),
}


def _convertible(src_dtype, dst_dtype):
    kind = "f" if np.dtype(src_dtype).kind == "f" else "i"
    with np.errstate(over="ignore"):
        v = _CONVERT[kind].astype(src_dtype) if src_dtype != np.bool_ else np.array([True, False, True])
    if kind == "f" and np.dtype(dst_dtype).kind in "iu":
        # float -> int is defined for values in range after truncation (uint8 goes via int64)
        lo, hi = (-128, 127) if dst_dtype in (np.int8, np.uint8) else (-32768, 32767)
        v = v[np.isfinite(v) & (v > lo - 1) & (v < hi + 1)]
    return v


@pytest.mark.parametrize("src_dtype", DTYPES)
@pytest.mark.parametrize("dst_dtype", DTYPES)
def test_to_dtype(src_dtype, dst_dtype):
    v = _convertible(src_dtype, dst_dtype)
    same(S.to_dtype(v, np.dtype(dst_dtype)), t(v).to(TORCH[np.dtype(dst_dtype)]))
    m = np.resize(v, (4, 5)).T
    out, expected = S.to_dtype(m, np.dtype(dst_dtype)), t(m.T).T.to(TORCH[np.dtype(dst_dtype)])
    same(out, expected)
    assert tuple(s // out.itemsize for s in out.strides) == expected.stride()


# --- copy_, fill_, zero_ --------------------------------------------------------------------------------


@pytest.mark.parametrize("src_dtype", DTYPES)
@pytest.mark.parametrize("dst_dtype", DTYPES)
def test_copy_converts(src_dtype, dst_dtype):
    v = _convertible(src_dtype, dst_dtype)
    base = np.zeros((2, 2 * v.size), dst_dtype)
    inplace(lambda x: S.copy_(x, v), lambda x: x.copy_(t(v)), base, "step")


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("src_shape", ["same", "row", "col", "scalar"])
def test_copy_broadcasts(view, src_shape):
    base = data((4, 6), np.int32)
    shape = VIEWS[view](base).shape
    src = data({"same": shape, "row": shape[1:], "col": (shape[0], 1), "scalar": ()}[src_shape], np.float64)
    for _, s in layouts(src) if src.ndim else [("", src)]:
        inplace(lambda x, s=s: S.copy_(x, s), lambda x, s=s: x.copy_(t(s)), base, view)


def test_copy_overlapping_source():
    base = np.arange(12.0).reshape(3, 4)
    inplace(lambda x: S.copy_(x, x.T[:4, :3].T), lambda x: x.copy_(x.T[:4, :3].T.clone()), base, "base")


@pytest.mark.parametrize(
    "self_shape, src_shape",
    [
        ((2, 3), (3, 3)),
        ((2, 3), (1, 2, 3)),
        ((2, 3), (2, 1, 3)),
        ((2, 3), (4,)),
        ((2, 3), (0,)),
        ((0, 3), (2, 3)),
        ((), (1,)),
        ((), (2,)),
    ],
)
def test_copy_errors(self_shape, src_shape):
    same_error(
        lambda: S.copy_(np.zeros(self_shape), np.ones(src_shape)),
        lambda: torch.zeros(self_shape, dtype=torch.float64).copy_(torch.ones(src_shape)),
    )


_FILL_VALUES = [
    0,
    1,
    -1,
    2.7,
    -2.7,
    True,
    False,
    127,
    -128,
    255,
    -255,
    65504,
    1e5,
    2**40,
    -(2**63),
    2**63,
    1.5e38,
    1e300,
    float("inf"),
    float("nan"),
    0.1,
    1 + 2**-11 + 2**-40,
    2.5 + 0j,
    1 + 2j,
    np.array(3.5),
    np.array(-1),
    np.array(True),
    2**64,
    -(2**63) - 1,
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("value", _FILL_VALUES, ids=repr)
def test_fill(dtype, value):
    base = data((3, 4), dtype)
    v_t = t(value) if isinstance(value, np.ndarray) else value
    try:
        expected = t(base[:, ::2]).fill_(v_t)
    except (RuntimeError, OverflowError):
        same_error(lambda: S.fill_(base.copy(), value), lambda: t(base).fill_(v_t))
        return
    assert expected is not None
    inplace(lambda x: S.fill_(x, value), lambda x: x.fill_(v_t), base, "step")
    inplace(lambda x: S.fill_(x, value), lambda x: x.fill_(v_t), base, "swapaxes")


def test_fill_errors_and_zero():
    same_error(lambda: S.fill_(np.ones(3), np.array([1.0, 2.0])), lambda: torch.ones(3).fill_(torch.ones(2)))
    for dtype in DTYPES:
        base = data((3, 4), dtype)
        inplace(S.zero_, lambda x: x.zero_(), base, "step")
        inplace(S.zero_, lambda x: x.zero_(), base, "swapaxes")
    s = np.array(5.0)
    S.zero_(s)
    assert s == 0.0
