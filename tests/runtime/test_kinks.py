"""Gradients at the points where an op is not differentiable, side by side with PyTorch.

There the gradient is a convention (relu'(0) = 0, sqrt'(0) = inf, ties of max split the gradient, ...);
yaten must follow PyTorch's, value for value, including NaN, inf, a signed zero and "no gradient".
Each case is ``(f(m, *xs), inputs)`` run with ``m = torch`` and ``m = yaten`` on float64 leaves; only ops
of spec/native_functions.yaml appear (hardtanh-like bounds are clamp's).
"""

import math

import numpy as np
import pytest
import torch

import yaten
from tests.runtime.parity import Values

INF, NAN = math.inf, math.nan

# name -> (f(m, *leaves), the leaves' values)
CASES = {
    # relu, abs, sign, sqrt, rsqrt at 0
    "relu at 0": (lambda m, x: x.relu(), [[-1.0, 0.0, -0.0, 1.0, INF]]),
    "abs at 0": (lambda m, x: x.abs(), [[-1.0, 0.0, -0.0, 1.0]]),
    "sign everywhere": (lambda m, x: x.sign(), [[-2.0, 0.0, 3.0, NAN]]),
    "sqrt at 0": (lambda m, x: x.sqrt(), [[0.0, -0.0, 1.0]]),
    "rsqrt at 0": (lambda m, x: x.rsqrt(), [[0.0, 4.0]]),
    "log at 0": (lambda m, x: x.log(), [[0.0, 1.0]]),
    # clamp: both bounds inclusive; min > max clamps everything to max (gradient 0); min == max
    "clamp at the bounds": (lambda m, x: x.clamp(-1.0, 1.0), [[-2.0, -1.0, 0.0, 1.0, 2.0]]),
    "clamp min only": (lambda m, x: x.clamp(min=-1.0), [[-2.0, -1.0, 0.0]]),
    "clamp max only": (lambda m, x: x.clamp(max=1.0), [[0.0, 1.0, 2.0]]),
    "clamp min > max": (lambda m, x: x.clamp(1.0, -1.0), [[-2.0, -1.0, 0.0, 1.0, 2.0]]),
    "clamp min == max": (lambda m, x: x.clamp(0.0, 0.0), [[-1.0, 0.0, 1.0]]),
    "clamp_min at the bound": (lambda m, x: m.clamp_min(x, 1.0), [[0.0, 1.0, 2.0]]),
    "clamp_max at the bound": (lambda m, x: m.clamp_max(x, 1.0), [[0.0, 1.0, 2.0]]),
    # full reductions spread the gradient evenly over ties (NaNs count as the max); dim reductions send
    # it to the returned index; amax/amin spread it per slice
    "max ties": (lambda m, x: x.max(), [[1.0, 3.0, 3.0, 2.0]]),
    "min ties": (lambda m, x: x.min(), [[1.0, 1.0, 3.0, 1.0]]),
    "max with NaNs": (lambda m, x: x.max(), [[1.0, NAN, NAN]]),
    "max.dim ties": (lambda m, x: x.max(0)[0], [[[1.0, 3.0], [1.0, 3.0]]]),
    "min.dim ties": (lambda m, x: x.min(1, keepdim=True)[0], [[[1.0, 1.0], [3.0, 0.0]]]),
    "amax ties": (lambda m, x: x.amax(0), [[[1.0, 3.0], [1.0, 3.0]]]),
    "amin ties": (lambda m, x: x.amin(), [[[1.0, 1.0], [3.0, 1.0]]]),
    "amax with NaNs": (lambda m, x: x.amax(), [[1.0, NAN, NAN]]),
    # elementwise maximum/minimum split the gradient in half on ties
    "maximum ties": (lambda m, x, y: m.maximum(x, y), [[1.0, 2.0, 3.0], [1.0, 1.0, 3.0]]),
    "minimum ties": (lambda m, x, y: m.minimum(x, y), [[1.0, 2.0, 3.0], [1.0, 1.0, 3.0]]),
    "max.other ties": (lambda m, x, y: m.max(x, y), [[1.0, 2.0], [1.0, 3.0]]),
    "min.other ties": (lambda m, x, y: m.min(x, y), [[1.0, 2.0], [1.0, 3.0]]),
    # pow at 0: 0^0 has gradient 0 in the base, exponents < 1 give inf or -inf, the exponent's gradient
    # is 0 where the base is 0 and the exponent >= 0
    "pow(0, 0) and friends": (
        lambda m, x, e: x.pow(e),
        [[0.0, 0.0, 0.0, 0.0, 2.0], [0.0, -1.0, 0.5, 2.0, 0.0]],
    ),
    "pow x^0": (lambda m, x: x.pow(0), [[0.0, 1.0]]),
    "pow x^0.5 at 0": (lambda m, x: x.pow(0.5), [[0.0, 1.0]]),
    "pow x^-1 at 0": (lambda m, x: x.pow(-1.0), [[0.0, 1.0]]),
    "pow x^1 at 0": (lambda m, x: x.pow(1.0), [[0.0, 1.0]]),
    "pow x^2 at 0": (lambda m, x: x.pow(2), [[0.0, -0.0, 1.0]]),
    "pow 0^x": (lambda m, e: m.pow(0.0, e), [[-1.0, 0.0, 1.0]]),
    # norm: 0 where the norm is 0; zero entries get 0 for p < 2; p = inf spreads over ties and NaNs;
    # p = 0 has no gradient at all
    "norm 2 at 0": (lambda m, x: x.norm(), [[0.0, 0.0]]),
    "norm 1 at 0": (lambda m, x: x.norm(1), [[0.0, 0.0, 1.0]]),
    "norm 3 at 0": (lambda m, x: x.norm(3), [[0.0, 0.0]]),
    "norm 0.5 at a zero entry": (lambda m, x: x.norm(0.5), [[1.0, 0.0]]),
    "norm 0.5 at 0": (lambda m, x: x.norm(0.5), [[0.0, 0.0]]),
    "norm 1.5 at a zero entry": (lambda m, x: x.norm(1.5), [[1.0, 0.0]]),
    "norm 0": (lambda m, x: x.norm(0), [[1.0, 0.0]]),
    "norm inf ties": (lambda m, x: x.norm(INF), [[1.0, -1.0, 0.5]]),
    "norm -inf ties": (lambda m, x: x.norm(-INF), [[1.0, -1.0, 2.0]]),
    "norm inf with NaN": (lambda m, x: x.norm(INF), [[1.0, NAN]]),
    "norm over a dim with a zero row": (lambda m, x: x.norm(2, [1]), [[[0.0, 0.0], [3.0, 4.0]]]),
    # where, and the piecewise-constant ops (gradient 0 everywhere, also at their jumps)
    "where at the switch": (lambda m, x: m.where(x > 0, x, -x), [[-1.0, 0.0, 1.0]]),
    "floor": (lambda m, x: x.floor(), [[-1.5, 0.0, 1.0]]),
    "ceil": (lambda m, x: x.ceil(), [[-1.5, 0.0, 1.0]]),
    "round at .5": (lambda m, x: x.round(), [[-1.5, 0.5, 2.5]]),
    "trunc": (lambda m, x: x.trunc(), [[-1.5, 0.5, 1.0]]),
    "remainder at a jump": (lambda m, x, y: m.remainder(x, y), [[4.0, -4.0], [2.0, 2.0]]),
    # and a few more corners
    "atan2 at the origin": (lambda m, y, x: m.atan2(y, x), [[0.0, 0.0, -0.0, 1.0], [0.0, -0.0, 0.0, 0.0]]),
    "prod with one zero": (lambda m, x: x.prod(), [[0.0, 2.0, 3.0]]),
    "prod with two zeros": (lambda m, x: x.prod(), [[0.0, 0.0, 3.0]]),
    "prod over a dim with zeros": (lambda m, x: x.prod(1), [[[0.0, 2.0], [0.0, 0.0]]]),
    "std of a constant": (lambda m, x: x.std(), [[1.0, 1.0, 1.0]]),
    "var of one element": (lambda m, x: x.var(), [[1.0]]),
    "logsumexp of -inf": (lambda m, x: x.logsumexp(0), [[-INF, -INF]]),
}

# Second derivatives at the same kinds of points (backward with create_graph, then backward again).
SECOND_ORDER = {
    "relu": (lambda m, x: x.relu(), [[-1.0, 0.0, 1.0]]),
    "abs": (lambda m, x: x.abs(), [[-1.0, 0.0, 1.0]]),
    "x * |x|": (lambda m, x: x * x.abs(), [[-1.0, 0.0, 1.0]]),
    "sqrt at 0": (lambda m, x: x.sqrt(), [[0.0, 1.0]]),
    "clamp at the bounds": (lambda m, x: x.clamp(-1.0, 1.0) * x, [[-1.0, 0.0, 1.0, 2.0]]),
    "max ties": (lambda m, x: x.max() * x.sum(), [[1.0, 3.0, 3.0, 2.0]]),
    "max.dim ties": (lambda m, x: x.max(0)[0] * x.sum(), [[[1.0, 3.0], [1.0, 3.0]]]),
    "maximum ties": (lambda m, x, y: m.maximum(x, y) * x, [[1.0, 2.0, 3.0], [1.0, 1.0, 3.0]]),
    "pow(0, 0) and friends": (lambda m, x, e: x.pow(e), [[0.0, 0.0, 0.0, 2.0], [0.0, 0.5, 2.0, 0.0]]),
    "pow x^3 at 0": (lambda m, x: x.pow(3.0), [[0.0, 1.0]]),
    "norm at 0": (lambda m, x: x.norm(), [[0.0, 0.0]]),
    "norm 3 at a zero entry": (lambda m, x: x.norm(3), [[0.0, 1.0]]),
    "norm 1.5 at a zero entry": (lambda m, x: x.norm(1.5), [[0.0, 1.0]]),
    "where at the switch": (lambda m, x: m.where(x > 0, x * x, -x), [[-1.0, 0.0, 1.0]]),
    "floor": (lambda m, x: x.floor() * x, [[-1.5, 0.0, 1.0]]),
    "prod with one zero": (lambda m, x: x.prod(), [[0.0, 2.0, 3.0]]),
    "prod with two zeros": (lambda m, x: x.prod(), [[0.0, 0.0, 3.0]]),
    "prod over a dim with zeros": (lambda m, x: x.prod(0), [[[0.0, 2.0], [3.0, 0.0], [4.0, 5.0]]]),
    "atan2 at the origin": (lambda m, y, x: m.atan2(y, x), [[0.0, 1.0], [0.0, 1.0]]),
    "std of a constant": (lambda m, x: x.std(), [[1.0, 1.0]]),
    "sign": (lambda m, x: x.sign() * x, [[-1.0, 0.0, 1.0]]),
}


def _leaves(m, values):
    return [m.tensor(v, dtype=m.float64, requires_grad=True) for v in values]


def _picture(g):
    """A gradient as something to compare: None, or (dtype, shape, values (to the dtype's tolerance:
    away from the kinks, log(2) may differ in the last bit), where NaNs are, signs of the other values,
    so -0.0 is not 0.0)."""
    if g is None:
        return None
    a = np.asarray(g.detach().numpy(force=True), dtype=np.float64)
    nan = np.isnan(a)
    values = np.where(nan, 0.0, a)
    return (
        str(g.dtype).split(".")[-1],
        tuple(g.shape),
        Values(values.tolist(), g.dtype),
        nan.tolist(),
        np.signbit(values).tolist(),
    )


def _first_order(m, f, values):
    xs = _leaves(m, values)
    out = f(m, *xs)
    out.backward(m.ones_like(out))
    return [_picture(x.grad) for x in xs]


def _second_order(m, f, values):
    xs = _leaves(m, values)
    grads = m.autograd.grad(f(m, *xs).sum(), xs, create_graph=True)
    total = sum(g.sum() for g in grads)
    if not total.requires_grad:
        return "the gradient has no graph"
    return [_picture(g) for g in m.autograd.grad(total, xs, allow_unused=True)]


@pytest.mark.parametrize("name", list(CASES))
def test_gradient_at_a_kink_matches_torch(name):
    f, values = CASES[name]
    assert _first_order(yaten, f, values) == _first_order(torch, f, values)


@pytest.mark.parametrize("name", list(SECOND_ORDER))
def test_second_derivative_at_a_kink_matches_torch(name):
    f, values = SECOND_ORDER[name]
    assert _second_order(yaten, f, values) == _second_order(torch, f, values)


def test_a_few_conventions_spelled_out():
    """The values behind the comparisons above, so a reader sees what PyTorch's conventions are."""

    def grad(f, *values):
        xs = _leaves(yaten, values)
        out = f(*xs)
        out.backward(yaten.ones_like(out))
        return [x.grad.tolist() for x in xs]

    assert grad(lambda x: x.relu(), [0.0]) == [[0.0]]
    assert grad(lambda x: x.abs(), [0.0]) == [[0.0]]
    assert grad(lambda x: x.sqrt(), [0.0]) == [[INF]]
    assert grad(lambda x: x.clamp(-1.0, 1.0), [-1.0, 1.0]) == [[1.0, 1.0]]
    assert grad(lambda x: x.max(), [3.0, 3.0, 1.0]) == [[0.5, 0.5, 0.0]]
    assert grad(lambda x: x.max(0)[0], [3.0, 3.0, 1.0]) == [[1.0, 0.0, 0.0]]
    assert grad(lambda x, y: yaten.maximum(x, y), [2.0], [2.0]) == [[0.5], [0.5]]
    assert grad(lambda x, e: x.pow(e), [0.0], [0.0]) == [[0.0], [0.0]]
    assert grad(lambda x: x.norm(), [0.0, 0.0]) == [[0.0, 0.0]]
    xs = _leaves(yaten, [[1.0, 0.0]])
    xs[0].norm(0).backward()
    assert xs[0].grad is None


def test_relu_at_nan_matches_torch():
    f = lambda m, x: x.relu()
    assert _first_order(yaten, f, [[NAN]]) == _first_order(torch, f, [[NAN]])
