"""PyTorch's type promotion and broadcasting: the one place both are computed.

Operands are Tensors, backend arrays or Python numbers. Python numbers are "weak": they only
move the result to a higher category (bool < integral < floating), never widen it within one.
"""

import builtins

from . import _dtype as D

_INT_ORDER = {D.int8: 8, D.int16: 16, D.int32: 32, D.int64: 64}
_FLOAT_ORDER = {D.float16: 16, D.float32: 32, D.float64: 64}


def promote_types(a: D.dtype, b: D.dtype) -> D.dtype:
    """The smallest dtype both ``a`` and ``b`` convert to without losing their category.

    >>> import yaten
    >>> yaten.promote_types(yaten.uint8, yaten.int8)
    yaten.int16
    """
    if a is b:
        return a
    if a is D.bool:
        return b
    if b is D.bool:
        return a
    if a.kind == "f" or b.kind == "f":
        if a.kind == b.kind:
            return a if _FLOAT_ORDER[a] > _FLOAT_ORDER[b] else b
        return a if a.kind == "f" else b
    if a is D.uint8:
        return b if _INT_ORDER[b] > 8 else D.int16
    if b is D.uint8:
        return a if _INT_ORDER[a] > 8 else D.int16
    return a if _INT_ORDER[a] > _INT_ORDER[b] else b


def scalar_dtype(value) -> D.dtype:
    """The dtype PyTorch gives a Python number when it becomes a tensor."""
    if isinstance(value, builtins.bool):
        return D.bool
    if isinstance(value, int):
        return D.int64
    if isinstance(value, float):
        return D.get_default_dtype()
    raise TypeError(f"expected a number, got {type(value).__name__}")


_CATEGORY = {"b": 0, "i": 1, "f": 2}


def _combine(higher: D.dtype | None, lower: D.dtype | None) -> D.dtype | None:
    # The result of a higher-priority tier wins unless the lower tier is of a higher category.
    if higher is None:
        return lower
    if lower is None or _CATEGORY[higher.kind] >= _CATEGORY[lower.kind]:
        return higher
    return promote_types(higher, lower)


def result_type_of(dtypes_and_ndims, scalars) -> D.dtype:
    """Promote ``(dtype, ndim)`` pairs of tensors and Python ``scalars`` by PyTorch's tiers."""
    dim_result = zero_result = wrapped = None
    for dt, ndim in dtypes_and_ndims:
        if ndim:
            dim_result = dt if dim_result is None else promote_types(dim_result, dt)
        else:
            zero_result = dt if zero_result is None else promote_types(zero_result, dt)
    for s in scalars:
        st = scalar_dtype(s)
        wrapped = st if wrapped is None else promote_types(wrapped, st)
    return _combine(dim_result, _combine(zero_result, wrapped))


def result_type(*operands) -> D.dtype:
    """The dtype of an arithmetic result of ``operands`` (tensors or numbers).

    >>> import yaten
    >>> yaten.result_type(yaten.tensor([1, 2], dtype=yaten.int32), 1.5)
    yaten.float32
    """
    tensors, scalars = [], []
    for op in operands:
        if isinstance(op, (int, float)):
            scalars.append(op)
        else:
            tensors.append((op.dtype if isinstance(op.dtype, D.dtype) else D.from_np(op.dtype), op.ndim))
    if not tensors and not scalars:
        raise TypeError("result_type() needs at least one operand")
    return result_type_of(tensors, scalars)


def can_cast(from_: D.dtype, to: D.dtype) -> bool:
    """Whether an op may write a ``from_`` result into a ``to`` tensor (same or lower category)."""
    return _CATEGORY[from_.kind] <= _CATEGORY[to.kind]


def broadcast_shapes(*shapes):
    """The shape that all ``shapes`` broadcast to, with PyTorch's error when they don't.

    >>> import yaten
    >>> yaten.broadcast_shapes((2, 1), (3,))
    yaten.Size([2, 3])
    """
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for s in shapes:
        off = ndim - len(s)
        for j, n in enumerate(s, off):
            m = out[j]
            if m == n or n == 1:
                continue
            if m == 1:
                out[j] = n
                continue
            raise RuntimeError(
                f"The size of tensor a ({m}) must match the size of tensor b ({n}) at non-singleton dimension {j}"
            )
    from ._tensor import Size

    return Size(out)
