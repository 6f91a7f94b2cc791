"""What the op table's tie-free samples leave out of the order statistics and the scans: gradients and
results where elements are equal, against torch.

Gradients at ties are one-sided kinks, so gradgradcheck (which the op table runs on every sample)
cannot check them; they are compared with torch's here.
"""

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_close, assert_matches


def _both(values):
    return [lib.tensor(values, dtype=lib.float64, requires_grad=True) for lib in (torch, yaten)]


@pytest.mark.parametrize(
    "name, values",
    [
        ("median", [1.0, 1.0, 2.0, 5.0, 0.0]),
        ("median", [1.0, np.nan, 2.0, np.nan]),
        ("nanmedian", [1.0, np.nan, 1.0, np.nan]),
        ("nanmedian", [3.0, 3.0, 3.0]),
    ],
)
def test_median_of_all_shares_the_gradient_among_ties(name, values):
    t, y = _both(values)
    want, got = getattr(torch, name)(t), getattr(yaten, name)(y)
    assert_matches(got, want)
    want.backward()
    got.backward()
    assert_close(y.grad, t.grad)


@pytest.mark.parametrize("name", ["cummax", "cummin"])
def test_cummaxmin_ties_take_the_later_index(name):
    values = [[2.0, 2.0, 1.0, 2.0, np.nan, 3.0], [1.0, 1.0, 1.0, 0.0, 0.0, 4.0]]
    t, y = _both(values)
    want, got = getattr(torch, name)(t, 1), getattr(yaten, name)(y, 1)
    assert_matches(got.values, want.values)
    assert_matches(got.indices, want.indices)
    want.values.sum().backward()
    got.values.sum().backward()
    assert_close(y.grad, t.grad)


def test_mode_picks_the_smallest_most_frequent_value_and_its_last_index():
    values = [[3, 1, 3, 1, 2], [5, 5, 4, 4, 4]]
    want = torch.mode(torch.tensor(values), 1)
    got = yaten.mode(yaten.tensor(values), 1)
    assert_matches(got.values, want.values)
    assert_matches(got.indices, want.indices)


def test_cumprod_gradient_with_several_zeros_matches_torch():
    values = [[0.0, 2.0, 0.0, 3.0], [1.5, 0.0, -2.0, 4.0]]
    t, y = _both(values)
    w = np.arange(8.0).reshape(2, 4)
    (torch.cumprod(t, 1) * torch.tensor(w)).sum().backward()
    (yaten.cumprod(y, 1) * yaten.tensor(w)).sum().backward()
    assert_close(y.grad, t.grad)


@pytest.mark.parametrize("kwargs", [{}, {"return_inverse": True, "return_counts": True}])
def test_unique_with_nan_and_ties_matches_torch(kwargs):
    values = [2.0, np.nan, 1.0, 2.0, np.nan, -0.0, 0.0]
    want = torch.unique(torch.tensor(values), **kwargs)
    got = yaten.unique(yaten.tensor(values), **kwargs)
    for g, w in zip(got if kwargs else [got], want if kwargs else [want], strict=True):
        assert_matches(g, w)
