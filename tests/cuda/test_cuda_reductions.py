"""max / min (with indices), amax / amin, argmax / argmin, prod, all / any, var / std, logsumexp and
norm on ``cuda`` (runtime/kernels/cuda/reduce.py).

Every op runs on cuda tensors and must give the CPU kernel's values, dtypes, shapes and errors (type
and message); the results stay on the device. Run under ``NUMBA_ENABLE_CUDASIM=1`` on machines
without a GPU: the simulator runs each GPU thread as Python, so every input is a few dozen elements.
"""

import sys

import numpy as np
import pytest
from gpu_compile import compiles_for_a_gpu

import yaten
from yaten._generated import ops as _generated_ops

pytestmark = [
    pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1"),
    # The simulator computes with NumPy scalars, which warn where a GPU silently gives inf or NaN.
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
]

CUDA0 = yaten.device("cuda", 0)


@pytest.fixture(autouse=True, scope="module")
def _prompt_simulated_barriers():
    # A thread waiting at a simulated syncthreads runs again only when Python switches threads
    # (every 5 ms by default); switching more often makes the block reductions much faster.
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)
    yield
    sys.setswitchinterval(old)


def _sample(kind):
    """A tiny 3x4 input with ties (and NaN, or a non-contiguous layout, as the name says)."""
    base = np.array([[1, 5, 5, -2], [7, -3, 7, 0], [4, 4, 4, 4]])
    if kind == "float32":
        return base.astype(np.float32)
    if kind == "float64-nan":
        a = base.astype(np.float64)
        a[0, 2] = a[1, 0] = a[1, 3] = np.nan  # row 1 has two NaNs: the first one is the arg
        return a
    if kind == "float32-nan-strided":
        a = base.T.copy().astype(np.float32)
        a[1, 0] = a[3, 1] = np.nan
        return a.T  # a (3, 4) view with strides (1, 3)
    if kind == "int64-strided":
        return np.ascontiguousarray(base.T).T
    if kind == "bool":
        return base > 3
    raise AssertionError(kind)


def _both(a):
    """The host array ``a`` as a cpu tensor and as a cuda tensor with the same strides."""
    t = yaten.from_numpy(np.ascontiguousarray(a))
    if a.ndim == 2 and not a.flags.c_contiguous:
        t = yaten.from_numpy(np.ascontiguousarray(a.T)).t()
        assert not t.is_contiguous()
    c = t.to("cuda") if t.is_contiguous() else t.t().to("cuda").t()
    assert c.is_contiguous() == t.is_contiguous()
    return t, c


def _same(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    assert got.device == CUDA0
    assert got.dtype == want.dtype and tuple(got.shape) == tuple(want.shape)
    tol = 1e-12 if want.dtype == yaten.float64 else (1e-3 if want.dtype == yaten.float16 else 1e-5)
    np.testing.assert_allclose(got.cpu().numpy(), want.numpy(), rtol=tol, atol=tol, equal_nan=True)


def _compare(call, a):
    """``call`` on the cpu and on cuda copies of ``a``: the same result, or the same error."""
    cpu, cuda = _both(a)
    try:
        want = call(cpu)
    except (RuntimeError, IndexError, TypeError, NotImplementedError) as e:
        with pytest.raises(type(e)) as got:
            call(cuda)
        assert str(got.value) == str(e)
        return
    _same(call(cuda), want)


CALLS = {
    "max": lambda x: x.max(),
    "min": lambda x: yaten.min(x),
    "max-dim0": lambda x: tuple(yaten.max(x, 0)),
    "max-dim-1-keepdim": lambda x: tuple(x.max(-1, keepdim=True)),
    "min-dim1": lambda x: tuple(x.min(1)),
    "min-dim-2-keepdim": lambda x: tuple(yaten.min(x, -2, True)),
    "amax-all": lambda x: yaten.amax(x),
    "amax-dims": lambda x: x.amax((0, -1), keepdim=True),
    "amax-dim-1": lambda x: x.amax(-1),
    "amin-dim0-keepdim": lambda x: yaten.amin(x, 0, True),
    "amin-all": lambda x: x.amin(()),
    "argmax": lambda x: x.argmax(),
    "argmax-keepdim": lambda x: yaten.argmax(x, keepdim=True),
    "argmax-dim1": lambda x: x.argmax(1),
    "argmax-dim-2-keepdim": lambda x: x.argmax(-2, keepdim=True),
    "argmin": lambda x: yaten.argmin(x),
    "argmin-dim0": lambda x: x.argmin(0),
    "argmin-dim-1-keepdim": lambda x: yaten.argmin(x, -1, True),
    "prod": lambda x: x.prod(),
    "prod-dim1": lambda x: yaten.prod(x, 1),
    "prod-dim-2-keepdim-float64": lambda x: x.prod(-2, keepdim=True, dtype=yaten.float64),
    "all": lambda x: x.all(),
    "all-dim1": lambda x: yaten.all(x, 1),
    "all-dims-keepdim": lambda x: x.all((0, -1), keepdim=True),
    "any-dim-2": lambda x: x.any(-2),
    "any-dims-none": lambda x: yaten.any(x, ()),
    "var": lambda x: x.var(),
    "var-dim1-correction0": lambda x: yaten.var(x, 1, correction=0),
    "std-dim-2-keepdim": lambda x: x.std(-2, keepdim=True),
    "logsumexp-dim1": lambda x: yaten.logsumexp(x, 1),
    "logsumexp-dims-keepdim": lambda x: x.logsumexp((0, 1), keepdim=True),
    "norm": lambda x: x.norm(),
    "norm-p1": lambda x: yaten.norm(x, 1),
    "norm-p2-dims": lambda x: x.norm(2, (0, 1)),
    "norm-p3-dim1": lambda x: x.norm(3, 1),
    "norm-p0.5-dims-keepdim": lambda x: yaten.norm(x, 0.5, (-1, 0), True),
    "norm-p-1.5-dim0": lambda x: x.norm(-1.5, 0),  # a zero in a column: |0|**-1.5 is inf, the norm 0
    "norm-inf-dim-1": lambda x: x.norm(float("inf"), -1),
    "norm--inf-dim0-keepdim": lambda x: x.norm(float("-inf"), 0, keepdim=True),
    "norm-p0-dim1": lambda x: x.norm(0, 1),  # the count of nonzeros (NaN counts)
    "norm-bool-p": lambda x: x.norm(True),  # p = 1
}

KINDS = ["float32", "float64-nan", "float32-nan-strided", "int64-strided", "bool"]
BOOL_OPS = ("max", "min", "amax", "amin", "all", "any", "argmax", "prod")


@pytest.mark.parametrize(
    "name, kind",
    # var / std / logsumexp of bool: their errors are in test_errors_match_cpu.
    [(name, kind) for name in CALLS for kind in KINDS if kind != "bool" or name.startswith(BOOL_OPS)],
)
def test_reduction_matches_cpu(name, kind):
    _compare(CALLS[name], _sample(kind))


def test_nan_and_ties_on_cuda():
    # Checked against known answers too, not only against the cpu.
    x = yaten.from_numpy(_sample("float64-nan")).cuda()
    v, i = x.max(1)
    assert i.tolist() == [2, 0, 0] and np.isnan(v.cpu().numpy()[:2]).all() and v.tolist()[2] == 4.0
    assert x.argmin(1).tolist() == [2, 0, 0]
    assert np.isnan(x.amax().item()) and np.isnan(x.min().item())
    y = yaten.from_numpy(_sample("int64-strided")).cuda()
    assert y.argmax(1).tolist() == [1, 0, 0] and y.min(0).indices.tolist() == [0, 1, 2, 0]


def test_results_are_new_arrays_on_cuda():
    x = yaten.tensor([[1.0, 2.0]], device="cuda")
    for r in (x.amax(0), x.max(0).values, x.all((), keepdim=True), x.prod(0)):
        assert r.device == CUDA0
        r.zero_()
    assert x.tolist() == [[1.0, 2.0]]


@pytest.mark.parametrize(
    "call",
    [
        lambda x: x.max(),
        lambda x: x.max(0),
        lambda x: x.min(-1, keepdim=True),
        lambda x: x.amax(),
        lambda x: x.amin(()),
        lambda x: x.argmax(),
        lambda x: x.argmin(0, keepdim=True),
        lambda x: x.prod(),
        lambda x: x.all(),
        lambda x: x.any(0),
        lambda x: x.var(correction=0),
        lambda x: x.std(0),
        lambda x: x.logsumexp(0),
        lambda x: x.norm(),
        lambda x: x.norm(3, 0),
        lambda x: x.norm(float("-inf"), -1, keepdim=True),
    ],
)
@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_zero_dim_inputs(call, dtype):
    _compare(call, np.array(3, dtype=dtype))


@pytest.mark.parametrize(
    "call",
    [
        lambda x: x.max(1),
        lambda x: x.amax(-1, keepdim=True),
        lambda x: x.argmin(0),
        lambda x: x.prod(0),
        lambda x: x.logsumexp(1),
        lambda x: x.std(1, correction=0),
        lambda x: x.norm(2, 1),  # 65000**2 overflows half, not float32
        lambda x: x.norm(3, 0),
        lambda x: x.norm(float("inf"), 1),
    ],
)
def test_float16_is_computed_in_float32(call):
    _compare(call, np.array([[1.5, -2.0, 1.5], [65000.0, 0.125, 3.0]], np.float16))


ERRORS = {
    "max-empty": (lambda x: x.max(), (0, 3)),
    "min-empty": (lambda x: x.min(), (0,)),
    "max-empty-dim": (lambda x: x.max(0), (0, 3)),
    "min-empty-dim": (lambda x: x.min(-2), (0, 3)),
    "max-dim-out-of-range": (lambda x: x.max(2), (2, 3)),
    "amax-empty": (lambda x: x.amax(), (0, 3)),
    "amax-empty-dim": (lambda x: x.amax(0), (0, 3)),
    "amin-empty-dims": (lambda x: x.amin((1, 0)), (3, 0)),
    "amax-repeated-dim": (lambda x: x.amax((1, -1)), (2, 3)),
    "argmax-empty": (lambda x: x.argmax(), (0, 3)),
    "argmax-empty-dim": (lambda x: x.argmax(0), (0, 3)),
    "argmin-out-of-range": (lambda x: x.argmin(-3), (2, 3)),
    "argmax-bool": (lambda x: (x > 0).argmax(1), (2, 3)),
    "argmin-bool": (lambda x: (x > 0).argmin(), (2, 3)),
    "prod-out-of-range": (lambda x: x.prod(3), (2, 3)),
    "var-int": (lambda x: x.long().var(), (2, 3)),
    "std-bool": (lambda x: (x > 0).std(0), (2, 3)),
    "all-repeated-dim": (lambda x: x.all((0, 0)), (2, 3)),
    "logsumexp-out-of-range": (lambda x: x.logsumexp(5), (2, 3)),
    "norm-int": (lambda x: x.long().norm(), (2, 3)),
    "norm-bool": (lambda x: (x > 0).norm(1, 0), (2, 3)),
    "norm-out-of-range": (lambda x: x.norm(2, 2), (2, 3)),
    "norm-repeated-dim": (lambda x: x.norm(2, (1, -1)), (2, 3)),
    "norm-inf-empty": (lambda x: x.norm(float("inf")), (0, 3)),
    "norm--inf-empty-dims": (lambda x: x.norm(float("-inf"), (1, 0)), (3, 0)),
    "norm-negative-p-empty-dim": (lambda x: x.norm(-1, 0, keepdim=True), (0, 3)),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_cpu(name):
    call, shape = ERRORS[name]
    cpu, cuda = _both(np.ones(shape, np.float32))
    with pytest.raises((RuntimeError, IndexError, TypeError)) as want:
        call(cpu)
    with pytest.raises(type(want.value)) as got:
        call(cuda)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda x: x.max(1),  # reduces a (0,) row: nothing to compare
        lambda x: x.amax(1, keepdim=True),
        lambda x: x.prod(0),  # empty rows: 1
        lambda x: x.all(0),
        lambda x: x.any(0),
        lambda x: x.var(0),  # no elements: NaN
        lambda x: x.logsumexp(0),  # log(0)
        lambda x: x.sum(0),
        lambda x: x.norm(),  # empty sums: 0
        lambda x: x.norm(3, 0),
        lambda x: x.norm(0, (0,), keepdim=True),
        lambda x: x.norm(float("inf"), 1),  # no row at all: nothing to check
        lambda x: x.norm(-2, -1),
    ],
)
def test_empty_inputs(call):
    _compare(call, np.ones((0, 3), np.float32))


def test_infinities():
    # logsumexp shifts by 0 where the max is infinite; max / argmax see inf as a number.
    a = np.array([[np.inf, 1.0, np.inf], [-np.inf, -np.inf, -np.inf], [np.nan, np.inf, 2.0]], np.float32)
    for call in (
        lambda x: x.logsumexp(1),
        lambda x: tuple(x.max(1)),
        lambda x: x.argmin(0),
        lambda x: x.var(1),
        lambda x: x.norm(2, 1),
        lambda x: x.norm(float("-inf"), 1),
        lambda x: x.norm(float("inf"), 0),
        lambda x: x.norm(-1, 0),
        lambda x: x.norm(0, 1),
    ):
        _compare(call, a)


def test_long_rows_are_split_over_blocks():
    # 2100 elements: two blocks per row, then a second pass over their (value, index) pairs.
    a = np.random.default_rng(0).standard_normal(2100)
    a[1500] = a[1900] = 9.0  # a tie across the blocks: the first wins
    _compare(lambda x: x.argmax(), a)
    a[1700] = a[300] = np.nan
    _compare(lambda x: x.max(0), a)
    _compare(lambda x: x.logsumexp(0), a[:2060])
    a[1700] = a[300] = 0.5
    # p travels to both passes as one value for every row.
    for p in (3, 2, 0, float("inf"), -0.5):
        _compare(lambda x, p=p: x.norm(p), a)


# --- gradients ----------------------------------------------------------------------------------


def _grads(fn, a):
    out = {}
    for device in ("cpu", "cuda"):
        x = yaten.from_numpy(a.copy()).to(device).requires_grad_()
        fn(x).sum().backward()
        out[device] = x.grad
    return out["cuda"], out["cpu"]


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: x.amax(1),
        lambda x: yaten.amin(x, (0, 1), keepdim=True),
        lambda x: x.max(),
        lambda x: x.prod(1),
        lambda x: x.var(0),
        lambda x: x.std(1, keepdim=True),
        lambda x: x.logsumexp(1),
        lambda x: x.norm(),
        lambda x: x.norm(1, 1),
        lambda x: yaten.norm(x, 3, 0, keepdim=True),
        lambda x: x.norm(0.5, 1),
        lambda x: x.norm(float("inf"), 1),  # row 0 has a tie: the gradient is spread over it
    ],
)
def test_gradients_match_cpu(fn):
    got, want = _grads(fn, np.array([[1.0, 3.0, 3.0], [2.0, -1.0, 0.5]]))
    _same(got, want)


def test_norm0_has_no_gradient():
    for device in ("cpu", "cuda"):
        x = yaten.tensor([[1.0, 0.0], [2.0, 3.0]], device=device, requires_grad=True)
        x.norm(0, 1).sum().backward()
        assert x.grad is None


@pytest.mark.skipif(
    "cuda" not in _generated_ops._K_scatter__src,
    reason="the backward of max.dim scatters: no cuda scatter_ yet",
)
def test_max_dim_gradient_matches_cpu():
    a = np.array([[1.0, 3.0, 3.0], [2.0, -1.0, 0.5]])
    for fn in (lambda x: x.max(1).values, lambda x: x.min(0, keepdim=True).values):
        got, want = _grads(fn, a)
        _same(got, want)


# --- the real-GPU code path ----------------------------------------------


GPU_KERNELS = """
from yaten.kernels.cuda import reduce as R
i64, idx = nt.int64, nt.int64[::1]
cases = [
    (R._SUM, np.float32, np.float16, R._keep, R._keep_total),
    (R._SUM, np.int64, np.bool_, R._keep, R._keep_total),
    (R._SUM, np.float64, np.float64, R._keep, R._divide),
    (R._SUM, np.float64, np.float64, R._centered_square, R._root_of_quotient),
    (R._SUM, np.float32, np.float32, R._exp_shifted, R._log_plus),
    (R._MAX, np.float32, np.float32, R._keep, R._finite_or_zero),
    (R._PROD, np.int64, np.int8, R._keep, R._keep_total),
    (R._ALL, np.uint8, np.uint8, R._keep, R._keep_total),
    (R._ANY, np.uint8, np.uint8, R._keep, R._keep_total),
]
# The norms (and the second pass of a split row, which only combines and finishes).
for dt in (np.float32, np.float64):
    cases += [
        (R._SUM, dt, dt, R._square, R._root),
        (R._SUM, dt, dt, R._keep, R._root),
        (R._SUM, dt, dt, R._magnitude, R._keep_total),
        (R._SUM, dt, dt, R._nonzero, R._keep_total),
        (R._SUM, dt, dt, R._magnitude_pow, R._pow_div),
        (R._SUM, dt, dt, R._keep, R._pow_div),
        (R._MAX, dt, dt, R._magnitude, R._keep_total),
        (R._MIN, dt, dt, R._magnitude, R._keep_total),
    ]
for op in (R._MAX, R._MIN, R._ARGMAX, R._ARGMIN):
    for dt in (np.float32, np.int64, np.uint8):
        cases.append((op, dt, dt, R._keep, R._keep_total))
for op, acc, src, pre, post in cases:
    acc, src = np.dtype(acc), np.dtype(src)
    a = from_dtype(acc)[::1]
    # The second pass of a split row reads given indices: only the arg-reductions look at them.
    for given in (False, True) if op.indexed else (False,):
        k = R._rows_kernel(op, acc, 64, pre, post, given)
        sig = (from_dtype(src)[::1], idx, a, i64, i64, i64, i64, from_dtype(acc), a, idx)
        cuda.compile_ptx(k.py_func, sig, cc=(9, 0))
"""


def test_kernels_compile_for_a_gpu():
    compiles_for_a_gpu(GPU_KERNELS)
