"""default_collate and default_convert, compared with torch's on the same samples."""

import collections

import numpy as np
import pytest
import torch

import yaten
from yaten.utils import data as yd

Point = collections.namedtuple("Point", "x y")


def _both(make):
    """``make(lib)`` builds a sample list with yaten or torch tensors."""
    return make(yaten), make(torch)


CASES = {
    "tensors": lambda m: [m.tensor([1.0, 2.0]), m.tensor([3.0, 4.0])],
    "int tensors 0-d": lambda m: [m.tensor(1), m.tensor(2)],
    "floats": lambda m: [0.5, 1.5, 2.0],
    "ints": lambda m: [1, 2, 3],
    "bools": lambda m: [True, False],
    "strings": lambda m: ["a", "b"],
    "numpy arrays": lambda m: [np.arange(3, dtype=np.float32), np.ones(3, np.float32)],
    "numpy int arrays": lambda m: [np.arange(2), np.arange(2)],
    "numpy scalars": lambda m: [np.float64(1.5), np.float64(2.5)],
    "numpy int scalars": lambda m: [np.int32(1), np.int32(2)],
    "dicts": lambda m: [{"x": m.ones(2), "y": 1}, {"x": m.zeros(2), "y": 2}],
    "ordered dicts": lambda m: [collections.OrderedDict(a=1.0), collections.OrderedDict(a=2.0)],
    "tuples": lambda m: [(m.tensor([1]), 2, "s"), (m.tensor([3]), 4, "t")],
    "lists": lambda m: [[1, 2.0], [3, 4.0]],
    "namedtuples": lambda m: [Point(m.tensor(1.0), 2), Point(m.tensor(3.0), 4)],
    "nested": lambda m: [{"a": (m.ones(1), [1, 2])}, {"a": (m.zeros(1), [3, 4])}],
}


@pytest.mark.parametrize("name", CASES)
def test_default_collate_as_torch(name, plain):
    y, t = _both(CASES[name])
    assert plain(yd.default_collate(y)) == plain(torch.utils.data.default_collate(t))


@pytest.mark.parametrize("name", CASES)
def test_default_convert_as_torch(name, plain):
    y, t = _both(CASES[name])
    for ys, ts in zip(y, t):
        assert plain(yd.default_convert(ys)) == plain(torch.utils.data.default_convert(ts))


def test_collate_errors_as_torch():
    for batch, exc in (([object(), object()], TypeError), ([np.array(["a"]), np.array(["b"])], TypeError),
                       ([[1, 2], [3]], RuntimeError)):  # fmt: skip
        with pytest.raises(exc) as t_err:
            torch.utils.data.default_collate(batch)
        with pytest.raises(exc) as y_err:
            yd.default_collate(batch)
        assert str(y_err.value) == str(t_err.value)
