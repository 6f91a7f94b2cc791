"""Running one case with ``m = torch`` and ``m = yaten`` and comparing what comes out.

A case is a function of the library module; its result is turned into plain data (tensors by dtype,
shape, values and requires_grad; exceptions by type and message) with torch's names made yaten's.
Floating values are compared within their dtype's tolerance (tests/tolerances.py), all else exactly.
"""

import warnings
from collections import OrderedDict

import torch

import yaten
from tests.tolerances import close


class Values:
    """A tensor's values (its ``tolist()``) and dtype: equal to other values as tests/tolerances.py says
    for that dtype (floats within its tolerance, all else exactly)."""

    __slots__ = ("dtype", "values")

    def __init__(self, values, dtype):
        self.values, self.dtype = values, dtype

    def __eq__(self, other):  # another Values, or the list a test expects
        return close(self.values, other.values if isinstance(other, Values) else other, self.dtype)

    def __repr__(self):
        return repr(self.values)


def name(x) -> str:
    return str(x).replace("torch", "yaten")


def value(x):
    if isinstance(x, (torch.Tensor, yaten.Tensor)):
        kind = "Parameter" if isinstance(x, (torch.nn.Parameter, yaten.nn.Parameter)) else "Tensor"
        return kind, name(x.dtype), tuple(x.shape), Values(x.tolist(), x.dtype), x.requires_grad
    if isinstance(x, (tuple, list)):
        return type(x).__name__, [value(v) for v in x]
    if isinstance(x, (dict, OrderedDict)):
        return type(x).__name__, [(k, value(v)) for k, v in x.items()]
    if isinstance(x, (torch.nn.Module, yaten.nn.Module)):
        return "module", type(x).__name__
    if isinstance(x, (str, type, torch.dtype, yaten.dtype, torch.Size, yaten.Size)):
        return name(x)
    return x


def run(case, m):
    try:
        return value(case(m))
    except Exception as e:  # compared by type and message
        return type(e), name(e)


def same(case):
    """Run ``case`` with both libraries; return the (equal) result so a test can also check it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got, want = run(case, yaten), run(case, torch)
    assert got == want
    return got
