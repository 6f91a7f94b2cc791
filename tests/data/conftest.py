"""Helpers for comparing yaten and torch batches."""

import collections

import numpy as np
import pytest
import torch

import yaten


def to_plain(x):
    """A batch as plain Python: tensors become ("tensor", dtype name, shape, values)."""
    if isinstance(x, yaten.Tensor):
        return ("tensor", x.dtype.name, tuple(x.shape), x.tolist())
    if isinstance(x, torch.Tensor):
        return ("tensor", str(x.dtype).removeprefix("torch."), tuple(x.shape), x.tolist())
    if isinstance(x, np.ndarray):
        return ("ndarray", x.tolist())
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return (type(x).__name__, *(to_plain(v) for v in x))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [to_plain(v) for v in x])
    if isinstance(x, collections.abc.Mapping):
        return (type(x).__name__, {k: to_plain(v) for k, v in x.items()})
    return x


@pytest.fixture
def plain():
    return to_plain
