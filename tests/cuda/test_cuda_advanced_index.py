"""Advanced indexing on the device (runtime/kernels/cuda/advanced_index.py) against the CPU kernels.

``index`` and ``index_put_`` (with and without accumulate) through yaten: values, dtypes, strided
views, broadcast index arrays and masks, the same errors (type and message) and warnings as the CPU;
then ``x[index]`` / ``x[index] = value`` on cuda for every case of tests/runtime/test_indexing.py,
the gradients of indexing (index_put_ with accumulate on the device), and ``embedding``. Run under
``NUMBA_ENABLE_CUDASIM=1`` without a GPU: every input has a few dozen elements.
"""

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from compare import assert_same, both, on, same_error
from gpu_compile import compiles_for_a_gpu

import yaten
import yaten.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "runtime"))
from test_indexing import ERRORS, GETITEM, GRAD, SETITEM, SETITEM_ERRORS  # the cases run against torch

pytestmark = [
    pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1"),
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),  # the simulator's NumPy scalars warn
]

ALL_DTYPES = [np.float32, np.float64, np.float16, np.int64, np.int32, np.int16, np.int8, np.uint8, np.bool_]


def _values(dt, shape, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dt) == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if np.dtype(dt).kind in "iu":
        return rng.integers(0 if np.dtype(dt).kind == "u" else -9, 10, shape).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def _ix(a, dev, dt=np.int64):
    return None if a is None else on(a, dev, dt)


# --- index ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", ALL_DTYPES)
def test_index_dtypes(dt):
    a = _values(dt, (3, 4))
    both(lambda dev: on(a, dev)[_ix([2, -3, 0, 2], dev)])
    both(lambda dev: on(a, dev)[:, _ix([[3], [-1]], dev, np.int32)])


INDEX_CASES = {
    # indices per dim of a (3, 4, 5) self (None: the whole dim)
    "first dim": [[2, 0, 2]],
    "middle dim, in place": [None, [[1, -1], [0, 3]]],
    "last dim": [None, None, [4, -5, 0]],
    "adjacent pair, broadcast": [None, [[0], [3]], [1, 2, 4]],
    "separated: index dims lead": [[0, 2], None, [1, -1]],
    "all three": [[2, 1], [0, 3], [4, 4]],
    "0-d index: the dim goes": [None, np.array(2)],
    "0-d indices: 0-d result": [np.array(1), np.array(2), np.array(-1)],
    "empty index": [None, np.zeros(0, np.int64)],
    "empty broadcast with a bad index": [np.zeros((0, 1), np.int64), [1, 2]],
    "no index arrays": [None, None],
}


@pytest.mark.parametrize("case", INDEX_CASES.values(), ids=INDEX_CASES.keys())
def test_index_layouts(case):
    a = _values(np.float32, (3, 4, 5))
    both(lambda dev: yaten._generated.ops.index_Tensor(on(a, dev), [_ix(i, dev) for i in case]))


def test_index_strided_self_and_indices():
    a = _values(np.float64, (4, 6, 3))

    def run(dev):
        s = on(a, dev).transpose(0, 2)[:, 1::2]  # (3, 3, 4), strided
        i = on([[2, 9, 0], [1, 9, 2]], dev).t()[::2]  # [[2, 1], [0, 2]]: transposed and sliced
        j = on([3, 0], dev).expand(2, 2)  # zero stride
        assert not s.is_contiguous() and not i.is_contiguous()
        return s[:, i, j], s[i, :, j], s[..., i]

    both(run)


def test_index_masks():
    a = _values(np.float32, (3, 4, 5))
    m = _values(np.bool_, (3, 4), seed=3)

    def run(dev):
        x, mask = on(a, dev), on(m, dev)
        return x[mask], x[:, mask[0]], x[mask[:, 0], 1:, [[0], [4]]], x[mask & False], x[0][mask[0], -2]

    both(run)
    with pytest.warns(UserWarning, match="indexing with dtype torch.uint8 is now deprecated"):
        both(lambda dev: on(a, dev)[on(m.astype(np.uint8), dev)])


def test_index_gives_a_new_contiguous_tensor():
    x = on(np.arange(12.0).reshape(3, 4), "cuda")
    y = x[:, [True, False, True, True]]
    assert y.is_contiguous() and y.data_ptr() != x.data_ptr()
    x.zero_()
    assert y.cpu().tolist() == [[0.0, 2.0, 3.0], [4.0, 6.0, 7.0], [8.0, 10.0, 11.0]]


INDEX_ERRORS = {
    "no indices": lambda dev: [],
    "too many": lambda dev: [None, None, None],
    "float index": lambda dev: [on([0.0], dev)],
    "int16 index": lambda dev: [on([0], dev, np.int16)],
    "mask shape": lambda dev: [None, on([True, False], dev)],
    "mask too long": lambda dev: [on(np.ones((3, 5), bool), dev)],
    "shapes mismatch": lambda dev: [on([0, 1], dev), on([0, 1, 2], dev)],
    "too large": lambda dev: [None, on([0, 4], dev)],
    "too small": lambda dev: [on([[-4]], dev)],
    # The first bad position in the broadcast order wins over the first index array.
    "first position": lambda dev: [on([0, 1, 7], dev), on([[0, 9, 0]], dev)],
    "first array": lambda dev: [on([[0, 5]], dev), on([[0], [-5]], dev)],
}


@pytest.mark.parametrize("make", INDEX_ERRORS.values(), ids=INDEX_ERRORS.keys())
def test_index_errors_match_cpu(make):
    a = np.zeros((3, 4), np.float32)
    same_error(lambda dev: yaten._generated.ops.index_Tensor(on(a, dev), make(dev)))


def test_index_into_a_size_0_dim_errors_as_cpu():
    b = np.zeros((3, 0), np.float32)  # every index is out of range
    err = same_error(lambda dev: yaten._generated.ops.index_Tensor(on(b, dev), [None, on([0], dev)]))
    assert str(err) == "index is out of bounds for dimension with size 0"


def test_index_error_reports_the_cpu_value():
    a = on(np.zeros((3, 4)), "cuda")
    with pytest.raises(IndexError, match="^index 9 is out of bounds for dimension 1 with size 4$"):
        a[[0, 1, 7], [[0, 9, 0]]]  # 9 (array 1) is at broadcast position 1, 7 (array 0) at 2
    with pytest.raises(IndexError, match="^index 5 is out of bounds for dimension 0 with size 3$"):
        a[[[0, 5]], [[0], [-5]]]  # both at position 1: the first array's


# --- index_put_ ----------------------------------------------------------------------------------


def _put(a, indices, values, accumulate=False):
    """``index_put_`` of ``values`` into a copy of ``a`` on each device; returns the copy."""

    def run(dev):
        x = on(a, dev)
        v = on(values, dev, a.dtype)
        out = x.index_put_([_ix(i, dev) for i in indices], v, accumulate)
        assert out is x
        return x

    return run


PUT_CASES = {
    "rows": ([[2, 0]], (2, 4, 5)),
    "rows, values broadcast": ([[2, 0]], (1, 5)),
    "middle, in place": ([None, [[3], [1]], [0, 2]], (3, 2, 2)),
    "separated": ([[0, 2], None, [1, -1]], (2, 4)),
    "scalar value": ([[-1, 1], [0, 3], [4, 0]], ()),
    "0-d indices": ([np.array(1), np.array(2)], (5,)),
    "empty": ([None, np.zeros(0, np.int64)], (1,)),
    "no index arrays": ([None, None], (4, 5)),
}


@pytest.mark.parametrize("accumulate", [False, True])
@pytest.mark.parametrize("case", PUT_CASES.values(), ids=PUT_CASES.keys())
def test_index_put_layouts(case, accumulate):
    indices, vshape = case
    both(_put(_values(np.float32, (3, 4, 5)), indices, _values(np.float32, vshape, seed=1), accumulate))


@pytest.mark.parametrize("dt", ALL_DTYPES)
def test_index_put_dtypes(dt):
    a, v = _values(dt, (4, 3)), _values(dt, (3, 3), seed=2)
    both(_put(a, [[3, 0, -3]], v))
    both(_put(a, [None, [2, 0]], v[:1, :2]))


@pytest.mark.parametrize("dt", ALL_DTYPES)
def test_index_put_accumulate_dtypes(dt):
    # Duplicates add up; no atomic add for float16 (added in float32) nor the narrow ints and bool
    # (in int64, wrapped after): int8 wraps as the CPU's int8 adds do.
    a, v = _values(dt, (4, 3)), _values(dt, (5, 3), seed=4)
    if dt == np.int8:
        a[0], v[:, 0] = 120, 100
    both(_put(a, [[0, 2, 0, -4, 0]], v, accumulate=True))
    both(_put(a, [[1, 1], [2, 2]], v[0, :1], accumulate=True))  # one element, twice


def test_index_put_into_strided_view_writes_only_there():
    base = _values(np.float64, (4, 6))
    v = _values(np.float64, (2, 3), seed=5)

    def run(dev, accumulate):
        b = on(base, dev)
        view = b[1:, ::2]  # (3, 3) inside b
        assert not view.is_contiguous()
        view.index_put_([on([2, 0], dev)], on(v, dev), accumulate)
        view.index_put_([None, on([[1], [1]], dev).expand(2, 2)], on(v[:, 1:], dev).t(), accumulate)
        return b

    both(lambda dev: run(dev, False))
    both(lambda dev: run(dev, True))
    both(
        lambda dev: on(base.astype(np.float16), dev)[:, 1::2].index_put_(
            [on([0, 0], dev)], on(v, dev, np.float16), True
        )
    )


def test_index_put_duplicates_write_one_of_the_values():
    # Without accumulate one of the duplicates' values lands (which one is unspecified on CUDA).
    x = on(np.zeros(3), "cuda")
    x.index_put_([on([1, 1, 1, 0], "cuda")], on([5.0, 6.0, 7.0, 1.0], "cuda"))
    got = x.cpu().tolist()
    assert got[0] == 1.0 and got[1] in (5.0, 6.0, 7.0) and got[2] == 0.0


@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put_refuses_values_that_overlap_self(accumulate):
    # The result would depend on the order of the writes: torch refuses such values on every device.
    for dev in ("cpu", "cuda"):
        x = on(np.arange(6.0), dev)
        with pytest.raises(RuntimeError, match="refer to a single memory location"):
            x.index_put_([on([1, 2, 3, 4, 5], dev)], x[:5], accumulate)


def test_index_put_with_masks():
    a, m = _values(np.float32, (3, 4)), _values(np.bool_, (3, 4), seed=6)

    def run(dev):
        x, mask = on(a, dev), on(m, dev)
        x.index_put_([mask], on(np.arange(float(m.sum())), dev, np.float32))
        x.index_put_([None, mask[1]], on([[-1.0]], dev, np.float32), True)
        x.index_put_([mask & False], on(9.0, dev, np.float32))  # nothing selected
        return x

    both(run)


PUT_ERRORS = {
    "values too big": lambda dev: ([on([0, 1], dev)], on(np.ones((3, 4)), dev)),
    "values don't broadcast": lambda dev: ([None, on([0, 1], dev)], on(np.ones((3, 3)), dev)),
    "dtype": lambda dev: ([on([0], dev)], on(np.ones(4, np.float32), dev)),
    "out of bounds": lambda dev: ([None, on([1, -5], dev)], on(1.0, dev)),
    "mask shape": lambda dev: ([on([True], dev)], on(1.0, dev)),
    "float index": lambda dev: ([on([1.0], dev)], on(1.0, dev)),
}


@pytest.mark.parametrize("accumulate", [False, True])
@pytest.mark.parametrize("make", PUT_ERRORS.values(), ids=PUT_ERRORS.keys())
def test_index_put_errors_match_cpu(make, accumulate):
    same_error(lambda dev: on(np.zeros((3, 4)), dev).index_put_(*make(dev), accumulate))


def test_index_put_writes_nothing_when_an_index_is_out_of_bounds():
    for accumulate in (False, True):
        x = on(np.zeros((2, 3)), "cuda")
        with pytest.raises(IndexError, match="index 3 is out of bounds for dimension 0 with size 3"):
            x.index_put_([None, on([0, 1, 3], "cuda")], on(1.0, "cuda"), accumulate)
        np.testing.assert_array_equal(x.cpu().numpy(), np.zeros((2, 3)))


def test_index_put_expanded_self_warns_as_cpu():
    def run(dev):
        x = on([1.0, 2.0], dev).expand(3, 2)
        with pytest.warns(UserWarning, match="index_put_ on expanded tensors is deprecated"):
            x.index_put_([on([0], dev)], on([5.0, 6.0], dev))
        return x

    both(run)


# --- x[index] and x[index] = value on cuda: tests/runtime/test_indexing.py's cases --------------------


class _On:
    """The yaten namespace with tensor factories that make their tensors on ``device``."""

    _FACTORIES = ("tensor", "ones", "zeros", "arange")

    def __init__(self, device):
        self.device = device

    def __getattr__(self, name):
        attr = getattr(yaten, name)
        if name in self._FACTORIES:
            return lambda *a, **k: attr(*a, **{"device": self.device, **k})
        return attr


def _x(dev, dtype="float32"):
    return on((np.arange(60) - 7).reshape(3, 4, 5), dev, dtype)


def _quiet(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # deprecation warnings: checked above and against torch
        return fn()


class _Key:
    def __getitem__(self, index):
        return index


def _eval(expr, dev, **names):
    return _quiet(lambda: eval(expr, {"M": _On(dev), "np": np, "_KEY": _Key(), **names}))


def _setitem(stmt, dev, x):
    target, value = stmt.split(" = ")
    base, key = target[: target.index("[")], target[target.index("[") + 1 : -1]
    assert target.endswith("]"), stmt
    x = _eval(base, dev, x=x)  # "x", or an expression of it such as x.to(M.uint8)
    index = _eval(f"_KEY[{key}]", dev, x=x)
    _quiet(lambda: x.__setitem__(index, _eval(value, dev, x=x)))
    return x


@pytest.mark.parametrize("expr", GETITEM)
def test_getitem_matches_cpu(expr):
    both(lambda dev: _eval(expr, dev, x=_x(dev)))


def test_getitem_with_host_index_tensors():
    # Index tensors on the CPU follow x to its device, as in torch.
    i, m = yaten.tensor([[0, 2]]), yaten.tensor([True, False, True, False])
    both(lambda dev: _x(dev)[i, m, 1:])


# The value of ``x[mask] = value`` for a one-element value: torch converts it to x's dtype
# (masked_fill_) only when it is on the CPU; on cuda here it is, as in torch, a device tensor, whose
# dtype must be x's (index_put_'s rule). And for a number torch makes the value on the CPU, where yaten
# makes it on x's device, so a uint8 mask goes through index_put_ (with its deprecation warning) instead
# of masked_fill_'s "only supports boolean masks" error.
_DEVICE_VALUE = [
    "x[M.tensor([True, False, True])] = M.tensor(2.9)",
    "x[M.tensor([True, False, True])] = M.tensor([2.9])",
]
_UINT8_MASK_NUMBER = "x[M.tensor([1, 0, 1], dtype=M.uint8)] = 4"
_UINT8_MASK_ONE = "x[:, M.tensor([1, 0, 1, 1], dtype=M.uint8)] = M.ones(1)"
_VALUE_ON_DEVICE = {*_DEVICE_VALUE, _UINT8_MASK_NUMBER, _UINT8_MASK_ONE}


@pytest.mark.parametrize("dtype, stmt", [(d, s) for d, s in SETITEM if s not in _VALUE_ON_DEVICE])
def test_setitem_matches_cpu(dtype, stmt):
    both(lambda dev: _setitem(stmt, dev, _x(dev, dtype)))


def test_setitem_one_element_device_value_and_uint8_mask():
    # The cases of _VALUE_ON_DEVICE on cuda: a device value keeps its dtype, as in torch...
    for stmt in _DEVICE_VALUE:
        with pytest.raises(RuntimeError, match="Index put requires the source and destination dtypes match"):
            _setitem(stmt, "cuda", _x("cuda", "int64"))
    # ... and a number written through a uint8 mask is index_put_'s (torch's CUDA says masked_fill_
    # refuses uint8 masks).
    want = _x("cpu").index_put_([yaten.tensor([True, False, True])], yaten.tensor(4.0))
    assert_same(_setitem(_UINT8_MASK_NUMBER, "cuda", _x("cuda")), want)
    want = _x("cpu").index_put_([None, yaten.tensor([True, False, True, True])], yaten.tensor(1.0))
    assert_same(_setitem(_UINT8_MASK_ONE, "cuda", _x("cuda")), want)


def test_setitem_masks_and_numbers():
    def run(dev):
        x = _x(dev)
        x[x > 20] = -1
        x[x[:, :, 0] < 0] = 2.5
        x[:, [True, False, True, False], [[1], [4]]] += 1
        x[[0, 0, 2], 1] = on([7.0], dev, np.float32)
        return x

    both(run)


@pytest.mark.parametrize("expr", ERRORS)
def test_getitem_errors_match_cpu(expr):
    same_error(lambda dev: _eval(expr, dev, x=_x(dev)))


@pytest.mark.parametrize("stmt", [s for s in SETITEM_ERRORS if s not in _VALUE_ON_DEVICE])
def test_setitem_errors_match_cpu(stmt):
    with pytest.raises(Exception) as cpu:
        _setitem(stmt, "cpu", _x("cpu"))
    with pytest.raises(type(cpu.value)) as dev:
        _setitem(stmt, "cuda", _x("cuda"))
    # A value of the wrong type is refused naming the tensor type, torch.cuda.FloatTensor on cuda.
    assert str(dev.value) == str(cpu.value).replace("torch.FloatTensor", "torch.cuda.FloatTensor")


# --- gradients -----------------------------------------------------------------------------------


def _grad(expr, dev):
    x = on(np.random.RandomState(0).randn(3, 4, 5), dev).requires_grad_()
    out = _eval(expr, dev, x=x)
    out.backward(on(np.random.RandomState(1).randn(*out.shape), dev))
    return out, x.grad


@pytest.mark.parametrize("expr", GRAD)
def test_getitem_gradient_matches_cpu(expr):
    # index's backward is index_put_ with accumulate: repeated indices add up on the device.
    both(lambda dev: _grad(expr, dev))


@pytest.mark.parametrize(
    "stmt",
    ["y[[0, 1]] = v * 2", "y[:, [1, 3]] = v[0]", "y[y > 0] = 0", "y[[2, 0, 2]] += v", "y[y < 0] = v[0, 0]"],
)
def test_advanced_setitem_gradient_matches_cpu(stmt):
    def run(dev):
        rs = np.random.RandomState(0)
        x = on(rs.randn(3, 4, 5), dev).requires_grad_()
        v = on(rs.randn(4, 5), dev).requires_grad_()
        y = x * 1
        _quiet(lambda: exec(stmt, {"y": y, "v": v}))
        (y * y).sum().backward()
        return x.grad, v.grad if v.grad is not None else yaten.zeros(0, device=dev)

    both(run)


def test_index_put_gradient_matches_cpu():
    def run(dev, accumulate):
        x = on(np.arange(12.0).reshape(3, 4), dev).requires_grad_()
        v = on(np.ones((2, 4)), dev).requires_grad_()
        out = x.index_put([on([2, 2], dev)], v * 3, accumulate)
        out.backward(on(np.arange(12.0).reshape(3, 4), dev))
        return out, x.grad, v.grad

    both(lambda dev: run(dev, False)[1:])  # the value written for a duplicate is unspecified on cuda
    both(lambda dev: run(dev, True))


# --- embedding -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"padding_idx": 1}, {"padding_idx": -2}, {"scale_grad_by_freq": True}, {"max_norm": 1.0}],
    ids=["plain", "padding_idx", "negative padding_idx", "scale_grad_by_freq", "max_norm"],
)
def test_embedding_matches_cpu(kwargs):
    w = np.random.RandomState(0).randn(5, 3) * 2
    idx = np.array([[1, 4, 1], [0, 1, 3]])

    def run(dev):
        weight = on(w, dev, np.float32).requires_grad_()
        out = F.embedding(on(idx, dev), weight, **kwargs)
        out.backward(on(np.arange(18.0).reshape(2, 3, 3), dev, np.float32))
        return out, weight.grad, weight.detach()  # max_norm renormalizes the used rows in place

    both(run)


def test_embedding_module_and_op_on_cuda():
    def run(dev):
        yaten.manual_seed(0)
        emb = yaten.nn.Embedding(6, 4, padding_idx=0).to(dev)
        out = emb(on([[0, 2, 5], [5, 5, 1]], dev))
        out.pow(2).sum().backward()
        direct = yaten.embedding(emb.weight, on([3, 3], dev, np.int32))
        return out, emb.weight.grad, direct

    both(run)
    same_error(lambda dev: F.embedding(on([0, 6], dev), on(np.zeros((6, 2)), dev)))


# --- the real-GPU code path --------------------------------------------------------------------


GPU_KERNELS = """
from yaten.kernels.cuda import advanced_index as A
from yaten.kernels.cuda.index import _ATOMIC
i64 = nt.int64
pos, idx = i64[::1], i64[:, ::1]
for k in (1, 3):
    ks = nt.UniTuple(i64, k)
    cuda.compile_ptx(A._first_bad_kernel.py_func, (idx, ks, i64, i64[::1]), cc=(9, 0))
    for r in (1, 4):
        rs = nt.UniTuple(i64, r)
        cuda.compile_ptx(A._positions_kernel.py_func, (pos, idx, ks, ks, rs, rs, i64, i64), cc=(9, 0))
for dt in [np.bool_, np.uint8, np.int8, np.int16, np.int32, np.int64, np.float16, np.float32, np.float64]:
    a = from_dtype(np.dtype(dt))[::1]
    cuda.compile_ptx(A._take_kernel.py_func, (a, a, pos), cc=(9, 0))
    cuda.compile_ptx(A._put_kernel.py_func, (a, pos, a), cc=(9, 0))
for dt in sorted(_ATOMIC, key=str):
    a = from_dtype(dt)[::1]
    cuda.compile_ptx(A._add_kernel.py_func, (a, pos, a), cc=(9, 0))
"""


def test_kernels_compile_for_a_gpu():
    compiles_for_a_gpu(GPU_KERNELS)
