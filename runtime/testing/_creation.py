"""``make_tensor``: a random tensor for tests, with torch.testing's value ranges, checks and options."""

import collections.abc
import math
import warnings

from .. import _dtype as D
from .._type_info import finfo, iinfo

# torch's default [low, high) per kind of dtype.
_DEFAULTS = {"bool": (0, 2), "int": (-9, 10), "float": (-9, 9)}


def _bounds(dtype, low, high, lowest, highest, default) -> tuple:
    """``low``/``high`` (or the defaults), checked and clamped to ``[lowest, highest)`` as torch does."""
    low = default[0] if low is None else low
    high = default[1] if high is None else high
    if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got {low=} and {high=}")
    if low == high and dtype.kind in "fc":
        warnings.warn(
            "Passing `low==high` to `torch.testing.make_tensor` for floating or complex types is deprecated "
            "since 2.1 and will be removed in 2.3. Use `torch.full(...)` instead.",
            FutureWarning,
            stacklevel=3,
        )
    elif low >= high:
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    elif high < lowest or low >= highest:
        raise ValueError(
            f"The value interval specified by `low` and `high` is [{low}, {high}), "
            f"but {dtype} only supports [{lowest}, {highest})"
        )
    low, high = min(max(low, lowest), highest), min(max(high, lowest), highest)
    if dtype.kind in "bi":  # integer bounds are ceiled: randint's high is exclusive
        return math.ceil(low), math.ceil(high)
    return low, high


def make_tensor(
    *shape, dtype, device, low=None, high=None, requires_grad=False, noncontiguous=False, exclude_zero=False,
    memory_format=None,
):  # fmt: skip
    """A tensor of ``shape`` with values drawn uniformly from ``[low, high)``.

    Defaults: bool ``[0, 2)``, integers ``[-9, 10)`` (clamped to the dtype's range), floating ``[-9, 9)``
    (complex: each part). ``noncontiguous`` returns a strided view; ``exclude_zero`` replaces zeros by 1
    (integers, bool) or the dtype's smallest normal number; ``requires_grad`` is for floating and complex
    dtypes only.

    >>> import yaten
    >>> t = yaten.testing.make_tensor(2, 3, dtype=yaten.float32, device="cpu", low=-1, high=1)
    >>> t.shape, bool(((t >= -1) & (t < 1)).all())
    (yaten.Size([2, 3]), True)
    """
    from .._factories import empty
    from .._random import randint

    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)
    if noncontiguous and memory_format is not None:
        raise ValueError(
            f"The parameters `noncontiguous` and `memory_format` are mutually exclusive, "
            f"but got {noncontiguous=} and {memory_format=}"
        )
    if requires_grad and dtype.kind not in "fc":
        raise ValueError(
            f"`requires_grad=True` is not supported for boolean and integral dtypes, but got {dtype=}"
        )
    noncontiguous = noncontiguous and math.prod(shape) > 1
    if noncontiguous:  # twice the last dimension, so the strided view is not a run of equal values
        shape = (*shape[:-1], 2 * shape[-1])
    if dtype is D.bool:
        low, high = _bounds(dtype, low, high, 0, 2, _DEFAULTS["bool"])
        result = randint(low, high, shape, device=device, dtype=dtype)
    elif dtype in D.ALL and dtype.kind == "i":
        info = iinfo(dtype)
        highest = info.max + (1 if dtype is not D.int64 else 0)
        low, high = _bounds(dtype, low, high, info.min, highest, _DEFAULTS["int"])
        result = randint(low, high, shape, device=device, dtype=dtype)
    elif dtype in D.ALL:  # floating, or complex (uniform_ fills each part)
        info = finfo(dtype)
        low, high = _bounds(dtype, low, high, info.min, info.max, _DEFAULTS["float"])
        result = empty(shape, device=device, dtype=dtype)
        if high - low >= info.max:  # uniform_ needs high - low to be finite
            result.uniform_(low / 2, high / 2).mul_(2)
        else:
            result.uniform_(low, high)
    else:
        raise TypeError(
            f"The requested dtype '{dtype}' is not supported by torch.testing.make_tensor()."
            " To request support, file an issue at: https://github.com/pytorch/pytorch/issues"
        )
    if noncontiguous:
        result = result[..., 1::2]
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if exclude_zero:
        result[result == 0] = finfo(dtype).tiny if dtype.kind in "fc" else 1
    if dtype.kind in "fc":
        result.requires_grad = requires_grad
    return result
