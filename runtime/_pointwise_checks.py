"""The argument checks PyTorch's elementwise kernels make before they compute, per op.

A check runs once per combination of argument dtypes (when ``PointwiseOp`` builds its plan), so
dtype rules cost nothing per call. It raises PyTorch's error for the dtypes it refuses and returns
what must be looked at on every call (the values of a divisor or an exponent) as a function of the
call's arguments, or None. Value checks run on cpu only: PyTorch's cuda kernels do not make them.
"""

import re
import warnings

from . import _dtype as D
from ._type_info import finfo

_BOOL_SUB = "Subtraction, the `-` operator, with a bool tensor is not supported. "
_MASK_HINT = "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead."


def sub_check(self_dtype, other_dtype) -> None:
    """PyTorch's ``sub_check``: a bool operand of ``-`` (a Python bool counts as a bool tensor)."""
    if self_dtype is D.bool and other_dtype is D.bool:
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. "
            "Use the `^` or `logical_xor()` operator instead."
        )
    if self_dtype is D.bool or other_dtype is D.bool:
        raise RuntimeError(_BOOL_SUB + _MASK_HINT)


def _dtype_of(arg):
    np_dtype = getattr(arg, "dtype", None)
    if np_dtype is not None:
        return D.BY_NP[np_dtype]
    return D.bool if arg.__class__ is bool else None


def _sub(args, rt):
    sub_check(_dtype_of(args[0]), _dtype_of(args[1]))


def _neg(args, rt):
    if rt is D.bool:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. " + _MASK_HINT)


def _relu(args, rt):
    if rt is D.bool:
        raise RuntimeError("Boolean inputs not supported for relu")


def _where(args, rt):
    cond = D.BY_NP[args[0].dtype]
    if cond is D.uint8:  # once per plan, as torch warns once
        warnings.warn(
            "where received a uint8 condition tensor. This behavior is deprecated and will be removed in "
            "a future version of PyTorch. Use a boolean condition instead.",
            UserWarning,
            stacklevel=4,
        )
    elif cond is not D.bool:
        raise RuntimeError(
            f"where expected condition to be a boolean tensor, but got a tensor with dtype {D.LEGACY_NAME[cond]}"
        )


def _integer_divisor(args, rt):
    """Integer division and remainder by zero raise, as PyTorch's cpu kernels do (floats give inf/nan)."""
    if rt.kind == "f":
        return None
    if args[1].__class__ is not int and hasattr(args[1], "dtype"):
        return _no_zero_in_tensor
    return _no_zero_scalar


def _no_zero_in_tensor(args) -> None:
    if not args[1].all() and args[0].size:  # an empty result computes nothing, so divides by nothing
        raise RuntimeError("ZeroDivisionError")


def _no_zero_scalar(args) -> None:
    if args[1] == 0 and args[0].size:
        raise RuntimeError("ZeroDivisionError")


def _integer_power(args, rt):
    """An integer tensor to a negative integer Python number: PyTorch refuses it (1 ** -1 included)."""
    if rt.kind != "f" and args[1].__class__ is int:
        return _no_negative_exponent
    return None


def _no_negative_exponent(args) -> None:
    if args[1] < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")


def _addcdiv(args, rt):
    """PyTorch refuses addcdiv's historic integer division: tensor1 and tensor2 both integral (or bool)."""
    if all(_dtype_of(a).kind in "bi" for a in args[1:3]):
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will "
            "perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented "
            "as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
            "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the "
            "latter implementation: (input + value * tensor1 / tensor2), for all dtypes."
        )


def _shift(kernel):
    def check(args, rt):
        if rt is D.bool:
            raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")

    return check


def _heaviside(args, rt):
    if _dtype_of(args[0]) is not _dtype_of(args[1]):
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")


def _softshrink(args, rt):
    """softshrink's lambd must lie in [0, the dtype's largest value]."""
    if rt.kind != "f":
        return None
    top = float(finfo(rt).max)

    def check(args) -> None:
        lambd = args[1]
        if not 0 <= lambd <= top:
            raise RuntimeError(
                f"lambda must be in range [0, {top:g}] for input dtype {D.LEGACY_NAME[rt]}, but found {lambd:g}"
            )

    return check


# PyTorch's refusal of a complex input by the ops whose kernels are real-only, where it is not the usual
# NotImplementedError '"<op>_cpu" not implemented for ...': (type, message; {} is the dtype's name).
_COMPLEX_REFUSALS = {
    "sign": (NotImplementedError, "Unlike NumPy, torch.sign is not intended to support complex numbers. "
                                  "Please use torch.sgn instead."),
    "bitwise_left_shift": (NotImplementedError, "\"lshift_cpu\" not implemented for '{}'"),
    "bitwise_right_shift": (NotImplementedError, "\"rshift_cpu\" not implemented for '{}'"),
    "heaviside": (RuntimeError, "heaviside is not yet implemented for complex tensors."),
    "erf": (NotImplementedError, "\"erf_vml_cpu\" not implemented for '{}'"),
    "erfc": (NotImplementedError, "\"erfc_vml_cpu\" not implemented for '{}'"),
    "erfinv": (NotImplementedError, "\"erfinv_vml_cpu\" not implemented for '{}'"),
    "i0": (NotImplementedError, "\"i0_vml_cpu\" not implemented for '{}'"),
    "special_i1": (NotImplementedError, "\"i1_cpu\" not implemented for '{}'"),
    "lgamma": (NotImplementedError, "\"lgamma_vml_cpu\" not implemented for '{}'"),
    "round": (NotImplementedError, "\"round_vml_cpu\" not implemented for '{}'"),
    "digamma": (NotImplementedError, "\"digamma\" not implemented for '{}'"),
    # polygamma(n, x) is digamma's kernel for n = 0, trigamma's for 1, its own above.
    "polygamma": lambda args: (NotImplementedError, f"\"{('digamma', 'trigamma')[args[0]] if args[0] < 2 else 'polygamma'}\" not implemented for '{{}}'"),
    "fmax": (RuntimeError, "fmax not implemented for complex tensors."),
    "fmin": (RuntimeError, "fmin not implemented for complex tensors."),
    "maximum": (RuntimeError, "maximum not implemented for complex tensors."),
    "minimum": (RuntimeError, "minimum not implemented for complex tensors."),
    "isposinf": (RuntimeError, "isposinf does not support complex inputs."),
    "isneginf": (RuntimeError, "isneginf does not support complex inputs."),
    "deg2rad": (RuntimeError, "deg2rad is not supported for complex tensors."),
    "rad2deg": (RuntimeError, "rad2deg is not supported for complex tensors."),
    "signbit": (NotImplementedError, "signbit is not implemented for complex tensors."),
    "floor": (NotImplementedError, "floor is not supported for complex inputs"),
    "ceil": (NotImplementedError, "ceil is not supported for complex inputs"),
    "trunc": (NotImplementedError, "trunc is not supported for complex inputs"),
    "_gelu_erf": (NotImplementedError, "\"GeluKernelImpl\" not implemented for '{}'"),
    "_gelu_tanh": (NotImplementedError, "\"GeluKernelImpl\" not implemented for '{}'"),
    "floor_divide": (NotImplementedError, "\"div_floor_cpu\" not implemented for '{}'"),
    "celu": (NotImplementedError, "\"elu_cpu\" not implemented for '{}'"),
    "selu": (NotImplementedError, "\"elu_cpu\" not implemented for '{}'"),
    "softshrink": (NotImplementedError, "\"softshrink_check\" not implemented for '{}'"),
    **dict.fromkeys(("relu", "clamp_min", "clamp_max", "hardtanh"),
                    (NotImplementedError, "clamp is not supported for complex types")),
    "clamp_min_Tensor": (NotImplementedError, "\"maximum_cpu\" not implemented for '{}'"),
    "clamp_max_Tensor": (NotImplementedError, "\"minimum_cpu\" not implemented for '{}'"),
}  # fmt: skip
_OVERLOAD = re.compile(r"_(?:[A-Z]\w*|self)$")  # the overload part of a generated name: lt_Tensor, where_self


def op_name(name: str) -> str:
    """The op of a generated overload name: ``lt`` of ``lt_Tensor``, ``where`` of ``where_self``."""
    return _OVERLOAD.sub("", name)


def complex_refusal(name: str, dtype: D.dtype, args) -> Exception:
    """PyTorch's error for an op (generated name: ``lt_Tensor``; its arguments) whose kernel is not
    defined for complex: the overload's entry, else the op's, else '"<op>_cpu" not implemented'."""
    op = op_name(name)
    default = (NotImplementedError, f"\"{op}_cpu\" not implemented for '{{}}'")
    refusal = _COMPLEX_REFUSALS.get(name) or _COMPLEX_REFUSALS.get(op, default)
    kind, message = refusal(args) if callable(refusal) else refusal
    return kind(message.format(D.LEGACY_NAME[dtype]))


# Generated op name (overload included) -> check(args, result dtype) -> per-call check or None.
CHECKS = {
    "sub_Tensor": _sub,
    "sub_Scalar": _sub,
    "neg": _neg,
    "relu": _relu,
    "where_self": _where,
    "where_ScalarOther": _where,
    "where_ScalarSelf": _where,
    "floor_divide": _integer_divisor,
    "floor_divide_Scalar": _integer_divisor,
    "remainder_Tensor": _integer_divisor,
    "remainder_Scalar": _integer_divisor,
    "fmod_Tensor": _integer_divisor,
    "fmod_Scalar": _integer_divisor,
    "pow_Tensor_Scalar": _integer_power,
    "addcdiv": _addcdiv,
    **{
        f"bitwise_{side}_shift_{o}": _shift(f"{side[0]}shift_cpu")
        for side in ("left", "right")
        for o in ("Tensor", "Tensor_Scalar", "Scalar_Tensor")
    },
    "heaviside": _heaviside,
    "softshrink": _softshrink,
    "gcd": _shift("gcd_cpu"),  # integral but bool, as the shifts
    "lcm": _shift("lcm_cpu"),
}
