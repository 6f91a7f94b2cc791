"""GeneralizedPareto against torch in float32: torch 2.13's log_prob and cdf fail on float64 parameters
("Double did not match Float"), so the float64 case table (``_cases.py``) cannot hold it. Values,
gradients with respect to each parameter, the support, sampling inside it, and the validation error."""

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import as_array, assert_close

PARAMS = {"loc": [0.0, 1.0, 0.0, 0.0], "scale": [1.0, 2.0, 1.0, 1.0], "concentration": [0.2, -0.1, 0.0, 0.6]}
VALUE = [0.5, 2.0, 1.0, 3.0]  # inside the support of each (the second is bounded above by 21)
QUANTITIES = {
    "mean": lambda d, v: d.mean,
    "mode": lambda d, v: d.mode,
    "variance": lambda d, v: d.variance,
    "entropy": lambda d, v: d.entropy(),
    "log_prob": lambda d, v: d.log_prob(v),
    "cdf": lambda d, v: d.cdf(v),
    "icdf": lambda d, v: d.icdf(v / 4),
}


def _build(lib, grad=None):
    leaves = {k: lib.tensor(v, requires_grad=k == grad) for k, v in PARAMS.items()}
    return lib.distributions.GeneralizedPareto(**leaves), leaves


@pytest.mark.parametrize("what", QUANTITIES)
@pytest.mark.parametrize("grad", [None, *PARAMS])
def test_values_and_gradients_match_torch(what, grad):
    t, t_leaves = _build(torch, grad)
    y, y_leaves = _build(yaten, grad)
    want = QUANTITIES[what](t, torch.tensor(VALUE))
    got = QUANTITIES[what](y, yaten.tensor(VALUE))
    assert_close(as_array(got), as_array(want), what)
    if grad is None or not want.requires_grad:
        return
    finite = torch.isfinite(want)
    (want_g,) = torch.autograd.grad(want[finite].sum(), t_leaves[grad])
    (got_g,) = yaten.autograd.grad(got[yaten.tensor(finite.numpy())].sum(), y_leaves[grad])
    assert_close(as_array(got_g), as_array(want_g), f"d {what} / d {grad}", rtol=1e-4, atol=1e-5)


def test_support_samples_and_validation_match_torch():
    t, _ = _build(torch)
    y, _ = _build(yaten)
    assert repr(y.support) == repr(t.support)
    assert repr(y).replace("yaten", "torch") == repr(t)
    yaten.manual_seed(0)
    x = y.rsample((2000,))
    assert tuple(x.shape) == (2000, 4) and bool(y.support.check(x).all())
    # the median: half of the draws fall below icdf(1/2)
    below = (as_array(x) <= as_array(y.icdf(yaten.tensor(0.5)))).mean(axis=0)
    assert np.all(np.abs(below - 0.5) < 6 * np.sqrt(0.25 / 2000))
    outside = [-0.5, 30.0, 1.0, 3.0]
    with pytest.raises(ValueError) as want:
        t.log_prob(torch.tensor(outside))
    with pytest.raises(ValueError) as got:
        y.log_prob(yaten.tensor(outside))
    assert str(got.value).replace("yaten", "torch") == str(want.value)
