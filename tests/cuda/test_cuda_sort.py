"""sort, sort.stable, argsort and topk on ``cuda`` (runtime/kernels/cuda/sort.py) against the CPU kernel.

Values, indices (the sort is stable on both devices, so ties and NaN give the same indices),
dtypes, result strides (the CPU's, which are torch's), 0-d and empty inputs, errors, gradients, and
the kernels' compilation for a real GPU. Run under ``NUMBA_ENABLE_CUDASIM=1`` on machines without a
GPU: the simulator runs every GPU thread as a Python thread, so inputs are small.
"""

import numpy as np
import pytest
from compare import both, on, same_error, values
from gpu_compile import compiles_for_a_gpu

import yaten

pytestmark = [
    pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1"),
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
]

DTYPES = (np.float32, np.float64, np.float16, np.int64, np.int32, np.int8, np.uint8, np.bool_)


def _values(dt, shape, seed=0):
    """Values with ties (and NaN and infinities for floats)."""
    if np.dtype(dt).kind in "biu":
        return values(dt, shape, seed, -3, 4)
    rng = np.random.default_rng(seed)
    a = rng.integers(-3, 4, shape).astype(dt)
    flat = a.reshape(-1)
    flat[rng.integers(0, flat.size, 3)] = [np.nan, np.inf, -np.inf]
    return a


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("descending", [False, True])
def test_sort_matches_cpu(dt, descending):
    a = _values(dt, (3, 11))  # 11: merge passes with short last runs, and an odd number of passes
    for dim in (0, 1):
        both(lambda dev, d=dim: tuple(yaten.sort(on(a, dev), d, descending)), layout=True)
    both(lambda dev: tuple(yaten.sort(on(a, dev), stable=True, descending=descending)), layout=True)
    both(lambda dev: (yaten.argsort(on(a, dev), 0, descending),), layout=True)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 8, 9, 33])
def test_sort_row_lengths(n):
    a = _values(np.float64, (2, n), seed=n)
    for descending in (False, True):
        both(lambda dev, d=descending: tuple(yaten.sort(on(a, dev), -1, d)), layout=True)


@pytest.mark.parametrize("dt", [dt for dt in DTYPES if dt is not np.bool_])
def test_topk_matches_cpu(dt):
    a = _values(dt, (4, 6), seed=2)
    for dim, k in [(1, 0), (1, 2), (1, 6), (0, 1), (0, 4), (-1, 3)]:
        for largest in (True, False):
            both(lambda dev, d=dim, k=k, lg=largest: tuple(yaten.topk(on(a, dev), k, d, lg)), layout=True)
    both(lambda dev: tuple(on(a, dev).topk(2, sorted=False)), layout=True)


def _layouts(dev):
    base = on(_values(np.float32, (2, 3, 4)), dev)
    yield base.transpose(0, 2)
    yield base[:, ::2, 1:]
    yield base.permute(2, 0, 1)
    yield on(_values(np.float32, (3,)), dev).expand(4, 3)
    yield base[:, :1].transpose(1, 2)


@pytest.mark.parametrize("k", range(5))
def test_layouts_match_cpu(k):
    for d in range(list(_layouts("cpu"))[k].ndim):
        both(lambda dev, d=d: tuple(yaten.sort(list(_layouts(dev))[k], d, True)), layout=True)
        both(lambda dev, d=d: tuple(yaten.topk(list(_layouts(dev))[k], 1, d)), layout=True)


def test_0d_and_empty():
    for a in (np.array(2.5), np.array(3, np.int32), np.array(True)):
        both(lambda dev, a=a: tuple(yaten.sort(on(a, dev))), layout=True)
        both(lambda dev, a=a: tuple(yaten.sort(on(a, dev), stable=True, dim=0, descending=True)), layout=True)
    for k in (0, 1):
        both(lambda dev, k=k: tuple(yaten.topk(on(2.5, dev), k)), layout=True)
    for a in (np.zeros((0, 3), np.float32), np.zeros((2, 0), np.int64)):
        for dim in (0, 1):
            both(lambda dev, a=a, d=dim: tuple(yaten.sort(on(a, dev), d)), layout=True)
    both(lambda dev: tuple(yaten.topk(on(np.zeros((0, 3)), dev), 2, 1)), layout=True)
    both(lambda dev: tuple(yaten.topk(on(np.zeros((2, 3)), dev), 0, 1)), layout=True)


def test_errors():
    same_error(lambda dev: yaten.sort(on([1.0, 2.0], dev), 1))
    same_error(lambda dev: yaten.sort(on(1.0, dev), -2))
    same_error(lambda dev: yaten.argsort(on([1.0, 2.0], dev), stable=True, dim=2))
    same_error(lambda dev: yaten.topk(on([1.0, 2.0], dev), 3))
    same_error(lambda dev: yaten.topk(on([1.0, 2.0], dev), -1))
    same_error(lambda dev: yaten.topk(on(1.0, dev), 2))
    same_error(lambda dev: yaten.topk(on(np.zeros((0, 3)), dev), 1, 0))
    # bool: torch's CPU kernel refuses it explicitly, its CUDA kernel is not dispatched for it.
    with pytest.raises(NotImplementedError, match="\"topk_out_cuda\" not implemented for 'Bool'"):
        yaten.topk(on([True, False], "cuda"), 1)
    with pytest.raises(RuntimeError, match="topk does not support bool dtypes on CPU"):
        yaten.topk(on([True, False], "cpu"), 1)


def test_gradients_match_cpu():
    a = np.random.default_rng(0).standard_normal((3, 5))
    w = np.random.default_rng(1).standard_normal((3, 2))

    def run(dev, fn):
        x = on(a, dev).requires_grad_()
        y = fn(x)
        (y * on(w, dev)).sum().backward()  # every y is (3, 2)
        return y, x.grad

    both(lambda dev: run(dev, lambda x: x.topk(2).values))
    both(lambda dev: run(dev, lambda x: yaten.sort(x, 1, True).values[:, :2]))
    both(lambda dev: run(dev, lambda x: yaten.sort(x, stable=True, dim=1).values[:, 1:3]))


def test_gradcheck_on_cuda():
    x = on(np.random.default_rng(2).standard_normal((2, 3)), "cuda").requires_grad_()
    assert yaten.autograd.gradcheck(
        lambda t: yaten.topk(t, 2, 1).values, (x,), eps=1e-6, atol=1e-5, rtol=1e-3
    )
    assert yaten.autograd.gradcheck(
        lambda t: yaten.sort(t, 0, True).values, (x,), eps=1e-6, atol=1e-5, rtol=1e-3
    )


# --- the real-GPU code path ----------------------------------------------


GPU_KERNELS = """
from yaten.kernels.cuda import sort as S
i64, b = nt.int64, nt.boolean
idx = from_dtype(np.dtype(np.int64))[::1]
for dt in (np.uint8, np.int8, np.int16, np.int32, np.int64, np.float32, np.float64):
    a = from_dtype(np.dtype(dt))[::1]
    cuda.compile_ptx(S._merge_sort_rows_kernel.py_func, (a, idx, a, idx, i64, i64, b), cc=(9, 0))
"""


def test_kernels_compile_for_a_gpu():
    compiles_for_a_gpu(GPU_KERNELS)
