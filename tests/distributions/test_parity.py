"""yaten.distributions against torch.distributions, case by case (``_cases.py``): everything
deterministic (shapes, supports, repr, mean/mode/variance/entropy, log_prob, cdf/icdf, enumerate_support,
expand) within float64 tolerances, with the gradients with respect to the parameters."""

import numpy as np
import pytest
import torch
from _cases import CASES, build

import yaten
from tests.tolerances import as_array, assert_close

PROPERTIES = ("mean", "mode", "variance", "stddev", "entropy", "perplexity")


def _outcome(fn):
    """A result, or the type of exception raised (torch's NotImplementedError for a missing moment)."""
    try:
        return fn()
    except (NotImplementedError, ValueError, RuntimeError) as e:
        return type(e)


def _call(d, what, value):
    if what in ("entropy", "perplexity"):
        return getattr(d, what)()
    if what in ("log_prob", "cdf"):
        return getattr(d, what)(value)
    if what == "icdf":
        return d.icdf(d.cdf(value))
    if what == "enumerate_support":
        return d.enumerate_support()
    return getattr(d, what)


def _same(got, want, what):
    if isinstance(want, type):
        assert got is want, f"{what}: torch raises {want.__name__}, yaten gives {got!r}"
        return
    assert not isinstance(got, type), f"{what}: yaten raises {got.__name__}"
    assert tuple(got.shape) == tuple(want.shape), what
    assert str(got.dtype).rpartition(".")[2] == str(want.dtype).rpartition(".")[2], what
    assert_close(as_array(got), as_array(want), what, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_metadata_matches_torch(case):
    y, _ = build(yaten, case)
    t, _ = build(torch, case)
    assert tuple(y.batch_shape) == tuple(t.batch_shape)
    assert tuple(y.event_shape) == tuple(t.event_shape)
    assert repr(y).replace("yaten", "torch") == repr(t)
    assert repr(y.support).replace("yaten", "torch") == repr(t.support)
    assert {k: repr(v).replace("yaten", "torch") for k, v in y.arg_constraints.items()} == {
        k: repr(v) for k, v in t.arg_constraints.items()
    }
    assert (y.has_rsample, y.has_enumerate_support) == (t.has_rsample, t.has_enumerate_support)
    assert type(y).__mro__[1].__name__ == type(t).__mro__[1].__name__


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
@pytest.mark.parametrize("what", PROPERTIES + ("log_prob", "cdf", "icdf", "enumerate_support"))
def test_values_match_torch(case, what):
    y, _ = build(yaten, case)
    t, _ = build(torch, case)
    want = _outcome(lambda: _call(t, what, torch.tensor(case.value)))
    got = _outcome(lambda: _call(y, what, yaten.tensor(case.value)))
    _same(got, want, f"{case.id}.{what}")


def _leaves(case):
    return [k for k in case.grad] + [f"base.{k}" for k in (case.base.grad if case.base else ())]


def _torch_differentiates(case, leaf, what):
    want = _outcome(lambda: _call(build(torch, case, only=leaf)[0], what, torch.tensor(case.value)))
    return not isinstance(want, type) and want.requires_grad


# Every (case, parameter, quantity) that torch differentiates (a Categorical has no cdf, a Bernoulli's
# mean does not depend on logits through a graph torch keeps, ...).
GRAD_CASES = [
    (c, leaf, what)
    for c in CASES
    for leaf in _leaves(c)
    for what in ("log_prob", "entropy", "mean", "variance", "cdf")
    if _torch_differentiates(c, leaf, what)
]


@pytest.mark.parametrize(
    "case, leaf, what", GRAD_CASES, ids=[f"{c.id}-{leaf}-{w}" for c, leaf, w in GRAD_CASES]
)
def test_gradients_match_torch(case, leaf, what):
    """The gradient with respect to one parameter (the others constant), or torch's error for it."""
    t, t_leaves = build(torch, case, only=leaf)
    want = _call(t, what, torch.tensor(case.value))
    y, y_leaves = build(yaten, case, only=leaf)
    got = _call(y, what, yaten.tensor(case.value))
    want_grad = _outcome(lambda: torch.autograd.grad(want.sum(), t_leaves[leaf])[0])
    got_grad = _outcome(lambda: yaten.autograd.grad(got.sum(), y_leaves[leaf])[0])
    _same(got_grad, want_grad, f"{case.id}.{what} d/d{leaf}")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_expand_and_sample_shapes_match_torch(case):
    y, _ = build(yaten, case)
    t, _ = build(torch, case)
    shape = (2,) + tuple(t.batch_shape)
    ye, te = y.expand(shape), t.expand(shape)
    assert type(ye) is type(y) and tuple(ye.batch_shape) == tuple(te.batch_shape)
    want = _outcome(lambda: te.log_prob(torch.tensor(case.value)))
    _same(_outcome(lambda: ye.log_prob(yaten.tensor(case.value))), want, "expand")
    for method in ("sample", "rsample") if t.has_rsample else ("sample",):
        want = getattr(t, method)((4, 3))
        got = getattr(y, method)((4, 3))
        assert tuple(got.shape) == tuple(want.shape)
        assert str(got.dtype).rpartition(".")[2] == str(want.dtype).rpartition(".")[2]
        assert tuple(got.shape) == (4, 3) + tuple(y.batch_shape) + tuple(y.event_shape)
        assert bool(y.support.check(got).all())
    if not t.has_rsample:
        with pytest.raises(NotImplementedError):
            y.rsample()


def test_categorical_normalises_and_converts_between_probs_and_logits():
    probs = np.array([[1.0, 2.0, 5.0], [3.0, 3.0, 2.0]])
    y = yaten.distributions.Categorical(probs=yaten.tensor(probs))
    t = torch.distributions.Categorical(probs=torch.tensor(probs))
    assert_close(as_array(y.probs), as_array(t.probs))
    assert_close(as_array(y.logits), as_array(t.logits))
    y2 = yaten.distributions.Categorical(logits=y.logits)
    assert_close(as_array(y2.probs), as_array(t.probs))
    assert y.param_shape == t.param_shape and y._num_events == t._num_events
