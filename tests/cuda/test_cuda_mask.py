"""nonzero, masked_select and masked_fill_ on ``cuda`` (runtime/kernels/cuda/mask.py), against the CPU.

Values, dtypes, shapes, the strides of nonzero's column-by-column result, in-place writes through
strided and broadcast views, and the same errors (type and message) and warning as the CPU; then
what is built on them: ``masked_fill`` and its gradients, ``x[mask]`` and ``x[mask] = v``. Run under
``NUMBA_ENABLE_CUDASIM=1`` on machines without a GPU: the simulator runs every GPU thread as a
Python thread, so every input is a few hundred elements at most.
"""

import warnings

import numpy as np
import pytest
from compare import CUDA, both, on, same_error
from gpu_compile import compiles_for_a_gpu

import yaten

pytestmark = [
    pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1"),
    # The simulator computes with NumPy scalars, which warn where a GPU silently gives inf or NaN.
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
]

DTYPES = [np.float32, np.float64, np.float16, np.int64, np.int32, np.uint8, np.bool_]


def _values(dt, shape, seed=0):
    """Values of ``dt`` with about a third zeros (and -0.0 and NaN among the floats)."""
    rng = np.random.default_rng(seed)
    a = rng.integers(-4, 5, shape) * (rng.random(shape) < 0.66)
    if np.dtype(dt).kind == "f":
        a = a.astype(dt) / 2
        flat = a.reshape(-1)
        if flat.size > 3:
            flat[1], flat[2] = -0.0, np.nan
        return a
    return (np.abs(a) if np.dtype(dt).kind in "ub" else a).astype(dt)


def _mask(shape, seed=1):
    return np.random.default_rng(seed).random(shape) < 0.5


# --- nonzero ------------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", DTYPES)
def test_nonzero_matches_cpu(dt):
    a = _values(dt, (4, 9))
    both(lambda dev: yaten.nonzero(on(a, dev)), layout=True)
    both(lambda dev: on(a, dev).nonzero(), layout=True)


def test_nonzero_shapes_and_layouts():
    a = _values(np.float32, (5, 7, 11))  # 385 elements: a three-level scan
    both(lambda dev: yaten.nonzero(on(a, dev)), layout=True)
    both(lambda dev: yaten.nonzero(on(a, dev).transpose(0, 2)[:, ::2]), layout=True)  # not contiguous
    both(lambda dev: yaten.nonzero(on(a[0, 0], dev).expand(3, 11)), layout=True)  # broadcast
    both(lambda dev: yaten.nonzero(on(np.arange(1, 40), dev)), layout=True)  # all non-zero, 1-d
    both(lambda dev: yaten.nonzero(on(np.zeros((3, 4)), dev)), layout=True)  # none: (0, 2)
    both(lambda dev: yaten.nonzero(on(np.zeros((0, 4)), dev)), layout=True)  # empty
    for v in (0.0, 2.0, -0.0, np.nan, True, False):  # 0-d: (1, 0) or (0, 0)
        both(lambda dev, v=v: yaten.nonzero(on(v, dev)), layout=True)


def test_nonzero_stays_on_the_device():
    r = yaten.nonzero(on([[0, 3], [4, 0]], "cuda"))
    assert r.device == CUDA and r.dtype == yaten.int64 and r.stride() == (1, 2)
    assert r.tolist() == [[0, 1], [1, 0]]


# --- masked_select ------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", DTYPES)
def test_masked_select_matches_cpu(dt):
    a, m = _values(dt, (3, 40)), _mask((3, 40))
    both(lambda dev: yaten.masked_select(on(a, dev), on(m, dev)))
    both(lambda dev: on(a, dev).masked_select(on(m, dev)))


def test_masked_select_broadcasts_and_strides():
    a = _values(np.float32, (4, 5))
    both(lambda dev: yaten.masked_select(on(a, dev), on(_mask((5,)), dev)))  # mask broadcast
    both(lambda dev: yaten.masked_select(on(a[0], dev), on(_mask((3, 5)), dev)))  # self broadcast
    both(lambda dev: yaten.masked_select(on(a, dev), on(_mask((2, 1, 1)), dev)))  # both grow
    both(lambda dev: yaten.masked_select(on(a, dev).t()[::2], on(_mask((5, 4)), dev).t().t()[::2]))
    both(lambda dev: yaten.masked_select(on(a, dev), on(np.zeros((4, 5), bool), dev)))  # none
    both(lambda dev: yaten.masked_select(on(2.5, dev), on(True, dev)))  # 0-d
    both(lambda dev: yaten.masked_select(on(np.zeros((0, 5)), dev), on(_mask((5,)), dev)))


def test_masked_select_errors():
    a = _values(np.float32, (3, 4))
    same_error(lambda dev: yaten.masked_select(on(a, dev), on(np.ones((3, 4), np.uint8), dev)))
    same_error(lambda dev: yaten.masked_select(on(a, dev), on(_mask((3, 5)), dev)))


def test_masked_select_gradient():
    a, m = _values(np.float32, (3, 4)), _mask((4,))

    def run(dev):
        x = on(a, dev).requires_grad_()
        y = x.masked_select(on(m, dev))
        (y * y).sum().backward()
        return y, x.grad

    both(run)


# --- masked_fill_ -------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", DTYPES)
def test_masked_fill_scalar_matches_cpu(dt):
    a, m = _values(dt, (3, 40)), _mask((3, 40))
    value = True if dt == np.bool_ else 3 if np.dtype(dt).kind in "iu" else -1.5
    both(lambda dev: on(a, dev).masked_fill_(on(m, dev), value))
    both(lambda dev: on(a, dev).masked_fill_(on(m, dev), 2.75))  # converted to self's dtype
    both(lambda dev: on(a, dev).masked_fill_(on(m, dev), float("nan") if np.dtype(dt).kind == "f" else 0))


@pytest.mark.parametrize("dt", DTYPES)
def test_masked_fill_tensor_value_is_read_on_the_device(dt):
    a, m = _values(dt, (3, 7)), _mask((7,))
    both(lambda dev: on(a, dev).masked_fill_(on(m, dev), on(np.array(1, dt), dev)))
    # Another dtype: cast on the device (no host copy), as copy_ casts.
    both(lambda dev: on(a, dev).masked_fill_(on(m, dev), on(np.array(2.0), dev)))
    both(lambda dev: on(a, dev).masked_fill_(on(m, dev), on(True, dev)))


def test_masked_fill_writes_through_views():
    a = _values(np.float64, (4, 6))

    def run(dev):
        base = on(a, dev)
        view = base.t()[::2]  # (3, 4), strides (2, 6)
        view.masked_fill_(on(_mask((4,)), dev), 9.0)
        base[1:3, 2:].masked_fill_(on(_mask((2, 1)), dev), on(np.array(-7.0), dev))
        return base

    both(run)
    both(lambda dev: on(2.0, dev).masked_fill_(on(True, dev), 5))  # 0-d
    both(lambda dev: on(np.zeros((0, 3)), dev).masked_fill_(on(_mask((3,)), dev), 1))  # empty


def test_masked_fill_expanded_self_warns_as_cpu():
    def run(dev):
        x = on([1.0, 2.0, 3.0], dev).expand(2, 3)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            x.masked_fill_(on([True, False, True], dev), 0.0)
        assert [str(r.message) for r in w] == [
            "Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor before "
            "performing this operation. This also applies to advanced indexing e.g. tensor[mask] = scalar"
        ]
        return x

    both(run)


def test_masked_fill_errors():
    a = _values(np.float32, (3, 4))
    same_error(lambda dev: on(a, dev).masked_fill_(on(np.ones(4, np.uint8), dev), 1.0))  # not bool
    same_error(lambda dev: on(a, dev).masked_fill_(on(_mask((2, 3, 4)), dev), 1.0))  # grows self
    same_error(lambda dev: on(a, dev).masked_fill_(on(_mask((5,)), dev), 1.0))  # no broadcast
    same_error(lambda dev: on(a, dev).masked_fill_(on(_mask((4,)), dev), on([1.0, 2.0], dev)))  # 1-d
    ints = np.arange(4, dtype=np.uint8)
    same_error(lambda dev: on(ints, dev).masked_fill_(on(_mask((4,)), dev), 300))  # overflow
    same_error(lambda dev: on(ints, dev).masked_fill_(on(_mask((4,)), dev), float("nan")))


def test_masked_fill_composite_and_gradients():
    a, m = _values(np.float32, (3, 4)), _mask((3, 4))

    def run(dev):
        x = on(a, dev).requires_grad_()
        v = on(np.array(2.5, np.float32), dev).requires_grad_()
        y = x.masked_fill(on(m, dev), v) * 3
        z = yaten.masked_fill(x, on(m[0], dev), -1.0)
        (y.sum() + (z * z).sum()).backward()
        return y, z, x.grad, v.grad

    both(run)


# --- what is built on them ----------------------------------------------------------------------


def test_bool_mask_indexing():
    a, m = _values(np.float32, (4, 5)), _mask((4, 5))
    both(lambda dev: on(a, dev)[on(m, dev)])
    both(lambda dev: on(a, dev)[on(m[:, 0], dev)])  # a mask on the first dim
    both(lambda dev: on(a, dev)[:, on(m[0], dev)])
    both(lambda dev: on(a, dev)[on(a, dev) > 0])

    def put(dev):
        x = on(a, dev)
        x[x < 0] = 0.0
        x[on(m, dev)] = on(np.array(7.0, np.float32), dev)
        return x

    both(put)


def test_where_and_nonzero_users():
    a = _values(np.float32, (3, 5))
    both(lambda dev: yaten.where(on(a, dev) > 0, on(a, dev), 0.0))
    both(lambda dev: (on(a, dev) != 0).nonzero())
    both(lambda dev: yaten.cumsum((on(a, dev) > 0).long(), 1))


# --- the real-GPU code path ----------------------------------------------


GPU_KERNELS = """
from yaten.kernels.cuda import mask as M
i64, pos = nt.int64, nt.int64[::1]
for nd in (1, 3):
    tup = nt.UniTuple(i64, nd)
    cuda.compile_ptx(M._coordinates_kernel.py_func, (pos, i64, pos, tup, i64), cc=(9, 0))
    m = nt.boolean[::1]
    for dt in (np.bool_, np.uint8, np.int32, np.int64, np.float16, np.float32, np.float64):
        a = from_dtype(np.dtype(dt))[::1]
        scalar = from_dtype(np.dtype(dt))
        cuda.compile_ptx(M._compact_kernel.py_func, (a, a, tup, pos, tup, i64), cc=(9, 0))
        cuda.compile_ptx(M._fill_kernel.py_func, (a, tup, m, tup, tup, i64, scalar), cc=(9, 0))
        cuda.compile_ptx(M._fill_from_kernel.py_func, (a, tup, m, tup, tup, i64, a), cc=(9, 0))
"""


def test_kernels_compile_for_a_gpu():
    compiles_for_a_gpu(GPU_KERNELS)
