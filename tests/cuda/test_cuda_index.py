"""The CUDA indexing kernels (runtime/kernels/cuda/index.py) through yaten, against the CPU kernels.

index_select, gather, scatter_ (src and value), scatter_add_: values, dtypes, devices, in-place
writes through strided views, and the same errors (type and message) as the CPU. Run under
``NUMBA_ENABLE_CUDASIM=1`` on machines without a GPU: the simulator runs every GPU thread as a
Python thread, so every input here has a few dozen elements at most.
"""

import numpy as np
import pytest
from compare import assert_same, both, on, same_error
from gpu_compile import compiles_for_a_gpu

import yaten

pytestmark = [
    pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1"),
    # The simulator computes with NumPy scalars, which warn where a GPU silently gives inf or NaN.
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
]

DTYPES = [np.float32, np.float64, np.int64]


def _values(dt, shape, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dt).kind in "iub":
        return rng.integers(-9, 10, shape).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def _index(shape, n, seed=1, dt=np.int64):
    return np.random.default_rng(seed).integers(0, n, shape).astype(dt)


# --- gather ------------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_gather_matches_cpu(dt, dim):
    a = _values(dt, (3, 4))
    # Smaller than self in the other dim, and a few repeats along dim.
    shape = (2, 3) if dim == 0 else (2, 5)
    idx = _index(shape, a.shape[dim])
    both(lambda dev: yaten.gather(on(a, dev), dim, on(idx, dev)))


@pytest.mark.parametrize("dim", [0, -2, 2])
def test_gather_3d_noncontiguous(dim):
    a = _values(np.float32, (2, 3, 4))
    idx = _index((4, 2, 2), (4, 3, 2)[dim])

    def run(dev):
        s = on(a, dev).transpose(0, 2)  # (4, 3, 2), not contiguous
        i = on(idx, dev).transpose(0, 2)[:, :, ::2]  # (2, 2, 2), strided
        assert not s.is_contiguous() and not i.is_contiguous()
        return yaten.gather(s, dim, i)

    both(run)


def test_gather_int32_index_0d_and_empty():
    a = _values(np.float64, (5,))
    both(lambda dev: yaten.gather(on(a, dev), 0, on([4, 0, 4], dev, np.int32)))
    both(lambda dev: yaten.gather(on(2.5, dev), 0, on(0, dev)))  # 0-d self and index
    both(lambda dev: yaten.gather(on(a, dev), 0, on(np.zeros(0, np.int64), dev)))


def test_gather_errors_match_cpu():
    a = _values(np.float32, (3, 4))
    # Out of bounds: the first bad value in the index's C order is reported, whichever sign.
    err = same_error(lambda dev: yaten.gather(on(a, dev), 1, on([[0, 1], [-1, 9]], dev)))
    assert "index -1 is out of bounds for dimension 1 with size 4" in str(err)
    same_error(lambda dev: yaten.gather(on(a, dev), 0, on([[0, 3]], dev)))
    same_error(lambda dev: yaten.gather(on(a, dev), 1, on([[0.0, 1.0]], dev)))  # float index
    same_error(lambda dev: yaten.gather(on(a, dev), 1, on([0, 1], dev)))  # ranks differ
    same_error(lambda dev: yaten.gather(on(a, dev), 1, on(np.zeros((4, 1), np.int64), dev)))  # too big
    same_error(lambda dev: yaten.gather(on(a, dev), 2, on([[0]], dev)))  # dim out of range


# --- index_select ------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_index_select_matches_cpu(dt, dim):
    a = _values(dt, (2, 3, 2))
    idx = _index((4,), a.shape[dim])
    both(lambda dev: yaten.index_select(on(a, dev), dim, on(idx, dev)))


def test_index_select_strided_inputs_and_edge_shapes():
    a = _values(np.float32, (3, 4))

    def strided(dev):
        s = on(a, dev).t()  # (4, 3)
        i = on([2, 9, 0, 9, 3, 9], dev)[::2]  # [2, 0, 3], stride 2
        assert not s.is_contiguous() and not i.is_contiguous()
        return s.index_select(0, i)

    both(strided)
    both(lambda dev: on(a, dev).index_select(1, on(3, dev, np.int32)))  # 0-d index
    both(lambda dev: on(7.0, dev).index_select(0, on([0], dev)))  # 0-d self
    both(lambda dev: on(a, dev).index_select(1, on(np.zeros(0, np.int64), dev)))  # empty index


def test_index_select_errors_match_cpu():
    a = _values(np.float32, (3, 4))
    same_error(lambda dev: on(a, dev).index_select(1, on([0, 4], dev)))
    same_error(lambda dev: on(a, dev).index_select(0, on([-1], dev)))
    same_error(lambda dev: on(a, dev).index_select(0, on([[0]], dev)))  # not a vector
    same_error(lambda dev: on(a, dev).index_select(0, on([0.0], dev)))  # float index
    same_error(lambda dev: on(7.0, dev).index_select(0, on([0, 0], dev)))  # 0-d self, 2 values
    same_error(lambda dev: on(7.0, dev).index_select(0, on([1], dev)))  # 0-d self, bad value
    same_error(lambda dev: on(np.zeros((0, 2)), dev).index_select(0, on([0], dev)))


# --- scatter_ (src and value) ------------------------------------------------------------------


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("dim", [0, 1, -2])
def test_scatter_src_matches_cpu(dt, dim):
    a, src = _values(dt, (3, 4)), _values(dt, (3, 5), seed=2)
    idx = _index((2, 3), a.shape[dim], seed=3)  # duplicates along dim: the last one wins

    def run(dev):
        s = on(a, dev)
        out = s.scatter_(dim, on(idx, dev), on(src, dev))
        assert out is s
        return s

    both(run)


def test_scatter_duplicates_last_write_wins():
    # Every write of a row lands on the same element: the last in the index's C order stays.
    idx = np.array([[1, 1, 1, 1], [0, 2, 0, 2]])
    src = np.arange(8.0).reshape(2, 4)

    def run(dev):
        return on(np.zeros((2, 3)), dev).scatter_(1, on(idx, dev), on(src, dev))

    both(run)
    got = run("cuda").cpu().numpy()
    np.testing.assert_array_equal(got, [[0.0, 3.0, 0.0], [6.0, 0.0, 7.0]])


def test_scatter_into_strided_view_with_strided_index_and_src():
    base = _values(np.float64, (4, 6))
    idx = _index((3, 4), 3, seed=4)
    src = _values(np.float64, (4, 3), seed=5)

    def run(dev):
        b = on(base, dev)
        view = b[1:, ::2]  # (3, 3) inside b
        i = on(idx, dev)[::2, 1:]  # (2, 3), strided
        s = on(src, dev).t()  # (3, 4), transposed
        assert not view.is_contiguous() and not i.is_contiguous() and not s.is_contiguous()
        view.scatter_(0, i, s)
        return b  # the writes went through the view, and only there

    both(run)


@pytest.mark.parametrize("dt", DTYPES)
def test_scatter_value_matches_cpu(dt):
    a = _values(dt, (3, 4))
    idx = _index((2, 4), 3, seed=6)
    both(lambda dev: on(a, dev).scatter_(0, on(idx, dev), 5))
    both(lambda dev: on(a, dev).t().scatter_(-1, on(idx, dev)[:, ::2], -2))  # strided self, index
    both(lambda dev: on(a, dev).scatter(1, on(idx, dev)[:, :3], 3))  # the functional form


def test_scatter_0d_and_empty_index():
    both(lambda dev: on(1.5, dev).scatter_(0, on(0, dev), on(4.0, dev)))
    both(lambda dev: on([1.0, 2.0], dev).scatter_(0, on(np.zeros(0, np.int64), dev), 9.0))


def test_scatter_errors_match_cpu():
    a = np.zeros((3, 4), np.float32)
    src = np.ones((3, 4), np.float32)
    err = same_error(lambda dev: on(a, dev).scatter_(0, on([[0, 5, -7]], dev), on(src, dev)))
    assert str(err) == "index 5 is out of bounds for dimension 0 with size 3"
    same_error(lambda dev: on(a, dev).scatter_(1, on([[-1]], dev), 2.0))
    same_error(lambda dev: on(a, dev).scatter_(0, on([[0.0]], dev), 2.0))  # float index
    same_error(lambda dev: on(a, dev).scatter_(0, on([[0]], dev), on(src, dev, np.float64)))  # dtype
    same_error(lambda dev: on(a, dev).scatter_(0, on([0], dev), 1.0))  # ranks differ
    same_error(lambda dev: on(a, dev).scatter_(0, on(np.zeros((1, 5), np.int64), dev), 1.0))
    same_error(lambda dev: on(a, dev).scatter_(0, on(np.zeros((2, 4), np.int64), dev), on(src[:1], dev)))
    same_error(lambda dev: on([0.0], dev).expand(3).scatter_(0, on([0], dev), 1.0))  # overlap


def test_scatter_writes_nothing_when_an_index_is_out_of_bounds():
    s = on(np.zeros((2, 3)), "cuda")
    with pytest.raises(RuntimeError, match="index 2 is out of bounds"):
        s.scatter_(0, on([[0, 1, 1], [1, 2, 0]], "cuda"), 1.0)
    np.testing.assert_array_equal(s.cpu().numpy(), np.zeros((2, 3)))


# --- scatter_add_ --------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_scatter_add_matches_cpu(dt, dim):
    a, src = _values(dt, (3, 4)), _values(dt, (3, 5), seed=7)
    idx = _index((3, 4) if dim == 0 else (2, 5), a.shape[dim], seed=8)  # many duplicates

    def run(dev):
        s = on(a, dev)
        assert s.scatter_add_(dim, on(idx, dev), on(src, dev)) is s
        return s

    both(run)


@pytest.mark.parametrize("dt", [np.float16, np.int8, np.uint8, np.int16, np.int32, np.bool_])
def test_scatter_add_other_dtypes(dt):
    # No atomic add for these but int32: they add in a float32 / int64 copy.
    a = _values(dt, (2, 3)) if dt != np.bool_ else np.array([[0, 1, 0], [0, 0, 0]], np.bool_)
    src = _values(dt, (2, 3), seed=9) if dt != np.bool_ else np.array([[1, 0, 1], [0, 0, 0]], np.bool_)
    if dt == np.int8:
        a[0, 0], src[:, 0] = 120, 100  # wraps, as on the CPU
    idx = np.array([[0, 0, 1], [0, 1, 1]])
    both(lambda dev: on(a, dev).scatter_add_(0, on(idx, dev), on(src, dev)))


def test_scatter_add_strided_view_and_functional_form():
    base = _values(np.float32, (3, 8))
    idx = _index((3, 6), 4, seed=10)
    src = _values(np.float32, (6, 3), seed=11)

    def run(dev):
        b = on(base, dev)
        b[:, 1::2].scatter_add_(1, on(idx, dev)[:, ::2], on(src, dev).t())
        return b

    both(run)
    both(lambda dev: yaten.scatter_add(on(base, dev), 0, on(idx, dev) % 3, on(src, dev).t()))


def test_scatter_add_errors_match_cpu():
    a, src = np.zeros((2, 3)), np.ones((2, 3))
    same_error(lambda dev: on(a, dev).scatter_add_(1, on([[0, 3]], dev), on(src, dev)))
    same_error(lambda dev: on(a, dev).scatter_add_(1, on([[0, 1]], dev), on(src, dev, np.float32)))
    same_error(lambda dev: on(a, dev).scatter_add_(1, on([[0, 1]], dev, np.int16), on(src, dev)))


# --- autograd through gather / scatter on the device --------------------------------------------


def _grads(fn, x, dev):
    t = on(x, dev).requires_grad_()
    out = fn(t)
    out.backward(on(np.arange(1.0, out.numel() + 1).reshape(out.shape), dev, np.float32))
    return out, t.grad


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: x.max(1).values,
        lambda x: x.min(0).values,
        lambda x: x.max(-1, keepdim=True).values,
        lambda x: x.gather(1, yaten.tensor([[2, 0], [1, 1]], device=x.device)),
    ],
    ids=["max1", "min0", "max-1-keepdim", "gather"],
)
def test_gradient_matches_cpu(fn):
    x = np.array([[1.0, 3.0, 3.0], [2.0, -1.0, 0.5]], np.float32)  # ties: the first index wins
    want, got = _grads(fn, x, "cpu"), _grads(fn, x, "cuda")
    for g, w in zip(got, want, strict=True):
        assert_same(g, w)


def test_index_select_gradient_matches_cpu():
    # repeated indices: their gradients add up (a scatter_add on the device)
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    fn = lambda x: x.index_select(1, yaten.tensor([2, 0, 2], device=x.device))
    want, got = _grads(fn, x, "cpu"), _grads(fn, x, "cuda")
    for g, w in zip(got, want, strict=True):
        assert_same(g, w)


# --- the real-GPU code path ----------------------------------------------


GPU_KERNELS = """
from yaten.kernels.cuda import index as X
i64 = nt.int64
moved = [np.bool_, np.uint8, np.int8, np.int16, np.int32, np.int64, np.float16, np.float32, np.float64]
for nd in (1, 3):
    tup = nt.UniTuple(i64, nd)
    for it in (np.int32, np.int64):
        idx = from_dtype(np.dtype(it))[::1]
        cuda.compile_ptx(X._first_bad_kernel.py_func, (idx, tup, tup, i64, i64, i64[::1]), cc=(9, 0))
        for dt in moved:
            a = from_dtype(np.dtype(dt))[::1]
            cuda.compile_ptx(X._select_kernel.py_func, (a, a, tup, idx, i64, tup, i64), cc=(9, 0))
            cuda.compile_ptx(X._gather_kernel.py_func, (a, a, tup, idx, tup, tup, i64), cc=(9, 0))
            cuda.compile_ptx(X._assign_kernel.py_func, (a, tup, idx, tup, a, tup, tup, i64, i64), cc=(9, 0))
        for dt in sorted(X._ATOMIC, key=str):
            a = from_dtype(dt)[::1]
            cuda.compile_ptx(X._add_kernel.py_func, (a, tup, idx, tup, a, tup, tup, i64, i64), cc=(9, 0))
cuda.compile_ptx(X._wrap_kernel.py_func, (i64[::1], i64, i64, nt.boolean), cc=(9, 0))
"""


def test_kernels_compile_for_a_gpu():
    compiles_for_a_gpu(GPU_KERNELS)
