"""The CUDA matrix products (runtime/kernels/cuda/linalg.py) through yaten, against the CPU kernels.

Run under ``NUMBA_ENABLE_CUDASIM=1`` on machines without a GPU: the simulator runs every GPU thread
as a Python thread, so every output here has a few dozen elements at most. Tiles smaller than the
real 16 (``TILE`` patched) put the tile edges of m, n and k inside those small inputs.
"""

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

CUDA = yaten.device("cuda", 0)


@pytest.fixture
def L():
    from yaten.kernels.cuda import linalg

    return linalg


def _sample(shape, dt, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dt).kind in "iu":
        return np.asarray(rng.integers(-9, 10, shape)).astype(dt)
    return np.asarray(rng.standard_normal(shape)).astype(dt)


def _layout(a: np.ndarray, layout: str) -> np.ndarray:
    """``a`` itself, or a transposed / strided host view with ``a``'s values (moved to the device as is)."""
    if layout == "transposed":
        return np.ascontiguousarray(a.swapaxes(-1, -2)).swapaxes(-1, -2)
    if layout == "strided":
        wide = np.zeros((*a.shape[:-1], 2 * a.shape[-1]), a.dtype)
        wide[..., ::2] = a
        return wide[..., ::2]
    return a


def _on(device, v):
    """A yaten tensor on ``device`` with ``v``'s values and, for a host view, the same strides."""
    if not isinstance(v, np.ndarray):
        return v
    if device == "cpu" or v.flags.c_contiguous:
        return yaten.from_numpy(v.copy(order="K")).to(device)
    base = v.base if v.base is not None else v
    while base.base is not None:
        base = base.base
    t = yaten.from_numpy(np.ascontiguousarray(base)).to(device).reshape(-1)
    item = v.itemsize
    offset = (v.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // item
    return t.as_strided(v.shape, tuple(s // item for s in v.strides), offset)


def _run(op, args, kwargs, device):
    return getattr(yaten, op)(*(_on(device, a) for a in args), **kwargs)


def _check(op, *args, **kwargs):
    """Runs ``op`` on the CPU and on CUDA and compares: values, dtype, shape, result on the device."""
    expected = _run(op, args, kwargs, "cpu")
    for a in args:
        if isinstance(a, np.ndarray) and not a.flags.c_contiguous and a.size > 1:
            assert not _on("cuda", a).is_contiguous()  # the layout reaches the device as it is
    got = _run(op, args, kwargs, "cuda")
    assert_same(got, expected)
    return got


# --- values --------------------------------------------------------------------------------------

LAYOUTS = ["contiguous", "transposed", "strided"]


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int64, np.float16])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_mm(dt, layout):
    a, b = _sample((5, 7), dt, 1), _sample((7, 3), dt, 2)
    _check("mm", _layout(a, layout), _layout(b, layout))


@pytest.mark.parametrize("m, k, n", [(5, 9, 7), (1, 4, 6), (9, 1, 5), (4, 4, 8)])
@pytest.mark.parametrize("dt", [np.float32, np.int64])
def test_mm_tile_edges(L, monkeypatch, m, k, n, dt):
    monkeypatch.setattr(L, "TILE", 4)  # m, n, k cross tile edges at sizes the simulator runs quickly
    _check("mm", _sample((m, k), dt, 1), _layout(_sample((k, n), dt, 2), "transposed"))


def test_mm_full_tiles_and_k_loop():
    # Two 16x16 tiles along m, two along k: the real tile size with edges.
    _check("mm", _sample((17, 20), np.float32), _sample((20, 2), np.float32, 1))


def test_integer_products_wrap():
    a = np.full((2, 2), 70000, np.int32)
    got = _check("mm", a, a)
    assert got.cpu().numpy()[0, 0] == np.int32(np.int64(2 * 70000**2) % 2**32 - 2**32)
    _check("dot", np.full(5, 100, np.int8), np.full(5, 3, np.int8))
    edge = _check("dot", np.array([64, 64], np.int8), np.array([1, 1], np.int8))
    assert edge.item() == -128  # 128, the first value past int8's range
    _check("mv", np.full((2, 3), 200, np.uint8), np.full(3, 2, np.uint8))
    _check("bmm", np.full((2, 2, 3), -128, np.int16), np.full((2, 3, 2), 300, np.int16))


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int64])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_bmm(dt, layout):
    a, b = _sample((3, 2, 5), dt, 1), _sample((3, 5, 3), dt, 2)
    _check("bmm", _layout(a, layout), _layout(b, layout))


def test_bmm_broadcast_batch_and_half():
    b = np.broadcast_to(_sample((1, 4, 2), np.float32), (3, 4, 2))  # batch stride 0
    _check("bmm", _sample((3, 2, 4), np.float32), b)
    _check("bmm", _sample((2, 3, 4), np.float16), _sample((2, 4, 3), np.float16, 1))


def test_bmm_batch_over_several_launches(L, monkeypatch):
    monkeypatch.setattr(L, "_MAX_GRID_Z", 2)
    _check("bmm", _sample((5, 2, 3), np.float64), _sample((5, 3, 2), np.float64, 1))


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int64, np.float16])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_mv(dt, layout):
    vec_layout = "contiguous" if layout == "contiguous" else "strided"
    _check("mv", _layout(_sample((5, 4), dt, 1), layout), _layout(_sample((4,), dt, 2), vec_layout))


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int64, np.float16])
@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_dot(dt, layout):
    got = _check("dot", _layout(_sample((7,), dt, 1), layout), _layout(_sample((7,), dt, 2), layout))
    assert got.shape == ()


def test_dot_longer_than_a_block():
    # 300 elements: more than the 256 threads of a block, so each thread sums several.
    _check("dot", _sample((300,), np.float64, 1), _sample((300,), np.float64, 2))


BIASES = [(2, 3), (3,), (2, 1), (1, 3), ()]


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int64])
@pytest.mark.parametrize("bias", BIASES)
def test_addmm_broadcasts_self(dt, bias):
    _check("addmm", _sample(bias, dt), _sample((2, 4), dt, 1), _sample((4, 3), dt, 2), beta=2, alpha=3)


@pytest.mark.parametrize(
    "beta, alpha", [(1, 1), (0.5, 2.0), (0, 1), (1, 0), (0, 0), (-1.5, -0.25), (float("inf"), 1)]
)
def test_addmm_scalars(beta, alpha):
    m1 = _layout(_sample((2, 4), np.float32, 1), "transposed")
    _check("addmm", _sample((2, 3), np.float32), m1, _sample((4, 3), np.float32, 2), beta=beta, alpha=alpha)


def test_addmm_beta_zero_ignores_self_and_alpha_zero_skips_the_product():
    nan_self = np.full((2, 3), np.nan, np.float32)
    got = _check("addmm", nan_self, _sample((2, 4), np.float32), _sample((4, 3), np.float32), beta=0)
    assert np.isfinite(got.cpu().numpy()).all()
    nan_mat = np.full((2, 4), np.nan, np.float64)
    got = _check("addmm", _sample((3,), np.float64), nan_mat, _sample((4, 3), np.float64), alpha=0)
    assert np.isfinite(got.cpu().numpy()).all()
    # Half multiplies anyway, as PyTorch's half kernel: NaN * 0 stays NaN.
    half = nan_mat.astype(np.float16)
    got = _check("addmm", _sample((3,), np.float16), half, _sample((4, 3), np.float16), alpha=0)
    assert np.isnan(got.cpu().numpy()).all()


def test_addmm_half_and_integer_scalars():
    _check("addmm", _sample((3,), np.float16), _sample((2, 4), np.float16, 1), _sample((4, 3), np.float16, 2), beta=0.5, alpha=2)  # fmt: skip
    _check("addmm", _sample((2, 3), np.int32), _sample((2, 4), np.int32, 1), _sample((4, 3), np.int32, 2), beta=-1, alpha=2.7)  # fmt: skip
    _check("addmm", _sample((2, 3), np.uint8) % 8, np.full((2, 4), 200, np.uint8), np.full((4, 3), 3, np.uint8), beta=-1)  # fmt: skip


EMPTY = [
    ("mm", (0, 3), (3, 2)),
    ("mm", (2, 0), (0, 3)),
    ("mm", (2, 3), (3, 0)),
    ("bmm", (0, 2, 3), (0, 3, 2)),
    ("bmm", (2, 2, 0), (2, 0, 3)),
    ("mv", (0, 3), (3,)),
    ("mv", (2, 0), (0,)),
    ("dot", (0,), (0,)),
]


@pytest.mark.parametrize("op, sa, sb", EMPTY)
@pytest.mark.parametrize("dt", [np.float32, np.int64, np.float16])
def test_empty_dims(op, sa, sb, dt):
    _check(op, np.ones(sa, dt), np.ones(sb, dt))


def test_addmm_empty_k_gives_beta_self():
    _check("addmm", _sample((2, 3), np.float32), np.ones((2, 0), np.float32), np.ones((0, 3), np.float32), beta=2)  # fmt: skip
    _check("addmm", np.ones((3,), np.float32), np.ones((0, 4), np.float32), np.ones((4, 3), np.float32))


# --- errors: the CPU path's exception types and messages -----------------------------------------

F, D, I8, B = (np.ones((2, 2), t) for t in (np.float32, np.float64, np.int8, np.bool_))
ERRORS = [
    ("mm", (np.ones(2, np.float32), F), {}),
    ("mm", (F, np.ones(2, np.float32)), {}),
    ("mm", (F, np.ones((3, 2), np.float32)), {}),
    ("mm", (F, D), {}),
    ("mm", (B, B), {}),
    ("bmm", (F, np.ones((1, 2, 2), np.float32)), {}),
    ("bmm", (np.ones((1, 2, 2), np.float32), F), {}),
    ("bmm", (np.ones((2, 2, 3), np.float32), np.ones((2, 2, 2), np.float32)), {}),
    ("bmm", (np.ones((2, 2, 3), np.float32), np.ones((1, 3, 2), np.float32)), {}),
    ("bmm", (np.ones((1, 2, 2), np.float32), np.ones((1, 2, 2))), {}),
    ("bmm", (np.ones((1, 2, 2), np.bool_), np.ones((1, 2, 2), np.bool_)), {}),
    ("addmm", (D, F, F), {}),
    ("addmm", (F, D, F), {}),
    ("addmm", (F, np.ones(2, np.float32), F), {}),
    ("addmm", (F, F, np.ones((2, 2, 1), np.float32)), {}),
    ("addmm", (F, np.ones((2, 3), np.float32), F), {}),
    ("addmm", (np.ones((3,), np.float32), F, F), {}),
    ("addmm", (np.ones((3, 2), np.float32), F, F), {}),
    ("addmm", (np.ones((1, 2, 2), np.float32), F, F), {}),
    ("addmm", (B, B, B), {}),
    ("addmm", (I8, I8, I8), {"alpha": 1000}),
    ("addmm", (I8, I8, I8), {"beta": 2.0**70}),
    ("addmm", (F, F, F), {"alpha": 1e300}),
    ("addmm", (F, F, F), {"beta": 10**400}),
    ("dot", (F, np.ones(2, np.float32)), {}),
    ("dot", (np.ones(2, np.float32), np.ones(2)), {}),
    ("dot", (np.ones(2, np.float32), np.ones(3, np.float32)), {}),
    ("dot", (np.ones(2, np.bool_), np.ones(2, np.bool_)), {}),
    ("mv", (np.ones(2, np.float32), np.ones(2, np.float32)), {}),
    ("mv", (F, F), {}),
    ("mv", (F, np.ones(3, np.float32)), {}),
    ("mv", (F, np.ones(2)), {}),
    ("mv", (B, np.ones(2, np.bool_)), {}),
]


@pytest.mark.parametrize("op, args, kwargs", ERRORS, ids=[f"{e[0]}-{i}" for i, e in enumerate(ERRORS)])
def test_errors_match_the_cpu(op, args, kwargs):
    with pytest.raises((RuntimeError, NotImplementedError, TypeError)) as cpu:
        _run(op, args, kwargs, "cpu")
    with pytest.raises(type(cpu.value)) as gpu:
        _run(op, args, kwargs, "cuda")
    assert type(gpu.value) is type(cpu.value)
    assert str(gpu.value) == str(cpu.value)


# --- autograd ------------------------------------------------------------------------------------


def _grads(device, fn, *arrays):
    ts = [yaten.from_numpy(a.copy()).to(device).requires_grad_() for a in arrays]
    fn(*ts).sum().backward()
    for t in ts:
        assert t.grad.device == (CUDA if device == "cuda" else yaten.device("cpu"))
    return [t.grad.cpu().numpy() for t in ts]


@pytest.mark.parametrize(
    "fn, shapes",
    [
        (lambda a, b: a @ b, [(3, 4), (4, 2)]),
        (lambda a, b: a @ b.t(), [(3, 4), (2, 4)]),
        (lambda a, b: a @ b, [(2, 3, 4), (2, 4, 2)]),
        (lambda a, v: a @ v, [(3, 4), (4,)]),
        (lambda u, v: u @ v, [(4,), (4,)]),
        (lambda s, a, b: yaten.addmm(s, a, b, beta=0.5, alpha=2), [(2,), (3, 4), (4, 2)]),
    ],
    ids=["mm", "mm-transposed", "bmm", "mv", "dot", "addmm"],
)
def test_gradients_match_the_cpu(fn, shapes):
    arrays = [_sample(s, np.float64, i) for i, s in enumerate(shapes)]
    for got, want in zip(_grads("cuda", fn, *arrays), _grads("cpu", fn, *arrays)):
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_matmul_of_cuda_tensors_stays_on_the_device():
    a = yaten.ones(2, 3, device="cuda")
    b = yaten.ones(3, 2, device="cuda")
    for out in (a @ b, a.mm(b), yaten.addmm(yaten.zeros(2, device="cuda"), a, b), a.mv(b[:, 0])):
        assert out.device == CUDA
    assert (a @ b).cpu().tolist() == [[3.0, 3.0], [3.0, 3.0]]


# --- the real-GPU code path: the kernels compile to PTX ------------------------------------------

GPU_KERNELS = """
from yaten.kernels.cuda import linalg as L
tup, i64 = nt.UniTuple(nt.int64, 3), nt.int64
for src in ("uint8", "int8", "int16", "int32", "int64", "float32", "float64"):
    src = np.dtype(src)
    acc = src if src.kind == "f" else np.dtype(np.int64)
    arr, acc_t = from_dtype(src)[::1], from_dtype(acc)
    for tile in (4, 16):
        sig = (arr, tup, arr, tup, i64, i64, i64, i64, acc_t, acc_t, nt.boolean, arr, tup, arr)
        cuda.compile_ptx(L._tiled_kernel(acc, src, tile).py_func, sig, cc=(9, 0))
    sig = (arr, tup, arr, tup, i64, i64, acc_t, acc_t, nt.boolean, arr, tup, arr)
    cuda.compile_ptx(L._rowdot_kernel(acc, src, 256).py_func, sig, cc=(9, 0))
"""


def test_kernels_compile_for_a_gpu():
    compiles_for_a_gpu(GPU_KERNELS)
