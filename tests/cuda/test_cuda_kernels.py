"""The CUDA kernels (runtime/kernels/cuda) and yaten.cuda, against NumPy and torch.

Run in their own pytest process with ``NUMBA_ENABLE_CUDASIM=1`` set before Numba is imported
(``NUMBA_ENABLE_CUDASIM=1 pytest tests/cuda``); on a real GPU the same tests run unchanged. The
simulator runs every GPU thread as a Python thread, so inputs stay small. The kernel modules are
loaded from their files as a package of their own, without importing ``yaten``; one test compiles
every kernel to PTX for a real GPU (in a process without the simulator), where NVVM is installed.
"""

import importlib
import importlib.util
import math
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import numpy as np
import pytest
import torch
from gpu_compile import compiles_for_a_gpu

from tests.tolerances import assert_close, assert_close_reordered

cuda = pytest.importorskip("numba.cuda")

REPO = Path(__file__).resolve().parents[2]
KERNELS = REPO / "runtime" / "kernels" / "cuda"


pytestmark = [
    pytest.mark.skipif(not cuda.is_available(), reason="no CUDA GPU, and NUMBA_ENABLE_CUDASIM=1 is not set"),
    # The simulator computes with NumPy scalars, which warn where a GPU silently gives inf or NaN.
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
]


def _load_kernels():
    names = ("memory", "copy", "scalar", "pointwise", "reduce")
    return types.SimpleNamespace(**{n: importlib.import_module(f"yaten.kernels.cuda.{n}") for n in names})


@pytest.fixture(scope="module")
def K():
    return _load_kernels()


class DT:
    """Stands in for a yaten dtype: what the launcher reads of one."""

    def __init__(self, np_dtype):
        self.np = np.dtype(np_dtype)
        self.name = self.np.name


F16, F32, F64, I8, I64, BOOL = (
    DT(t) for t in (np.float16, np.float32, np.float64, np.int8, np.int64, np.bool_)
)
ALL_NP = [np.bool_, np.uint8, np.int8, np.int16, np.int32, np.int64, np.float16, np.float32, np.float64]


def dev(K, a, dtype=None):
    return K.memory.from_host(np.asarray(a, dtype=dtype))


def host(K, d):
    return K.memory.to_host(d)


def view(K, base, shape, strides, offset=0):
    """A device view of ``base``'s memory with element strides, as the Tensor layer makes them."""
    return K.memory.strided(K.memory.flat_bytes(base), base.dtype, shape, strides, offset)


def host_view(a, shape, strides, offset=0):
    item = a.itemsize
    flat = a.reshape(-1)[offset:]
    return np.lib.stride_tricks.as_strided(flat, shape, tuple(s * item for s in strides))


# --- memory ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("np_dtype", ALL_NP)
@pytest.mark.parametrize("shape", [(), (0,), (5,), (2, 3, 4)])
def test_round_trip(K, np_dtype, shape):
    a = (np.arange(math.prod(shape)) % 7 - 3).astype(np_dtype).reshape(shape)
    d = K.memory.from_host(a)
    assert tuple(d.shape) == shape and d.dtype == a.dtype
    back = host(K, d)
    assert back.shape == shape and back.dtype == a.dtype and back.flags.c_contiguous
    np.testing.assert_array_equal(back, a)


def test_from_host_copies_a_non_contiguous_array(K):
    a = np.arange(12.0).reshape(3, 4).T
    d = K.memory.from_host(a)
    a[0, 0] = 99.0  # the device copy does not alias the host array
    np.testing.assert_array_equal(host(K, d), np.arange(12.0).reshape(3, 4).T)


def test_empty_and_flat_bytes(K):
    d = K.memory.empty((2, 3), np.int16)
    assert tuple(d.shape) == (2, 3) and d.dtype == np.int16
    fb = K.memory.flat_bytes(d)
    assert fb.dtype == np.uint8 and tuple(fb.shape) == (12,)
    assert K.memory.data_ptr(fb) == K.memory.data_ptr(d)
    assert tuple(K.memory.flat_bytes(K.memory.empty((0, 3), np.float32)).shape) == (0,)


@pytest.mark.parametrize(
    "shape, strides, offset",
    [
        ((4, 3), (1, 4), 0),  # transposed
        ((2, 2), (4, 2), 5),  # sliced rows and columns, with an offset
        ((3, 4), (0, 1), 4),  # a broadcast row
        ((), (), 7),  # 0-d
        ((2, 0), (4, 1), 3),  # empty
        ((12,), (1,), 0),  # the whole buffer
    ],
)
def test_strided_views(K, shape, strides, offset):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    d = K.memory.from_host(a)
    v = view(K, d, shape, strides, offset)
    assert tuple(v.shape) == shape and v.dtype == np.float32
    np.testing.assert_array_equal(host(K, v), host_view(a, shape, strides, offset))
    if v.size:
        assert K.memory.data_ptr(v) == K.memory.data_ptr(d) + offset * 4


def test_strided_views_share_memory(K):
    d = K.memory.from_host(np.zeros((3, 4), np.int32))
    col = view(K, d, (3,), (4,), 1)
    K.copy.copy_into(col, dev(K, [7, 8, 9], np.int32))
    np.testing.assert_array_equal(host(K, d), [[0, 7, 0, 0], [0, 8, 0, 0], [0, 9, 0, 0]])


def test_strided_out_of_bounds(K):
    fb = K.memory.flat_bytes(K.memory.empty((2,), np.float32))
    with pytest.raises(
        RuntimeError, match="requiring a storage size of 12 are out of bounds for storage of size 8"
    ):
        K.memory.strided(fb, np.float32, (2,), (1,), 1)


# --- copies ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("src_dt", ALL_NP)
@pytest.mark.parametrize("dst_dt", ALL_NP)
def test_contiguous_cast_dtypes(K, src_dt, dst_dt):
    a = np.array([0, 1, -2, 3, 0.5, -0.5] if np.dtype(src_dt).kind == "f" else [0, 1, 2, 3, 0, 1]).astype(
        src_dt
    )
    if np.dtype(dst_dt).kind in "iu" and np.dtype(src_dt).kind in "fb":
        a = np.abs(a)  # float -> unsigned of a negative number is undefined in C
    r = K.copy.contiguous_cast(dev(K, a), (6,), dst_dt)
    np.testing.assert_array_equal(host(K, r), a.astype(dst_dt))


def test_contiguous_cast_broadcasts_and_gathers(K):
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    d = K.memory.from_host(a)
    t = view(K, d, (4, 3), (1, 4))
    r = K.copy.contiguous_cast(t, (2, 4, 3), np.float32)
    out = host(K, r)
    assert out.dtype == np.float32 and out.flags.c_contiguous
    np.testing.assert_array_equal(out, np.broadcast_to(a.T, (2, 4, 3)).astype(np.float32))
    col = view(K, d, (3, 1), (4, 1), 2)
    np.testing.assert_array_equal(
        host(K, K.copy.contiguous_cast(col, (3, 5), np.int8)), np.repeat(a[:, 2:3], 5, 1)
    )
    same = K.copy.contiguous_cast(d, (3, 4), np.float64)  # already that: a view, no copy
    assert K.memory.data_ptr(same) == K.memory.data_ptr(d) and tuple(same.shape) == (3, 4)


def test_contiguous_cast_bad_shape(K):
    d = dev(K, np.zeros(3))
    msg = r"The expanded size of the tensor \(4\) must match the existing size \(3\) at non-singleton dimension 1"
    with pytest.raises(RuntimeError, match=msg):
        K.copy.contiguous_cast(d, (2, 4), np.float64)


def test_copy_into_strided_with_broadcast_and_cast(K):
    base = K.memory.from_host(np.zeros((4, 6), np.float16))
    dst = view(K, base, (3, 2), (1, 12), 1)  # a transposed, strided window
    K.copy.copy_into(dst, dev(K, [[1.5], [2.5], [-3.25]], np.float64))
    expect = np.zeros((4, 6), np.float16)
    host_view(expect, (3, 2), (1, 12), 1)[...] = [[1.5], [2.5], [-3.25]]
    np.testing.assert_array_equal(host(K, base), expect)


def test_copy_into_overlapping(K):
    a = np.arange(8, dtype=np.int64)
    d = K.memory.from_host(a)
    K.copy.copy_into(view(K, d, (6,), (1,), 2), view(K, d, (6,), (1,), 0))
    np.testing.assert_array_equal(host(K, d), [0, 1, 0, 1, 2, 3, 4, 5])


@pytest.mark.parametrize("make", [
    lambda m, d: m.arange(24.0, device=d).view(2, 3, 4).permute(2, 0, 1),
    lambda m, d: m.arange(24.0, device=d).view(4, 6)[:, 1:5:2],
    lambda m, d: m.arange(3.0, device=d).view(3, 1).expand(3, 4),
    lambda m, d: m.ones(0, 3, device=d).t(),
])  # fmt: skip
def test_clone_and_dtype_copies_keep_the_cpus_layout(make):
    """clone (preserve and contiguous formats), dtype copies and moves between devices lay the result
    out as the CPU does, converting on the device."""
    import yaten

    for copy in (
        lambda t: t.clone(),
        lambda t: t.clone(memory_format=yaten.contiguous_format),
        lambda t: t.to(yaten.float16),
        lambda t: t.int(),
    ):
        want, got = copy(make(yaten, "cpu")), copy(make(yaten, "cuda"))
        assert got.device.type == "cuda" and got.dtype == want.dtype and got.stride() == want.stride()
        assert got.tolist() == want.tolist()
    # Between devices too, as torch's preserve_format: the CPU's same-device copy is the reference.
    want = make(yaten, "cpu").double()
    for got in (make(yaten, "cpu").to("cuda", yaten.float64), make(yaten, "cuda").to("cpu", yaten.float64)):
        assert got.dtype == want.dtype and got.stride() == want.stride() and got.tolist() == want.tolist()


def test_copy_into_bad_shape(K):
    with pytest.raises(
        RuntimeError, match=r"The size of tensor a \(4\) must match the size of tensor b \(3\)"
    ):
        K.copy.copy_into(K.memory.empty((2, 4), np.float32), dev(K, np.zeros(3)))


# --- pointwise launcher ---------------------------------------------------------------------------


@cuda.jit
def add_Tensor(out, self, other, alpha):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = self[i] + alpha * other[i]


@cuda.jit
def gt_Tensor(out, self, other):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = self[i] > other[i]


@cuda.jit
def never_launched(out, self):
    raise AssertionError("an empty output launches no kernel")


@pytest.mark.parametrize("dt", [I8, F16, F32, F64])
def test_add_broadcasts(K, dt):
    a = (np.arange(3).reshape(3, 1) - 1).astype(dt.np)
    b = (np.arange(4).reshape(1, 4) * 2).astype(dt.np)
    ct = F32 if dt is F16 else dt
    r = K.pointwise.launcher(add_Tensor)([dev(K, a), dev(K, b), 3], (0, 1), dt, ct, None)
    got = host(K, r)
    ref = torch.add(torch.from_numpy(a), torch.from_numpy(b), alpha=3).numpy()
    assert got.shape == (3, 4) and got.dtype == dt.np
    np.testing.assert_array_equal(got, ref)


def test_add_half_rounds_once(K):
    a = np.array([0.1, 1000.3, -2.7, 65504.0], np.float16)
    b = np.array([0.2, 0.03, 1e-3, -1.0], np.float16)
    r = K.pointwise.launcher(add_Tensor)([dev(K, a), dev(K, b), 1.5], (0, 1), F16, F32, None)
    ref = torch.add(torch.from_numpy(a), torch.from_numpy(b), alpha=1.5).numpy()
    np.testing.assert_array_equal(host(K, r), ref)


def test_add_mixed_inputs_and_scalar_cast(K):
    a = np.array([[1, -2, 3]], np.int8)
    b = np.array([0.5, 0.25], np.float64).reshape(2, 1)
    r = K.pointwise.launcher(add_Tensor)([dev(K, a), dev(K, b), 2], (0, 1), F32, F32, None)
    np.testing.assert_array_equal(host(K, r), (a + 2 * b).astype(np.float32))


def test_zero_dim_and_empty(K):
    run = K.pointwise.launcher(add_Tensor)
    r = run([dev(K, np.float32(2.0)), dev(K, np.float32(0.5)), 2], (0, 1), F32, F32, None)
    assert tuple(r.shape) == () and host(K, r) == np.float32(3.0)
    r = run([dev(K, np.float64(1.0)), dev(K, [1.0, 2.0, 3.0]), 1], (0, 1), F64, F64, None)
    np.testing.assert_array_equal(host(K, r), [2.0, 3.0, 4.0])
    r = run(
        [dev(K, np.zeros((0, 4), np.float32)), dev(K, np.ones((1, 4), np.float32)), 1], (0, 1), F32, F32, None
    )
    assert tuple(r.shape) == (0, 4) and r.dtype == np.float32
    r = K.pointwise.launcher(never_launched)([dev(K, np.zeros((2, 0), np.float16))], (0,), F16, F32, None)
    assert tuple(r.shape) == (2, 0) and r.dtype == np.float16


def test_comparison_result_dtype(K):
    a = np.array([[1.0], [2.0], [np.nan]], np.float32)
    b = np.array([[0.0, 1.0, 2.5, np.inf]], np.float32)
    r = K.pointwise.launcher(gt_Tensor)([dev(K, a), dev(K, b)], (0, 1), BOOL, F32, None)
    got = host(K, r)
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, torch.from_numpy(a) > torch.from_numpy(b))


def test_in_place_into_non_contiguous_out(K):
    base_host = np.arange(12, dtype=np.float32).reshape(4, 3)
    base = K.memory.from_host(base_host)
    out = view(K, base, (3, 4), (1, 3))  # base.T, as self of add_
    other = dev(K, np.array([[10, 20, 30, 40]], np.float32))
    r = K.pointwise.launcher(add_Tensor)([out, other, 2], (0, 1), F32, F32, out)
    assert r is out
    expect = base_host.T + 2 * np.array([[10, 20, 30, 40]], np.float32)
    np.testing.assert_array_equal(host(K, base), expect.T)


def test_in_place_contiguous_and_cast_out(K):
    run = K.pointwise.launcher(add_Tensor)
    a = dev(K, np.array([1.0, 2.0, 3.0], np.float32))
    assert run([a, dev(K, np.float32(1.0)), 1], (0, 1), F32, F32, a) is a  # written directly
    np.testing.assert_array_equal(host(K, a), [2.0, 3.0, 4.0])
    out = dev(K, np.zeros((2, 3), np.float64))
    run([dev(K, [[1.0, 2.0, 3.0]], np.float32), dev(K, [[0.5], [1.5]], np.float32), 1], (0, 1), F32, F32, out)
    np.testing.assert_array_equal(host(K, out), [[1.5, 2.5, 3.5], [2.5, 3.5, 4.5]])


def test_pointwise_shape_errors(K):
    run = K.pointwise.launcher(add_Tensor)
    with pytest.raises(
        RuntimeError, match=r"output with shape \[3\] doesn't match the broadcast shape \[2, 3\]"
    ):
        out = dev(K, np.zeros(3, np.float32))
        run([out, dev(K, np.zeros((2, 3), np.float32)), 1], (0, 1), F32, F32, out)
    with pytest.raises(
        RuntimeError, match=r"The size of tensor a \(3\) must match the size of tensor b \(2\)"
    ):
        run([dev(K, np.zeros(3, np.float32)), dev(K, np.zeros(2, np.float32)), 1], (0, 1), F32, F32, None)


# --- scalar device functions ------------------------------------------------------------------------

nan, inf = math.nan, math.inf
VALUES = [
    nan,
    inf,
    -inf,
    -0.0,
    0.0,
    0.25,
    -0.25,
    0.5,
    -0.5,
    1.5,
    -1.5,
    2.5,
    -2.5,
    3.0,
    -7.0,
    20.0,
    -20.0,
    1e-4,
]
INTS = [-7, -3, -1, 0, 1, 2, 5, 100]

F = torch.nn.functional
UNARY = {
    "exp": torch.exp, "expm1": torch.expm1, "log": torch.log, "log2": torch.log2, "log10": torch.log10,
    "log1p": torch.log1p, "sqrt": torch.sqrt, "rsqrt": torch.rsqrt, "reciprocal": torch.reciprocal,
    "sin": torch.sin, "cos": torch.cos, "tan": torch.tan, "atan": torch.atan, "tanh": torch.tanh,
    "sigmoid": torch.sigmoid, "erf": torch.erf, "floor": torch.floor, "ceil": torch.ceil, "round": torch.round,
    "trunc": torch.trunc, "sign": torch.sign, "abs": torch.abs, "isnan": torch.isnan, "isinf": torch.isinf,
    "isfinite": torch.isfinite, "gelu_erf": F.gelu, "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
    "silu": F.silu, "relu": torch.relu, "asin": torch.asin, "acos": torch.acos, "sinh": torch.sinh,
    "cosh": torch.cosh, "asinh": torch.asinh, "acosh": torch.acosh, "atanh": torch.atanh, "erfc": torch.erfc,
    "lgamma": torch.lgamma, "digamma": torch.digamma, "trigamma": lambda x: torch.polygamma(1, x),
    "sinc": torch.sinc, "frac": torch.frac, "signbit": torch.signbit, "erfinv": torch.erfinv,
    "i0": torch.i0, "i1": torch.special.i1,
}  # fmt: skip
BINARY = {
    "atan2": torch.atan2, "maximum": torch.maximum, "minimum": torch.minimum, "pow": torch.pow,
    "fmod_py": torch.remainder, "fmod": torch.fmod, "floordiv": torch.floor_divide, "truediv": torch.div,
    "logical_xor": torch.logical_xor, "hypot": torch.hypot, "copysign": torch.copysign,
    "logaddexp": torch.logaddexp, "logaddexp2": torch.logaddexp2, "xlogy": torch.xlogy,
    "zeta": torch.special.zeta,
}  # fmt: skip
SHIFTS = {"lshift": torch.bitwise_left_shift, "rshift": torch.bitwise_right_shift}
INT_ONLY_BINARY = {"gcd": torch.gcd, "lcm": torch.lcm}  # torch defines them for integers only
BOOL_RESULT = {"isnan", "isinf", "isfinite", "logical_xor", "signbit"}
INT_UNARY = ["floor", "ceil", "round", "trunc", "sign", "abs", "relu", "isnan", "isinf", "isfinite"]
INT_BINARY = ["maximum", "minimum", "fmod_py", "fmod", "floordiv", "logical_xor"]
A = [inf, -inf, -7.0, 7.0, -0.0, 0.0, 5.0, nan, 1.0, 2.0, -8.0, 0.0, 3.5, -3.5, 6.0, 1.0, -1.0]
B = [2.0, 2.0, inf, -inf, 3.0, -3.0, 0.0, 1.0, -0.0, nan, 1 / 3, -1.0, -2.0, 2.0, -3.0, 0.0, 0.0]
IA = [-7, 7, -7, 7, 0, 5, -5, 9, -6]
IB = [3, -3, -2, 2, 3, 5, 7, -4, 3]


def _kernel_of(fn, nargs):
    if nargs == 1:

        @cuda.jit
        def unary(out, x):
            i = cuda.grid(1)
            if i < out.shape[0]:
                out[i] = fn(x[i])

        return unary

    if nargs == 2:

        @cuda.jit
        def binary(out, x, y):
            i = cuda.grid(1)
            if i < out.shape[0]:
                out[i] = fn(x[i], y[i])

        return binary

    @cuda.jit
    def ternary(out, x, y, z):
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i] = fn(x[i], y[i], z[i])

    return ternary


def _apply(K, name, arrays, dt):
    """``name`` of the scalar library applied elementwise to ``arrays``, computed in ``dt``."""
    run = K.pointwise.launcher(_kernel_of(getattr(K.scalar, name), len(arrays)))
    rt = BOOL if name in BOOL_RESULT else dt
    return host(K, run([dev(K, a, dt.np) for a in arrays], tuple(range(len(arrays))), rt, dt, None))


def _check(got, ref):
    ref = ref.numpy()
    assert got.dtype == ref.dtype
    assert_close(got, ref)
    zero = ref == 0
    np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(ref[zero]), err_msg="sign of zero")


# The distributions' scalars (igamma/igammac, the Gamma and Dirichlet samples' gradients), on their
# domain: positive shapes, samples in (0, 1) for the Dirichlet's.
SAMPLING = {
    "igamma": torch.igamma, "igammac": torch.igammac, "standard_gamma_grad": torch._standard_gamma_grad,
    "dirichlet_grad": torch._dirichlet_grad,
}  # fmt: skip
SAMPLING_ARGS = (
    [0.5, 1.0, 2.5, 9.0, 30.0, 0.2],
    [0.3, 1.0, 2.0, 8.5, 31.0, 0.9],
    [1.5, 2.0, 4.0, 12.0, 45.0, 1.1],
)


@pytest.mark.parametrize("dt", [F32, F64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", sorted(SAMPLING))
def test_scalar_sampling_functions(K, name, dt):
    n = 3 if name == "dirichlet_grad" else 2
    arrays = [np.array(a, dt.np) for a in SAMPLING_ARGS[:n]]
    if name == "dirichlet_grad":  # (x, alpha, total): a sample in (0, 1)
        arrays[0] = arrays[0] / 31
    want = SAMPLING[name](*(torch.from_numpy(a) for a in arrays)).numpy()
    got = _apply(K, name, arrays, dt)
    assert got.dtype == want.dtype
    # torch's igamma is the less accurate one for a large shape (a = 30 here: 8e-10 apart, relatively)
    assert_close(got, want, rtol=1e-8 if dt is F64 and name.startswith("igamma") else None)


def test_scalar_library_is_complete(K):
    names = (
        set(UNARY) | set(BINARY) | set(SHIFTS) | set(INT_ONLY_BINARY) | set(SAMPLING) | {"where", "polygamma"}
    )
    assert set(K.scalar.__all__) == names
    cpu = (REPO / "runtime" / "kernels" / "cpu" / "scalar.py").read_text()
    cpu_names = {
        line[4 : line.index("(")] for line in cpu.splitlines() if line.startswith("def ") and line[4] != "_"
    }
    assert cpu_names == names, "kernels/cpu/scalar.py and kernels/cuda/scalar.py define the same functions"


@pytest.mark.parametrize("dt", [F32, F64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_scalar_unary(K, name, dt):
    x = np.array(VALUES, dt.np)
    if name == "gelu_erf" and dt is F32:
        x = x[x != inf]  # torch's vectorised CPU kernel gives NaN there; the formula (and torch on CUDA) inf
    _check(_apply(K, name, [x], dt), UNARY[name](torch.from_numpy(x)))


@pytest.mark.parametrize("dt", [F32, F64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_scalar_binary(K, name, dt):
    a, b = np.array(A, dt.np), np.array(B, dt.np)
    _check(_apply(K, name, [a, b], dt), BINARY[name](torch.from_numpy(a), torch.from_numpy(b)))


@pytest.mark.parametrize("dt", [I64, I8], ids=["int64", "int8"])
@pytest.mark.parametrize("name", INT_UNARY)
def test_scalar_unary_integers(K, name, dt):
    x = np.array(INTS, dt.np)
    _check(_apply(K, name, [x], dt), UNARY[name](torch.from_numpy(x)))


@pytest.mark.parametrize("dt", [I64, I8], ids=["int64", "int8"])
@pytest.mark.parametrize("name", INT_BINARY)
def test_scalar_binary_integers(K, name, dt):
    a, b = np.array(IA, dt.np), np.array(IB, dt.np)
    _check(_apply(K, name, [a, b], dt), BINARY[name](torch.from_numpy(a), torch.from_numpy(b)))


@pytest.mark.parametrize("dt", [I64, I8], ids=["int64", "int8"])
@pytest.mark.parametrize("name", sorted(INT_ONLY_BINARY))
def test_scalar_integer_only_binary(K, name, dt):
    a, b = np.array(IA + [0, 0], dt.np), np.array(IB + [0, 6], dt.np)
    _check(_apply(K, name, [a, b], dt), INT_ONLY_BINARY[name](torch.from_numpy(a), torch.from_numpy(b)))


@pytest.mark.parametrize("dt", [I64, I8], ids=["int64", "int8"])
@pytest.mark.parametrize("name", sorted(SHIFTS))
def test_scalar_shifts(K, name, dt):
    a, b = np.array(IA, dt.np), np.array([1, 0, 70, 3, 2, -1, 64, 63, 7], dt.np)
    _check(_apply(K, name, [a, b], dt), SHIFTS[name](torch.from_numpy(a), torch.from_numpy(b)))


@pytest.mark.parametrize("dt", [F32, F64], ids=["float32", "float64"])
@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_scalar_polygamma(K, n, dt):
    x = np.array(VALUES, dt.np)
    orders = np.full(x.shape, n, np.int64)
    run = K.pointwise.launcher(_kernel_of(K.scalar.polygamma, 2))
    got = host(K, run([dev(K, orders, np.int64), dev(K, x, dt.np)], (0, 1), dt, dt, None))
    _check(got, torch.polygamma(n, torch.from_numpy(x)))


def test_scalar_integer_pow(K):
    a, b = np.array(IA, np.int64), np.array([0, 1, 2, 3, 0, 2, 3, 1, 2], np.int64)
    _check(_apply(K, "pow", [a, b], I64), torch.pow(torch.from_numpy(a), torch.from_numpy(b)))


def test_scalar_where(K):
    cond = np.array([True, False, True, False])
    a, b = np.array([1.0, 2.0, nan, -0.0], np.float32), np.array([5.0, -0.0, 7.0, inf], np.float32)
    got = host(
        K,
        K.pointwise.launcher(_where_kernel(K))(
            [dev(K, cond), dev(K, a), dev(K, b)], (0, 1, 2), F32, F32, None
        ),
    )
    _check(got, torch.where(torch.from_numpy(cond), torch.from_numpy(a), torch.from_numpy(b)))


def _where_kernel(K):
    where = K.scalar.where

    @cuda.jit
    def where_self(out, condition, self, other):
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i] = where(condition[i], self[i], other[i])

    return where_self


# --- reductions -----------------------------------------------------------------------------------

TORCH_DTYPES = {np.dtype(t): getattr(torch, np.dtype(t).name) for t in ALL_NP if t is not np.bool_}
TORCH_DTYPES[np.dtype(np.bool_)] = torch.bool


def _sample(shape, np_dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(np_dtype).kind == "f":
        return rng.standard_normal(shape).astype(np_dtype)
    if np.dtype(np_dtype).kind == "b":
        return rng.random(shape) < 0.5
    return rng.integers(-50, 50, shape).astype(np_dtype)


def _ref(fn, x, dim, keepdim, dtype):
    t = torch.from_numpy(x)
    kw = {"dtype": TORCH_DTYPES[np.dtype(dtype)]} if dtype is not None else {}
    if dim is None or dim == ():
        return fn(t, **kw) if not keepdim else fn(t, dim=tuple(range(x.ndim)), keepdim=True, **kw)
    return fn(t, dim=dim, keepdim=keepdim, **kw)


def _assert_reduced(got, ref):
    ref = ref.numpy()
    assert got.shape == ref.shape and got.dtype == ref.dtype
    assert_close_reordered(got, ref)


@pytest.mark.parametrize(
    "np_dtype, dtype",
    [(np.float32, None), (np.float64, None), (np.float16, None), (np.int8, None), (np.bool_, None),
     (np.int32, np.float64), (np.float32, np.float16), (np.int64, np.int8), (np.float32, np.bool_)],
)  # fmt: skip
def test_sum_all(K, np_dtype, dtype):
    x = _sample((3, 5), np_dtype)
    _assert_reduced(host(K, K.reduce.sum_all(dev(K, x), dtype)), _ref(torch.sum, x, None, False, dtype))


def test_sum_all_takes_yaten_dtypes_and_odd_inputs(K):
    x = _sample((4,), np.int16)
    _assert_reduced(host(K, K.reduce.sum_all(dev(K, x), F64)), torch.from_numpy(x).sum(dtype=torch.float64))
    _assert_reduced(host(K, K.reduce.sum_all(dev(K, np.float32(2.5)), None)), torch.tensor(2.5).sum())
    _assert_reduced(
        host(K, K.reduce.sum_all(dev(K, np.zeros((0, 3), np.int32)), None)), torch.zeros(0, 3).int().sum()
    )


@pytest.mark.parametrize("dim", [(0,), (1,), (-1,), (0, 2), (2, 0), None, (), 1])
@pytest.mark.parametrize("keepdim", [False, True])
def test_sum_dim(K, dim, keepdim):
    x = _sample((2, 3, 4), np.float32)
    got = host(K, K.reduce.sum_dim(dev(K, x), dim, keepdim, None))
    _assert_reduced(got, _ref(torch.sum, x, dim, keepdim, None))


def test_sum_dim_non_contiguous_input(K):
    x = _sample((3, 4, 2), np.int32)
    d = K.memory.from_host(x)
    t = view(K, d, (2, 4, 3), (1, 2, 8))  # x.permute(2, 1, 0)
    ref_x = np.ascontiguousarray(x.transpose(2, 1, 0))
    for dim in [(0,), (1,), (2,), (0, 2), None]:
        _assert_reduced(
            host(K, K.reduce.sum_dim(t, dim, False, None)), _ref(torch.sum, ref_x, dim, False, None)
        )
    sliced = view(K, d, (3, 2), (8, 1), 2)  # x[:, 1, :]
    _assert_reduced(
        host(K, K.reduce.sum_dim(sliced, (0,), True, None)), torch.from_numpy(x[:, 1, :]).sum(0, True)
    )


@pytest.mark.parametrize("np_dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("dim, keepdim", [((1,), False), ((0, 1), True), (None, False), ((-2,), True)])
def test_mean_dim(K, np_dtype, dim, keepdim):
    x = _sample((3, 4), np_dtype)
    _assert_reduced(
        host(K, K.reduce.mean_dim(dev(K, x), dim, keepdim, None)), _ref(torch.mean, x, dim, keepdim, None)
    )


def test_mean_dtypes_and_empty(K):
    x = _sample((3, 4), np.int64)
    _assert_reduced(host(K, K.reduce.mean_dim(dev(K, x), (1,), False, np.float64)),
                    torch.from_numpy(x).mean(1, dtype=torch.float64))  # fmt: skip
    e = np.zeros((2, 0), np.float32)
    _assert_reduced(host(K, K.reduce.mean_dim(dev(K, e), (1,), False, None)), torch.from_numpy(e).mean(1))
    _assert_reduced(host(K, K.reduce.sum_dim(dev(K, e), (1,), False, None)), torch.from_numpy(e).sum(1))
    _assert_reduced(host(K, K.reduce.sum_dim(dev(K, e), (0,), True, None)), torch.from_numpy(e).sum(0, True))
    z = np.float64(3.0)
    _assert_reduced(
        host(K, K.reduce.mean_dim(dev(K, z), (0,), True, None)),
        torch.tensor(3.0, dtype=torch.float64).mean(0, True),
    )


def test_reduction_errors(K):
    xi = dev(K, np.zeros((2, 3), np.int64))
    xf = dev(K, np.zeros((2, 3), np.float32))
    msg = "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long"
    with pytest.raises(RuntimeError) as e:
        K.reduce.mean_dim(xi, (0,), False, None)
    assert str(e.value) == msg
    with pytest.raises(
        RuntimeError, match=r"Optional dtype must be either a floating point or complex dtype. Got: Int"
    ):
        K.reduce.mean_dim(xf, (0,), False, np.int32)
    with pytest.raises(IndexError) as e:
        K.reduce.sum_dim(xf, (5,), False, None)
    assert str(e.value) == "Dimension out of range (expected to be in range of [-2, 1], but got 5)"
    with pytest.raises(RuntimeError, match="dim 1 appears multiple times in the list of dims"):
        K.reduce.sum_dim(xf, (1, -1), False, None)


def test_long_rows_are_split_over_blocks(K):
    x = _sample((4100,), np.float32, seed=1)
    _assert_reduced(host(K, K.reduce.sum_all(dev(K, x), None)), torch.from_numpy(x).sum())
    y = _sample((2, 2100), np.float64, seed=2)
    _assert_reduced(
        host(K, K.reduce.mean_dim(dev(K, y), (1,), True, None)), torch.from_numpy(y).mean(1, True)
    )


# --- yaten.cuda ---------------------------------------------------------------------------------------


def _load_public():
    spec = importlib.util.spec_from_file_location(
        "yaten_cuda_public_test", REPO / "runtime" / "cuda" / "__init__.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_public_module():
    yc = _load_public()
    assert yc.is_available() is True
    assert yc.device_count() >= 1
    assert yc.current_device() == 0
    assert yc.synchronize() is None
    assert isinstance(yc.get_device_name(), str) and yc.get_device_name()
    yc.manual_seed(1234)
    assert yc.initial_seed() == 1234


def test_public_module_imports_nothing_heavy():
    code = textwrap.dedent(
        f"""
        import importlib.util, sys
        spec = importlib.util.spec_from_file_location("yc", {str(REPO / "runtime" / "cuda" / "__init__.py")!r})
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        mod.manual_seed(3)
        assert "numba" not in sys.modules and "numpy" not in sys.modules, sorted(sys.modules)
        """
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


# --- the real-GPU code path: every kernel compiles to PTX -------------------------------------------

GPU_KERNELS = """
import importlib, inspect
S, C, R = (importlib.import_module("yaten.kernels.cuda." + n) for n in ("scalar", "copy", "reduce"))
ptx = lambda fn, sig: cuda.compile_ptx(fn.py_func, sig, cc=(9, 0))
ints = {"abs", "ceil", "floor", "floordiv", "fmod", "fmod_py", "isfinite", "isinf", "isnan", "logical_xor", "lshift",
        "maximum", "minimum", "pow", "reciprocal", "relu", "round", "rshift", "sign", "truediv", "trunc"}
int_only = {"lshift", "rshift"}
arity = {n: len(inspect.signature(getattr(S, n).py_func).parameters) for n in S.__all__}
for t in (nt.float32, nt.float64, nt.int64, nt.int8):
    domain = (set(S.__all__) - int_only) if t in (nt.float32, nt.float64) else ints
    names = [n for n in S.__all__ if n != "where" and n in domain]
    body = "".join(f"        out[i] += {n}({', '.join(('x[i]', 'y[i]', 'x[i]')[:arity[n]])})\\n" for n in names)
    src = "def k(out, x, y, c):\\n    i = cuda.grid(1)\\n    if i < out.shape[0]:\\n" + body
    src += "        out[i] += where(c[i], x[i], y[i])\\n"
    scope = {"cuda": cuda, **{n: getattr(S, n) for n in S.__all__}}
    exec(src, scope)
    cuda.compile_ptx(scope["k"], (t[::1], t[::1], t[::1], nt.boolean[::1]), cc=(9, 0))
dts = [np.dtype(d) for d in ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64")]
tup = nt.UniTuple(nt.int64, 2)
for a in dts:  # every cast the gather kernel makes; the scatter kernel's casts are the same code
    for b in dts:
        if not C._via_float32(b, a):
            ptx(C._gather, (from_dtype(a)[::1], from_dtype(b)[::1], tup, tup))
for a, b in (("float16", "bool"), ("bool", "float32"), ("float64", "int64"), ("int8", "float16")):
    ptx(C._scatter, (from_dtype(np.dtype(a))[::1], tup, from_dtype(np.dtype(b))[::1], tup, tup, nt.int64))
for out in (dts[0], dts[2], dts[5], dts[6], dts[7], dts[8]):
    for src in dts:
        s, acc = R._dtypes(src, out)
        if s == src:
            a, i = from_dtype(acc)[::1], nt.int64[::1]
            for post in (R._keep_total, R._divide) if acc.kind == "f" else (R._keep_total,):
                sig = (from_dtype(s)[::1], i, a, nt.int64, nt.int64, nt.int64, nt.int64, from_dtype(acc), a, i)
                ptx(R._rows_kernel(R._SUM, acc, 256, R._keep, post, False), sig)
"""


def test_kernels_compile_for_a_gpu():
    compiles_for_a_gpu(GPU_KERNELS)


# Every scalar function (the special functions of kernels/special_math.py too, which reach the device
# through register_jitable) compiles into a kernel for a real GPU, in both float widths.
GPU_SCALARS = """
import inspect
from yaten.kernels.cuda import scalar as S
for name in S.__all__:
    fn = getattr(S, name)
    for t in (nt.float32, nt.float64):
        if name in ("where",):
            sig = (nt.boolean, t, t)
        elif name == "polygamma":
            sig = (nt.int64, t)
        elif name in INTEGRAL:
            t = nt.int64 if t is nt.float64 else nt.int32
            sig = (t, t)
        else:
            sig = (t,) * len(inspect.signature(fn.py_func).parameters)
        cuda.compile_ptx(fn.py_func, sig, device=True, cc=(9, 0))
"""


def test_scalar_library_compiles_for_a_gpu():
    integral = sorted(set(SHIFTS) | set(INT_ONLY_BINARY))
    compiles_for_a_gpu(f"INTEGRAL = {integral!r}\n" + GPU_SCALARS)
