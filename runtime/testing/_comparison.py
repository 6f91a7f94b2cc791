"""``assert_close``: torch.testing's comparison of (nested) tensors, numbers and booleans.

Inputs are paired up as torch pairs them (sequences item by item, mappings key by key, then ``None``,
booleans, numbers and tensor-likes), each pair is compared with torch's default tolerances for its dtype,
and the first mismatch raises torch's error type with torch's message, naming the failing item.
"""

import cmath
import collections.abc
import contextlib
import warnings

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor
from ..native.closeness import isclose

# torch's default (rtol, atol) per dtype; other dtypes compare exactly.
_PRECISIONS = {
    D.float16: (0.001, 1e-5),
    D.bfloat16: (0.016, 1e-5),
    D.float32: (1.3e-6, 1e-5),
    D.float64: (1e-7, 1e-7),
}
for _name, _tols in (("complex64", (1.3e-6, 1e-5)), ("complex128", (1e-7, 1e-7))):
    if hasattr(D, _name):
        _PRECISIONS[getattr(D, _name)] = _tols

# The dtype a Python number is compared as.
_NUMBER_DTYPES = {int: D.int64, float: D.float64, complex: getattr(D, "complex128", D.float64)}

# assert_allclose's older defaults.
_ALLCLOSE_PRECISIONS = {D.float16: (1e-3, 1e-3), D.float32: (1e-4, 1e-5), D.float64: (1e-5, 1e-8)}


class _Mismatch(Exception):
    """A failed comparison: the exception type to raise, its message, and the item it occurred at."""

    def __init__(self, kind: type, msg: str, item: tuple = ()):
        super().__init__(msg)
        self.kind, self.msg, self.item = kind, msg, item

    def error(self, msg=None) -> Exception:
        if isinstance(msg, str):
            return self.kind(msg)
        text = self.msg
        if self.item:
            text += f"\n\nThe failure occurred for item {''.join(str([i]) for i in self.item)}"
        return self.kind(msg(text) if callable(msg) else text)


class _Unsupported(Exception):
    """This pair kind does not handle these inputs: try the next one."""


def _default_tolerances(dtypes, precisions=_PRECISIONS) -> tuple:
    rtols, atols = zip(*[precisions.get(d, (0.0, 0.0)) for d in dtypes])
    return max(rtols), max(atols)


def _tolerances(dtypes, rtol, atol, item: tuple) -> tuple:
    if (rtol is None) ^ (atol is None):
        missing = "rtol" if rtol is None else "atol"
        raise _Mismatch(
            ValueError,
            f"Both 'rtol' and 'atol' must be either specified or omitted, but got no {missing}.",
            item,
        )
    if rtol is not None:
        return rtol, atol
    return _default_tolerances(dtypes)


def _mismatch_msg(identifier: str, extra: str, abs_diff, abs_idx, atol, rel_diff, rel_idx, rtol) -> str:
    equality = rtol == 0 and atol == 0

    def line(kind: str, diff, idx, tol) -> str:
        text = (
            f"{kind.title()} difference: {diff}"
            if idx is None
            else f"Greatest {kind} difference: {diff} at index {idx}"
        )
        return text + ("" if equality else f" (up to {tol} allowed)") + "\n"

    msg = f"{identifier} are not {'equal' if equality else 'close'}!\n\n{extra.strip()}\n"
    msg += line("absolute", abs_diff, abs_idx, atol) + line("relative", rel_diff, rel_idx, rtol)
    return msg.strip()


def _scalar_msg(actual, expected, rtol: float, atol: float) -> str:
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    extra = f"Expected {expected} but got {actual}."
    return _mismatch_msg("Scalars", extra, abs_diff, None, atol, rel_diff, None, rtol)


def _first_max(x: np.ndarray) -> int:
    """torch.max's index: the first maximum, a NaN counting as the largest."""
    nan = np.isnan(x)
    return int(np.argmax(nan)) if nan.any() else int(np.argmax(x))


def _tensor_msg(
    actual: np.ndarray, expected: np.ndarray, matches: np.ndarray, rtol: float, atol: float
) -> str:
    total = matches.size
    mismatched = total - int(matches.sum())
    extra = f"Mismatched elements: {mismatched} / {total} ({mismatched / total:.1%})"
    a, e = actual.ravel(), expected.ravel()
    if a.dtype.kind in "biu":
        a, e = a.astype(np.int64), e.astype(np.int64)
    with np.errstate(all="ignore"):
        abs_diff = np.abs(a - e)
        abs_diff[matches.ravel()] = 0
        if a.dtype.kind == "i":  # torch's true division of integers yields the default dtype, float32
            rel_diff = abs_diff.astype(np.float32) / np.abs(e).astype(np.float32)
        else:
            rel_diff = abs_diff / np.abs(e)
    rel_diff[matches.ravel()] = 0
    abs_at, rel_at = _first_max(abs_diff), _first_max(rel_diff)

    def where(flat: int) -> tuple:
        return tuple(int(i) for i in np.unravel_index(flat, matches.shape))

    return _mismatch_msg(
        "Tensor-likes", extra, abs_diff[abs_at].item(), where(abs_at), atol, rel_diff[rel_at].item(),
        where(rel_at), rtol,
    )  # fmt: skip


def _compare_none(actual, expected, item: tuple, **_) -> None:
    if not (actual is None or expected is None):
        raise _Unsupported
    if not (actual is None and expected is None):
        raise _Mismatch(AssertionError, f"None mismatch: {actual} is not {expected}", item)


def _compare_bool(actual, expected, item: tuple, **_) -> None:
    if not all(isinstance(x, (bool, np.bool_)) for x in (actual, expected)):
        raise _Unsupported
    actual, expected = bool(actual), bool(expected)
    if actual is not expected:
        raise _Mismatch(AssertionError, f"Booleans mismatch: {actual} is not {expected}", item)


def _compare_number(actual, expected, item: tuple, rtol, atol, equal_nan, check_dtype, **_) -> None:
    if not all(isinstance(x, (int, float, complex, np.number)) for x in (actual, expected)):
        raise _Unsupported
    actual, expected = (x.item() if isinstance(x, np.number) else x for x in (actual, expected))
    rtol, atol = _tolerances([_NUMBER_DTYPES[type(x)] for x in (actual, expected)], rtol, atol, item)
    if check_dtype and type(actual) is not type(expected):
        raise _Mismatch(
            AssertionError, f"The (d)types do not match: {type(actual)} != {type(expected)}.", item
        )
    if actual == expected or (equal_nan and cmath.isnan(actual) and cmath.isnan(expected)):
        return
    abs_diff = abs(actual - expected)
    if cmath.isfinite(abs_diff) and abs_diff <= atol + rtol * abs(expected):
        return
    raise _Mismatch(AssertionError, _scalar_msg(actual, expected, rtol, atol), item)


def _as_tensor(x) -> Tensor:
    from .._factories import as_tensor

    if isinstance(x, Tensor):
        return x
    try:
        return as_tensor(x)
    except (TypeError, ValueError, RuntimeError) as error:
        raise _Unsupported from error


def _compare_tensor(
    actual, expected, item: tuple, rtol, atol, equal_nan, check_dtype, check_device, check_stride,
    allow_subclasses, **_,
) -> None:  # fmt: skip
    if not (isinstance(actual, type(expected)) or isinstance(expected, type(actual))):
        raise _Unsupported
    if not allow_subclasses and type(actual) is not type(expected):
        raise _Unsupported
    actual, expected = _as_tensor(actual), _as_tensor(expected)
    rtol, atol = _tolerances([actual.dtype, expected.dtype], rtol, atol, item)

    def differ(name: str, a, e) -> _Mismatch:
        return _Mismatch(AssertionError, f"The values for attribute '{name}' do not match: {a} != {e}.", item)

    if actual.shape != expected.shape:
        raise differ("shape", actual.shape, expected.shape)
    if check_stride and actual.stride() != expected.stride():
        raise differ("stride()", actual.stride(), expected.stride())
    if check_device and actual.device != expected.device:
        raise differ("device", actual.device, expected.device)
    if check_dtype and actual.dtype != expected.dtype:
        raise differ("dtype", actual.dtype, expected.dtype)
    actual, expected = actual.detach(), expected.detach()
    if actual.device != expected.device:
        actual, expected = actual.cpu(), expected.cpu()
    if actual.dtype != expected.dtype:
        from .._promotion import promote_types

        common = promote_types(actual.dtype, expected.dtype)
        actual, expected = actual.to(common), expected.to(common)
    matches = isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan)._host()
    a, e = actual._host(), expected._host()
    if matches.all():
        return
    if a.ndim == 0:
        raise _Mismatch(AssertionError, _scalar_msg(a.item(), e.item(), rtol, atol), item)
    raise _Mismatch(AssertionError, _tensor_msg(a, e, matches, rtol, atol), item)


_PAIRS = (_compare_none, _compare_bool, _compare_number, _compare_tensor)


def _is_sequence(x) -> bool:
    return isinstance(x, collections.abc.Sequence) and not isinstance(x, str)


def _compare(actual, expected, item: tuple, options: dict) -> None:
    if _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            raise _Mismatch(
                AssertionError,
                f"The length of the sequences mismatch: {len(actual)} != {len(expected)}",
                item,
            )
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, (*item, i), options)
        return
    if isinstance(actual, collections.abc.Mapping) and isinstance(expected, collections.abc.Mapping):
        keys, other = set(actual.keys()), set(expected.keys())
        if keys != other:
            raise _Mismatch(
                AssertionError,
                "The keys of the mappings do not match:\n"
                f"Missing keys in the actual mapping: {sorted(other - keys)}\n"
                f"Additional keys in the actual mapping: {sorted(keys - other)}",
                item,
            )
        with contextlib.suppress(TypeError):
            keys = sorted(keys)
        for key in keys:
            _compare(actual[key], expected[key], (*item, key), options)
        return
    for pair in _PAIRS:
        try:
            return pair(actual, expected, item, **options)
        except _Unsupported:
            continue
    raise _Mismatch(
        TypeError,
        f"No comparison pair was able to handle inputs of type {type(actual)} and {type(expected)}.",
        item,
    )


def assert_close(
    actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False, check_device=True,
    check_dtype=True, check_layout=True, check_stride=False, msg=None,
) -> None:  # fmt: skip
    """Assert that ``actual`` and ``expected`` are close: ``|actual - expected| <= atol + rtol * |expected|``.

    Tensors must also match in shape, device and dtype (``check_device``/``check_dtype``); sequences and
    mappings are compared item by item. Without ``rtol``/``atol``, torch's defaults for the dtype apply
    (float32: 1.3e-6 / 1e-5; float64: 1e-7 / 1e-7; half: 1e-3 / 1e-5; bfloat16: 0.016 / 1e-5; integers and
    bool: exact). A mismatch raises ``AssertionError`` with torch's message; ``msg`` (a string, or a
    callable given the generated message) replaces it.

    >>> import yaten
    >>> yaten.testing.assert_close(yaten.tensor([1.0, 2.0, 3.0]), yaten.tensor([1.0, 2.5, 3.0]))
    Traceback (most recent call last):
    ...
    AssertionError: Tensor-likes are not close!
    <BLANKLINE>
    Mismatched elements: 1 / 3 (33.3%)
    Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)
    Greatest relative difference: 0.20000000298023224 at index (1,) (up to 1.3e-06 allowed)
    """
    __tracebackhide__ = True
    options = dict(
        rtol=rtol, atol=atol, equal_nan=equal_nan, check_dtype=check_dtype, check_device=check_device,
        check_stride=check_stride, allow_subclasses=allow_subclasses,
    )  # fmt: skip
    try:
        _compare(actual, expected, (), options)
    except _Mismatch as mismatch:
        raise mismatch.error(msg) from None


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg="") -> None:
    """Deprecated form of :func:`assert_close` (warns ``FutureWarning``), with its older default
    tolerances, ``equal_nan=True`` and no dtype check; non-tensor inputs are made tensors first.

    >>> import warnings, yaten
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     yaten.testing.assert_allclose(yaten.tensor([1.0, float("nan")]), [1.0, float("nan")])
    """
    from .._factories import tensor

    warnings.warn(
        "`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a future release. "
        "Please use `torch.testing.assert_close()` instead. "
        "You can find detailed upgrade instructions in https://github.com/pytorch/pytorch/issues/61844.",
        FutureWarning,
        stacklevel=2,
    )
    if not isinstance(actual, Tensor):
        actual = tensor(actual)
    if not isinstance(expected, Tensor):
        expected = tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        rtol, atol = _default_tolerances([actual.dtype, expected.dtype], _ALLCLOSE_PRECISIONS)
    assert_close(
        actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True, check_dtype=False,
        check_stride=False, msg=msg or None,
    )  # fmt: skip
