"""PyTorch's type promotion and broadcasting: the one place both are computed.

Operands are tensors (as their dtype and ndim) or Python numbers. Python numbers are "weak": they
only move the result to a higher category (bool < integral < floating < complex), never widen it
within one.
``infer_size`` is the broadcast of elementwise ops; ``broadcast_shapes`` is the public function,
with ``torch.broadcast_shapes``'s own (different) errors.
"""

import builtins
import numbers

import numpy as np

from . import _dtype as D

_INT_ORDER = {D.int8: 8, D.int16: 16, D.int32: 32, D.int64: 64}
_FLOAT_ORDER = {D.float16: 16, D.bfloat16: 16, D.float32: 32, D.float64: 64}


def promote_types(type1: D.dtype, type2: D.dtype) -> D.dtype:
    """The smallest dtype both ``type1`` and ``type2`` convert to without losing their category.

    >>> import yaten
    >>> yaten.promote_types(yaten.uint8, yaten.int8)
    yaten.int16
    """
    _check_dtype("promote_types", "type1", 1, type1)
    _check_dtype("promote_types", "type2", 2, type2)
    return _promote(type1, type2)


def _promote(a: D.dtype, b: D.dtype) -> D.dtype:
    if a is b:
        return a
    if a is D.bool:
        return b
    if b is D.bool:
        return a
    if a.kind == "c" or b.kind == "c":  # complex of the wider of the two float widths
        return _promote(_part(a), _part(b)).to_complex()
    if a.kind == "f" or b.kind == "f":
        if a.kind == b.kind:
            if _FLOAT_ORDER[a] == _FLOAT_ORDER[b]:  # float16 with bfloat16: neither holds the other
                return D.float32
            return a if _FLOAT_ORDER[a] > _FLOAT_ORDER[b] else b
        return a if a.kind == "f" else b
    if a is D.uint8:
        return b if _INT_ORDER[b] > 8 else D.int16
    if b is D.uint8:
        return a if _INT_ORDER[a] > 8 else D.int16
    return a if _INT_ORDER[a] > _INT_ORDER[b] else b


def _part(d: D.dtype) -> D.dtype:
    # The float part a dtype brings into a complex result: a complex's own, float32 or float64, else
    # float32 (yaten has no complex32, torch's complex of a half).
    d = d.to_real()
    return d if d in D.COMPLEX_OF else D.float32


def scalar_dtype(value) -> D.dtype:
    """The dtype PyTorch gives a Python number when it becomes a tensor (NumPy scalars alike)."""
    if isinstance(value, (builtins.bool, np.bool_)):
        return D.bool
    if isinstance(value, numbers.Integral):
        return D.int64
    if isinstance(value, numbers.Real):
        return D.get_default_dtype()
    if isinstance(value, numbers.Number):
        return default_complex_dtype()
    raise TypeError(f"expected a number, got {type(value).__name__}")


def default_complex_dtype() -> D.dtype:
    """The dtype of a Python complex number as a tensor: the complex of the default float dtype.

    >>> default_complex_dtype()
    yaten.complex64
    """
    default = D.get_default_dtype()
    if default is D.bfloat16:
        raise RuntimeError("invalid default scalar type for complex")
    return _part(default).to_complex()


_CATEGORY = {"b": 0, "i": 1, "f": 2, "c": 3}


def _combine(higher: D.dtype | None, lower: D.dtype | None) -> D.dtype | None:
    # The result of a higher-priority tier wins unless the lower tier is of a higher category.
    if higher is None:
        return lower
    if lower is None or _CATEGORY[higher.kind] >= _CATEGORY[lower.kind]:
        return higher
    if lower.kind == "c" and higher.kind == "f":  # torch keeps the higher tier's float width
        return _part(higher).to_complex()
    return _promote(higher, lower)


def result_type_of(dtypes_and_ndims, scalars) -> D.dtype:
    """Promote ``(dtype, ndim)`` pairs of tensors and Python ``scalars`` by PyTorch's tiers."""
    dim_result = zero_result = wrapped = None
    for dt, ndim in dtypes_and_ndims:
        if ndim:
            dim_result = dt if dim_result is None else _promote(dim_result, dt)
        else:
            zero_result = dt if zero_result is None else _promote(zero_result, dt)
    for s in scalars:
        st = scalar_dtype(s)
        wrapped = st if wrapped is None else _promote(wrapped, st)
    return _combine(dim_result, _combine(zero_result, wrapped))


# The overloads of torch.result_type, in the order PyTorch's argument parser tries them.
_RESULT_TYPE_SIGNATURES = (
    (("Tensor", "tensor"), ("Tensor", "other")),
    (("Number", "scalar"), ("Tensor", "tensor")),
    (("Tensor", "tensor"), ("Number", "other")),
    (("Number", "scalar1"), ("Number", "scalar2")),
)


def _is_number(v) -> bool:
    return isinstance(v, (numbers.Number, np.bool_))


def _fits(kind: str, v) -> bool:
    from ._tensor import Tensor

    return isinstance(v, Tensor) if kind == "Tensor" else _is_number(v)


def result_type(*args, **kwargs) -> D.dtype:
    """The dtype of an arithmetic result of two operands, each a tensor or a number.

    Dimensioned tensors outrank 0-d tensors, which outrank Python numbers; a lower tier only
    matters when its category (bool < integral < floating) is higher.

    >>> import yaten
    >>> yaten.result_type(yaten.tensor([1, 2], dtype=yaten.int32), 1.5)
    yaten.float32
    >>> yaten.result_type(yaten.tensor([1, 2], dtype=yaten.int8), 1000)
    yaten.int8
    """
    for sig in _RESULT_TYPE_SIGNATURES:
        names = [name for _, name in sig]
        if len(args) > len(sig) or set(kwargs) - set(names[len(args) :]):
            continue
        values = list(args) + [kwargs.get(name, _MISSING) for name in names[len(args) :]]
        if all(v is not _MISSING and _fits(kind, v) for (kind, _), v in zip(sig, values)):
            tensors = [(v._dtype, v._data.ndim) for v in values if not _is_number(v)]
            return result_type_of(tensors, [v for v in values if _is_number(v)])
    raise TypeError(_result_type_error(args, kwargs))


_MISSING = object()


def _type_name(v) -> str:
    from ._tensor import Tensor

    if isinstance(v, Tensor):
        return "Tensor"
    t = type(v)
    return t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"


def _result_type_error(args, kwargs) -> str:
    got = [_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()]
    lines = [
        f"result_type() received an invalid combination of arguments - got ({', '.join(got)}), but expected one of:"
    ]
    for sig in _RESULT_TYPE_SIGNATURES:
        lines.append(f" * ({', '.join(f'{kind} {name}' for kind, name in sig)})")
        if len(args) == len(sig) and not kwargs:
            marked = [n if _fits(kind, a) else f"!{n}!" for (kind, _), a, n in zip(sig, args, got)]
            lines.append(
                f"      didn't match because some of the arguments have invalid types: ({', '.join(marked)})"
            )
    return "\n".join(lines) + "\n"


def _check_dtype(fn: str, name: str, position: int, value) -> None:
    if not isinstance(value, D.dtype):
        raise TypeError(
            f"{fn}(): argument '{name}' (position {position}) must be yaten.dtype, not {_type_name(value)}"
        )


def can_cast(from_: D.dtype, to: D.dtype) -> bool:
    """Whether a ``from_`` value may be written into a ``to`` tensor by an in-place or out= op.

    PyTorch's rule: a cast may not go down a category (complex -> floating -> integral -> bool).

    >>> import yaten
    >>> yaten.can_cast(yaten.float64, yaten.int32), yaten.can_cast(yaten.int64, yaten.float16)
    (False, True)
    """
    _check_dtype("can_cast", "from_", 1, from_)
    _check_dtype("can_cast", "to", 2, to)
    return _CATEGORY[from_.kind] <= _CATEGORY[to.kind]


def infer_size(*shapes):
    """The shape an elementwise op on tensors of ``shapes`` produces, with its RuntimeError if none.

    ``a`` in the message is the shape broadcast so far, ``b`` the next one; the mismatching
    dimension reported is the last one, as PyTorch's ``infer_size``.

    >>> import yaten
    >>> from yaten._promotion import infer_size
    >>> infer_size((2, 1), (3,))
    yaten.Size([2, 3])
    """
    from ._tensor import Size

    out = ()
    for i, b in enumerate(shapes):
        if i == 0:
            out = tuple(b)
            continue
        a, ndim = out, max(len(out), len(b))
        res = [0] * ndim
        for d in range(ndim - 1, -1, -1):
            ia, ib = d - ndim + len(a), d - ndim + len(b)
            m = a[ia] if ia >= 0 else 1
            n = b[ib] if ib >= 0 else 1
            if m != n and m != 1 and n != 1:
                raise RuntimeError(
                    f"The size of tensor a ({m}) must match the size of tensor b ({n}) at non-singleton dimension {d}"
                )
            res[d] = n if m == 1 else m
        out = tuple(res)
    return Size(out)


def broadcast_shapes(*shapes):
    """The shape that all ``shapes`` broadcast to, with ``torch.broadcast_shapes``'s errors.

    An int stands for a 1-d shape; ``None`` is skipped.

    >>> import yaten
    >>> yaten.broadcast_shapes((2, 1), (3,))
    yaten.Size([2, 3])
    >>> yaten.broadcast_shapes((2,), (3, 1), (1, 1, 1))
    yaten.Size([1, 3, 2])
    """
    from ._tensor import Size

    shapes = [(s,) if isinstance(s, int) else s for s in shapes if s is not None]
    for shape in shapes:
        if not isinstance(shape, (tuple, list)):
            raise RuntimeError(
                f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {shape}"
            )
    common = [1] * max((len(s) for s in shapes), default=0)
    for arg_idx, shape in enumerate(shapes):
        for idx in range(-1, -1 - len(shape), -1):
            n = shape[idx]
            if n == common[idx]:
                continue
            if common[idx] == 1:
                if n < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[idx] = n
            if n != 1 and common[idx] != n:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {n} at {idx}! Mismatching argument at index "
                    f"{arg_idx} had {shape}; but expected shape should be broadcastable to {common}"
                )
    return Size(common)
