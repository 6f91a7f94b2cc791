"""CPU reduction and matrix-product kernels compared with PyTorch on the same NumPy data.

Each case runs the kernel and the matching torch op and checks the result's dtype, shape and values,
or that both raise the same exception type with the same message.
"""

import doctest
import functools
import importlib.util
import math
import pathlib
import warnings

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import tolerance

ROOT = pathlib.Path(__file__).resolve().parents[2]

# A kernel must not leak NumPy's floating-point warnings (overflow in a cast, 0/0) to the user.
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")


R = importlib.import_module("yaten.kernels.cpu.reduce")
S = importlib.import_module("yaten.kernels.cpu.scan")
L = importlib.import_module("yaten.kernels.cpu.linalg")

NP_TO_TORCH = {
    np.dtype(np.float16): torch.float16,
    np.dtype(np.float32): torch.float32,
    np.dtype(np.float64): torch.float64,
    np.dtype(np.int8): torch.int8,
    np.dtype(np.int16): torch.int16,
    np.dtype(np.int32): torch.int32,
    np.dtype(np.int64): torch.int64,
    np.dtype(np.uint8): torch.uint8,
    np.dtype(np.bool_): torch.bool,
}
TORCH_TO_NP = {v: k for k, v in NP_TO_TORCH.items()}
FLOATS = [np.float16, np.float32, np.float64]
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8]
ALL = FLOATS + INTS + [np.bool_]
LAYOUTS = ["contiguous", "transposed", "strided", "0-d", "empty"]
INF, NAN = math.inf, math.nan


def make(shape, dtype, seed=0, low=-4, high=5):
    """Random data of ``dtype``; small integers so that sums stay exact and maxima tie."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        values = rng.random(shape) < 0.6
    elif dtype.kind == "f":
        values = rng.standard_normal(shape)
    else:
        values = rng.integers(0 if dtype.kind == "u" else low, high, shape)
    return np.asarray(values).astype(dtype)  # an array even for shape ()


def layout(kind, dtype, seed=0):
    """A (3, 4, 5)-shaped array (or 0-d / empty) in the requested memory layout."""
    if kind == "contiguous":
        return make((3, 4, 5), dtype, seed)
    if kind == "transposed":
        return make((5, 4, 3), dtype, seed).transpose(2, 1, 0)
    if kind == "strided":
        return make((6, 4, 10), dtype, seed)[::2, :, ::-2]
    if kind == "0-d":
        return make((), dtype, seed)
    return make((3, 0, 5), dtype, seed)


def tt(a):
    """A tensor with ``a``'s values (torch cannot view negative strides, so this copies)."""
    return torch.tensor(np.array(a, order="C"))


def tol(dtype):
    """tests/tolerances.py's tolerance for ``dtype``; float16 sums round to half at every block: wider."""
    if np.dtype(dtype) == np.float16:
        return {"rtol": 2e-2, "atol": 2e-2}
    rtol, atol = tolerance(dtype) or (0, 0)
    return {"rtol": rtol, "atol": atol}


def check(ours, theirs, source=None, rtol=None, atol=None):
    """``ours`` (array) matches ``theirs`` (tensor) in dtype, shape and values; it is a new array."""
    assert isinstance(ours, np.ndarray), type(ours)
    assert ours.dtype == TORCH_TO_NP[theirs.dtype], (ours.dtype, theirs.dtype)
    assert ours.shape == tuple(theirs.shape), (ours.shape, tuple(theirs.shape))
    if source is not None and source.size:
        assert not np.shares_memory(ours, source)
    t = tol(ours.dtype)
    if rtol is not None:
        t = {"rtol": rtol, "atol": atol}
    expect = theirs.numpy()
    if ours.dtype.kind == "f":
        np.testing.assert_allclose(ours.astype(np.float64), expect.astype(np.float64), equal_nan=True, **t)
    else:
        np.testing.assert_array_equal(ours, expect)


def same_error(ours, theirs):
    """Both callables raise the same exception type with the same message."""
    with pytest.raises(Exception) as expected:
        theirs()
    with pytest.raises(type(expected.value)) as got:
        ours()
    assert type(got.value) is type(expected.value)
    assert str(got.value) == str(expected.value)


def torch_dims(dim, ndim):
    """torch's spelling of "all dims" for ops whose dim argument cannot be None."""
    return list(range(ndim)) if dim is None else list(dim)


MULTI_DIMS = [None, (), (0,), (-1,), (2, 0), (1, -3)]
MULTI_DIMS_0D = [None, (), (0,), (-1,)]


def dims_for(a):
    return MULTI_DIMS_0D if a.ndim == 0 else MULTI_DIMS


# ---------------------------------------------------------------------------------------------
# sum / mean / prod


@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL)
def test_sum(dtype, kind):
    a = layout(kind, dtype)
    t = tt(a)
    check(R.sum_all(a, None), torch.sum(t), a)
    for dim in dims_for(a):
        for keepdim in (False, True):
            check(R.sum_dim(a, dim, keepdim, None), torch.sum(t, dim=dim, keepdim=keepdim), a)


@pytest.mark.parametrize("out", [np.float16, np.float32, np.float64, np.int8, np.int64, np.uint8, np.bool_])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_, np.float16])
def test_sum_with_dtype(dtype, out):
    a = make((4, 6), dtype) * (np.array(3.7, dtype) if np.dtype(dtype).kind == "f" else 1)
    t = tt(a)
    tdt = NP_TO_TORCH[np.dtype(out)]
    check(R.sum_all(a, np.dtype(out)), torch.sum(t, dtype=tdt), a)
    check(R.sum_dim(a, (1,), True, np.dtype(out)), torch.sum(t, dim=1, keepdim=True, dtype=tdt), a)
    check(R.prod_dim(a, 0, False, np.dtype(out)), torch.prod(t, 0, dtype=tdt), a)
    if np.dtype(out) != np.bool_:
        check(S.cumsum(a, -1, np.dtype(out)), torch.cumsum(t, -1, dtype=tdt), a)


def test_sum_integer_overflow_wraps_like_torch():
    a = np.array([127, 1, 100], np.int8)
    check(R.sum_all(a, None), torch.sum(tt(a)))
    check(R.sum_all(a, np.dtype(np.int8)), torch.sum(tt(a), dtype=torch.int8))
    b = np.array([2**62, 2**62, 2**62], np.int64)
    check(R.sum_all(b, None), torch.sum(tt(b)))


def test_half_sums_accumulate_in_float32():
    a = np.array([60000, 60000, -60000], np.float16)
    check(R.sum_all(a, None), torch.sum(tt(a)))
    check(R.mean_dim(a, None, False, None), torch.mean(tt(a)))
    check(S.cumsum(a, 0, None), torch.cumsum(tt(a), 0))


@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("dtype", FLOATS)
def test_mean(dtype, kind):
    a = layout(kind, dtype)
    t = tt(a)
    for dim in dims_for(a):
        for keepdim in (False, True):
            check(R.mean_dim(a, dim, keepdim, None), torch.mean(t, dim=dim, keepdim=keepdim), a)
    check(R.mean_dim(a, None, False, np.dtype(np.float64)), torch.mean(t, dtype=torch.float64), a)


@pytest.mark.parametrize("dtype", INTS + [np.bool_])
def test_mean_integer_input(dtype):
    a = make((3, 4), dtype)
    t = tt(a)
    same_error(lambda: R.mean_dim(a, None, False, None), lambda: torch.mean(t))
    check(R.mean_dim(a, (0,), False, np.dtype(np.float32)), torch.mean(t, dim=0, dtype=torch.float32), a)
    f = make((3,), np.float32)
    same_error(
        lambda: R.mean_dim(f, None, False, np.dtype(dtype)),
        lambda: torch.mean(tt(f), dtype=NP_TO_TORCH[a.dtype]),
    )


@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL)
def test_prod(dtype, kind):
    a = layout(kind, dtype)
    if np.dtype(dtype).kind == "f":
        a = (a / 2 + 1).astype(dtype)  # keep half products in range
    t = tt(a)
    check(
        R.prod_dim(a, None, False, None),
        torch.prod(t),
        a,
        **({"rtol": 5e-2, "atol": 5e-2} if dtype == np.float16 else {}),
    )
    for dim in [0, -1] if a.ndim == 0 else [0, -1, 1, -2]:
        for keepdim in (False, True):
            check(R.prod_dim(a, dim, keepdim, None), torch.prod(t, dim, keepdim=keepdim), a)


# ---------------------------------------------------------------------------------------------
# max / min / arg-reductions


@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL)
def test_max_min(dtype, kind):
    a = layout(kind, dtype)
    t = tt(a)
    if a.size:
        check(R.max_all(a), torch.max(t), a)
        check(R.min_all(a), torch.min(t), a)
    else:
        same_error(lambda: R.max_all(a), lambda: torch.max(t))
        same_error(lambda: R.min_all(a), lambda: torch.min(t))
    for dim in [0, -1] if a.ndim == 0 else [0, 1, -1, -3]:
        for keepdim in (False, True):
            for ours, theirs in ((R.max_dim, torch.max), (R.min_dim, torch.min)):
                if a.ndim and a.shape[dim] == 0:
                    same_error(
                        functools.partial(ours, a, dim, keepdim), functools.partial(theirs, t, dim, keepdim)
                    )
                    continue
                values, indices = ours(a, dim, keepdim)
                expect = theirs(t, dim, keepdim)
                check(values, expect.values, a)
                check(indices, expect.indices, a)


@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL)
def test_amax_amin(dtype, kind):
    a = layout(kind, dtype)
    t = tt(a)
    for dim in dims_for(a):
        for keepdim in (False, True):
            for ours, theirs in ((R.amax, torch.amax), (R.amin, torch.amin)):
                tdim = () if dim is None else dim
                if a.size == 0 and (not dim or any(a.shape[d] == 0 for d in dim)):
                    same_error(
                        functools.partial(ours, a, dim, keepdim), functools.partial(theirs, t, tdim, keepdim)
                    )
                else:
                    check(ours(a, dim, keepdim), theirs(t, tdim, keepdim), a)


@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_argmax_argmin(dtype, kind):
    a = layout(kind, dtype)
    t = tt(a)
    for dim in [None, 0, -1] + ([] if a.ndim == 0 else [1, -3]):
        for keepdim in (False, True):
            for ours, theirs in ((R.argmax, torch.argmax), (R.argmin, torch.argmin)):
                empty = a.size == 0 and (dim is None or a.shape[dim] == 0)
                if empty:
                    same_error(
                        functools.partial(ours, a, dim, keepdim), functools.partial(theirs, t, dim, keepdim)
                    )
                else:
                    check(ours(a, dim, keepdim), theirs(t, dim, keepdim), a)


def test_arg_reductions_of_bool_raise():
    a = np.array([True, False])
    same_error(lambda: R.argmax(a, None, False), lambda: torch.argmax(tt(a)))
    same_error(lambda: R.argmin(a, 0, False), lambda: torch.argmin(tt(a), 0))


def test_ties_pick_the_first_index():
    a = make((40, 300), np.int64, low=0, high=3)  # every row and column full of ties
    t = tt(a)
    for dim in (0, 1):
        for ours, theirs in ((R.max_dim, torch.max), (R.min_dim, torch.min)):
            _, indices = ours(a, dim, False)
            check(indices, theirs(t, dim).indices)
        check(R.argmax(a, dim, False), torch.argmax(t, dim))
        check(R.argmin(a, dim, False), torch.argmin(t, dim))
    check(R.argmax(a, None, False), torch.argmax(t))


@pytest.mark.parametrize("dtype", FLOATS)
def test_nan_propagates(dtype):
    a = np.array([[1, NAN, 3, NAN], [2, 5, -1, 0], [NAN, NAN, 1, 1]], dtype)
    t = tt(a)
    check(R.max_all(a), torch.max(t))
    check(R.min_all(a), torch.min(t))
    for dim in (0, 1):
        for ours, theirs in ((R.max_dim, torch.max), (R.min_dim, torch.min)):
            values, indices = ours(a, dim, False)
            expect = theirs(t, dim)
            check(values, expect.values)
            check(indices, expect.indices)
        check(R.amax(a, (dim,), False), torch.amax(t, dim))
        check(R.amin(a, (dim,), False), torch.amin(t, dim))
        check(R.argmax(a, dim, False), torch.argmax(t, dim))
        check(R.argmin(a, dim, False), torch.argmin(t, dim))
    check(R.argmax(a, None, False), torch.argmax(t))


# ---------------------------------------------------------------------------------------------
# var / std / logsumexp


@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("dtype", FLOATS)
def test_var_std(dtype, kind):
    a = layout(kind, dtype)
    t = tt(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns when N - correction <= 0
        for dim in dims_for(a):
            for correction in (1, 0, 2.5, 5, -1):
                for keepdim in (False, True):
                    check(
                        R.var(a, dim, correction, keepdim),
                        torch.var(t, dim, correction=correction, keepdim=keepdim),
                        a,
                    )
                    check(
                        R.std(a, dim, correction, keepdim),
                        torch.std(t, dim, correction=correction, keepdim=keepdim),
                        a,
                    )


@pytest.mark.parametrize("values", [[1.0, 2.0], [1.0, 1.0], [3.0]])
@pytest.mark.parametrize("correction", [1, 2, 3, 2.5])
def test_var_without_degrees_of_freedom(values, correction):
    a = np.array(values, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(R.var(a, None, correction, False), torch.var(tt(a), correction=correction))
        check(R.std(a, (0,), correction, True), torch.std(tt(a), 0, correction=correction, keepdim=True))


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.tensor([1.0]).var(),
        lambda m: m.tensor([1.0]).std(),
        lambda m: m.ones(2, 3).var(1, correction=3),
        lambda m: m.ones(0).var(),
        lambda m: m.ones(2, 1).std(1),
        lambda m: m.ones(2).var(correction=2.5),
        lambda m: m.ones(3).var(correction=0),
        lambda m: m.ones(2, 2).var(dim=(0, 1)),
    ],
)
def test_var_std_warn_as_torch_without_degrees_of_freedom(call):
    """torch's UserWarning (its message, at the caller's line) exactly when N - correction <= 0."""
    seen = []
    for lib in (torch, yaten):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call(lib)
        seen.append(
            [(str(w.message).split(" (Triggered internally")[0], w.category, w.filename) for w in caught]
        )
    assert seen[1] == seen[0]


@pytest.mark.parametrize("dtype", INTS + [np.bool_])
def test_var_integer_input(dtype):
    a = make((3,), dtype)
    same_error(lambda: R.var(a, None, 1, False), lambda: torch.var(tt(a)))
    same_error(lambda: R.std(a, (0,), 1, False), lambda: torch.std(tt(a), 0))


@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL)
def test_logsumexp(dtype, kind):
    a = layout(kind, dtype)
    t = tt(a)
    for dim in dims_for(a):
        for keepdim in (False, True):
            # torch rejects dim=() (a broadcast error); the kernel reduces every dim, as for None.
            tdim = torch_dims(None if dim == () else dim, a.ndim)
            check(R.logsumexp(a, dim, keepdim), torch.logsumexp(t, tdim, keepdim=keepdim), a)


@pytest.mark.parametrize(
    "values",
    [[INF, INF], [-INF, -INF], [INF, 1.0], [-INF, 2.0], [1.0, NAN], [INF, NAN], [1e30, 1e30], [-1e30, 0.0]],
)
def test_logsumexp_special_values(values):
    a = np.array(values, np.float32)
    check(R.logsumexp(a, (0,), False), torch.logsumexp(tt(a), 0))


# ---------------------------------------------------------------------------------------------
# all / any / norm


@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL)
def test_all_any(dtype, kind):
    a = layout(kind, dtype)
    if a.dtype.kind == "f" and a.size:
        a[...] = np.where(a > 0.5, 0, a)  # some zeros
        a.flat[0] = NAN
    t = tt(a)
    for dim in dims_for(a):
        for keepdim in (False, True):
            check(R.all_dims(a, dim, keepdim), torch.all(t, dim=dim, keepdim=keepdim), a)
            check(R.any_dims(a, dim, keepdim), torch.any(t, dim=dim, keepdim=keepdim), a)


NORM_ORDERS = [2, 1, 0, INF, -INF, 3, 0.5, -1, -1.5]


@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("dtype", FLOATS)
def test_norm(dtype, kind):
    a = layout(kind, dtype)
    if a.size:
        a.flat[0] = 0
    t = tt(a)
    for p in NORM_ORDERS:
        for dim in dims_for(a):
            for keepdim in (False, True):
                ours = functools.partial(R.norm, a, p, dim, keepdim, None)
                theirs = functools.partial(torch.linalg.vector_norm, t, p, dim, keepdim)
                no_identity = p < 0 or p == INF
                if a.size == 0 and no_identity and (not dim or any(a.shape[d] == 0 for d in dim)):
                    same_error(ours, theirs)
                else:
                    check(ours(), theirs(), a)


@pytest.mark.parametrize(
    "values", [[1.0, NAN], [-1.0, INF], [INF, 1.0], [0.0, 0.0], [1e30, 1e30], [1e-30, 1e-30], [1e20, 2.0]]
)
@pytest.mark.parametrize("p", NORM_ORDERS)
def test_norm_special_values(values, p):
    a = np.array(values, np.float32)
    with np.errstate(all="ignore"):
        check(R.norm(a, p, None, False, None), torch.linalg.vector_norm(tt(a), p))


def test_norm_dtypes():
    h = make((3, 4), np.float16)
    check(
        R.norm(h, 2, (1,), False, np.dtype(np.float32)),
        torch.linalg.vector_norm(tt(h), 2, 1, dtype=torch.float32),
        h,
    )
    check(
        R.norm(h, 2, None, False, np.dtype(np.float64)),
        torch.linalg.vector_norm(tt(h), dtype=torch.float64),
        h,
    )
    f = make((3,), np.float32)
    for dtype in (torch.float16, torch.int64):
        same_error(
            functools.partial(R.norm, f, 2, None, False, TORCH_TO_NP[dtype]),
            functools.partial(torch.linalg.vector_norm, tt(f), dtype=dtype),
        )
    i = make((3,), np.int64)
    same_error(lambda: R.norm(i, 2, None, False, None), lambda: torch.linalg.vector_norm(tt(i)))
    same_error(
        lambda: R.norm(i, 2, None, False, np.dtype(np.float32)),
        lambda: torch.linalg.vector_norm(tt(i), dtype=torch.float32),
    )


# ---------------------------------------------------------------------------------------------
# cumsum / softmax / log_softmax


@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL)
def test_cumsum(dtype, kind):
    a = layout(kind, dtype)
    t = tt(a)
    for dim in [0, -1] if a.ndim == 0 else [0, 1, 2, -1]:
        check(S.cumsum(a, dim, None), torch.cumsum(t, dim), a)
    if a.ndim and a.size:
        same_error(lambda: S.cumsum(a, 0, np.dtype(np.bool_)), lambda: torch.cumsum(t, 0, dtype=torch.bool))
    else:  # no scan to run: PyTorch converts without looking for a bool kernel
        check(S.cumsum(a, 0, np.dtype(np.bool_)), torch.cumsum(t, 0, dtype=torch.bool), a)


def test_cumsum_float32_accumulates_in_double():
    a = make((200000,), np.float32) + np.float32(1)
    check(S.cumsum(a, 0, None), torch.cumsum(tt(a), 0), rtol=0, atol=0)


@pytest.mark.parametrize("kind", LAYOUTS)
@pytest.mark.parametrize("dtype", ALL)
def test_softmax(dtype, kind):
    a = layout(kind, dtype)
    t = tt(a)
    for dim in [0, -1] if a.ndim == 0 else [0, 1, -1]:
        for ours, theirs in ((R.softmax, torch._softmax), (R.log_softmax, torch._log_softmax)):
            if a.dtype.kind != "f" and a.size:
                same_error(functools.partial(ours, a, dim, False), functools.partial(theirs, t, dim, False))
            else:
                check(ours(a, dim, False), theirs(t, dim, False), a)
            same_error(functools.partial(ours, a, dim, True), functools.partial(theirs, t, dim, True))


@pytest.mark.parametrize(
    "values", [[-INF, -INF], [INF, 1.0], [1.0, NAN], [1000.0, 0.0], [-1000.0, -1001.0], [-INF, 0.0]]
)
def test_softmax_special_values(values):
    a = np.array(values, np.float32)
    check(R.softmax(a, 0, False), torch.softmax(tt(a), 0))
    check(R.log_softmax(a, 0, False), torch.log_softmax(tt(a), 0))


# ---------------------------------------------------------------------------------------------
# dims and errors


def test_dimension_errors():
    a = make((2, 3), np.float32)
    t = tt(a)
    cases = [
        (lambda: R.sum_dim(a, (5,), False, None), lambda: torch.sum(t, 5)),
        (lambda: R.sum_dim(a, (0, -2), False, None), lambda: torch.sum(t, (0, -2))),
        (lambda: R.mean_dim(a, (-3,), False, None), lambda: torch.mean(t, -3)),
        (lambda: R.prod_dim(a, 2, False, None), lambda: torch.prod(t, 2)),
        (lambda: R.max_dim(a, 2, False), lambda: torch.max(t, 2)),
        (lambda: R.amin(a, (1, 1), False), lambda: torch.amin(t, (1, 1))),
        (lambda: R.argmax(a, -3, False), lambda: torch.argmax(t, -3)),
        (lambda: R.var(a, (0, 0), 1, False), lambda: torch.var(t, (0, 0))),
        (lambda: R.logsumexp(a, (2,), False), lambda: torch.logsumexp(t, 2)),
        (lambda: R.all_dims(a, (0, -2), False), lambda: torch.all(t, (0, -2))),
        (lambda: R.norm(a, 2, (3,), False, None), lambda: torch.linalg.vector_norm(t, 2, 3)),
        (lambda: S.cumsum(a, 2, None), lambda: torch.cumsum(t, 2)),
        (lambda: R.softmax(a, -3, False), lambda: torch.softmax(t, -3)),
    ]
    s = np.array(2.0, np.float32)
    cases += [
        (lambda: R.sum_dim(s, (1,), False, None), lambda: torch.sum(tt(s), 1)),
        (lambda: R.max_dim(s, -2, False), lambda: torch.max(tt(s), -2)),
    ]
    for ours, theirs in cases:
        same_error(ours, theirs)


def test_empty_reduction_errors():
    e = np.empty((0, 3), np.float32)
    t = tt(e)
    for ours, theirs in [
        (lambda: R.amax(e, (-2,), False), lambda: torch.amax(t, -2)),
        (lambda: R.amin(e, (1, 0), False), lambda: torch.amin(t, (1, 0))),
        (lambda: R.norm(e, INF, (-2,), False, None), lambda: torch.linalg.vector_norm(t, INF, -2)),
        (lambda: R.norm(e, -1, None, False, None), lambda: torch.linalg.vector_norm(t, -1)),
    ]:
        same_error(ours, theirs)


def test_doctests():
    for module in (R, L):
        assert doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE).failed == 0


# ---------------------------------------------------------------------------------------------
# the parallel sum kernels (inputs above the size where they take over)

BIG = 1 << 18


@pytest.mark.parametrize(
    "shape,dims,transpose",
    [
        ((BIG,), None, None),
        ((512, 1024), (1,), None),  # row sums, long rows
        ((BIG // 8, 8), (1,), None),  # short rows
        ((512, 1024), (0,), None),  # column sums
        ((BIG // 6 + 5, 6), (0,), None),  # few columns, rows not a multiple of the fold
        ((16, 8, 64, 32), (0, 2, 3), None),  # N, H, W of NCHW
        ((16, 8, 64, 32), (1, 3), None),  # mixed pattern: NumPy path
        ((1024, 512), (0,), (1, 0)),  # transposed input
        ((64, 64, 64), (0, 1), (2, 0, 1)),
    ],
)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_large_sums(shape, dims, transpose, dtype):
    a = make(shape, dtype, low=-1000, high=1000)
    if transpose is not None:
        a = a.transpose(transpose)
    t = tt(a)
    axes = tuple(range(a.ndim)) if dims is None else dims
    assert (R._fast_sum(a, axes, False) is None) == (dims == (1, 3))  # only the mixed pattern falls back
    exact = np.add.reduce(a.astype(np.float64), axis=dims)
    for keepdim in (False, True):
        ours = R.sum_dim(a, dims, keepdim, None)
        check(ours, torch.sum(t, dims, keepdim=keepdim), a, rtol=1e-5, atol=1e-3)
        if not keepdim and a.dtype == np.int64:
            np.testing.assert_array_equal(ours, exact.astype(np.int64))
        elif not keepdim:
            # Blocks in the input dtype joined in float64 stay close to the exact sum.
            np.testing.assert_allclose(ours, exact, rtol=1e-6, atol=1e-2)
    if a.dtype.kind == "f":
        check(R.mean_dim(a, dims, False, None), torch.mean(t, dims), a, rtol=1e-5, atol=1e-6)
    check(R.sum_all(a, None), torch.sum(t), a, rtol=1e-6, atol=1e-2)


def test_dense_order():
    a = np.zeros((3, 4, 5))
    assert R._dense_order(a) == (0, 1, 2)
    assert R._dense_order(a.transpose(2, 0, 1)) == (1, 2, 0)
    assert R._dense_order(a[:, ::2]) is None
    assert R._dense_order(a[::-1]) is None


# ---------------------------------------------------------------------------------------------
# linear algebra

MATMUL_DTYPES = FLOATS + INTS


def mat_layouts(n, m, dtype, seed):
    """The same logical (n, m) matrix contents in five layouts."""
    base = make((n, m), dtype, seed)
    wide = np.zeros((n, m + 3), dtype)
    wide[:, :m] = base
    return {
        "C": base,
        "F": np.asfortranarray(base),
        "lda": wide[:, :m],  # rows with a leading-dimension stride
        "strided": np.repeat(base, 2, axis=0)[::2],
        "reversed": base[::-1].copy()[::-1],
    }


@pytest.mark.parametrize("dtype", MATMUL_DTYPES)
def test_mm(dtype):
    for a in mat_layouts(5, 7, dtype, 1).values():
        for b in mat_layouts(7, 3, dtype, 2).values():
            check(L.mm(a, b), torch.mm(tt(a), tt(b)), a)
    for n, k, m in [(0, 3, 2), (2, 0, 3), (3, 2, 0), (1, 1, 1)]:
        a, b = make((n, k), dtype), make((k, m), dtype)
        check(L.mm(a, b), torch.mm(tt(a), tt(b)))


def test_mm_integer_overflow_wraps():
    a = np.full((2, 3), 100, np.int8)
    check(L.mm(a, a.T.copy()), torch.mm(tt(a), tt(a.T.copy())))
    u = np.full((2, 3), 200, np.uint8)
    check(L.mm(u, u.T), torch.mm(tt(u), tt(u.T)))


def test_mm_large_float32():
    a = make((300, 200), np.float32, 1)
    b = make((200, 100), np.float32, 2)
    check(L.mm(a, b), torch.mm(tt(a), tt(b)), rtol=1e-4, atol=1e-4)
    check(L.mm(b.T, a.T), torch.mm(tt(b.T), tt(a.T)), rtol=1e-4, atol=1e-4)


def test_blas_layouts_are_not_copied():
    a = np.zeros((64, 32), np.float32)
    wide = np.zeros((64, 40), np.float32)
    assert L._blas_ready(a) is a
    assert np.shares_memory(L._blas_ready(a.T), a)
    assert np.shares_memory(L._blas_ready(wide[:, :32]), wide)
    assert np.shares_memory(L._blas_ready(wide[:, :32].T), wide)
    assert not np.shares_memory(L._blas_ready(a[::-1]), a)
    assert not np.shares_memory(L._blas_ready(a[:, ::2]), a)
    stack = np.zeros((4, 8, 6), np.float32)
    assert L._blas_ready(stack) is stack
    assert np.shares_memory(L._blas_ready(stack.transpose(0, 2, 1)), stack)
    assert np.shares_memory(L._blas_ready(stack[::2]), stack)
    # Fortran order puts the batch axis innermost: no matrix of the stack is BLAS-readable.
    assert not np.shares_memory(L._blas_ready(np.asfortranarray(stack)), stack)


@pytest.mark.parametrize("dtype", MATMUL_DTYPES)
def test_bmm(dtype):
    a = make((4, 3, 5), dtype, 1)
    b = make((4, 5, 2), dtype, 2)
    check(L.bmm(a, b), torch.bmm(tt(a), tt(b)), a)
    at = make((4, 5, 3), dtype, 3).transpose(0, 2, 1)
    bs = make((8, 5, 4), dtype, 4)[::2, :, ::2]
    check(L.bmm(at, bs), torch.bmm(tt(at), tt(bs)), at)
    e1, e2 = make((0, 3, 5), dtype), make((0, 5, 2), dtype)
    check(L.bmm(e1, e2), torch.bmm(tt(e1), tt(e2)))


ADDMM_SCALARS = [(1, 1), (0.5, 2), (0, 1), (1, 0), (0, 0), (-1.7, 2.9), (2, -3)]


@pytest.mark.parametrize("bias_shape", [(4, 3), (3,), (1, 3), (4, 1), (), (1, 1)])
@pytest.mark.parametrize("dtype", MATMUL_DTYPES)
def test_addmm(dtype, bias_shape):
    m1, m2 = make((4, 5), dtype, 1), make((5, 3), dtype, 2)
    bias = make(bias_shape, dtype, 3)
    for beta, alpha in ADDMM_SCALARS:
        if np.dtype(dtype).kind == "u" and (beta < 0 or alpha < 0) and isinstance(beta, float):
            continue
        check(
            L.addmm(bias, m1, m2, beta, alpha), torch.addmm(tt(bias), tt(m1), tt(m2), beta=beta, alpha=alpha)
        )
    check(L.addmm(bias, m1.T.copy().T, m2[::-1][::-1], 1, 1), torch.addmm(tt(bias), tt(m1), tt(m2)), bias)


@pytest.mark.parametrize("dtype", FLOATS)
def test_addmm_zero_scalars_ignore_nan(dtype):
    m1, m2 = make((2, 3), dtype, 1), make((3, 2), dtype, 2)
    nan_bias = np.full((2, 2), NAN, dtype)
    check(L.addmm(nan_bias, m1, m2, 0, 1), torch.addmm(tt(nan_bias), tt(m1), tt(m2), beta=0))
    nan_m1 = np.full((2, 3), NAN, dtype)
    bias = make((2, 2), dtype, 3)
    check(L.addmm(bias, nan_m1, m2, 1, 0), torch.addmm(tt(bias), tt(nan_m1), tt(m2), alpha=0))
    e1, e2 = np.empty((2, 0), dtype), np.empty((0, 2), dtype)
    check(L.addmm(nan_bias, e1, e2, 0, 1), torch.addmm(tt(nan_bias), tt(e1), tt(e2), beta=0))
    check(L.addmm(bias, e1, e2, 2, 1), torch.addmm(tt(bias), tt(e1), tt(e2), beta=2))


@pytest.mark.parametrize(
    "dtype,value",
    [
        (np.uint8, -1),
        (np.uint8, -255),
        (np.uint8, -256),
        (np.uint8, 256),
        (np.uint8, 1.5),
        (np.uint8, -0.5),
        (np.int8, 127),
        (np.int8, 128),
        (np.int8, -129),
        (np.int8, 127.9),
        (np.int16, 40000),
        (np.int32, 2**31),
        (np.int64, NAN),
        (np.int64, INF),
        (np.float32, 1e39),
        (np.float16, 1e5),
        (np.float16, 1e300),
        (np.float32, INF),
        (np.float64, 1e308),
    ],
)
def test_addmm_scalar_conversion(dtype, value):
    a = np.ones((1, 1), dtype)
    for beta, alpha in ((value, 1), (1, value)):
        ours = functools.partial(L.addmm, a, a, a, beta, alpha)
        theirs = functools.partial(torch.addmm, tt(a), tt(a), tt(a), beta=beta, alpha=alpha)
        try:
            expect = theirs()
        except RuntimeError:
            same_error(ours, theirs)
        else:
            check(ours(), expect)


@pytest.mark.parametrize("dtype", MATMUL_DTYPES)
def test_dot_mv(dtype):
    v, w = make((7,), dtype, 1), make((14,), dtype, 2)[::2]
    check(L.dot(v, w), torch.dot(tt(v), tt(w)), v)
    check(L.dot(v[::-1], v), torch.dot(tt(v[::-1]), tt(v)), v)
    e = np.empty((0,), dtype)
    check(L.dot(e, e), torch.dot(tt(e), tt(e)))
    for m in mat_layouts(4, 7, dtype, 3).values():
        check(L.mv(m, v), torch.mv(tt(m), tt(v)), m)
        check(L.mv(m, w), torch.mv(tt(m), tt(w)), m)
    check(L.mv(np.empty((3, 0), dtype), e), torch.mv(tt(np.empty((3, 0), dtype)), tt(e)))


def f32(*shape):
    return np.ones(shape, np.float32)


def f64(*shape):
    return np.ones(shape, np.float64)


def typed(dtype, *shape):
    return np.ones(shape, dtype)


LINALG_ERRORS = [
    ("mm", (f32(2, 3), f32(4, 5))),
    ("mm", (f32(3), f32(3, 2))),
    ("mm", (f32(2, 3), f32(3))),
    ("mm", (f32(3), f64(3, 2))),
    ("mm", (f32(2, 3), f64(4, 2))),
    ("mm", (typed(np.bool_, 2, 3), typed(np.bool_, 3, 2))),
    ("bmm", (f32(2, 3), f32(2, 3, 4))),
    ("bmm", (f32(2, 2, 3), f32(2, 3))),
    ("bmm", (f32(2, 2, 3), f32(3, 3, 4))),
    ("bmm", (f32(2, 2, 3), f32(2, 4, 4))),
    ("bmm", (f32(2, 2, 3), f64(2, 3, 4))),
    ("bmm", (typed(np.int64, 2, 2, 3), f32(2, 3, 4))),
    ("bmm", (typed(np.bool_, 2, 2, 3), typed(np.bool_, 2, 3, 4))),
    ("addmm", (f32(2, 2), f32(2, 3), f32(4, 2))),
    ("addmm", (f32(3, 3), f32(2, 3), f32(3, 2))),
    ("addmm", (f32(3, 1), f32(2, 3), f32(3, 2))),
    ("addmm", (f32(2, 2, 2), f32(2, 3), f32(3, 2))),
    ("addmm", (f64(2, 2), f32(2, 3), f32(3, 2))),
    ("addmm", (f32(2, 2), f64(2, 3), f32(3, 2))),
    ("addmm", (f32(2, 2), f32(2, 3), f64(3, 2))),
    ("addmm", (f32(2, 2), f32(3), f32(3, 2))),
    ("addmm", (f32(2, 2), f32(2, 3), f32(3))),
    ("addmm", (f32(2, 2), f32(3), f64(3, 2))),
    ("addmm", (typed(np.bool_, 2, 2), typed(np.bool_, 2, 3), typed(np.bool_, 3, 2))),
    ("dot", (f32(3), f32(4))),
    ("dot", (f32(3, 1), f32(3))),
    ("dot", (f32(3), f32(3, 1))),
    ("dot", (np.ones((), np.float32), f32(1))),
    ("dot", (f32(3), f64(3))),
    ("dot", (typed(np.bool_, 3), typed(np.bool_, 3))),
    ("dot", (typed(np.bool_, 3), typed(np.bool_, 4))),
    ("mv", (f32(2, 3), f32(4))),
    ("mv", (f32(3), f32(3))),
    ("mv", (f32(2, 3), f32(3, 1))),
    ("mv", (f32(2, 3), np.ones((), np.float32))),
    ("mv", (f32(2, 3), f64(3))),
    ("mv", (f64(2, 3), f32(3))),
    ("mv", (typed(np.int64, 2, 3), f32(3))),
    ("mv", (typed(np.bool_, 2, 3), typed(np.bool_, 3))),
]
for _dt in MATMUL_DTYPES + [np.bool_]:
    LINALG_ERRORS.append(
        ("mm", (f32(2, 3), typed(_dt, 3, 2))) if _dt != np.float32 else ("mm", (f32(2, 3), f32(4, 2)))
    )


@pytest.mark.parametrize("op,args", LINALG_ERRORS)
def test_linalg_errors(op, args):
    scalars = (1, 1) if op == "addmm" else ()
    same_error(lambda: getattr(L, op)(*args, *scalars), lambda: getattr(torch, op)(*(tt(x) for x in args)))
