"""Running one case with ``m = torch`` and ``m = yaten`` and comparing what comes out."""

import warnings

import torch

import yaten


def name(x) -> str:
    return str(x).replace("torch.", "yaten.").replace("torch::", "yaten::")


def value(x):
    """A comparable picture of a result: tensors (nested in tuples/lists) by dtype, shape and values."""
    if isinstance(x, (tuple, list)):
        return type(x).__name__, [value(v) for v in x]
    if isinstance(x, (torch.Tensor, yaten.Tensor)):
        return "tensor", name(x.dtype), tuple(x.shape), x.tolist(), x.requires_grad
    return x


def run(case, m):
    try:
        return value(case(m))
    except Exception as e:  # compared by type and message below
        return type(e), name(e)


def same(case):
    """Run ``case`` with both libraries; return the (equal) result so a test can also check it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # torch's create_graph reference-cycle warning
        got, want = run(case, yaten), run(case, torch)
    assert got == want
    return got
