"""The CUDA pooling kernels (runtime/kernels/cuda/pool.py) through yaten, against the CPU kernels.

max_pool2d_with_indices, avg_pool2d, adaptive_avg_pool2d and their backward: values, indices,
dtypes, the geometry variants (kernel, stride, padding, dilation, ceil_mode), NaN propagation,
count_include_pad / divisor_override, gradients through ``yaten.nn.functional`` and the same errors
(type and message) as the CPU. Run under ``NUMBA_ENABLE_CUDASIM=1`` on machines without a GPU: the
simulator runs every GPU thread as a Python thread, so every input here has a few dozen elements.
"""

import numpy as np
import pytest
from compare import both, on, same_error
from gpu_compile import compiles_for_a_gpu

import yaten
import yaten.nn.functional as F

pytestmark = [
    pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1"),
    # The simulator computes with NumPy scalars, which warn where a GPU silently gives inf or NaN.
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
]

FLOATS = [np.float32, np.float64]
SHAPE = (1, 2, 5, 6)

# (kernel_size, stride, padding, dilation, ceil_mode)
MAX_GEOMETRIES = [
    ([2], [], [0], [1], False),
    ([3, 2], [2, 1], [1, 0], [1], False),
    ([2], [2], [1], [2], True),
    ([3], [2], [0], [1], True),
    ([2, 3], [3, 2], [1, 1], [1, 2], False),
]
# (kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
AVG_GEOMETRIES = [
    ([2], [], [0], False, True, None),
    ([3, 2], [2, 1], [1, 0], False, True, None),
    ([3, 2], [2, 1], [1, 0], False, False, None),
    ([3], [2], [1], True, True, None),
    ([3], [2], [1], True, False, None),
    ([2], [2], [1], False, True, 3),
]


def _values(dt, shape=SHAPE, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dt).kind in "iu":
        return rng.integers(-9, 10, shape).astype(dt)
    return rng.standard_normal(shape).astype(dt)


# --- max pooling -------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("geometry", MAX_GEOMETRIES, ids=str)
def test_max_pool_matches_cpu(dt, geometry):
    a = _values(dt)
    both(lambda dev: yaten.max_pool2d_with_indices(on(a, dev), *geometry))


@pytest.mark.parametrize("dt", [np.float16, np.int64])
def test_max_pool_half_and_int(dt):
    a = _values(dt, (2, 4, 4))  # unbatched (C, H, W)
    both(lambda dev: yaten.max_pool2d_with_indices(on(a, dev), [3], [1], [1], [1], False))


def test_max_pool_nan_propagates_with_the_cpus_index():
    a = _values(np.float32, (1, 1, 4, 5))
    a[0, 0, 0, 1] = a[0, 0, 1, 0] = np.nan  # two NaNs in one window: the index rule matters
    a[0, 0, 3, 4] = np.nan
    for geometry in (([2], [], [0], [1], False), ([3], [1], [1], [1], True)):
        both(lambda dev, g=geometry: yaten.max_pool2d_with_indices(on(a, dev), *g))
    values, _ = yaten.max_pool2d_with_indices(on(a, "cuda"), [2], [], [0], [1], False)
    assert np.isnan(values.cpu().numpy()[0, 0, 0, 0])


def test_max_pool_ties_keep_the_first_index():
    a = np.zeros((1, 1, 4, 4), np.float64)
    both(lambda dev: yaten.max_pool2d_with_indices(on(a, dev), [3], [1], [1], [1], False))
    idx = yaten.max_pool2d_with_indices(on(a, "cuda"), [2], [], [0], [1], False)[1]
    np.testing.assert_array_equal(idx.cpu().numpy(), [[[[0, 2], [8, 10]]]])


def test_max_pool_noncontiguous_input():
    a = _values(np.float32, (1, 2, 6, 5))

    def run(dev):
        x = on(a, dev).transpose(2, 3)  # (1, 2, 5, 6), not contiguous
        assert not x.is_contiguous()
        return yaten.max_pool2d_with_indices(x, [2], [], [0], [1], False)

    both(run)


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("geometry", [MAX_GEOMETRIES[1], MAX_GEOMETRIES[2]], ids=str)
def test_max_pool_gradients_match_cpu(dt, geometry):
    a, w = _values(dt), None
    k, s, p, d, ceil = geometry

    def run(dev):
        nonlocal w
        x = on(a, dev).requires_grad_()
        y = F.max_pool2d(x, k, s or None, p, d, ceil)
        if w is None:
            w = _values(dt, tuple(y.shape), seed=3)
        (y * on(w, dev)).sum().backward()
        return y, x.grad

    both(run)


def test_max_pool_backward_overlapping_windows_sum():
    a = _values(np.float64, (1, 1, 4, 4))
    g = _values(np.float64, (1, 1, 4, 4), seed=5)

    def run(dev):
        x = on(a, dev)
        _, idx = yaten.max_pool2d_with_indices(x, [3], [1], [1], [1], False)
        return yaten.max_pool2d_with_indices_backward(on(g, dev), x, [3], [1], [1], [1], False, idx)

    both(run)


def test_max_pool_errors_match_cpu():
    a = _values(np.float32)
    same_error(lambda dev: yaten.max_pool2d_with_indices(on(a > 0, dev), [2], [], [0], [1], False))
    same_error(lambda dev: yaten.max_pool2d_with_indices(on(a, dev), [2, 2, 2], [], [0], [1], False))
    same_error(lambda dev: yaten.max_pool2d_with_indices(on(a, dev), [2], [0], [0], [1], False))
    same_error(lambda dev: yaten.max_pool2d_with_indices(on(a, dev), [2], [], [2], [1], False))
    same_error(lambda dev: yaten.max_pool2d_with_indices(on(a, dev), [0], [], [0], [1], False))
    same_error(lambda dev: yaten.max_pool2d_with_indices(on(a, dev), [2], [], [0], [0], False))
    same_error(lambda dev: yaten.max_pool2d_with_indices(on(a, dev), [7], [], [0], [1], False))
    same_error(lambda dev: yaten.max_pool2d_with_indices(on(a[0, 0], dev), [2], [], [0], [1], False))
    same_error(lambda dev: yaten.max_pool2d_with_indices(on(a[:, :, :0], dev), [2], [], [0], [1], False))


# --- average pooling ---------------------------------------------------------------------------


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("geometry", AVG_GEOMETRIES, ids=str)
def test_avg_pool_matches_cpu(dt, geometry):
    a = _values(dt)
    both(lambda dev: yaten.avg_pool2d(on(a, dev), *geometry))


@pytest.mark.parametrize("dt", [np.float16, np.int64])
def test_avg_pool_half_and_int(dt):
    a = _values(dt, (2, 4, 4))  # unbatched; integer averages truncate, as the CPU's
    both(lambda dev: yaten.avg_pool2d(on(a, dev), [3], [1], [1], False, False, None))
    both(lambda dev: yaten.avg_pool2d(on(a, dev), [2], [], [0], False, True, None))


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("geometry", [AVG_GEOMETRIES[2], AVG_GEOMETRIES[3], AVG_GEOMETRIES[5]], ids=str)
def test_avg_pool_gradients_match_cpu(dt, geometry):
    a, w = _values(dt), None
    k, s, p, ceil, include, divisor = geometry

    def run(dev):
        nonlocal w
        x = on(a, dev).requires_grad_()
        y = F.avg_pool2d(x, k, s or None, p, ceil, include, divisor)
        if w is None:
            w = _values(dt, tuple(y.shape), seed=3)
        (y * on(w, dev)).sum().backward()
        return y, x.grad

    both(run)


def test_avg_pool_errors_match_cpu():
    a = _values(np.float32)
    same_error(lambda dev: yaten.avg_pool2d(on(a > 0, dev), [2], [], [0], False, True, None))
    same_error(lambda dev: yaten.avg_pool2d(on(a, dev), [2], [], [0], False, True, 0))
    same_error(lambda dev: yaten.avg_pool2d(on(a, dev), [2], [], [2], False, True, None))
    same_error(lambda dev: yaten.avg_pool2d(on(a[0, 0], dev), [2], [], [0], False, True, None))
    same_error(lambda dev: yaten.avg_pool2d(on(a[None], dev), [2], [], [0], False, True, None))
    same_error(lambda dev: yaten.avg_pool2d(on(a, dev), [9], [], [0], False, True, None))
    g = _values(np.float32, (1, 2, 2, 3))
    same_error(
        lambda dev: yaten.avg_pool2d_backward(on(g, dev), on(a, dev), [2], [0], [0], False, True, None)
    )


# --- adaptive average pooling ------------------------------------------------------------------


@pytest.mark.parametrize("dt", [*FLOATS, np.float16])
@pytest.mark.parametrize("size", [[1, 1], [2, 4], [3, 6]], ids=str)
def test_adaptive_avg_pool_matches_cpu(dt, size):
    a = _values(dt)
    both(lambda dev: yaten.adaptive_avg_pool2d(on(a, dev), size))


@pytest.mark.parametrize("dt", FLOATS)
def test_adaptive_avg_pool_gradients_match_cpu(dt):
    a = _values(dt)
    w = _values(dt, (1, 2, 3, 4), seed=3)

    def run(dev):
        x = on(a, dev).requires_grad_()
        y = F.adaptive_avg_pool2d(x, (3, 4))
        (y * on(w, dev)).sum().backward()
        return y, x.grad

    both(run)


def test_adaptive_avg_pool_errors_match_cpu():
    a = _values(np.float32)
    same_error(lambda dev: yaten.adaptive_avg_pool2d(on(a[0, 0], dev), [1, 1]))
    same_error(lambda dev: yaten.adaptive_avg_pool2d(on(a[:, :0], dev), [1, 1]))
    same_error(lambda dev: yaten.adaptive_avg_pool2d(on(a, dev), [1, -1]))
    same_error(lambda dev: yaten.adaptive_avg_pool2d(on(a.astype(np.int64), dev), [1, 1]))
    same_error(lambda dev: yaten._adaptive_avg_pool2d_backward(on(a[0], dev), on(a, dev)))


# --- the real-GPU code path --------------------------------------------------------------------


GPU_KERNELS = """
from yaten.kernels.cuda import pool as P
i64, b = nt.int64, nt.boolean
ints = lambda n: (i64,) * n
idx = i64[::1]
for dt in (np.float16, np.float32, np.float64, np.int64, np.int32, np.uint8):
    a = from_dtype(np.dtype(dt))[::1]
    cuda.compile_ptx(P._max_pool.py_func, (a, *ints(12), a, idx), cc=(9, 0))
for dt, acc in ((np.float32, np.float32), (np.float64, np.float64), (np.int64, np.float64)):
    a, o = from_dtype(np.dtype(dt))[::1], from_dtype(np.dtype(acc))[::1]
    cuda.compile_ptx(P._avg_pool.py_func, (a, *ints(8), b, i64, i64, i64, o), cc=(9, 0))
for dt in (np.float32, np.float64):
    a = from_dtype(np.dtype(dt))[::1]
    cuda.compile_ptx(P._max_pool_backward.py_func, (a, idx, i64, i64, i64, a), cc=(9, 0))
    cuda.compile_ptx(P._avg_pool_backward.py_func, (a, *ints(8), b, *ints(4), a), cc=(9, 0))
    cuda.compile_ptx(P._adaptive_avg.py_func, (a, *ints(4), a), cc=(9, 0))
    cuda.compile_ptx(P._adaptive_avg_backward.py_func, (a, *ints(5), a), cc=(9, 0))
"""


def test_kernels_compile_for_a_gpu():
    compiles_for_a_gpu(GPU_KERNELS)
