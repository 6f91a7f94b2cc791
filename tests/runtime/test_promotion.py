"""Type promotion and broadcasting (runtime/_promotion.py) side by side with PyTorch.

The full 10 x 10 ``promote_types`` and ``can_cast`` tables, ``result_type`` across PyTorch's three
tiers (dimensioned tensors, 0-d tensors, Python numbers), ``broadcast_shapes`` and the broadcast of
elementwise ops (``infer_size``), with exception types and messages.
"""

import itertools

import numpy as np
import pytest
import torch

import yaten
from yaten._promotion import infer_size

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]
PAIRS = list(itertools.product(DTYPES, DTYPES))


def _name(x) -> str:
    return str(x).replace("torch.", "yaten.")


def _outcome(call, m):
    try:
        return _name(call(m))
    except Exception as e:  # the comparison below is on the type and the message
        return type(e), _name(e)


def _same(call) -> None:
    assert _outcome(call, yaten) == _outcome(call, torch)


def test_promote_types_table_as_torch():
    got = {(a, b): yaten.promote_types(getattr(yaten, a), getattr(yaten, b)).name for a, b in PAIRS}
    want = {(a, b): _name(torch.promote_types(getattr(torch, a), getattr(torch, b))) for a, b in PAIRS}
    assert got == {k: v.removeprefix("yaten.") for k, v in want.items()}


def test_can_cast_table_as_torch():
    got = {(a, b): yaten.can_cast(getattr(yaten, a), getattr(yaten, b)) for a, b in PAIRS}
    want = {(a, b): torch.can_cast(getattr(torch, a), getattr(torch, b)) for a, b in PAIRS}
    assert got == want


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.promote_types(m.float32, 1),
        lambda m: m.promote_types("float", m.float32),
        lambda m: m.can_cast(m.float32, 1),
        lambda m: m.can_cast(None, m.float32),
        lambda m: m.can_cast(from_=m.int32, to=m.bool),
    ],
)
def test_dtype_argument_errors_as_torch(call):
    _same(call)


def _t(dtype, *shape):
    """A tensor maker for both libraries: ``shape`` () is a 0-d tensor."""
    return lambda m: m.zeros(shape, dtype=getattr(m, dtype))


RESULT_TYPE = {
    "int_tensor+float_scalar": (_t("int64", 2), 1.5),
    "int32_tensor+float_scalar": (_t("int32", 2), 2.5),
    "int8_tensor+big_int_scalar": (_t("int8", 2), 1000),
    "uint8_tensor+negative_int": (_t("uint8", 2), -1),
    "bool_tensor+int_scalar": (_t("bool", 2), 1),
    "bool_tensor+float_scalar": (_t("bool", 2), 1.0),
    "bool_tensor+bool_scalar": (_t("bool", 2), True),
    "float16_tensor+huge_float": (_t("float16", 2), 1e10),
    "0d_float64+float32_tensor": (_t("float64"), _t("float32", 2)),
    "0d_float64+int8_tensor": (_t("float64"), _t("int8", 2)),
    "0d_int64+int8_tensor": (_t("int64"), _t("int8", 3)),
    "0d_float16+int32_tensor": (_t("float16"), _t("int32", 2)),
    "float16_tensor+0d_float64": (_t("float16", 2), _t("float64")),
    "int16_tensor+0d_float64": (_t("int16", 2), _t("float64")),
    "uint8+int8": (_t("uint8", 2), _t("int8", 2)),
    "0d_uint8+0d_int8": (_t("uint8"), _t("int8")),
    "0d_bool+int_scalar": (_t("bool"), 1),
    "0d_int32+float_scalar": (_t("int32"), 1.0),
    "0d_int32+0d_float16": (_t("int32"), _t("float16")),
    "int_tensor+float_tensor": (_t("int64", 2), _t("float32", 2)),
    "empty_int+0d_float": (_t("int32", 0), _t("float64")),
    "scalar_first": (2.5, _t("int16", 2)),
    "int+float": (1, 2.5),
    "int+int": (1, 2),
    "bool+int": (True, 2),
    "bool+bool": (True, False),
    "numpy_float64": (_t("int64", 2), np.float64(1.0)),
    "numpy_float32": (_t("int64", 2), np.float32(1.0)),
    "numpy_int64": (_t("int8", 2), np.int64(1)),
}


@pytest.mark.parametrize("a, b", RESULT_TYPE.values(), ids=RESULT_TYPE.keys())
def test_result_type_as_torch(a, b):
    def call(m):
        return m.result_type(a(m) if callable(a) else a, b(m) if callable(b) else b)

    assert _outcome(call, yaten) == _outcome(call, torch)
    assert isinstance(_outcome(call, yaten), str)


def test_result_type_keywords_as_torch():
    for call in (
        lambda m: m.result_type(tensor=m.zeros(2, dtype=m.int32), other=1.5),
        lambda m: m.result_type(m.zeros(2, dtype=m.int32), other=m.zeros((), dtype=m.float64)),
        lambda m: m.result_type(scalar=1, tensor=m.zeros(2, dtype=m.uint8)),
        lambda m: m.result_type(scalar1=1, scalar2=2.5),
    ):
        _same(call)


def test_result_type_follows_default_dtype():
    yaten.set_default_dtype(yaten.float64)
    try:
        assert yaten.result_type(yaten.zeros(2, dtype=yaten.int32), 1.5) is yaten.float64
        assert yaten.result_type(yaten.zeros(2, dtype=yaten.float16), 1.5) is yaten.float16
    finally:
        yaten.set_default_dtype(yaten.float32)


@pytest.mark.parametrize(
    "args",
    [
        lambda m: (m.zeros(2), "a"),
        lambda m: (m.zeros(2), None),
        lambda m: (m.zeros(2),),
        lambda m: (),
        lambda m: (m.zeros(2), 1, 2),
    ],
)
def test_result_type_errors_as_torch(args):
    _same(lambda m: m.result_type(*args(m)))


def test_result_type_of_a_complex_number_as_torch():
    _same(lambda m: m.result_type(m.zeros(2), 1 + 2j))


# The dtype an op actually produces follows the same rules (the pointwise layer calls _promotion).
OPS = {
    "int32+float": lambda m: m.zeros(2, dtype=m.int32) + 2.5,
    "uint8+int8": lambda m: m.zeros(2, dtype=m.uint8) + m.zeros(2, dtype=m.int8),
    "bool+int": lambda m: m.zeros(2, dtype=m.bool) + 1,
    "0d_float64*float32": lambda m: m.zeros((), dtype=m.float64) * m.zeros(2),
    "int8*0d_int64": lambda m: m.zeros(2, dtype=m.int8) * m.zeros((), dtype=m.int64),
    "int/int": lambda m: m.ones(2, dtype=m.int64) / m.ones(2, dtype=m.int64),
    "bool==float": lambda m: m.zeros(2, dtype=m.bool) == 1.5,
}


@pytest.mark.parametrize("call", OPS.values(), ids=OPS.keys())
def test_op_result_dtypes_as_torch(call):
    assert _name(call(yaten).dtype) == _name(call(torch).dtype)


# --- broadcasting -----------------------------------------------------------------------------------
BROADCAST_OK = [
    ((2, 1), (3,)),
    ((2, 1), (1, 3), (5, 1, 1)),
    ((2,), (3, 1), (1, 1, 1)),
    ((0,), (1,)),
    ((4, 0, 1), (3,)),
    ((),),
    (),
    ((), (2, 3)),
    (3, (2, 1)),
    ([2, 1], [3]),
    (None, (2,)),
]


@pytest.mark.parametrize("shapes", BROADCAST_OK, ids=str)
def test_broadcast_shapes_as_torch(shapes):
    y, t = yaten.broadcast_shapes(*shapes), torch.broadcast_shapes(*shapes)
    assert isinstance(y, yaten.Size) and repr(y) == _name(repr(t))


BROADCAST_BAD = [
    ((2, 3), (3, 2)),
    ((2, 3), (4, 1, 3), (5,)),
    ((0,), (2,)),
    ((2, 1), (-1,)),
    ((-1,),),
    ([2, 3], [3, 2]),
    ((2,), 1.5),
]


@pytest.mark.parametrize("shapes", BROADCAST_BAD, ids=str)
def test_broadcast_shapes_errors_as_torch(shapes):
    _same(lambda m: m.broadcast_shapes(*shapes))


OP_SHAPES = [
    ((2, 3), (3, 2)),
    ((2, 3), (4,)),
    ((5, 2, 3), (4, 1, 3)),
    ((3,), (2, 4)),
    ((0,), (2,)),
    ((2, 1, 3), (4, 2)),
]


def _op_error(m, a, b) -> str:
    with pytest.raises(RuntimeError) as err:
        m.ones(a) + m.ones(b)
    return str(err.value)


@pytest.mark.parametrize("a, b", OP_SHAPES, ids=str)
def test_infer_size_errors_as_torch_ops(a, b):
    # infer_size is the broadcast of elementwise ops: its message is the one torch's ops raise.
    with pytest.raises(RuntimeError) as err:
        infer_size(a, b)
    assert str(err.value) == _op_error(torch, a, b)


@pytest.mark.parametrize(
    "shapes", [((2, 1), (3,)), ((1,), (4, 1), (2, 1, 1)), ((0, 1), (1, 5)), ((3,),)], ids=str
)
def test_infer_size_values(shapes):
    assert infer_size(*shapes) == torch.broadcast_shapes(*shapes)


@pytest.mark.parametrize("a, b", OP_SHAPES[:2], ids=str)
def test_op_broadcast_errors_as_torch(a, b):
    assert _op_error(yaten, a, b) == _op_error(torch, a, b)


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.ones(2).add_(m.ones(2, 2)),
        lambda m: m.ones(2, dtype=m.int64).add_(1.5),
        lambda m: m.ones(2, dtype=m.int64).mul_(m.ones(2)),
        lambda m: m.ones(2, dtype=m.bool).add_(m.ones(2, dtype=m.int64)),
        lambda m: m.ones(2).expand(3, 3),
        lambda m: m.ones(2, 3).expand(3),
    ],
)
def test_inplace_and_expand_errors_as_torch(call):
    _same(call)


def test_out_dtype_error_as_torch():
    _same(lambda m: m.add(m.ones(2), m.ones(2), out=m.zeros(2, dtype=m.int32)))


def test_inplace_keeps_dtype_as_torch():
    for call in (
        lambda m: m.ones(2).add_(m.ones(2, dtype=m.float64)),
        lambda m: m.ones(2, dtype=m.float16).mul_(m.ones((), dtype=m.float64)),
        lambda m: m.ones(2, dtype=m.int16).add_(m.ones(2, dtype=m.int64)),
    ):
        y, t = call(yaten), call(torch)
        assert _name(y.dtype) == _name(t.dtype) and y.tolist() == t.tolist()
