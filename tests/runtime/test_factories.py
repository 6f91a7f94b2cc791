"""Tensor factories (runtime/_factories.py) and random numbers (runtime/_random.py) against PyTorch.

Deterministic factories are compared with torch value for value (bit for bit for arange and
linspace), with dtypes, shapes, strides and error types/messages. Random factories cannot match
torch's streams; they are checked for determinism under a seed, ranges and loose moments at a
fixed seed (so the checks cannot flake), and torch's argument errors.
"""

import doctest
import pickle
import warnings

import numpy as np
import pytest
import torch

import yaten
from yaten import _factories, _random


def _np(t) -> np.ndarray:
    return np.asarray(t)


def _same(y, t) -> None:
    """yaten tensor ``y`` equals torch tensor ``t``: dtype, shape and every bit of every value."""
    assert y.dtype.name == str(t.dtype).removeprefix("torch."), (y.dtype, t.dtype)
    assert tuple(y.shape) == tuple(t.shape)
    assert y.requires_grad == t.requires_grad
    np.testing.assert_array_equal(_np(y), t.detach().numpy(), strict=True)


def _raises_like(y_call, t_call):
    """Both calls raise the same exception type; returns the yaten message for further checks."""
    with pytest.raises(Exception) as t_err:
        t_call()
    with pytest.raises(Exception) as y_err:
        y_call()
    assert type(y_err.value) is type(t_err.value), (y_err.value, t_err.value)
    return str(y_err.value), str(t_err.value)


def _same_error(y_call, t_call) -> None:
    """Same exception type and message (up to the library's name)."""
    y_msg, t_msg = _raises_like(y_call, t_call)
    if "received an invalid combination of arguments" in t_msg:
        return  # torch lists its overloads; yaten names the bad argument instead
    t_msg = t_msg.replace("torch", "yaten").replace("PyTorch", "yaten")
    if t_msg.startswith("can't convert np.ndarray"):
        # torch's list of supported dtypes also has the wide unsigned ones
        y_msg, t_msg = y_msg.partition(". ")[0], t_msg.partition(". ")[0]
    assert y_msg == t_msg


# --- tensor(): dtype inference and values --------------------------------------------------------
DATA = [
    3, 2.5, True, -(2**63), [], [[], []], [[]], [1, 2, 3], [1.0, 2], [True, False], [True, 1], [True, 1.5],
    [[1, 2], [3, 4]], ((1, 2), (3, 4)), range(4), [range(2), range(2)], [[[1.5], [2]], [[3], [4]]],
    np.float64(1.5), np.float32(1.5), np.float16(1.5), np.int32(3), np.int8(-3), np.uint8(200), np.bool_(True),
    [np.float64(1), 2.0], [np.int32(1), 2], [np.int32(1), np.int32(2)], [np.float16(1), 1],
    1 + 2j, [1 + 2j, 3], [[1.5j], [True]], np.complex64(1j), [np.complex128(2j), 1.0],
    [np.uint8(1), np.int8(1)], [np.float32(1.5), True], [np.array([1, 2], np.int32), [3, 4]],
    [np.array([1.5])], np.array(5), np.array([[1, 2]], np.int16), np.zeros((2, 0, 3), np.float16),
    [1e39], [1e300, -1e300], yaten.Size([2, 3]),
]  # fmt: skip


@pytest.mark.parametrize("data", DATA, ids=repr)
def test_tensor_infers_dtype_as_torch(data):
    _same(yaten.tensor(data), torch.tensor(data))


def test_tensor_infers_from_tensors_in_a_list():
    _same(
        yaten.tensor([yaten.tensor(1.0), yaten.tensor(2)]), torch.tensor([torch.tensor(1.0), torch.tensor(2)])
    )
    _same(yaten.tensor([yaten.tensor(1), 2]), torch.tensor([torch.tensor(1), 2]))
    assert yaten.tensor([yaten.tensor([1.5], dtype=yaten.float64)]).dtype is yaten.float64


@pytest.mark.parametrize("arr", [np.arange(6).astype(d).reshape(2, 3) for d in
                                 ("float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint8", "bool")],
                         ids=lambda a: str(a.dtype))  # fmt: skip
def test_tensor_keeps_numpy_dtype(arr):
    _same(yaten.tensor(arr), torch.tensor(arr))


def test_default_dtype_drives_float_inference():
    yaten.set_default_dtype(yaten.float64)
    try:
        assert yaten.tensor([1.5]).dtype is yaten.float64
        assert yaten.tensor([]).dtype is yaten.float64
        assert yaten.tensor([1, 2]).dtype is yaten.int64
        assert yaten.tensor(np.float32(1)).dtype is yaten.float32
        assert yaten.arange(3.0).dtype is yaten.float64
        assert yaten.Tensor([1]).dtype is yaten.float64
    finally:
        yaten.set_default_dtype(yaten.float32)


CONVERSIONS = [
    ([1.7, -1.7], "int64"), ([-1, 255], "uint8"), ([-255], "uint8"), ([-1, 1.5], "uint8"), ([2, 0], "bool"),
    ([0.5, 0.0, float("nan")], "bool"), ([2**70], "float32"), ([2**63], "float64"), ([2**63], "bool"),
    ([65519.0], "float16"), ([1e300], "float32"), ([True, False], "float32"), ([127, -128], "int8"),
    (np.array([-1, 300]), "uint8"), (np.array([1.5, -2.5]), "int32"), (np.arange(4.0).reshape(2, 2), "float16"),
    ([np.int64(-1)], "uint8"), ([[1, 2], [3, 4]], "float64"),
]  # fmt: skip


@pytest.mark.parametrize("data, dtype", CONVERSIONS, ids=repr)
def test_tensor_converts_to_dtype_as_torch(data, dtype):
    _same(yaten.tensor(data, dtype=getattr(yaten, dtype)), torch.tensor(data, dtype=getattr(torch, dtype)))


@pytest.mark.parametrize("data, dtype", [([300], "uint8"), ([-256], "uint8"), ([128], "int8"), ([255.9], "uint8"),
                                         ([-0.5], "uint8"), ([float("nan")], "int64"), ([1e20], "int64"),
                                         ([float("inf")], "int32"), ([2**63], None), (2**63, "int64")])  # fmt: skip
def test_tensor_overflow_errors_as_torch(data, dtype):
    _same_error(
        lambda: yaten.tensor(data, dtype=dtype and getattr(yaten, dtype)),
        lambda: torch.tensor(data, dtype=dtype and getattr(torch, dtype)),
    )


@pytest.mark.parametrize("data", [
    [[1, 2], [3, 4, 5]], [[1, 2], [3]], [[[1], [2]], [[3], [4, 5]]], [[1, 2], 3], "abc", ["a"], [1, "a"],
    None, {1, 2}, {1: 2}, [yaten.ones(2), yaten.ones(2)], np.array([1], dtype=object), np.array(["a"]),
    np.arange(6.0)[::-2], np.array([1, 2], dtype=">i4"),
], ids=repr)  # fmt: skip
def test_tensor_errors_as_torch(data):
    t_data = (
        [torch.ones(2), torch.ones(2)]
        if isinstance(data, list) and isinstance(data[0], yaten.Tensor)
        else data
    )
    _same_error(lambda: yaten.tensor(data), lambda: torch.tensor(t_data))


def test_tensor_ragged_message():
    with pytest.raises(ValueError, match=r"^expected sequence of length 2 at dim 1 \(got 3\)$"):
        yaten.tensor([[1, 2], [3, 4, 5]])


def test_tensor_rejects_nested_sequence_where_number_expected():
    with pytest.raises(TypeError):
        yaten.tensor([1, [2, 3]])


def test_tensor_requires_grad():
    _same(yaten.tensor([1.0, 2.0], requires_grad=True), torch.tensor([1.0, 2.0], requires_grad=True))
    assert yaten.tensor(3.5, requires_grad=True).is_leaf
    _same_error(
        lambda: yaten.tensor([1, 2], requires_grad=True), lambda: torch.tensor([1, 2], requires_grad=True)
    )
    with pytest.raises(
        RuntimeError, match="Only Tensors of floating point and complex dtype can require gradients"
    ):
        yaten.tensor([True], requires_grad=True)
    assert yaten.tensor([1, 2], dtype=yaten.float64, requires_grad=True).requires_grad


def test_tensor_from_tensor_copies_and_warns():
    src = yaten.tensor([1.0, 2.0], requires_grad=True)
    with pytest.warns(UserWarning, match=r"^To copy construct from a tensor, it is recommended to use "
                                         r"sourceTensor\.detach\(\)\.clone\(\)"):  # fmt: skip
        out = yaten.tensor(src)
    assert not out.requires_grad and out.dtype is yaten.float32
    out._data[0] = 9.0
    assert src.tolist() == [1.0, 2.0]
    with pytest.warns(UserWarning):
        assert yaten.tensor(yaten.tensor([1, 2]), dtype=yaten.float64).tolist() == [1.0, 2.0]


def test_tensor_copy_preserves_dense_layout_as_torch():
    a = np.arange(12.0).reshape(3, 4)
    for view in (a.T, a[:, ::2], a.T.copy().T, np.broadcast_to(np.ones(3), (2, 3))):
        assert yaten.tensor(view).stride() == torch.tensor(view).stride()
        assert not np.shares_memory(_np(yaten.tensor(view)), view)


def test_tensor_dtype_argument_forms():
    assert yaten.tensor(1.5, dtype=float).dtype is yaten.float64
    assert yaten.tensor(1, dtype=int).dtype is yaten.int64
    assert yaten.tensor(1, dtype=bool).dtype is yaten.bool
    _same_error(lambda: yaten.tensor(1, dtype="float32"), lambda: torch.tensor(1, dtype="float32"))
    _same_error(lambda: yaten.tensor(1, dtype=np.float32), lambda: torch.tensor(1, dtype=np.float32))


def test_tensor_device_argument():
    for dev in ("cpu", yaten.device("cpu"), None):
        assert yaten.tensor([1], device=dev).device == yaten.device("cpu")
    with pytest.raises(RuntimeError, match="Expected one of cpu, cuda"):
        yaten.tensor([1], device="nope")


# --- from_numpy / as_tensor ----------------------------------------------------------------------
def test_from_numpy_shares_memory():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    t = yaten.from_numpy(a)
    assert t.dtype is yaten.int32 and t.shape == (2, 3)
    a[0, 0] = 42
    t._data[1, 2] = -7
    assert t.tolist() == [[42, 1, 2], [3, 4, -7]] and a[1, 2] == -7
    view = np.arange(12.0).reshape(3, 4)[:, ::2]
    assert yaten.from_numpy(view).stride() == torch.from_numpy(view).stride()
    assert yaten.from_numpy(np.array(3.0)).shape == ()


@pytest.mark.parametrize("arr", [[1, 2], np.array([1], dtype=object), np.array([1], dtype=">i4"),
                                 np.arange(4.0)[::-1], np.ones(3, dtype=[("a", "i4")]),
                                 np.ndarray((2,), np.int32, np.zeros(12, np.uint8), 1, (5,))], ids=repr)  # fmt: skip
def test_from_numpy_errors_as_torch(arr):
    _same_error(lambda: yaten.from_numpy(arr), lambda: torch.from_numpy(arr))


def test_from_numpy_warns_on_read_only():
    a = np.broadcast_to(np.ones(3), (2, 3))
    with pytest.warns(UserWarning, match="not writable"):
        t = yaten.from_numpy(a)
    assert t.stride() == (0, 1)


def test_as_tensor_shares_when_it_can():
    a = np.array([1.0, 2.0])
    t = yaten.as_tensor(a)
    a[0] = 5.0
    assert t.tolist() == [5.0, 2.0] and t.dtype is yaten.float64
    assert yaten.as_tensor(a, dtype=yaten.float64, device="cpu").tolist() == [5.0, 2.0]
    copy = yaten.as_tensor(a, dtype=yaten.float32)
    a[1] = -1.0
    assert copy.tolist() == [5.0, 2.0] and copy.dtype is yaten.float32
    src = yaten.tensor([1, 2])
    assert yaten.as_tensor(src) is src
    assert yaten.as_tensor(src, dtype=yaten.int64, device="cpu") is src
    _same(yaten.as_tensor([1, 2]), torch.as_tensor([1, 2]))
    _same(yaten.as_tensor(3.5), torch.as_tensor(3.5))
    _same_error(lambda: yaten.as_tensor(np.arange(3.0)[::-1]), lambda: torch.as_tensor(np.arange(3.0)[::-1]))


def test_as_tensor_converts_a_tensor():
    src = yaten.tensor([1, 2])
    out = yaten.as_tensor(src, dtype=yaten.float64)
    assert out.dtype is yaten.float64 and out.tolist() == [1.0, 2.0]


# --- sizes ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("args", [(2, 3), ((2, 3),), ([2, 3],), (yaten.Size([2, 3]),), (), ((),), ([],), (0,),
                                  (np.int64(3),), (yaten.tensor(3),)], ids=repr)  # fmt: skip
@pytest.mark.parametrize("fn", ["empty", "zeros", "ones", "rand", "randn"])
def test_size_forms(fn, args):
    t_args = tuple(torch.tensor(3) if isinstance(a, yaten.Tensor) else a for a in args)
    if not args:
        _same_error(lambda: getattr(yaten, fn)(*args), lambda: getattr(torch, fn)(*t_args))
        return
    out = getattr(yaten, fn)(*args)
    assert tuple(out.shape) == tuple(getattr(torch, fn)(*t_args).shape)
    assert out.dtype is yaten.float32


@pytest.mark.parametrize(
    "args", [(-1, 2), ((2, -3),), (2.0,), ((2, 3.0),), (2, (3,)), (True,), ("a",)], ids=repr
)
@pytest.mark.parametrize("fn", ["empty", "zeros", "ones", "rand", "randn"])
def test_size_errors_as_torch(fn, args):
    _same_error(lambda: getattr(yaten, fn)(*args), lambda: getattr(torch, fn)(*args))


def test_negative_size_message():
    with pytest.raises(
        RuntimeError, match=r"^Trying to create tensor with negative dimension -1: \[-1, 2\]$"
    ):
        yaten.empty(-1, 2)


def test_size_keyword():
    assert yaten.zeros(size=(2, 3)).shape == (2, 3)
    assert yaten.rand(size=[4]).shape == (4,)


# --- filled tensors -------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [None, "float64", "float16", "int64", "int32", "uint8", "bool"])
@pytest.mark.parametrize("fn", ["zeros", "ones"])
def test_zeros_ones_as_torch(fn, dtype):
    _same(getattr(yaten, fn)(2, 3, dtype=dtype and getattr(yaten, dtype)),
          getattr(torch, fn)(2, 3, dtype=dtype and getattr(torch, dtype)))  # fmt: skip


def test_empty_has_shape_dtype_and_flags():
    t = yaten.empty((2, 3), dtype=yaten.int16)
    assert t.shape == (2, 3) and t.dtype is yaten.int16 and t.is_contiguous()
    assert yaten.empty(3, requires_grad=True).requires_grad
    assert yaten.empty_strided((2, 3), (1, 2)).stride() == torch.empty_strided((2, 3), (1, 2)).stride()


@pytest.mark.parametrize("value, dtype", [
    (True, None), (3, None), (3.5, None), (np.float64(3.5), None), (np.int32(3), None), (np.bool_(True), None),
    (np.float16(1.5), None), (yaten.tensor(3), None), (yaten.tensor(3.0, dtype=yaten.float64), None),
    (yaten.tensor(True), None), (3.7, "int64"), (-1, "uint8"), (-255, "uint8"), (float("inf"), "float16"),
    (2**63, "float32"), (2.5, "bool"), (True, "float32"), (1e39, "float64"), (float("nan"), "float32"),
], ids=repr)  # fmt: skip
def test_full_as_torch(value, dtype):
    t_value = (
        torch.tensor(value.item(), dtype=getattr(torch, value.dtype.name))
        if isinstance(value, yaten.Tensor)
        else value
    )
    _same(yaten.full((2, 2), value, dtype=dtype and getattr(yaten, dtype)),
          torch.full((2, 2), t_value, dtype=dtype and getattr(torch, dtype)))  # fmt: skip


@pytest.mark.parametrize("size, value, dtype", [
    ((2,), 300, "uint8"), ((2,), -256, "uint8"), ((2,), float("nan"), "int32"), ((2,), 1e300, None),
    ((2,), 65520.0, "float16"), ((2,), 2**63, None), ((2,), 128, "int8"), ((2,), 255.5, "uint8"),
    ((2,), "a", None), ((2,), None, None), (2, 3, None), ((-1, 2), 1.0, None), ((2,), 2**64, None),
], ids=repr)  # fmt: skip
def test_full_errors_as_torch(size, value, dtype):
    _same_error(lambda: yaten.full(size, value, dtype=dtype and getattr(yaten, dtype)),
                lambda: torch.full(size, value, dtype=dtype and getattr(torch, dtype)))  # fmt: skip


def test_full_rejects_multi_element_tensor():
    with pytest.raises(TypeError, match="must be Number, not Tensor"):
        yaten.full((2,), yaten.tensor([3.0]))


@pytest.mark.parametrize("args, dtype", [((3,), None), ((2, 3), "int32"), ((0,), None), ((3,), "bool"),
                                         ((2, 4), "float64"), ((4, 2), "uint8")])  # fmt: skip
def test_eye_as_torch(args, dtype):
    _same(
        yaten.eye(*args, dtype=dtype and getattr(yaten, dtype)),
        torch.eye(*args, dtype=dtype and getattr(torch, dtype)),
    )


@pytest.mark.parametrize("args", [(-1,), (2, -1), (2.5,), (2, 1.5)], ids=repr)
def test_eye_errors_as_torch(args):
    _same_error(lambda: yaten.eye(*args), lambda: torch.eye(*args))


# --- requires_grad, dtype and device arguments of every factory -----------------------------------
FACTORIES = {
    "empty": ((2,), {}), "zeros": ((2,), {}), "ones": ((2,), {}), "full": (((2,), 1.5), {}), "eye": ((2,), {}),
    "arange": ((3.0,), {}), "linspace": ((0, 1, 3), {}), "rand": ((2,), {}), "randn": ((2,), {}),
    "randint": ((5, (2,)), {"dtype": "float32"}), "randperm": ((3,), {"dtype": "float32"}),
    "normal": ((0.0, 1.0, (2,)), {}),
}  # fmt: skip


@pytest.mark.parametrize("name", FACTORIES)
def test_factory_requires_grad_and_options(name):
    args, kw = FACTORIES[name]
    y_kw = {k: getattr(yaten, v) for k, v in kw.items()}
    t_kw = {k: getattr(torch, v) for k, v in kw.items()}
    out = getattr(yaten, name)(*args, requires_grad=True, **y_kw)
    ref = getattr(torch, name)(*args, requires_grad=True, **t_kw)
    assert out.requires_grad and out.is_leaf and out.dtype.name == str(ref.dtype)[6:]
    assert not getattr(yaten, name)(*args, **y_kw).requires_grad
    out64 = getattr(yaten, name)(*args, **{**y_kw, "dtype": yaten.float64}, device="cpu")
    assert out64.dtype is yaten.float64 and out64.device == yaten.device("cpu")
    _same_error(lambda: getattr(yaten, name)(*args, **{**y_kw, "dtype": yaten.int32}, requires_grad=True),
                lambda: getattr(torch, name)(*args, **{**t_kw, "dtype": torch.int32}, requires_grad=True))  # fmt: skip
    _same_error(lambda: getattr(yaten, name)(*args, **{**y_kw, "dtype": "float"}),
                lambda: getattr(torch, name)(*args, **{**t_kw, "dtype": "float"}))  # fmt: skip


# --- arange and linspace: bit for bit ----------------------------------------------------------------
ARANGE = [
    (5,), (5.0,), (1, 4), (0, 1, 0.25), (0, 5, 2), (5, 0, -1), (-5, 5, 3), (5, -5, -3), (1, 2, 0.1), (0.1, 0.4, 0.1),
    (0, 10, 3), (0, 2.5), (0.5, 5), (-2.5, 5), (0, 5.5, 1.5), (10, 0, -2.5), (0, 1, 1 / 3), (3.7, -20.2, -0.3),
    (-7.25, 1000.5, 0.77), (0, 30000, 1.1), (1e-3, 12.0, 0.0137), (2**62, 2**62 + 3), (np.int32(3),),
    (np.float32(3),), (True,), (0, 10, np.float64(2.5)), (yaten.tensor(3),), (yaten.tensor(3.0),),
]  # fmt: skip


@pytest.mark.parametrize("dtype", [None, "float32", "float64", "float16", "int64", "int32", "int16", "uint8"])
@pytest.mark.parametrize("args", ARANGE, ids=repr)
def test_arange_matches_torch_bitwise(args, dtype):
    t_args = tuple(torch.tensor(a.item()) if isinstance(a, yaten.Tensor) else a for a in args)
    y_dt, t_dt = (None, None) if dtype is None else (getattr(yaten, dtype), getattr(torch, dtype))
    try:
        ref = torch.arange(*t_args, dtype=t_dt)
    except (RuntimeError, TypeError, ValueError, NotImplementedError):
        _same_error(lambda: yaten.arange(*args, dtype=y_dt), lambda: torch.arange(*t_args, dtype=t_dt))
        return
    _same(yaten.arange(*args, dtype=y_dt), ref)


def test_arange_keywords():
    _same(yaten.arange(start=1, end=4), torch.arange(start=1, end=4))
    _same(yaten.arange(end=4), torch.arange(end=4))
    _same(yaten.arange(1, 4, step=2), torch.arange(1, 4, step=2))


@pytest.mark.parametrize("args, dtype", [
    ((0, 5, -1), None), ((5, 0), None), ((0, 5, 0), None), ((0, 5, 0.0), None), ((0, 1, 0.3), "int64"),
    ((0, float("inf")), None), ((0, float("nan")), None), ((5,), "bool"), (("a",), None), ((None,), None),
    ((0, 2**63 - 1, 2**62), None), ((0, 1e20, 1e18), "int64"),
], ids=repr)  # fmt: skip
def test_arange_errors_as_torch(args, dtype):
    _same_error(lambda: yaten.arange(*args, dtype=dtype and getattr(yaten, dtype)),
                lambda: torch.arange(*args, dtype=dtype and getattr(torch, dtype)))  # fmt: skip


def test_arange_error_words():
    with pytest.raises(RuntimeError, match="upper bound and lower bound inconsistent with step sign"):
        yaten.arange(0, 5, -1)
    with pytest.raises(RuntimeError, match="step must be nonzero"):
        yaten.arange(0, 5, 0)


LINSPACE = [
    (0, 1, 5), (0, 1, 1), (0, 1, 0), (0, 1, 2), (3, 3, 4), (-1.3, 7.9, 11), (0.1, 1e4, 1001), (10, -3.3, 20000),
    (1 / 3, 2 / 3, 100), (-100, 100, 33), (0, 255, 5), (-3, 3, 7), (0.7, 10.3, 5), (10, 0, 4), (float("nan"), 1, 3),
    (yaten.tensor(0.5), yaten.tensor(2), 6), (0, 1, np.int64(3)),
]  # fmt: skip


@pytest.mark.parametrize("dtype", [None, "float64", "float16", "int64", "int32", "int8", "uint8"])
@pytest.mark.parametrize("args", LINSPACE, ids=repr)
def test_linspace_matches_torch_bitwise(args, dtype):
    t_args = tuple(torch.tensor(a.item()) if isinstance(a, yaten.Tensor) else a for a in args)
    y_dt, t_dt = (None, None) if dtype is None else (getattr(yaten, dtype), getattr(torch, dtype))
    try:
        ref = torch.linspace(*t_args, dtype=t_dt)
    except (RuntimeError, TypeError, ValueError, NotImplementedError):
        _same_error(lambda: yaten.linspace(*args, dtype=y_dt), lambda: torch.linspace(*t_args, dtype=t_dt))
        return
    _same(yaten.linspace(*args, dtype=y_dt), ref)


def test_linspace_float32_random_cases_bitwise():
    rng = np.random.default_rng(5)
    for _ in range(200):
        start, end = (float(v) for v in rng.uniform(-1000, 1000, 2))
        steps = int(rng.integers(2, 3000))
        _same(yaten.linspace(start, end, steps), torch.linspace(start, end, steps))
        # Up to 32768 elements torch's kernel runs in one piece; beyond, its split depends on its thread count.
        step = (end - start) / float(rng.uniform(1, 32768))
        _same(yaten.arange(start, end, step), torch.arange(start, end, step))


@pytest.mark.parametrize("args, dtype", [((0, 1, -1), None), ((0, 1, 3), "bool"), ((-300, 0, 3), "uint8"),
                                         ((300, 0, 1), "uint8"), ((1e39, 0, 3), None), ((0, 1e20, 3), "int64")],
                         ids=repr)  # fmt: skip
def test_linspace_errors_as_torch(args, dtype):
    _same_error(lambda: yaten.linspace(*args, dtype=dtype and getattr(yaten, dtype)),
                lambda: torch.linspace(*args, dtype=dtype and getattr(torch, dtype)))  # fmt: skip


def test_linspace_argument_errors():
    with pytest.raises(TypeError):
        yaten.linspace(0, 1, 2.0)
    with pytest.raises(TypeError):
        yaten.linspace(0, 1)
    _same_error(
        lambda: yaten.linspace(yaten.tensor([0.0]), 1, 3), lambda: torch.linspace(torch.tensor([0.0]), 1, 3)
    )


# --- *_like ---------------------------------------------------------------------------------------
def _layouts():
    a = np.zeros((2, 3, 4), np.float32)
    return [a, a.transpose(2, 0, 1), a.transpose(2, 0, 1)[::2], a[:, :, ::2].transpose(1, 0, 2), a[:, :1],
            np.zeros((3, 1), np.float32).T, np.broadcast_to(np.zeros((4, 1), np.float32), (4, 3)).T,
            np.zeros((2, 0, 3), np.float32).transpose(2, 1, 0)]  # fmt: skip


@pytest.mark.parametrize("fn", ["empty_like", "zeros_like", "ones_like", "rand_like", "randn_like"])
def test_like_preserves_layout_as_torch(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # read-only broadcast views
        for arr in _layouts():
            y_in, t_in = yaten.from_numpy(arr), torch.from_numpy(arr)
            y, t = getattr(yaten, fn)(y_in), getattr(torch, fn)(t_in)
            assert y.shape == t.shape and y.stride() == t.stride(), (arr.shape, arr.strides)
            assert y.dtype is yaten.float32 and y.device == y_in.device


def test_like_values_dtypes_and_flags():
    src = yaten.tensor([[1, 2, 3]])
    _same(yaten.zeros_like(src), torch.zeros_like(torch.tensor([[1, 2, 3]])))
    _same(
        yaten.ones_like(src, dtype=yaten.float64),
        torch.ones_like(torch.tensor([[1, 2, 3]]), dtype=torch.float64),
    )
    _same(yaten.full_like(src, 3.7), torch.full_like(torch.tensor([[1, 2, 3]]), 3.7))
    _same(
        yaten.full_like(src, 3.7, dtype=yaten.float16),
        torch.full_like(torch.tensor([[1, 2, 3]]), 3.7, dtype=torch.float16),
    )
    _same(yaten.full_like(yaten.ones(2), 3), torch.full_like(torch.ones(2), 3))
    assert yaten.empty_like(src).dtype is yaten.int64
    assert not yaten.ones_like(yaten.ones(2, requires_grad=True)).requires_grad
    assert yaten.zeros_like(yaten.ones(2), requires_grad=True).requires_grad
    t = yaten.from_numpy(np.zeros((3, 4), np.float32).T)
    assert yaten.zeros_like(t, memory_format="contiguous_format").stride() == (3, 1)
    assert yaten.randint_like(yaten.ones(2), 10).dtype is yaten.float32
    assert yaten.randint_like(yaten.ones(2, dtype=yaten.int8), 3, 10).dtype is yaten.int8


@pytest.mark.parametrize("call", [
    lambda m: m.zeros_like([1, 2]), lambda m: m.ones_like(m.ones(2, dtype=m.int64), requires_grad=True),
    lambda m: m.full_like(m.ones(2, dtype=m.uint8), 300), lambda m: m.rand_like(m.ones(2, dtype=m.int64)),
    lambda m: m.randn_like(m.ones(2, dtype=m.int64)), lambda m: m.randint_like(m.ones(2, dtype=m.int8), 300),
    lambda m: m.full_like(m.ones(2), "a"),
])  # fmt: skip
def test_like_errors_as_torch(call):
    _same_error(lambda: call(yaten), lambda: call(torch))


# --- legacy constructor and pickling helper --------------------------------------------------------
def test_legacy_constructor():
    _same(yaten.Tensor([1, 2]), torch.Tensor([1, 2]))
    _same(yaten.Tensor([True]), torch.Tensor([True]))
    _same(yaten.Tensor((2, 3)), torch.Tensor((2, 3)))
    _same(yaten.Tensor(np.array([1, 2])), torch.Tensor(np.array([1, 2])))
    assert yaten.Tensor(2, 3).shape == (2, 3) and yaten.Tensor(2, 3).dtype is yaten.float32
    assert yaten.Tensor(yaten.Size([2, 3])).shape == (2, 3)
    assert yaten.Tensor(0).shape == (0,) and yaten.Tensor(2, device="cpu").shape == (2,)
    src = yaten.tensor([1, 2])
    alias = yaten.Tensor(src)
    alias._data[0] = 7
    assert alias is not src and src.tolist() == [7, 2] and alias.dtype is yaten.int64


@pytest.mark.parametrize("args", [(2.5,), (None,), (np.float64(2.5),), (-1,), (2, -3), (2, 3.0), ([[1, 2], [3]],),
                                  ("ab",)], ids=repr)  # fmt: skip
def test_legacy_constructor_errors_as_torch(args):
    _same_error(lambda: yaten.Tensor(*args), lambda: torch.Tensor(*args))


def test_tensor_from_host_rebuilds():
    host = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    t = _factories.tensor_from_host(host.copy(), "cpu", True)
    assert t.requires_grad and t.device == yaten.device("cpu") and t.tolist() == host.tolist()
    rebuilt = pickle.loads(pickle.dumps((_factories.tensor_from_host, (host, "cpu", False))))
    assert rebuilt[0] is _factories.tensor_from_host and not rebuilt[0](*rebuilt[1]).requires_grad


# --- random numbers ---------------------------------------------------------------------------------
def test_default_seed_is_torchs():
    assert yaten.Generator().initial_seed() == torch.Generator().initial_seed()


def test_seeded_draws_repeat_and_differ():
    draws = {
        "rand": lambda g: yaten.rand(50, generator=g),
        "randn": lambda g: yaten.randn(5, 10, generator=g, dtype=yaten.float64),
        "randint": lambda g: yaten.randint(-5, 5, (50,), generator=g),
        "randperm": lambda g: yaten.randperm(50, generator=g),
        "normal": lambda g: yaten.normal(1.0, 2.0, (50,), generator=g),
        "normal_t": lambda g: yaten.normal(yaten.zeros(50), yaten.ones(50), generator=g),
        "bernoulli": lambda g: yaten.bernoulli(yaten.full((50,), 0.5), generator=g),
        "rand_like": lambda g: yaten.rand_like(yaten.zeros(50), generator=g),
    }
    for name, draw in draws.items():
        a = draw(yaten.Generator().manual_seed(123)).tolist()
        b = draw(yaten.Generator().manual_seed(123)).tolist()
        c = draw(yaten.Generator().manual_seed(124)).tolist()
        assert a == b, name
        assert a != c, name


def test_global_manual_seed_resets_the_stream():
    assert yaten.manual_seed(7) is yaten.default_generator
    a = yaten.rand(10).tolist() + yaten.randn(3).tolist()
    yaten.manual_seed(7)
    assert yaten.rand(10).tolist() + yaten.randn(3).tolist() == a
    yaten.manual_seed("7")  # torch.manual_seed converts with int()
    assert yaten.rand(10).tolist() == a[:10]
    assert yaten.initial_seed() == 7
    assert yaten.rand(10).tolist() != a[:10]


def test_stream_is_pinned_across_runs():
    # The same seed gives the same numbers in every process: these values pin the stream.
    floats = yaten.rand(3, generator=yaten.Generator().manual_seed(0), dtype=yaten.float64)
    assert floats.tolist() == [0.6369616873214543, 0.2697867137638703, 0.04097352393619469]
    ints = yaten.randint(0, 1000, (4,), generator=yaten.Generator().manual_seed(0))
    assert ints.tolist() == [850, 636, 511, 269]


def test_generator_state_roundtrip():
    g = yaten.Generator().manual_seed(99)
    yaten.rand(3, generator=g)  # leaves a buffered half-draw in the engine
    state = g.get_state()
    assert state.dtype is yaten.uint8 and state.ndim == 1
    a = yaten.rand(5, generator=g).tolist() + yaten.randint(0, 10**9, (3,), generator=g).tolist()
    other = yaten.Generator().set_state(state)
    assert other.initial_seed() == 99
    assert (
        yaten.rand(5, generator=other).tolist() + yaten.randint(0, 10**9, (3,), generator=other).tolist() == a
    )
    saved = yaten.get_rng_state()
    b = yaten.randn(4).tolist()
    yaten.set_rng_state(saved)
    assert yaten.randn(4).tolist() == b


def test_generator_seed_arguments():
    g = yaten.Generator()
    assert g.manual_seed(-1) is g and g.initial_seed() == torch.Generator().manual_seed(-1).initial_seed()
    assert g.manual_seed(-(2**63)).initial_seed() == 2**63
    assert g.manual_seed(2**64 - 1).initial_seed() == 2**64 - 1
    for bad in (1.5, "1", 2**64, -(2**63) - 1):
        _same_error(
            lambda s=bad: yaten.Generator().manual_seed(s), lambda s=bad: torch.Generator().manual_seed(s)
        )
    s = yaten.seed()
    assert 0 <= s < 2**64 and yaten.initial_seed() == s
    s2 = g.seed()
    assert g.initial_seed() == s2
    assert yaten.Generator("cpu").device == yaten.device("cpu")


def test_set_state_errors():
    g = yaten.Generator()
    with pytest.raises(RuntimeError, match="found the input RNG state size to be 3"):
        g.set_state(yaten.zeros(3, dtype=yaten.uint8))
    with pytest.raises(TypeError, match="RNG state must be a yaten.ByteTensor"):
        g.set_state(yaten.zeros(56))
    with pytest.raises(TypeError, match="expected a yaten.ByteTensor, but got list"):
        g.set_state([1, 2])


def test_rand_range_and_moments():
    g = yaten.Generator().manual_seed(2024)
    for dt in (yaten.float32, yaten.float64, yaten.float16):
        x = _np(yaten.rand(200_000, generator=g, dtype=dt))
        assert x.dtype == dt.np and x.min() >= 0 and x.max() < 1
        assert abs(x.mean(dtype=np.float64) - 0.5) < 0.01 and abs(x.var(dtype=np.float64) - 1 / 12) < 0.005


def test_randn_and_normal_moments():
    g = yaten.Generator().manual_seed(11)
    for dt in (yaten.float32, yaten.float64, yaten.float16):
        z = _np(yaten.randn(200_000, generator=g, dtype=dt)).astype(np.float64)
        assert abs(z.mean()) < 0.02 and abs(z.std() - 1) < 0.02
    x = _np(yaten.normal(3.0, 0.5, (200_000,), generator=g)).astype(np.float64)
    assert abs(x.mean() - 3.0) < 0.01 and abs(x.std() - 0.5) < 0.01
    m = yaten.tensor([[0.0], [10.0]])
    s = yaten.tensor([1.0, 0.0, 2.0] * 1000)
    y = _np(yaten.normal(m, s, generator=g))
    assert y.shape == (2, 3000) and y.dtype == np.float32
    assert (y[:, 1::3] == [[0.0], [10.0]]).all()  # std 0 gives the mean exactly
    assert abs(y[1, 2::3].std() - 2.0) < 0.2 and abs(y[1, 0::3].mean() - 10.0) < 0.15
    assert _np(yaten.normal(yaten.zeros(2, dtype=yaten.float64), 1.0)).dtype == np.float64
    assert yaten.normal(0.0, yaten.ones(2, 3)).shape == (2, 3)
    assert yaten.normal(yaten.zeros(2), yaten.ones(2, dtype=yaten.float64)).dtype is yaten.float32


def test_randint_range_and_coverage():
    g = yaten.Generator().manual_seed(5)
    x = _np(yaten.randint(-3, 4, (10_000,), generator=g))
    assert x.dtype == np.int64 and set(np.unique(x)) == set(range(-3, 4))
    assert abs(x.mean()) < 0.1
    assert yaten.randint(10, (3, 2)).shape == (3, 2)
    assert yaten.randint(high=10, size=(3,)).dtype is yaten.int64
    assert yaten.randint(low=3, high=10, size=[2]).shape == (2,)
    b = _np(yaten.randint(0, 2, (1000,), dtype=yaten.bool, generator=g))
    assert b.dtype == np.bool_ and 0 < b.sum() < 1000
    f = _np(yaten.randint(0, 10, (100,), dtype=yaten.float32, generator=g))
    assert f.dtype == np.float32 and (f == np.round(f)).all() and f.min() >= 0 and f.max() <= 9
    full_range = _np(yaten.randint(-(2**63), 2**63 - 1, (100,), generator=g))
    assert full_range.min() < -(2**60) and full_range.max() > 2**60


def test_randperm_is_a_permutation():
    g = yaten.Generator().manual_seed(3)
    for n in (0, 1, 2, 100, 1000):
        p = _np(yaten.randperm(n, generator=g))
        assert p.dtype == np.int64 and sorted(p.tolist()) == list(range(n))
    p = _np(yaten.randperm(128, dtype=yaten.int8))
    assert sorted(p.tolist()) == list(range(128))
    assert yaten.randperm(1000).tolist() != list(range(1000))


def test_bernoulli_frequencies():
    g = yaten.Generator().manual_seed(8)
    p = yaten.tensor([0.0, 0.25, 1.0] * 20000)
    x = _np(yaten.bernoulli(p, generator=g))
    assert x.dtype == np.float32 and set(np.unique(x)) <= {0.0, 1.0}
    assert (x[0::3] == 0).all() and (x[2::3] == 1).all() and abs(x[1::3].mean() - 0.25) < 0.01
    y = _np(yaten.bernoulli(yaten.zeros(10_000, dtype=yaten.int64), 0.75, generator=g))
    assert y.dtype == np.int64 and abs(y.mean() - 0.75) < 0.02
    assert yaten.bernoulli(yaten.zeros(3, dtype=yaten.float64), p=1.0).tolist() == [1.0, 1.0, 1.0]


RANDOM_ERRORS = [
    lambda m: m.rand(2, dtype=m.int64), lambda m: m.rand(2, dtype=m.bool), lambda m: m.randn(2, dtype=m.int32),
    lambda m: m.randint(5, 5, (3,)), lambda m: m.randint(6, 5, (3,)), lambda m: m.randint(0, 3, (3,), dtype=m.bool),
    lambda m: m.randint(0, 300, (3,), dtype=m.uint8), lambda m: m.randint(-1, 3, (3,), dtype=m.uint8),
    lambda m: m.randint(0, 2**63, (3,)), lambda m: m.randint(10, 3), lambda m: m.randint(0, 10, (3,), requires_grad=True),
    lambda m: m.randint(0, 10, (-1, 2)), lambda m: m.randperm(-1), lambda m: m.randperm(200, dtype=m.int8),
    lambda m: m.randperm(3, dtype=m.bool), lambda m: m.randperm(5, requires_grad=True), lambda m: m.randperm(5.0),
    lambda m: m.normal(0.0, -1.0, (2,)), lambda m: m.normal(0.0, 1.0, (2,), dtype=m.int64), lambda m: m.normal(0.0, 1.0),
    lambda m: m.normal(m.zeros(2, 3), m.ones(6)), lambda m: m.normal(m.zeros(5), m.ones(6)),
    lambda m: m.normal(m.zeros(2, dtype=m.int64), 1.0), lambda m: m.normal(0.0, m.ones(2, dtype=m.int64)),
    lambda m: m.normal(m.zeros(2), -1.0), lambda m: m.normal(m.zeros(2), m.tensor([1.0, -1.0])),
    lambda m: m.normal(m.zeros(2), m.tensor([1.0, float("nan")])), lambda m: m.normal(m.zeros(2), 1.0, (3,)),
    lambda m: m.bernoulli(m.tensor([2.0])), lambda m: m.bernoulli(m.tensor([float("nan")])),
    lambda m: m.bernoulli(m.tensor([1, 0])), lambda m: m.bernoulli(m.zeros(3), 1.5), lambda m: m.bernoulli([0.5]),
    lambda m: m.bernoulli(m.zeros(3), -0.1), lambda m: m.rand(2, generator=5),
]  # fmt: skip


@pytest.mark.parametrize("call", RANDOM_ERRORS)
def test_random_errors_as_torch(call):
    _raises_like(lambda: call(yaten), lambda: call(torch))


def test_random_error_words():
    with pytest.raises(
        RuntimeError, match=r"^random_ expects 'from' to be less than 'to', but got from=5 >= to=5$"
    ):
        yaten.randint(5, 5, (3,))
    with pytest.raises(RuntimeError, match=r"^to - 1 is out of bounds for unsigned char$"):
        yaten.randint(0, 300, (3,), dtype=yaten.uint8)
    with pytest.raises(RuntimeError, match=r"^normal expects std >= 0.0, but found std -1$"):
        yaten.normal(0.0, -1.0, (2,))
    with pytest.raises(RuntimeError, match=r"^bernoulli_ expects p to be in \[0, 1\], but got p=1.5$"):
        yaten.bernoulli(yaten.zeros(3), 1.5)
    with pytest.raises(NotImplementedError, match="\"check_uniform_bounds\" not implemented for 'Long'"):
        yaten.rand(2, dtype=yaten.int64)
    with pytest.warns(UserWarning, match=r"to - 1 is out of bounds \[-\(2\^24\), 2\^24\]"):
        yaten.randint(0, 2**25, (3,), dtype=yaten.float32)
    with pytest.raises(RuntimeError, match="Expected a 'cpu' device type for generator but found 'cuda'"):
        yaten.rand(2, generator=yaten.Generator("cuda"))


def test_fill_uniform_and_normal():
    g = yaten.Generator().manual_seed(1)
    t = yaten.empty(100_000)
    version = t._version
    assert _random.fill_uniform_(t, -2.0, 3.0, g) is t and t._version == version + 1
    x = _np(t)
    assert x.min() >= -2 and x.max() < 3 and abs(x.mean() - 0.5) < 0.03
    t64 = yaten.empty(100_000, dtype=yaten.float64)
    z = _np(_random.fill_normal_(t64, 1.0, 0.02, g))
    assert abs(z.mean() - 1.0) < 0.001 and abs(z.std() - 0.02) < 0.001
    a = _np(_random.fill_uniform_(yaten.empty(5), generator=yaten.Generator().manual_seed(4))).tolist()
    assert (
        _np(_random.fill_uniform_(yaten.empty(5), generator=yaten.Generator().manual_seed(4))).tolist() == a
    )


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_uniform_never_rounds_up_to_its_upper_bound(dtype):
    # In a narrow dtype, from + (to - from) * u rounds up to ``to`` for the largest draws; torch's range
    # is [from, to) in every dtype.
    x = yaten.empty(1_000_000, dtype=getattr(yaten, dtype)).uniform_(2.0, 3.0).float()
    assert x.max().item() < 3 and x.min().item() >= 2
    assert yaten.empty(4, dtype=getattr(yaten, dtype)).uniform_(2.0, 2.0).eq(2).all()


@pytest.mark.parametrize("call", [
    lambda m: m.empty(3).uniform_(2, 1),
    lambda m: m.empty(3).uniform_(0, float("inf")),
    lambda m: m.empty(3).normal_(0, -1),
    lambda m: m.empty(3, dtype=m.int64).uniform_(),
    lambda m: m.empty(3, dtype=m.int64).normal_(),
    lambda m: m.empty(3, requires_grad=True).uniform_(),
])  # fmt: skip
def test_fill_errors_as_torch(call):
    _same_error(lambda: call(yaten), lambda: call(torch))


def test_tensor_uniform_and_normal_fill_in_place():
    t = yaten.empty(1000)
    assert t.uniform_(-1, to=2, generator=yaten.Generator().manual_seed(0)) is t
    assert float(t.min()) >= -1 and float(t.max()) < 2
    assert t.normal_(mean=5.0, std=0.0) is t and t.tolist() == [5.0] * 1000


# --- docs -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("module", [_factories, _random], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
    assert not [n for n in module.__all__ if ">>>" not in (getattr(module, n).__doc__ or "")]


@pytest.mark.parametrize("expr", ["zeros(0, 3)", "ones(2, 0, 3)", "zeros(0)", "tensor([])", "empty(4, 0)"])
def test_new_empty_tensors_have_contiguous_strides_as_torch(expr):
    assert eval(f"yaten.{expr}").stride() == eval(f"torch.{expr}").stride()
