"""The prefix scan and cumsum on ``cuda`` (runtime/kernels/cuda/scan.py), against NumPy and the CPU kernel.

``inclusive_scan`` on rows around each length where the scan adds a level (one chunk, two chunks,
more chunks than one thread scans); cumsum's values, dtypes, shapes, strides (the CPU's, which follow
the input's layout) and errors, through yaten, for every dtype rule and layout. Run under
``NUMBA_ENABLE_CUDASIM=1`` on machines without a GPU: the simulator runs every GPU thread as a
Python thread, so every input is a few hundred elements at most.
"""

import numpy as np
import pytest
from compare import CUDA, both, on, same_error, values
from gpu_compile import compiles_for_a_gpu

import yaten

pytestmark = [
    pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1"),
    # The simulator computes with NumPy scalars, which warn where a GPU silently gives inf or NaN.
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
]


# --- inclusive_scan -----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 15, 16, 17, 40, 256, 257, 300])
def test_inclusive_scan_rows(n):
    from yaten.kernels.cuda import memory
    from yaten.kernels.cuda.scan import inclusive_scan

    rows = 1 if n > 40 else 3
    a = np.random.default_rng(n).integers(-50, 50, (rows, n))
    d = memory.from_host(a)
    inclusive_scan(d)
    np.testing.assert_array_equal(memory.to_host(d), np.cumsum(a, axis=1))


def test_inclusive_scan_three_levels_and_wrapping():
    from yaten.kernels.cuda import memory
    from yaten.kernels.cuda.scan import CHUNK, inclusive_scan

    n = CHUNK * CHUNK * 2 + 3  # totals of totals are scanned by the chunk kernels too
    a = np.random.default_rng(0).integers(0, 255, (1, n)).astype(np.uint8)
    d = memory.from_host(a)
    inclusive_scan(d)
    np.testing.assert_array_equal(memory.to_host(d), np.cumsum(a, axis=1, dtype=np.uint8))  # wraps
    empty = memory.from_host(np.zeros((0, 5), np.int64))
    inclusive_scan(empty)  # no rows: nothing to launch


# --- cumsum -------------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int64, np.int32, np.uint8, np.bool_, np.float16])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cumsum_matches_cpu(dt, dim):
    a = values(dt, (3, 37))  # rows longer than two chunks
    both(lambda dev: yaten.cumsum(on(a, dev), dim), layout=True)


@pytest.mark.parametrize(
    "src, dtype",
    [
        (np.float32, yaten.float64),
        (np.float64, yaten.float32),
        (np.float32, yaten.float16),  # rounded to half before the sum, as the CPU does
        (np.float64, yaten.int32),  # truncated first
        (np.int64, yaten.int8),  # wraps
        (np.bool_, yaten.float32),
        (np.int32, yaten.int64),
    ],
)
def test_cumsum_dtype_argument(src, dtype):
    # Floats with integer parts to truncate; integers in int8's range whose sums leave it.
    a = values(src, (2, 20)) * (3 if np.dtype(src).kind == "f" else 10 if np.dtype(src).kind in "iu" else 1)
    both(lambda dev: yaten.cumsum(on(a, dev), 1, dtype=dtype), layout=True)


def _layouts(dev, dt=np.float32):
    base = on(values(dt, (2, 3, 4)), dev)
    yield base.transpose(0, 2)  # permuted
    yield base[:, ::2, 1:]  # sliced
    yield base.permute(2, 0, 1)[::2]
    yield on(values(dt, (3,)), dev).expand(4, 3)  # broadcast: a zero stride
    yield on(values(dt, (4, 1, 3)), dev).expand(4, 2, 3).transpose(0, 2)
    yield on(values(dt, (3, 1)), dev).expand(3, 4).t()
    yield base[:, :1].transpose(1, 2)  # a size-1 dim


@pytest.mark.parametrize("k", range(7))
@pytest.mark.parametrize("dtype", [None, yaten.float64, yaten.float16])
def test_cumsum_layouts_match_cpu(k, dtype):
    # Every dim, with the CPU's result strides (C-contiguous, as PyTorch's, whatever the input's layout).
    for d in range(3 if k not in (3, 5) else 2):
        both(lambda dev, d=d: yaten.cumsum(list(_layouts(dev))[k], d, dtype=dtype), layout=True)
    both(lambda dev: yaten.cumsum(list(_layouts(dev, np.int32))[k], -1), layout=True)  # to int64


def test_cumsum_is_contiguous_as_torchs():
    import torch

    def views(m, **device):
        base = m.arange(24.0, **device).reshape(2, 3, 4)
        return [
            base.transpose(0, 2),
            base[:, ::2, 1:],
            base.permute(2, 0, 1)[::2],
            base[:, :1].transpose(1, 2),
        ]

    for want, cpu, dev in zip(views(torch), views(yaten), views(yaten, device="cuda"), strict=True):
        for d in range(3):
            stride = torch.cumsum(want, d).stride()
            assert yaten.cumsum(cpu, d).stride() == stride and yaten.cumsum(dev, d).stride() == stride


def test_cumsum_0d_and_empty():
    both(lambda dev: yaten.cumsum(on(2.5, dev), 0), layout=True)
    both(lambda dev: yaten.cumsum(on(True, dev), -1), layout=True)
    both(lambda dev: yaten.cumsum(on(3, dev), 0, dtype=yaten.bool), layout=True)  # no scan: no error
    both(lambda dev: yaten.cumsum(on(7.0, dev, np.float64), 0, dtype=yaten.float16), layout=True)
    both(lambda dev: yaten.cumsum(on(np.zeros((0, 3), np.float32), dev), 1), layout=True)
    both(lambda dev: yaten.cumsum(on(np.zeros((2, 0), np.int32), dev), 0), layout=True)


def test_cumsum_errors():
    same_error(lambda dev: yaten.cumsum(on([1.0, 2.0], dev), 1))  # dim out of range
    same_error(lambda dev: yaten.cumsum(on(1.0, dev), 2))
    # No bool scan, on either device; the kernel is named as torch's CUDA kernel is.
    with pytest.raises(NotImplementedError, match="\"cumsum_cuda\" not implemented for 'Bool'"):
        yaten.cumsum(on([1, 0], "cuda"), 0, dtype=yaten.bool)
    with pytest.raises(NotImplementedError, match="\"cumsum_out_cpu\" not implemented for 'Bool'"):
        yaten.cumsum(on([1, 0], "cpu"), 0, dtype=yaten.bool)


def test_cumsum_method_and_gradient():
    a = values(np.float32, (3, 5))

    def run(dev):
        x = on(a, dev).requires_grad_()
        y = x.cumsum(1)
        (y * on(np.arange(15.0, dtype=np.float32).reshape(3, 5), dev)).sum().backward()
        return y, x.grad

    both(run)


def test_cumsum_float_sums_differ_from_cpu_only_in_rounding():
    # A long float32 row: the chunked order of additions is not the CPU's serial one (in float64).
    a = values(np.float32, (1, 300))
    got = yaten.cumsum(on(a, "cuda"), 1).cpu().numpy()
    np.testing.assert_allclose(got, np.cumsum(a.astype(np.float64), axis=1), rtol=1e-5, atol=1e-5)
    assert yaten.cumsum(on(a, "cuda"), 1).device == CUDA


# --- the real-GPU code path ----------------------------------------------


GPU_KERNELS = """
from yaten.kernels.cuda import scan as S
i64 = nt.int64
for dt in (np.int8, np.uint8, np.int16, np.int32, np.int64, np.float32, np.float64):
    a = from_dtype(np.dtype(dt))[::1]
    cuda.compile_ptx(S._rows_kernel.py_func, (a, i64, i64), cc=(9, 0))
    cuda.compile_ptx(S._chunks_kernel.py_func, (a, a, i64, i64, i64), cc=(9, 0))
    cuda.compile_ptx(S._add_totals_kernel.py_func, (a, a, i64, i64, i64, i64), cc=(9, 0))
"""


def test_kernels_compile_for_a_gpu():
    compiles_for_a_gpu(GPU_KERNELS)
