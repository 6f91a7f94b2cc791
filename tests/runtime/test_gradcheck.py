"""gradcheck / gradgradcheck side by side with PyTorch's.

Every case runs with ``m = torch`` and ``m = yaten``: a right gradient passes, a wrong one (a tensor hook
that scales the gradient, an ``autograd.Function`` with a wrong backward, a backward that cuts or bends
the graph of the gradient) fails with ``GradcheckError`` and PyTorch's message, or returns False with
``raise_exception=False``; the input checks warn and raise as PyTorch's do.
"""

import re
import sys
import warnings

import pytest
import torch

import yaten

LIBS = [pytest.param(torch, id="torch"), pytest.param(yaten, id="yaten")]


def _gradcheck_module(m):
    return sys.modules[f"{m.__name__}.autograd.gradcheck"]


def _x(m, *values):
    return m.tensor(list(values) or [0.5, -1.5, 2.0], dtype=m.float64, requires_grad=True)


def _scaled_hook(m, scale):
    """f(x) = x * x, whose gradient a hook on the intermediate multiplies by ``scale``."""

    def f(x):
        y = x * 1
        y.register_hook(lambda g: None if g is None else g * scale)  # PyTorch hooks see undefined grads
        return y * x

    return f


def _cube(m, wrong_first=False, wrong_second=False, detach_all=False):
    """x^3 as an autograd.Function: backward 3 g x^2, or 2 g x^2 (wrong), or 3 g x^2 computed from a
    detached x (right values, but its own derivative in x is lost), or all of it detached."""

    class Cube(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            if wrong_second:
                x = x.detach()
            grad = (2 if wrong_first else 3) * g * x * x
            return grad.detach() if detach_all else grad

    return Cube.apply


def _error_message(fn):
    with pytest.raises(Exception) as info:
        fn()
    return type(info.value), str(info.value).replace("torch.", "yaten.")


# --- GradcheckError: where it lives and what it is ------------------------------------------------------
@pytest.mark.parametrize("m", LIBS)
def test_gradcheck_error_is_a_runtime_error_in_the_gradcheck_module(m):
    mod = _gradcheck_module(m)
    assert issubclass(mod.GradcheckError, RuntimeError)
    assert {"gradcheck", "gradgradcheck", "GradcheckError"} <= set(mod.__all__)
    assert m.autograd.gradcheck is mod.gradcheck and m.autograd.gradgradcheck is mod.gradgradcheck


def test_gradcheck_error_is_importable_as_from_torch():
    from yaten.autograd.gradcheck import GradcheckError

    assert GradcheckError is _gradcheck_module(yaten).GradcheckError


# --- right gradients pass ------------------------------------------------------------------------------
@pytest.mark.parametrize("m", LIBS)
@pytest.mark.parametrize("fast_mode", [False, True])
def test_right_gradients_pass(m, fast_mode):
    x, w = _x(m), _x(m, 1.0, 2.0, -0.5)
    assert m.autograd.gradcheck(lambda a, b: (a * b.sin(), a.exp().sum()), (x, w), fast_mode=fast_mode)
    assert m.autograd.gradgradcheck(lambda a, b: a * b.sin() * a, (x, w), fast_mode=fast_mode)
    assert m.autograd.gradcheck(_cube(m), (x,), fast_mode=fast_mode)
    assert m.autograd.gradgradcheck(_cube(m), (x,), fast_mode=fast_mode)


@pytest.mark.parametrize("m", LIBS)
def test_non_differentiable_outputs_and_inputs_are_skipped(m):
    x = m.tensor([[1.0, 5.0], [3.0, 2.0]], dtype=m.float64, requires_grad=True)
    k = m.tensor([2.0, 0.5], dtype=m.float64)  # does not require grad
    assert m.autograd.gradcheck(lambda a, b: a.max(1) + (b,), (x, k))
    assert m.autograd.gradgradcheck(lambda a, b: (a * b).max(1)[0] ** 2, (x, k))


@pytest.mark.parametrize("m", LIBS)
def test_given_and_non_contiguous_grad_outputs(m):
    x = m.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=m.float64, requires_grad=True)
    v = m.tensor([[0.5, -1.0], [2.0, 1.0]], dtype=m.float64, requires_grad=True)
    assert m.autograd.gradgradcheck(lambda a: a.pow(3), (x,), (v,))
    assert m.autograd.gradgradcheck(lambda a: a.pow(3), (x,), gen_non_contig_grad_outputs=True)


# --- wrong gradients fail --------------------------------------------------------------------------------
@pytest.mark.parametrize("m", LIBS)
def test_a_hook_that_scales_the_gradient_fails_with_torchs_message(m):
    f = _scaled_hook(m, 1.5)
    kind, message = _error_message(lambda: m.autograd.gradcheck(f, (_x(m),)))
    assert kind is _gradcheck_module(m).GradcheckError
    assert message == (
        "Jacobian mismatch for output 0 with respect to input 0,\n"
        "numerical:tensor([[ 1.0000,  0.0000,  0.0000],\n"
        "        [ 0.0000, -3.0000,  0.0000],\n"
        "        [ 0.0000,  0.0000,  4.0000]], dtype=yaten.float64)\n"
        "analytical:tensor([[ 1.2500,  0.0000,  0.0000],\n"
        "        [-0.0000, -3.7500, -0.0000],\n"
        "        [ 0.0000,  0.0000,  5.0000]], dtype=yaten.float64)\n"
    )
    assert m.autograd.gradcheck(f, (_x(m),), raise_exception=False) is False
    assert m.autograd.gradcheck(_scaled_hook(m, 1.0), (_x(m),))  # the same function, unscaled, passes


@pytest.mark.parametrize("m", LIBS)
def test_the_message_names_the_output_and_input_that_differ(m):
    def f(a, b):
        c = b * 1
        c.register_hook(lambda g: None if g is None else -g)
        return a * 2, a * c

    _, message = _error_message(lambda: m.autograd.gradcheck(f, (_x(m), _x(m, 1.0, 2.0, 3.0))))
    assert message.startswith("Jacobian mismatch for output 1 with respect to input 1,\nnumerical:")


@pytest.mark.parametrize("m", LIBS)
def test_a_small_wrong_gradient_is_caught_and_tolerances_decide(m):
    f = _scaled_hook(m, 1.0 + 1e-2)
    assert m.autograd.gradcheck(f, (_x(m),), raise_exception=False) is False
    assert m.autograd.gradcheck(f, (_x(m),), rtol=2e-2)
    assert m.autograd.gradcheck(f, (_x(m),), atol=0.1)


@pytest.mark.parametrize("m", LIBS)
def test_a_wrong_function_backward_fails(m):
    with pytest.raises(_gradcheck_module(m).GradcheckError, match=r"^Jacobian mismatch for output 0"):
        m.autograd.gradcheck(_cube(m, wrong_first=True), (_x(m),))
    # gradgradcheck differentiates the backward as written (2 g x^2), so it is consistent and passes:
    # only gradcheck compares the first derivative with the function.
    assert m.autograd.gradgradcheck(_cube(m, wrong_first=True), (_x(m),))


@pytest.mark.parametrize("m", LIBS)
def test_fast_mode_fails_on_a_wrong_gradient_and_reports_slow_mode(m):
    kind, message = _error_message(
        lambda: m.autograd.gradcheck(_scaled_hook(m, 1.5), (_x(m),), fast_mode=True)
    )
    assert kind is _gradcheck_module(m).GradcheckError
    # fast mode compares v^T J u, one number per (output, input), then shows the full Jacobians
    assert re.match(
        r"Jacobian mismatch for output 0 with respect to input 0,\nnumerical:-?[0-9.]+\nanalytical:", message
    )
    assert "Below, we recompute numerical and analytical jacobians in slow mode" in message
    assert "The max per-element difference (slow mode) is: 0.99999" in message
    assert (
        m.autograd.gradcheck(_scaled_hook(m, 1.5), (_x(m),), fast_mode=True, raise_exception=False) is False
    )


# --- wrong second derivatives fail gradgradcheck (and pass gradcheck) ------------------------------------
@pytest.mark.parametrize("m", LIBS)
@pytest.mark.parametrize("fast_mode", [False, True])
def test_a_backward_whose_own_derivative_is_wrong_fails_gradgradcheck(m, fast_mode):
    f = _cube(m, wrong_second=True)
    assert m.autograd.gradcheck(f, (_x(m),), fast_mode=fast_mode)  # first derivative is right
    with pytest.raises(
        _gradcheck_module(m).GradcheckError, match=r"^Jacobian mismatch for output 0 with respect to input 0,"
    ):
        m.autograd.gradgradcheck(f, (_x(m),), fast_mode=fast_mode)
    assert m.autograd.gradgradcheck(f, (_x(m),), fast_mode=fast_mode, raise_exception=False) is False


@pytest.mark.parametrize("m", LIBS)
def test_a_hook_that_bends_the_gradients_graph_fails_gradgradcheck(m):
    """The hook returns g's value, but a graph in which g counts 1.5 times: the first derivative is
    right, the derivative of the gradient with respect to grad_output is not."""

    def f(x):
        y = x * 1
        y.register_hook(lambda g: None if g is None else g * 1.5 - (g * 0.5).detach())
        return y * x

    assert m.autograd.gradcheck(f, (_x(m),))
    kind, message = _error_message(lambda: m.autograd.gradgradcheck(f, (_x(m),)))
    assert kind is _gradcheck_module(m).GradcheckError
    assert message.startswith("Jacobian mismatch for output 0 with respect to input 0,\n")


@pytest.mark.parametrize("m", LIBS)
def test_a_backward_that_cuts_the_graph_fails_gradgradcheck(m):
    """A hook that detaches half of the gradient, and a backward that detaches all of it: the values
    are right, the second derivatives are half or nothing."""

    def f(x):
        y = x * 1
        y.register_hook(lambda g: None if g is None else g.detach())
        return y * x

    assert m.autograd.gradcheck(f, (_x(m),))
    kind, message = _error_message(lambda: m.autograd.gradgradcheck(f, (_x(m),)))
    assert kind is _gradcheck_module(m).GradcheckError
    assert message.startswith("Jacobian mismatch for output 0 with respect to input 0,\n")

    f = _cube(m, detach_all=True)
    assert m.autograd.gradcheck(f, (_x(m),))
    kind, message = _error_message(lambda: m.autograd.gradgradcheck(f, (_x(m),)))
    assert (kind, message) == (
        _gradcheck_module(m).GradcheckError,
        "Numerical gradient for function expected to be zero",
    )


# --- the other checks -------------------------------------------------------------------------------------
@pytest.mark.parametrize("m", LIBS)
def test_an_output_that_does_not_require_grad_must_be_constant(m):
    kind, message = _error_message(lambda: m.autograd.gradcheck(lambda a: a.detach() * 2, (_x(m),)))
    assert (kind, message) == (
        _gradcheck_module(m).GradcheckError,
        "Numerical gradient for function expected to be zero",
    )
    assert m.autograd.gradcheck(lambda a: m.ones(2, dtype=m.float64), (_x(m),))


@pytest.mark.parametrize("m", LIBS)
def test_a_non_reentrant_backward_fails_unless_nondet_tol_allows_it(m):
    calls = []

    class Noisy(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            calls.append(1)
            return g * (2 + len(calls) * 1e-9)

    kind, message = _error_message(lambda: m.autograd.gradcheck(Noisy.apply, (_x(m),)))
    assert kind is _gradcheck_module(m).GradcheckError
    assert message.startswith(
        "Backward is not reentrant, i.e., running backward with same input and grad_output multiple times "
        "gives different values, although analytical gradient matches numerical gradient.The tolerance for "
        "nondeterminism was 0.0."
    )
    assert m.autograd.gradcheck(Noisy.apply, (_x(m),), nondet_tol=1e-6, check_undefined_grad=False)


@pytest.mark.parametrize("m", LIBS)
def test_a_backward_that_refuses_undefined_output_grads_fails(m):
    class Two(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):  # one missing gradient is handled, both missing is not
            if g1 is None and g2 is None:
                raise RuntimeError("no output gradient")
            return (0 if g1 is None else g1 * 2) + (0 if g2 is None else g2 * 3)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # PyTorch's "Backwards compatibility" warning
        kind, message = _error_message(lambda: m.autograd.gradcheck(Two.apply, (_x(m),)))
    assert kind is _gradcheck_module(m).GradcheckError
    assert message.startswith("Expected backward function to handle undefined output grads.")
    assert m.autograd.gradcheck(Two.apply, (_x(m),), check_undefined_grad=False)


# --- input checks ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("m", LIBS)
def test_an_input_that_is_not_double_warns(m):
    x = m.tensor([1.0, 2.0], requires_grad=True)
    with pytest.warns(UserWarning) as record:
        m.autograd.gradcheck(lambda a, b: a * b, (m.tensor([1.0], dtype=m.float64), x), raise_exception=False)
    assert str(record[0].message) == (
        "Input #1 requires gradient and is not a double precision floating point or complex. This check will "
        "likely fail if all the inputs are not of double precision floating point or complex. "
    )


@pytest.mark.parametrize("m", LIBS)
def test_no_input_requiring_grad_raises(m):
    kind, message = _error_message(
        lambda: m.autograd.gradcheck(lambda a: a * 2, (m.ones(2, dtype=m.float64),))
    )
    assert (kind, message) == (
        ValueError,
        "gradcheck expects at least one input tensor to require gradient, but none of them have "
        "requires_grad=True.",
    )


@pytest.mark.parametrize("m", LIBS)
def test_an_input_with_stride_0_raises(m):
    x = m.tensor([1.0], dtype=m.float64, requires_grad=True).expand(3)
    kind, message = _error_message(lambda: m.autograd.gradcheck(lambda a: a * 2, (x,)))
    assert kind is RuntimeError
    assert message.startswith("The 0th input has a dimension with stride 0.")


@pytest.mark.parametrize("m", LIBS)
def test_a_single_tensor_and_a_list_are_inputs_too(m):
    assert m.autograd.gradcheck(lambda a: a.sin(), _x(m))
    assert m.autograd.gradcheck(lambda a, b: a * b, [_x(m), _x(m)])


# --- options -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "option",
    [
        {"check_batched_grad": True},
        {"check_forward_ad": True},
        {"check_batched_forward_grad": True, "check_forward_ad": True},
    ],
)
def test_options_yaten_cannot_honour_raise_not_implemented(option):
    with pytest.raises(NotImplementedError, match=f"{next(iter(option))}=True"):
        yaten.autograd.gradcheck(lambda a: a * 2, (_x(yaten),), **option)


def test_gradgradcheck_options_yaten_cannot_honour_raise_not_implemented():
    for option in ("check_batched_grad", "check_fwd_over_rev"):
        with pytest.raises(NotImplementedError, match=f"{option}=True"):
            yaten.autograd.gradgradcheck(lambda a: a * a, (_x(yaten),), **{option: True})


def test_default_valued_options_are_accepted():
    x = _x(yaten)
    assert yaten.autograd.gradcheck(
        lambda a: a * a, (x,), eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
        check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
        check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True, fast_mode=False,
        masked=None,
    )  # fmt: skip
    assert yaten.autograd.gradgradcheck(
        lambda a: a * a, (x,), None, eps=1e-6, atol=1e-5, rtol=1e-3, gen_non_contig_grad_outputs=False,
        raise_exception=True, nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
        check_batched_grad=False, check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False,
        masked=False,
    )  # fmt: skip


@pytest.mark.parametrize("m", LIBS)
def test_contradictory_options_raise_assertion_error(m):
    with pytest.raises(AssertionError, match="at least one of check_forward_ad or check_backward_ad"):
        m.autograd.gradcheck(lambda a: a, (_x(m),), check_backward_ad=False)
    with pytest.raises(AssertionError, match="at least one of check_fwd_over_rev or check_rev_over_rev"):
        m.autograd.gradgradcheck(lambda a: a, (_x(m),), check_rev_over_rev=False)
