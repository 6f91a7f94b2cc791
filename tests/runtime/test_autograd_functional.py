"""yaten.autograd.functional side by side with torch.autograd.functional.

Each case is a function of the library module ``m`` run with ``m = torch`` and ``m = yaten``: the
results must agree in structure (Tensor vs tuple vs tuple of tuples), dtype, shape, requires_grad and
value; errors must agree in type and message.
"""

import warnings

import pytest
import torch

import yaten
from tests.runtime.parity import Values
from tests.tolerances import assert_close


def _name(x) -> str:
    return str(x).replace("torch.", "yaten.")


def _value(x):
    """A comparable picture of a result: nested tuples kept, each tensor by dtype/shape/requires_grad/values."""
    if isinstance(x, (tuple, list)):
        return type(x).__name__, [_value(v) for v in x]
    if isinstance(x, (torch.Tensor, yaten.Tensor)):
        return "tensor", _name(x.dtype), tuple(x.shape), x.requires_grad, Values(x.tolist(), x.dtype)
    return x


def _run(case, m):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # torch's create_graph reference-cycle warning
        try:
            return _value(case(m))
        except Exception as e:  # compared by type and message
            return "error", type(e), _name(e)


def _equal(got, want) -> bool:
    if isinstance(want, (tuple, list)):
        return (
            isinstance(got, type(want))
            and len(got) == len(want)
            and all(_equal(g, w) for g, w in zip(got, want))
        )
    return type(got) is type(want) and got == want


def _same(case, raises=None):
    """Run ``case`` on both libraries and compare; ``raises``: the exception torch must raise."""
    got, want = _run(case, yaten), _run(case, torch)
    if raises is not None:
        assert want[:2] == ("error", raises), f"torch did not raise {raises.__name__}: {want}"
    assert _equal(got, want), f"\nyaten: {got}\ntorch: {want}"
    return got


def F(m):
    return m.autograd.functional


# Inputs: float64 so that the two libraries agree to rounding.
X = [[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]]
Y = [[1.0, 2.0, -0.5], [0.3, -0.2, 0.7]]
V = [0.3, -1.1, 0.6]


def _t(m, data, **kw):
    return m.tensor(data, dtype=m.float64, **kw)


# --- jacobian -------------------------------------------------------------------------------------------
JACOBIAN_CASES = {
    "sin_single": lambda m: F(m).jacobian(lambda x: x.sin(), _t(m, X)),
    "pow_exp_sum_dim": lambda m: F(m).jacobian(lambda x: (x**3 * x.exp()).sum(1), _t(m, X)),
    "matmul": lambda m: F(m).jacobian(lambda x: x @ _t(m, Y).t(), _t(m, X)),
    "scalar_in_scalar_out": lambda m: F(m).jacobian(lambda x: x.tanh() * 3, _t(m, 0.7)),
    "scalar_out": lambda m: F(m).jacobian(lambda x: (x * x).sum(), _t(m, X)),
    "tuple_inputs": lambda m: F(m).jacobian(lambda x, y: x * y + y.exp(), (_t(m, X), _t(m, Y))),
    "tuple_outputs": lambda m: F(m).jacobian(lambda x: (x.sin(), x.sum()), _t(m, V)),
    "tuple_tuple": lambda m: F(m).jacobian(lambda x, y: (x * y, (x + y).sum(0)), (_t(m, X), _t(m, Y))),
    "one_tuple_input": lambda m: F(m).jacobian(lambda x: x**2, (_t(m, V),)),
    "independent_input_zeros": lambda m: F(m).jacobian(lambda x, y: x.exp(), (_t(m, V), _t(m, V))),
    "output_without_grad_zeros": lambda m: F(m).jacobian(lambda x: (x * 2, m.ones(2)), _t(m, V)),
    "float32": lambda m: F(m).jacobian(lambda x: x.sin() * x, m.tensor(V)),
    "vectorize": lambda m: F(m).jacobian(lambda x, y: (x * y, y.sum()), (_t(m, X), _t(m, Y)), vectorize=True),
    "create_graph": lambda m: F(m).jacobian(lambda x: x**3, _t(m, V), create_graph=True),
    "create_graph_constant_jacobian": lambda m: F(m).jacobian(lambda x: x.sum(), _t(m, V), create_graph=True),
    "strict_ok": lambda m: F(m).jacobian(lambda x: x.sin(), _t(m, V), strict=True),
    # The input object handed to func is new: the same tensor captured by the closure is a constant.
    "closure_capture": lambda m: (lambda x: F(m).jacobian(lambda a: a * x, x))(_t(m, V)),
}


@pytest.mark.parametrize("case", JACOBIAN_CASES.values(), ids=JACOBIAN_CASES.keys())
def test_jacobian_as_torch(case):
    _same(case)


def test_jacobian_structure_and_shapes():
    got = _same(lambda m: F(m).jacobian(lambda x, y: (x * y, (x + y).sum(0)), (_t(m, X), _t(m, Y))))
    kind, rows = got
    assert kind == "tuple" and len(rows) == 2 and all(r[0] == "tuple" and len(r[1]) == 2 for r in rows)
    shapes = [[entry[2] for entry in row[1]] for row in rows]
    assert shapes == [[(2, 3, 2, 3), (2, 3, 2, 3)], [(3, 2, 3), (3, 2, 3)]]
    single = _same(lambda m: F(m).jacobian(lambda x: x.sin(), _t(m, X)))
    assert single[0] == "tensor" and single[2] == (2, 3, 2, 3)


def _jacobian_then_grad(m):
    """create_graph=True: the Jacobian is a differentiable function of the original input."""
    x = _t(m, V, requires_grad=True)
    jac = F(m).jacobian(lambda a: a.sin() * a**2, x, create_graph=True)
    (g,) = m.autograd.grad(jac.sum(), x)
    return jac.requires_grad, g


def test_jacobian_create_graph_is_differentiable():
    got = _same(_jacobian_then_grad)
    assert got[1][0] is True


def test_jacobian_without_create_graph_is_detached():
    def case(m):
        x = _t(m, V, requires_grad=True)
        jac = F(m).jacobian(lambda a: a**2, x)
        return jac.requires_grad, jac.grad_fn is None, x.grad is None

    assert _same(case)[1] == [False, True, True]


JACOBIAN_ERRORS = {
    "strict_independent_input": (
        RuntimeError,
        lambda m: F(m).jacobian(lambda x, y: x * 2, (_t(m, V), _t(m, V)), strict=True),
    ),
    "strict_output_without_grad": (
        RuntimeError,
        lambda m: F(m).jacobian(lambda x: (x * 2, x.detach()), _t(m, V), strict=True),
    ),
    "strict_create_graph_linear": (
        RuntimeError,
        lambda m: F(m).jacobian(lambda x: x * 2, _t(m, V), strict=True, create_graph=True),
    ),
    "strict_and_vectorize": (
        RuntimeError,
        lambda m: F(m).jacobian(lambda x: x * 2, _t(m, V), strict=True, vectorize=True),
    ),
    "list_output": (TypeError, lambda m: F(m).jacobian(lambda x: [x * 2], _t(m, V))),
    "int_in_output_tuple": (TypeError, lambda m: F(m).jacobian(lambda x: (x * 2, 3), _t(m, V))),
    "list_inputs": (TypeError, lambda m: F(m).jacobian(lambda x: x, [_t(m, V)])),
    "float_in_input_tuple": (TypeError, lambda m: F(m).jacobian(lambda x, y: x, (_t(m, V), 1.0))),
    "bad_strategy": (AssertionError, lambda m: F(m).jacobian(lambda x: x, _t(m, V), strategy="sideways")),
    "forward_create_graph": (
        NotImplementedError,
        lambda m: F(m).jacobian(lambda x: x, _t(m, V), strategy="forward-mode", create_graph=True),
    ),
    "forward_strict": (
        RuntimeError,
        lambda m: F(m).jacobian(lambda x: x, _t(m, V), strategy="forward-mode", strict=True),
    ),
    "forward_not_vectorized": (
        NotImplementedError,
        lambda m: F(m).jacobian(lambda x: x, _t(m, V), strategy="forward-mode"),
    ),
    "forward_bad_inputs": (
        TypeError,
        lambda m: F(m).jacobian(lambda x: x, [1.0], strategy="forward-mode", vectorize=True),
    ),
    "empty_output": (RuntimeError, lambda m: F(m).jacobian(lambda x: x[:0] * 2, _t(m, V))),
}


@pytest.mark.parametrize("raises,case", JACOBIAN_ERRORS.values(), ids=JACOBIAN_ERRORS.keys())
def test_jacobian_errors_as_torch(raises, case):
    _same(case, raises=raises)


def test_jacobian_vectorized_empty_output_as_torch():
    got = _same(lambda m: F(m).jacobian(lambda x: (x * 3, x[:0]), _t(m, V), vectorize=True))
    assert got[1][1][2] == (0, 3)


def test_jacobian_forward_mode_vectorized_is_not_implemented():
    x = _t(torch, V)
    want = torch.autograd.functional.jacobian(lambda a: a.sin(), x, strategy="forward-mode", vectorize=True)
    assert want.shape == (3, 3)  # torch computes it; yaten has no forward-mode AD
    with pytest.raises(NotImplementedError, match="no forward-mode AD"):
        yaten.autograd.functional.jacobian(
            lambda a: a.sin(), _t(yaten, V), strategy="forward-mode", vectorize=True
        )
    with pytest.raises(NotImplementedError, match="no forward-mode AD"):
        yaten.autograd.functional.hessian(
            lambda a: (a**3).sum(), _t(yaten, V), vectorize=True, outer_jacobian_strategy="forward-mode"
        )


# --- hessian --------------------------------------------------------------------------------------------
HESSIAN_CASES = {
    "pow3_sum": lambda m: F(m).hessian(lambda x: (x**3).sum(), _t(m, X)),
    "exp_sin": lambda m: F(m).hessian(lambda x: (x.exp() * x.sin()).sum(), _t(m, V)),
    "tanh": lambda m: F(m).hessian(lambda x: x.tanh().sum(), _t(m, V)),
    "quadratic_form": lambda m: F(m).hessian(
        lambda x: x @ _t(m, [V, V[::-1], [1.0, 0.0, 2.0]]) @ x, _t(m, V)
    ),
    "one_element_output_not_scalar": lambda m: F(m).hessian(lambda x: (x**2).sum().reshape(1, 1), _t(m, V)),
    "tuple_inputs": lambda m: F(m).hessian(
        lambda x, y: (2 * x**2 + 3 * y**2 + x * y).sum(), (_t(m, V), _t(m, V))
    ),
    "one_tuple_input": lambda m: F(m).hessian(lambda x: (x**4).sum(), (_t(m, V),)),
    "linear_is_zero": lambda m: F(m).hessian(lambda x: (2 * x).sum(), _t(m, V)),
    "unused_input_zeros": lambda m: F(m).hessian(lambda x, y: (x**3).sum(), (_t(m, V), _t(m, X))),
    "vectorize": lambda m: F(m).hessian(lambda x: (x**3 * x.sin()).sum(), _t(m, V), vectorize=True),
    "create_graph": lambda m: F(m).hessian(lambda x: (x**3).sum(), _t(m, V), create_graph=True),
    "strict_ok": lambda m: F(m).hessian(lambda x: (x**3).sum(), _t(m, V), strict=True),
}


@pytest.mark.parametrize("case", HESSIAN_CASES.values(), ids=HESSIAN_CASES.keys())
def test_hessian_as_torch(case):
    _same(case)


def test_hessian_tuple_structure_and_shapes():
    got = _same(lambda m: F(m).hessian(lambda x, y: (x**2 * y.sum()).sum(), (_t(m, V), _t(m, X))))
    shapes = [[entry[2] for entry in row[1]] for row in got[1]]
    assert shapes == [[(3, 3), (3, 2, 3)], [(2, 3, 3), (2, 3, 2, 3)]]


def test_hessian_create_graph_is_differentiable():
    def case(m):
        x = _t(m, V, requires_grad=True)
        h = F(m).hessian(lambda a: (a**4).sum(), x, create_graph=True)
        return h.requires_grad, m.autograd.grad(h.sum(), x)

    assert _same(case)[1][0] is True


HESSIAN_ERRORS = {
    "vector_output": (RuntimeError, lambda m: F(m).hessian(lambda x: x**2, _t(m, V))),
    "tuple_output": (RuntimeError, lambda m: F(m).hessian(lambda x: ((x**2).sum(),), _t(m, V))),
    "list_output": (TypeError, lambda m: F(m).hessian(lambda x: [(x**2).sum()], _t(m, V))),
    "strict_linear": (RuntimeError, lambda m: F(m).hessian(lambda x: (2 * x).sum(), _t(m, V), strict=True)),
    "strict_unused_input": (
        RuntimeError,
        lambda m: F(m).hessian(lambda x, y: (x**3).sum(), (_t(m, V), _t(m, V)), strict=True),
    ),
    "strict_output_without_grad": (
        RuntimeError,
        lambda m: F(m).hessian(lambda x: x.detach().sum(), _t(m, V), strict=True),
    ),
    "strict_and_vectorize": (
        RuntimeError,
        lambda m: F(m).hessian(lambda x: (x**3).sum(), _t(m, V), strict=True, vectorize=True),
    ),
    "bad_strategy": (
        AssertionError,
        lambda m: F(m).hessian(lambda x: (x**3).sum(), _t(m, V), outer_jacobian_strategy="nope"),
    ),
    "bad_inputs": (TypeError, lambda m: F(m).hessian(lambda x: (x**3).sum(), (_t(m, V), "x"))),
    "forward_not_vectorized": (
        NotImplementedError,
        lambda m: F(m).hessian(lambda x: (x**3).sum(), _t(m, V), outer_jacobian_strategy="forward-mode"),
    ),
    "forward_create_graph": (
        NotImplementedError,
        lambda m: F(m).hessian(
            lambda x: (x**3).sum(), _t(m, V), create_graph=True, outer_jacobian_strategy="forward-mode"
        ),
    ),
}


@pytest.mark.parametrize("raises,case", HESSIAN_ERRORS.values(), ids=HESSIAN_ERRORS.keys())
def test_hessian_errors_as_torch(raises, case):
    _same(case, raises=raises)


# --- vjp and jvp ----------------------------------------------------------------------------------------
def _f_exp_reducer(x):
    return x.exp().sum(dim=1)


def _f_adder(x, y):
    return 2 * x + 3 * y.sin()


def _f_two_outputs(x, y):
    return x * y, (x**2).sum()


PRODUCT_CASES = {
    "vjp_single": lambda m: F(m).vjp(_f_exp_reducer, _t(m, X), _t(m, [1.0, -2.0])),
    "vjp_default_v_scalar_output": lambda m: F(m).vjp(lambda x: (x.tanh() ** 2).sum(), _t(m, X)),
    "vjp_tuple_inputs": lambda m: F(m).vjp(_f_adder, (_t(m, V), _t(m, V)), _t(m, [1.0, 0.5, -1.0])),
    "vjp_tuple_outputs": lambda m: F(m).vjp(_f_two_outputs, (_t(m, V), _t(m, V)), (_t(m, V), _t(m, 2.0))),
    "vjp_independent_input_zeros": lambda m: F(m).vjp(lambda x, y: x.exp(), (_t(m, V), _t(m, X)), _t(m, V)),
    "vjp_output_without_grad": lambda m: F(m).vjp(
        lambda x: (x * 2, x.detach()), _t(m, V), (_t(m, V), _t(m, V))
    ),
    "vjp_create_graph": lambda m: F(m).vjp(_f_exp_reducer, _t(m, X), _t(m, [1.0, -2.0]), create_graph=True),
    "vjp_create_graph_v_requires_grad": lambda m: F(m).vjp(
        lambda x: x.sin(), _t(m, V), _t(m, V, requires_grad=True), create_graph=True
    ),
    "vjp_matmul": lambda m: F(m).vjp(
        lambda a, b: a @ b, (_t(m, X), _t(m, Y).t()), _t(m, [[1.0, 2.0], [3.0, 4.0]])
    ),
    "jvp_single": lambda m: F(m).jvp(_f_exp_reducer, _t(m, X), _t(m, Y)),
    "jvp_default_v_scalar_input": lambda m: F(m).jvp(lambda x: x.sin() * x, _t(m, 0.3)),
    "jvp_tuple_inputs": lambda m: F(m).jvp(
        _f_adder, (_t(m, V), _t(m, V)), (_t(m, V), _t(m, [1.0, 1.0, 1.0]))
    ),
    "jvp_tuple_outputs": lambda m: F(m).jvp(_f_two_outputs, (_t(m, V), _t(m, V)), (_t(m, V), _t(m, V))),
    "jvp_output_without_grad_zeros": lambda m: F(m).jvp(
        lambda x: (2 * x, m.ones(2, dtype=m.float64)), _t(m, V), _t(m, V)
    ),
    "jvp_create_graph": lambda m: F(m).jvp(lambda x: x.exp() * x, _t(m, V), _t(m, V), create_graph=True),
    "jvp_linear_strict_ok": lambda m: F(m).jvp(lambda x: 2 * x, _t(m, V), _t(m, V), strict=True),
}


@pytest.mark.parametrize("case", PRODUCT_CASES.values(), ids=PRODUCT_CASES.keys())
def test_vjp_jvp_as_torch(case):
    _same(case)


def test_vjp_jvp_structure():
    vjp = _same(lambda m: F(m).vjp(_f_two_outputs, (_t(m, V), _t(m, V)), (_t(m, V), _t(m, 2.0))))
    assert [k[0] for k in vjp[1]] == ["tuple", "tuple"]  # (outputs tuple, vjp tuple per input)
    jvp = _same(lambda m: F(m).jvp(_f_exp_reducer, _t(m, X), _t(m, Y)))
    assert [k[0] for k in jvp[1]] == ["tensor", "tensor"] and jvp[1][1][2] == (2,)


def test_vjp_create_graph_is_differentiable():
    def case(m):
        x = _t(m, V, requires_grad=True)
        out, vj = F(m).vjp(lambda a: a.sin() * a, x, _t(m, V), create_graph=True)
        return out.requires_grad, vj.requires_grad, m.autograd.grad(vj.sum(), x)

    got = _same(case)
    assert got[1][:2] == [True, True]


def test_jvp_create_graph_is_differentiable():
    def case(m):
        x = _t(m, V, requires_grad=True)
        _, jv = F(m).jvp(lambda a: a.exp() * a, x, _t(m, V), create_graph=True)
        return jv.requires_grad, m.autograd.grad(jv.sum(), x)

    assert _same(case)[1][0] is True


def test_results_follow_grad_mode():
    """Without create_graph the results never require grad, even with grad mode off around the call."""

    def case(m):
        x = _t(m, V, requires_grad=True)
        with m.no_grad():
            out, vj = F(m).vjp(lambda a: a * a, x, _t(m, V))
            out2, vj2 = F(m).vjp(lambda a: a * a, x, _t(m, V), create_graph=True)
        return out.requires_grad, vj.requires_grad, out2.requires_grad, vj2.requires_grad, m.is_grad_enabled()

    assert _same(case) == ("tuple", [False, False, True, True, True])


PRODUCT_ERRORS = {
    "vjp_v_wrong_shape": (RuntimeError, lambda m: F(m).vjp(lambda x: x * 2, _t(m, V), _t(m, [1.0, 2.0]))),
    "vjp_v_tuple_for_single_output": (
        RuntimeError,
        lambda m: F(m).vjp(lambda x: x * 2, _t(m, V), (_t(m, V), _t(m, V))),
    ),
    "vjp_v_tuple_wrong_length": (
        RuntimeError,
        lambda m: F(m).vjp(_f_two_outputs, (_t(m, V), _t(m, V)), (_t(m, V),)),
    ),
    "vjp_v_tuple_entry_shape": (
        RuntimeError,
        lambda m: F(m).vjp(_f_two_outputs, (_t(m, V), _t(m, V)), (_t(m, V), _t(m, V))),
    ),
    "vjp_v_none_vector_output": (RuntimeError, lambda m: F(m).vjp(lambda x: x * 2, _t(m, V))),
    "vjp_v_not_tensor": (TypeError, lambda m: F(m).vjp(lambda x: x * 2, _t(m, V), [1.0, 2.0, 3.0])),
    "vjp_strict_independent": (
        RuntimeError,
        lambda m: F(m).vjp(lambda x, y: x.exp(), (_t(m, V), _t(m, V)), _t(m, V), strict=True),
    ),
    "vjp_strict_output_without_grad": (
        RuntimeError,
        lambda m: F(m).vjp(lambda x: m.ones(3, dtype=m.float64), _t(m, V), _t(m, V), strict=True),
    ),
    "vjp_strict_create_graph_constant": (
        RuntimeError,
        lambda m: F(m).vjp(lambda x: x * 2, _t(m, V), _t(m, V), strict=True, create_graph=True),
    ),
    "vjp_non_tensor_output": (TypeError, lambda m: F(m).vjp(lambda x: 3.0, _t(m, V))),
    "jvp_v_wrong_shape": (RuntimeError, lambda m: F(m).jvp(lambda x: x * 2, _t(m, V), _t(m, X))),
    "jvp_v_tuple_entry_shape": (
        RuntimeError,
        lambda m: F(m).jvp(_f_adder, (_t(m, V), _t(m, V)), (_t(m, V), _t(m, X))),
    ),
    "jvp_v_none_vector_input": (RuntimeError, lambda m: F(m).jvp(lambda x: x.sum(), _t(m, V))),
    "jvp_strict_independent": (
        RuntimeError,
        lambda m: F(m).jvp(lambda x, y: 2 * x, (_t(m, V), _t(m, V)), (_t(m, V), _t(m, V)), strict=True),
    ),
    "jvp_strict_output_without_grad": (
        RuntimeError,
        lambda m: F(m).jvp(lambda x: (2 * x, x.detach()), _t(m, V), _t(m, V), strict=True),
    ),
    "jvp_dict_output": (TypeError, lambda m: F(m).jvp(lambda x: {"y": x}, _t(m, V), _t(m, V))),
}


@pytest.mark.parametrize("raises,case", PRODUCT_ERRORS.values(), ids=PRODUCT_ERRORS.keys())
def test_vjp_jvp_errors_as_torch(raises, case):
    _same(case, raises=raises)


# --- hvp and vhp ----------------------------------------------------------------------------------------
def _f_pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2) + x * y.sin()).sum()


HESSIAN_PRODUCT_CASES = {
    f"{name}_{kind}": case
    for kind in ("hvp", "vhp")
    for name, case in {
        "pow3": lambda m, k=kind: getattr(F(m), k)(lambda x: x.pow(3).sum(), _t(m, X), _t(m, Y)),
        "exp_sin": lambda m, k=kind: getattr(F(m), k)(
            lambda x: (x.exp() * x.sin()).sum(), _t(m, V), _t(m, V)
        ),
        "tuple_inputs": lambda m, k=kind: getattr(F(m), k)(
            _f_pow_adder_reducer, (_t(m, V), _t(m, V)), (_t(m, [0.0, 0.0, 0.0]), _t(m, [1.0, 1.0, 1.0]))
        ),
        "default_v": lambda m, k=kind: getattr(F(m), k)(lambda x: x.sin() * x**2, _t(m, 0.4)),
        "linear_zeros": lambda m, k=kind: getattr(F(m), k)(lambda x: (3 * x).sum(), _t(m, V), _t(m, V)),
        "create_graph": lambda m, k=kind: getattr(F(m), k)(
            lambda x: (x**3).sum(), _t(m, V), _t(m, V), create_graph=True
        ),
        "strict_ok": lambda m, k=kind: getattr(F(m), k)(
            lambda x: (x**3).sum(), _t(m, V), _t(m, V), strict=True
        ),
    }.items()
}


@pytest.mark.parametrize("case", HESSIAN_PRODUCT_CASES.values(), ids=HESSIAN_PRODUCT_CASES.keys())
def test_hvp_vhp_as_torch(case):
    _same(case)


def test_hvp_equals_vhp_for_smooth_function():
    x, v = _t(yaten, V), _t(yaten, [1.0, -0.5, 2.0])
    f = lambda a: (a.exp() * a.sin()).sum() + (a**2).sum() * a.sum()  # a non-diagonal Hessian
    _, h = yaten.autograd.functional.hvp(f, x, v)
    _, vh = yaten.autograd.functional.vhp(f, x, v)
    full = yaten.autograd.functional.hessian(f, x)
    assert_close(h, vh)
    assert_close(h, full @ v)


HESSIAN_PRODUCT_ERRORS = {
    f"{name}_{kind}": (raises, case)
    for kind in ("hvp", "vhp")
    for name, (raises, case) in {
        "vector_output": (
            RuntimeError,
            lambda m, k=kind: getattr(F(m), k)(lambda x: x**2, _t(m, V), _t(m, V)),
        ),
        "tuple_output": (
            RuntimeError,
            lambda m, k=kind: getattr(F(m), k)(lambda x: ((x**2).sum(),), _t(m, V), _t(m, V)),
        ),
        "v_wrong_shape": (
            RuntimeError,
            lambda m, k=kind: getattr(F(m), k)(lambda x: (x**2).sum(), _t(m, V), _t(m, X)),
        ),
        "v_none_vector_input": (
            RuntimeError,
            lambda m, k=kind: getattr(F(m), k)(lambda x: (x**2).sum(), _t(m, V)),
        ),
        "strict_linear": (
            RuntimeError,
            lambda m, k=kind: getattr(F(m), k)(lambda x: (3 * x).sum(), _t(m, V), _t(m, V), strict=True),
        ),
        "strict_unused_input": (
            RuntimeError,
            lambda m, k=kind: getattr(F(m), k)(
                lambda x, y: (x**3).sum(), (_t(m, V), _t(m, V)), (_t(m, V), _t(m, V)), strict=True
            ),
        ),
        "strict_create_graph_constant_hessian": (
            RuntimeError,
            lambda m, k=kind: getattr(F(m), k)(
                lambda x: (x * x).sum(), _t(m, V), _t(m, V), strict=True, create_graph=True
            ),
        ),
    }.items()
}


@pytest.mark.parametrize("raises,case", HESSIAN_PRODUCT_ERRORS.values(), ids=HESSIAN_PRODUCT_ERRORS.keys())
def test_hvp_vhp_errors_as_torch(raises, case):
    _same(case, raises=raises)


def test_module_surface_as_torch():
    assert sorted(yaten.autograd.functional.__all__) == sorted(torch.autograd.functional.__all__)
    assert yaten.autograd.functional.jacobian.__doc__ and ">>>" in yaten.autograd.functional.jacobian.__doc__
