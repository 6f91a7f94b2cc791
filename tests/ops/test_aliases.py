"""PyTorch's alias names (``absolute`` for ``abs``): bound by the spec's ``aliases:`` to the same
overloads, as function, method, in-place and out= form, with torch's values and errors."""

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_close

A = np.array([[0.3, -0.7, 1.5], [-2.0, 0.1, 0.6]])
B = np.array([[0.5, 0.2, -1.0], [1.5, -0.4, 0.9]])

# alias -> arguments after the tensor (a NumPy array is a second tensor)
CASES = {
    "absolute": (), "negative": (), "arctan": (), "fix": (), "arcsin": (), "arccos": (), "arcsinh": (),
    "arctanh": (), "multiply": (B,), "subtract": (B,), "divide": (B,), "true_divide": (B,), "arctan2": (B,),
    "greater": (B,), "greater_equal": (B,), "less": (B,), "less_equal": (B,), "not_equal": (B,),
    "clip": (-0.5, 0.5),
}  # fmt: skip
INPLACE = ["absolute_", "negative_", "arctan_", "fix_", "arcsin_", "arccos_", "arcsinh_", "arctanh_",
           "multiply_", "subtract_", "divide_", "true_divide_", "arctan2_"]  # fmt: skip


def _args(lib, extra):
    return [lib.from_numpy(e.copy()) if isinstance(e, np.ndarray) else e for e in extra]


@pytest.mark.parametrize("name", sorted(CASES))
def test_alias_function_and_method_match_torch(name):
    for form in ("function", "method"):
        outs = []
        for lib in (torch, yaten):
            x = lib.from_numpy(A.copy())
            args = _args(lib, CASES[name])
            outs.append(getattr(lib, name)(x, *args) if form == "function" else getattr(x, name)(*args))
        assert_close(outs[1], outs[0], f"{name} ({form})")


def test_acosh_alias():
    a = np.array([1.5, 2.0, 7.0])
    assert_close(yaten.arccosh(yaten.from_numpy(a)), torch.arccosh(torch.from_numpy(a)))


@pytest.mark.parametrize("name", INPLACE)
def test_alias_inplace_matches_torch(name):
    base = name[:-1]
    outs = []
    for lib in (torch, yaten):
        x = lib.from_numpy(A.copy() * 0.5)
        y = getattr(x, name)(*_args(lib, CASES[base]))
        assert y is x
        outs.append(x)
    assert_close(outs[1], outs[0], name)


def test_alias_out_and_grad_fn_are_the_original_ops():
    for lib in (torch, yaten):
        out = lib.empty(2, 3, dtype=lib.float64)
        r = lib.multiply(lib.from_numpy(A.copy()), lib.from_numpy(B.copy()), out=out)
        assert r is out
    x = yaten.from_numpy(A.copy()).requires_grad_()
    assert type(yaten.absolute(x).grad_fn).__name__ == "AbsBackward0"
    assert type(yaten.subtract(x, 1.0).grad_fn).__name__ == "SubBackward0"


def test_alias_errors_name_the_alias_as_torch_does():
    for lib in (torch, yaten):
        with pytest.raises(TypeError, match=r"^absolute\(\)"):
            lib.absolute("a")
