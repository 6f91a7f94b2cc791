"""The elementwise corpus (``bad_calls_pointwise``) run with torch and yaten: the same exception type
and message, or, where torch returns, the same result; kernels never warn where torch is silent."""

import math
import warnings

import numpy as np
import pytest
import torch
from bad_calls_pointwise import CASES, SILENT

import yaten


def _run(lib, call):
    """(exception or None, result or None) of ``call(lib)``; torch's own warnings are not the point."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return None, call(lib)
        except Exception as e:  # any exception: its type and message are what is compared
            return e, None


def _plain(value):
    """A result as nested lists of Python numbers with each tensor's dtype name, for comparing."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, (torch.Tensor, yaten.Tensor)):
        return (str(value.dtype).split(".")[-1], list(value.shape), value.detach().reshape(-1).tolist())
    return value


def _same_numbers(a, b) -> bool:
    """Equal, with NaN equal to NaN and float results within float32's rounding (the ops here are
    exact but for the transcendental ones, where torch's SIMD loops may differ in the last bit)."""
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same_numbers(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        if math.isinf(a) or math.isinf(b):
            return a == b
        return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-30) and math.copysign(1, a) == math.copysign(1, b)
    return a == b


def _assert_same(label, call):
    expected_error, expected = _run(torch, call)
    got_error, got = _run(yaten, call)
    if expected_error is not None:
        assert type(got_error) is type(expected_error), (
            f"{label}: torch raised {expected_error!r}, yaten {got_error!r}"
        )
        message = str(expected_error).split(" (Triggered internally")[0]
        assert str(got_error) == message or type(got_error) is NotImplementedError, label
        return
    assert got_error is None, f"{label}: torch returned, yaten raised {got_error!r}"
    assert _same_numbers(_plain(got), _plain(expected)), f"{label}: {_plain(got)} != {_plain(expected)}"


@pytest.mark.parametrize("label, call", [pytest.param(label, call, id=label) for label, call in CASES])
def test_pointwise_call_behaves_as_torch(label, call):
    _assert_same(label, call)


@pytest.mark.parametrize("label, call", [pytest.param(label, call, id=label) for label, call in SILENT])
def test_kernels_never_warn_where_torch_is_silent(label, call):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        call(yaten)
    _assert_same(label, call)


def test_nan_and_inf_to_integer_are_silent():
    # C leaves the values undefined (they differ by CPU): only the silence is torch's.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for dtype in (yaten.int64, yaten.int32, yaten.uint8, yaten.int8):
            assert yaten.tensor([math.nan, math.inf, -1.0]).to(dtype).dtype is dtype


def test_kernels_leave_the_users_numpy_error_state_alone():
    with np.errstate(divide="raise"):
        yaten.log(yaten.tensor([0.0]))
        yaten.tensor([1.0]).sum()
        with pytest.raises(FloatingPointError):
            np.log(np.zeros(1))
    assert np.geterr()["divide"] == "warn"


def test_not_implemented_names_the_op_and_dtype():
    with pytest.raises(NotImplementedError, match="\"abs\" not implemented for 'Bool'"):
        yaten.abs(yaten.tensor([True]))
