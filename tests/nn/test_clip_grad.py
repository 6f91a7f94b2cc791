"""nn.utils: gradient clipping and parameters_to_vector / vector_to_parameters, side by side with PyTorch."""

import math
import warnings

import pytest

from tests.nn._module_parity import same


def _params(m, dtype=None):
    dtype = dtype or m.float32
    ps = [m.nn.Parameter(m.zeros(2, 2, dtype=dtype)), m.nn.Parameter(m.zeros(3, dtype=dtype)),
          m.nn.Parameter(m.zeros(1, dtype=dtype))]  # fmt: skip
    ps[0].grad = m.tensor([[1.0, -2.0], [3.0, 0.5]], dtype=dtype)
    ps[1].grad = m.tensor([-4.0, 0.0, 2.5], dtype=dtype)
    return ps  # the last has no grad


@pytest.mark.parametrize("norm_type", [2.0, 1, 3.5, math.inf, -math.inf, 0.0, "inf"])
@pytest.mark.parametrize("max_norm", [1.0, 100.0])
@pytest.mark.parametrize("foreach", [None, False, True])
def test_clip_grad_norm(norm_type, max_norm, foreach):
    def case(m):
        ps = _params(m)
        total = m.nn.utils.clip_grad_norm_(ps, max_norm, norm_type=norm_type, foreach=foreach)
        return total, [p.grad for p in ps]

    same(case)


def test_clip_grad_norm_float64_and_generator():
    def case(m):
        ps = _params(m, m.float64)
        total = m.nn.utils.clip_grad_norm_((p for p in ps), 0.5)
        return total, [p.grad for p in ps]

    got = same(case)
    assert got[1][0][1] == "yaten.float64"


def test_clip_grad_norm_single_tensor_and_empty():
    def case(m):
        p = m.nn.Parameter(m.ones(2))
        p.grad = m.tensor([3.0, 4.0])
        out = [m.nn.utils.clip_grad_norm_(p, 1.0), p.grad, m.nn.utils.clip_grad_norm_([], 1.0)]
        out.append(m.nn.utils.clip_grad_norm_([m.nn.Parameter(m.ones(1))], 1.0))  # no grads
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            m.nn.utils.clip_grad_norm_((q for q in []), 1.0)
        out.append([str(x.message) for x in w])
        return out

    same(case)


def test_clip_grad_norm_nonfinite():
    def case(m):
        ps = _params(m)
        ps[1].grad[0] = float("inf")
        return m.nn.utils.clip_grad_norm_(ps, 1.0, error_if_nonfinite=True)

    assert same(case)[0] is RuntimeError

    def nan_allowed(m):
        ps = _params(m)
        ps[0].grad[0, 0] = float("nan")
        total = m.nn.utils.clip_grad_norm_(ps, 1.0)
        return math.isnan(total.item()), [math.isnan(v) for v in ps[1].grad.tolist()]

    assert same(nan_allowed) == ("tuple", [True, ("list", [True, True, True])])


def test_clip_grad_value():
    def case(m):
        ps = _params(m)
        out = [m.nn.utils.clip_grad_value_(ps, 1.5)]
        p = m.nn.Parameter(m.zeros(2))
        p.grad = m.tensor([-7.0, 0.25])
        m.nn.utils.clip_grad_value_(p, 1, foreach=False)
        return out + [q.grad for q in ps] + [p.grad, p.grad.requires_grad]

    got = same(case)
    assert got[1][1][3] == [[1.0, -1.5], [1.5, 0.5]]


def test_clip_grad_norm_not_recorded():
    def case(m):
        p = m.nn.Parameter(m.ones(2))
        (p * p).sum().backward(create_graph=True)
        total = m.nn.utils.clip_grad_norm_([p], 1.0)
        return total.requires_grad, total

    same(case)


def test_get_total_norm_and_clip_with_norm():
    def case(m):
        ps = _params(m)
        grads = [p.grad for p in ps if p.grad is not None]
        total = m.nn.utils.get_total_norm(grads, norm_type=1.0)
        m.nn.utils.clip_grads_with_norm_(ps, 2.0, total)
        return total, [p.grad for p in ps]

    same(case)


def test_parameters_to_vector_and_back():
    def case(m):
        ps = _params(m)
        vec = m.nn.utils.parameters_to_vector(ps)
        new = m.arange(8.0)
        m.nn.utils.vector_to_parameters(new, ps)
        new[0] = 100.0  # the parameters look into ``new``
        return vec, ps, [p.requires_grad for p in ps], ps[0].is_leaf

    same(case)
    same(lambda m: m.nn.utils.vector_to_parameters([1.0], _params(m)))


def test_parameters_to_vector_gradient():
    def case(m):
        ps = _params(m)
        (m.nn.utils.parameters_to_vector(ps) * m.arange(8.0)).sum().backward()
        return [p.grad for p in ps]

    same(case)
