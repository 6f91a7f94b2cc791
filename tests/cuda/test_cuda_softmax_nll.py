"""The softmax family and nll_loss on ``cuda`` (runtime/kernels/cuda/softmax.py and loss.py).

Every op runs on cuda tensors and must give the CPU kernel's values, dtypes and errors; the results
stay on the device. Run under ``NUMBA_ENABLE_CUDASIM=1`` on machines without a GPU: the simulator
runs each GPU thread as Python, so every input is a few dozen elements at most.
"""

import re

import numpy as np
import pytest
from compare import assert_same
from gpu_compile import compiles_for_a_gpu

import yaten

pytestmark = [
    pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1"),
    # The simulator computes with NumPy scalars, which warn where a GPU silently gives inf or NaN.
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
]

CUDA0 = yaten.device("cuda", 0)
F = yaten.nn.functional
FLOATS = [np.float32, np.float64]


def _rand(shape, dtype, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _both(a):
    """The host array ``a`` as a cpu tensor and as a cuda tensor."""
    t = yaten.from_numpy(np.ascontiguousarray(a))
    return t, t.to("cuda")


def _raises_like(cpu_call, cuda_call):
    """``cuda_call`` raises what ``cpu_call`` raises: the same exception type and message."""
    with pytest.raises(Exception) as cpu_err:
        cpu_call()
    with pytest.raises(cpu_err.type, match=f"^{re.escape(str(cpu_err.value))}$"):
        cuda_call()


# --- softmax and log_softmax, forward and backward-data ------------------------------------------

FORWARD = [yaten._softmax, yaten._log_softmax]
BACKWARD = [
    (yaten._softmax, yaten._softmax_backward_data),
    (yaten._log_softmax, yaten._log_softmax_backward_data),
]
LAYOUTS = [  # (shape, dim, transposed: the input is a non-contiguous view)
    pytest.param((2, 3), 0, False, id="2d-dim0"),
    pytest.param((2, 3), -1, False, id="2d-dim-1"),
    pytest.param((2, 3, 2), 1, False, id="3d-dim1"),
    pytest.param((3, 2), 1, True, id="noncontiguous-dim1"),
    pytest.param((), 0, False, id="0d"),
]


def _input(shape, transposed, dtype):
    a = _rand(shape, dtype)
    cpu, cuda = _both(a)
    if transposed:
        cpu, cuda = cpu.t(), cuda.t()
        assert not cuda.is_contiguous()
    return cpu, cuda


@pytest.mark.parametrize("op", FORWARD, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape, dim, transposed", LAYOUTS)
def test_softmax_forward_matches_cpu(op, dtype, shape, dim, transposed):
    cpu, cuda = _input(shape, transposed, dtype)
    assert_same(op(cuda, dim, False), op(cpu, dim, False))


@pytest.mark.parametrize("forward, backward", BACKWARD, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape, dim, transposed", LAYOUTS)
def test_softmax_backward_data_matches_cpu(forward, backward, dtype, shape, dim, transposed):
    cpu = _input(shape, transposed, dtype)[0]
    g_cpu, g_cuda = _both(_rand(cpu.shape, dtype, seed=1))
    y_cpu = forward(cpu, dim, False)
    y_cuda = y_cpu.to("cuda")
    if transposed:  # a strided output as well
        y_cpu, y_cuda = (y.t().contiguous().t() for y in (y_cpu, y_cuda))
    want = backward(g_cpu, y_cpu, dim, yaten.float32 if dtype == np.float32 else yaten.float64)
    got = backward(g_cuda, y_cuda, dim, want.dtype)
    assert_same(got, want)


@pytest.mark.parametrize("op", FORWARD, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype, big", [(np.float32, 1e30), (np.float64, 1e300)], ids=["float32", "float64"])
def test_softmax_of_infinities_and_large_values(op, dtype, big):
    # x - max(x) keeps exp from overflowing; a row of -inf only is NaN, as on the CPU and in PyTorch.
    a = np.array(
        [[-np.inf, big, 0.0, 1.0], [-np.inf, -np.inf, -np.inf, -np.inf], [1.0, 2.0, -np.inf, 3.0]], dtype
    )
    cpu, cuda = _both(a)
    got, want = op(cuda, 1, False), op(cpu, 1, False)
    assert_same(got, want)
    r = got.cpu().numpy()
    assert np.all(np.isnan(r[1])) and not np.any(np.isnan(r[[0, 2]]))
    if op is yaten._softmax:
        np.testing.assert_array_equal(r[0], [0.0, 1.0, 0.0, 0.0])


@pytest.mark.parametrize("op", FORWARD, ids=lambda f: f.__name__)
def test_softmax_of_half_is_computed_in_float32(op):
    cpu, cuda = _both(_rand((2, 5), np.float16) * 4)
    got = op(cuda, 1, False)
    assert got.dtype is yaten.float16
    assert_same(got, op(cpu, 1, False))
    g_cpu, g_cuda = _both(_rand((2, 5), np.float16, seed=1))
    backward = yaten._softmax_backward_data if op is yaten._softmax else yaten._log_softmax_backward_data
    y = op(cpu, 1, False)
    assert_same(backward(g_cuda, y.to("cuda"), 1, yaten.float16), backward(g_cpu, y, 1, yaten.float16))


def test_softmax_of_empty_input():
    for op in FORWARD:
        got = op(yaten.empty(0, 3, device="cuda"), 1, False)
        assert got.device == CUDA0 and tuple(got.shape) == (0, 3) and got.dtype is yaten.float32
    got = yaten._softmax_backward_data(
        yaten.empty(2, 0, device="cuda"), yaten.empty(2, 0, device="cuda"), 0, yaten.float32
    )
    assert got.device == CUDA0 and tuple(got.shape) == (2, 0)


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda x, i, h: yaten._softmax(x, 1, True), id="half_to_float"),
        pytest.param(lambda x, i, h: yaten._log_softmax(x, 1, True), id="log-half_to_float"),
        pytest.param(lambda x, i, h: yaten._softmax(i, 1, False), id="long-lastdim"),
        pytest.param(lambda x, i, h: yaten._log_softmax(i, 0, False), id="long-dim0"),
        pytest.param(lambda x, i, h: yaten._softmax(x, 2, False), id="dim-out-of-range"),
        pytest.param(
            lambda x, i, h: yaten._softmax_backward_data(x, x, 1, yaten.float16), id="backward-half-input"
        ),
        pytest.param(
            lambda x, i, h: yaten._log_softmax_backward_data(x, x, -3, yaten.float32), id="backward-dim"
        ),
    ],
)
def test_softmax_errors_match_cpu(call):
    x, i = _rand((2, 3), np.float32), np.arange(6).reshape(2, 3)
    cpu = [yaten.from_numpy(a) for a in (x, i, x.astype(np.float16))]
    cuda = [t.to("cuda") for t in cpu]
    _raises_like(lambda: call(*cpu), lambda: call(*cuda))


# --- nll_loss_forward and nll_loss_backward ----------------------------------------------------

N, C = 5, 3
TARGET = np.array([2, 0, -100, 1, 2])  # row 2 is ignored with the default ignore_index
WEIGHT = np.array([0.5, 2.0, 1.5])
REDUCTIONS = [pytest.param(r, id=name) for r, name in ((0, "none"), (1, "mean"), (2, "sum"))]


def _nll_operands(dtype, weighted, target=TARGET, target_dtype=np.int64):
    x_cpu, x_cuda = _both(-np.abs(_rand((N, C), dtype)))
    t_cpu, t_cuda = _both(target.astype(target_dtype))
    w_cpu, w_cuda = _both(WEIGHT.astype(dtype)) if weighted else (None, None)
    return (x_cpu, t_cpu, w_cpu), (x_cuda, t_cuda, w_cuda)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_nll_loss_forward_and_backward_match_cpu(reduction, weighted, dtype):
    cpu, cuda = _nll_operands(dtype, weighted)
    want = yaten.nll_loss_forward(*cpu, reduction, -100)
    got = yaten.nll_loss_forward(*cuda, reduction, -100)
    for g, w in zip(got, want):
        assert_same(g, w)
    g_cpu, g_cuda = _both(_rand(want[0].shape, dtype, seed=2))
    want_grad = yaten.nll_loss_backward(g_cpu, *cpu, reduction, -100, want[1])
    got_grad = yaten.nll_loss_backward(g_cuda, *cuda, reduction, -100, got[1])
    assert_same(got_grad, want_grad)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_nll_loss_with_uint8_targets_a_custom_ignore_index_and_a_noncontiguous_input(reduction):
    x = -np.abs(_rand((C, N), np.float32))
    x_cpu, x_cuda = (t.t() for t in _both(x))  # (N, C) views with strides (1, N)
    assert not x_cuda.is_contiguous()
    t_cpu, t_cuda = _both(np.array([2, 0, 1, 1, 2], np.uint8))
    want = yaten.nll_loss_forward(x_cpu, t_cpu, None, reduction, 1)
    got = yaten.nll_loss_forward(x_cuda, t_cuda, None, reduction, 1)
    for g, w in zip(got, want):
        assert_same(g, w)
    g_cpu, g_cuda = _both(np.ones(want[0].shape, np.float32))
    assert_same(
        yaten.nll_loss_backward(g_cuda, x_cuda, t_cuda, None, reduction, 1, got[1]),
        yaten.nll_loss_backward(g_cpu, x_cpu, t_cpu, None, reduction, 1, want[1]),
    )


def test_nll_loss_mean_over_ignored_targets_only_is_nan():
    cpu, cuda = _nll_operands(np.float32, True, target=np.full(N, 7))
    want = yaten.nll_loss_forward(*cpu, 1, 7)
    got = yaten.nll_loss_forward(*cuda, 1, 7)
    assert np.isnan(want[0].item()) and np.isnan(got[0].item())
    assert got[1].item() == want[1].item() == 0.0
    g = yaten.ones((), device="cuda")
    grad = yaten.nll_loss_backward(g, *cuda, 1, 7, got[1])
    assert grad.device == CUDA0 and grad.cpu().tolist() == [[0.0] * C] * N  # no target: nothing scattered


def test_nll_loss_of_half_is_computed_in_float32():
    # The CPU kernel has no half (Numba's CPU target lacks float16): compare with float32 rounded.
    cpu, _ = _nll_operands(np.float32, True)
    _, cuda = _nll_operands(np.float16, True)
    for reduction in (0, 1):
        want = yaten.nll_loss_forward(*cpu, reduction, -100)
        got = yaten.nll_loss_forward(*cuda, reduction, -100)
        for g, w in zip(got, want):
            assert_same(g, w.to(yaten.float16))
        g_cpu, g_cuda = _both(np.ones(want[0].shape, np.float32))
        assert_same(
            yaten.nll_loss_backward(g_cuda.half(), *cuda, reduction, -100, got[1]),
            yaten.nll_loss_backward(g_cpu, *cpu, reduction, -100, want[1]).to(yaten.float16),
        )


@pytest.mark.parametrize("target", [np.array([0, 5, 1, -3, 2]), np.array([0, 1, -1, 2, 9])], ids=["5", "-1"])
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_nll_loss_target_out_of_bounds_errors_match_cpu(target, reduction):
    # The first row out of bounds is reported, whichever GPU thread finds one first.
    cpu, cuda = _nll_operands(np.float32, False, target=target)
    _raises_like(
        lambda: yaten.nll_loss_forward(*cpu, reduction, -100),
        lambda: yaten.nll_loss_forward(*cuda, reduction, -100),
    )
    g_cpu, g_cuda = _both(np.ones(N if reduction == 0 else (), np.float32))
    tw_cpu, tw_cuda = _both(np.array(3.0, np.float32))
    _raises_like(
        lambda: yaten.nll_loss_backward(g_cpu, *cpu, reduction, -100, tw_cpu),
        lambda: yaten.nll_loss_backward(g_cuda, *cuda, reduction, -100, tw_cuda),
    )


# --- end to end: cross_entropy on cuda -----------------------------------------------------------


@pytest.mark.parametrize(
    "shape, kwargs, dtype",
    [
        pytest.param((4, 3), {}, np.float32, id="mean-float32"),
        pytest.param((4, 3), {}, np.float64, id="mean-float64"),
        pytest.param((4, 3), {"weight": True, "ignore_index": 1}, np.float64, id="weighted-ignore-float64"),
        pytest.param((2, 3, 2), {"reduction": "none"}, np.float32, id="spatial-none-float32"),
    ],
)
def test_cross_entropy_forward_and_backward_on_cuda(shape, kwargs, dtype):
    a = _rand(shape, dtype)
    target = np.random.default_rng(3).integers(0, shape[1], (shape[0], *shape[2:]))
    results = {}
    for dev in ("cpu", "cuda"):
        x = yaten.from_numpy(a.copy()).to(dev).requires_grad_()
        kw = dict(kwargs)
        if kw.pop("weight", False):
            kw["weight"] = yaten.from_numpy(np.linspace(0.5, 2.0, shape[1]).astype(dtype)).to(dev)
        loss = F.cross_entropy(x, yaten.from_numpy(target).to(dev), **kw)
        loss.backward(yaten.ones_like(loss))
        results[dev] = loss, x.grad
    (loss, grad), (want_loss, want_grad) = results["cuda"], results["cpu"]
    assert_same(loss.detach(), want_loss.detach())
    assert grad.device == CUDA0
    assert_same(grad, want_grad)


# --- the real-GPU code path ----------------------------------------------


GPU_KERNELS = """
from yaten.kernels.cuda import loss as L, softmax as S
ptx = lambda fn, sig: cuda.compile_ptx(fn.py_func, sig, cc=(9, 0))
i64, b, flag = nt.int64, nt.boolean, nt.int64[::1]
for acc in (np.dtype(np.float32), np.dtype(np.float64)):
    a = from_dtype(acc)[::1]
    for log in (False, True):
        ptx(S._forward_kernel(acc, log), (a, i64, a))
        ptx(S._backward_kernel(acc, log), (a, a, i64, a))
    ptx(L._sum_kernel(acc), (a, a, b, a, a))
    for t in (nt.int64[::1], nt.uint8[::1]):
        ptx(L._pick_rows, (a, i64, i64, i64, t, i64, a, i64, i64, a, a, flag))
        ptx(L._scatter_rows, (i64, i64, t, i64, a, i64, i64, a, i64, a, b, a, flag))
"""


def test_kernels_compile_for_a_gpu():
    compiles_for_a_gpu(GPU_KERNELS)
