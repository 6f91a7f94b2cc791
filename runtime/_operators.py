"""Python operators on Tensor (``a + b``, ``a[i]``, ``-a``), mapped to yaten ops.

Binary operators call the op function of the right overload directly: the hot path skips the
argument parser, since the operand types are already known here.
"""

import numbers

from . import _dtype as D
from . import _tensor
from ._generated import ops
from ._pointwise_checks import sub_check

Tensor = _tensor.Tensor


def _binary(tensor_op, scalar_op):
    def forward(self, other):
        if isinstance(other, Tensor):
            return tensor_op(self, other)
        if isinstance(other, numbers.Number):
            return scalar_op(self, other)
        return NotImplemented

    return forward


def _reflected(fn):
    def backward(self, other):
        if isinstance(other, numbers.Number):
            return fn(other, self)
        return NotImplemented

    return backward


def _rsub(self, other):
    sub_check(D.bool if other.__class__ is bool else None, self._dtype)
    return ops.add_Scalar(ops.neg(self), other)


def _rdiv(self, other):
    return ops.mul_Scalar(ops.reciprocal(self), other)


def _rpow(self, other):
    return ops.pow_Scalar(other, self)


def _rmod(self, other):
    from ._factories import full_like

    return ops.remainder_Tensor(full_like(self, other, dtype=None), self)


def _rfloordiv(self, other):
    from ._factories import full_like

    return ops.floor_divide(full_like(self, other, dtype=None), self)


def _inplace(tensor_op, scalar_op):
    def op(self, other):
        if isinstance(other, Tensor):
            return tensor_op(self, other)
        return scalar_op(self, other)

    return op


def _invert(self):
    if self._dtype.kind not in "bi":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return ops.bitwise_not(self)


_OPS = {
    "__add__": _binary(ops.add_Tensor, ops.add_Scalar),
    "__radd__": _reflected(lambda o, s: ops.add_Scalar(s, o)),
    "__sub__": _binary(ops.sub_Tensor, ops.sub_Scalar),
    "__rsub__": _rsub,
    "__mul__": _binary(ops.mul_Tensor, ops.mul_Scalar),
    "__rmul__": _reflected(lambda o, s: ops.mul_Scalar(s, o)),
    "__truediv__": _binary(ops.div_Tensor, ops.div_Scalar),
    "__rtruediv__": _rdiv,
    "__floordiv__": _binary(ops.floor_divide, ops.floor_divide_Scalar),
    "__rfloordiv__": _rfloordiv,
    "__mod__": _binary(ops.remainder_Tensor, ops.remainder_Scalar),
    "__rmod__": _rmod,
    "__pow__": _binary(ops.pow_Tensor_Tensor, ops.pow_Tensor_Scalar),
    "__rpow__": _rpow,
    "__matmul__": lambda self, other: (
        ops.matmul(self, other) if isinstance(other, Tensor) else NotImplemented
    ),
    "__iadd__": _inplace(ops.add__Tensor, ops.add__Scalar),
    "__isub__": _inplace(ops.sub__Tensor, ops.sub__Scalar),
    "__imul__": _inplace(ops.mul__Tensor, ops.mul__Scalar),
    "__itruediv__": _inplace(ops.div__Tensor, ops.div__Scalar),
    "__eq__": _binary(ops.eq_Tensor, ops.eq_Scalar),
    "__ne__": _binary(ops.ne_Tensor, ops.ne_Scalar),
    "__lt__": _binary(ops.lt_Tensor, ops.lt_Scalar),
    "__le__": _binary(ops.le_Tensor, ops.le_Scalar),
    "__gt__": _binary(ops.gt_Tensor, ops.gt_Scalar),
    "__ge__": _binary(ops.ge_Tensor, ops.ge_Scalar),
    "__and__": _binary(ops.bitwise_and_Tensor, ops.bitwise_and_Scalar),
    "__rand__": _reflected(lambda o, s: ops.bitwise_and_Scalar(s, o)),
    "__iand__": _inplace(ops.bitwise_and__Tensor, ops.bitwise_and__Scalar),
    "__or__": _binary(ops.bitwise_or_Tensor, ops.bitwise_or_Scalar),
    "__ror__": _reflected(lambda o, s: ops.bitwise_or_Scalar(s, o)),
    "__ior__": _inplace(ops.bitwise_or__Tensor, ops.bitwise_or__Scalar),
    "__xor__": _binary(ops.bitwise_xor_Tensor, ops.bitwise_xor_Scalar),
    "__rxor__": _reflected(lambda o, s: ops.bitwise_xor_Scalar(s, o)),
    "__ixor__": _inplace(ops.bitwise_xor__Tensor, ops.bitwise_xor__Scalar),
    "__lshift__": _binary(ops.bitwise_left_shift_Tensor, ops.bitwise_left_shift_Tensor_Scalar),
    "__rlshift__": _reflected(ops.bitwise_left_shift_Scalar_Tensor),
    "__ilshift__": _inplace(ops.bitwise_left_shift__Tensor, ops.bitwise_left_shift__Tensor_Scalar),
    "__rshift__": _binary(ops.bitwise_right_shift_Tensor, ops.bitwise_right_shift_Tensor_Scalar),
    "__rrshift__": _reflected(ops.bitwise_right_shift_Scalar_Tensor),
    "__irshift__": _inplace(ops.bitwise_right_shift__Tensor, ops.bitwise_right_shift__Tensor_Scalar),
    "__neg__": ops.neg,
    "__abs__": ops.abs,
    "__invert__": _invert,
    "__pos__": ops.positive,
}

for _name, _fn in _OPS.items():
    setattr(Tensor, _name, _fn)
Tensor.__hash__ = object.__hash__
Tensor.T = property(lambda self: self.permute(tuple(range(self.ndim - 1, -1, -1))))
Tensor.mT = property(lambda self: self.transpose(-2, -1))
