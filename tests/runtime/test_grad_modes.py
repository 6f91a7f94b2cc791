"""Grad modes (no_grad, enable_grad, set_grad_enabled, inference_mode) and anomaly mode, side by side
with PyTorch."""

import threading
import warnings

import pytest
import torch

import yaten
from tests.runtime.parity import same

LIBS = pytest.mark.parametrize("m", [torch, yaten], ids=["torch", "yaten"])


@LIBS
def test_modes_nest_and_restore(m):
    assert m.is_grad_enabled()
    with m.no_grad():
        assert not m.is_grad_enabled()
        with m.enable_grad():
            assert m.is_grad_enabled()
            with m.set_grad_enabled(False):
                assert not m.is_grad_enabled()
            assert m.is_grad_enabled()
        assert not m.is_grad_enabled()
    assert m.is_grad_enabled()
    m.set_grad_enabled(False)
    assert not m.is_grad_enabled()
    m.set_grad_enabled(True)
    assert m.is_grad_enabled()


@LIBS
def test_modes_as_decorators_with_and_without_parentheses(m):
    @m.no_grad
    def a():
        return m.is_grad_enabled()

    @m.no_grad()
    def b():
        return m.is_grad_enabled()

    @m.enable_grad()
    def c():
        return m.is_grad_enabled()

    @m.inference_mode
    def d():
        return m.is_inference_mode_enabled(), m.is_grad_enabled()

    @m.inference_mode(False)
    def e():
        return m.is_inference_mode_enabled()

    @m.set_grad_enabled(False)
    def f():
        return m.is_grad_enabled()

    m.set_grad_enabled(True)
    assert (a(), b(), d(), e()) == (False, False, (True, False), False)
    with m.no_grad():
        assert c() is True
    assert f() is False and m.is_grad_enabled()


@LIBS
def test_modes_are_per_thread(m):
    seen = []
    with m.no_grad(), m.inference_mode():
        t = threading.Thread(target=lambda: seen.append((m.is_grad_enabled(), m.is_inference_mode_enabled())))
        t.start()
        t.join()
    assert seen == [(True, False)]


@LIBS
def test_mode_restored_after_exception(m):
    with pytest.raises(ValueError), m.inference_mode():
        raise ValueError
    assert m.is_grad_enabled() and not m.is_inference_mode_enabled()


def test_inference_mode_as_torch():
    def case(m):
        x = m.ones(3, requires_grad=True)
        with m.inference_mode():
            a = m.ones(3)
            b = x * 2
            c = m.ones(2, requires_grad=True)
            a.add_(1)  # allowed inside
            inside = (
                m.is_grad_enabled(),
                b.requires_grad,
                b.is_inference(),
                x.is_inference(),
                c.requires_grad,
            )
            with m.inference_mode(False):
                nested = (m.is_inference_mode_enabled(), m.is_grad_enabled(), m.ones(1).is_inference())
            view = x[0].is_inference()
        return inside, nested, view, a.is_inference(), a[0].is_inference(), (a + 1).is_inference(), a

    same(case)


INFERENCE_ERRORS = {
    "version": lambda m: _inference_tensor(m)._version,
    "inplace_outside": lambda m: _inference_tensor(m).add_(1),
    "inplace_under_no_grad": lambda m: _under_no_grad(m, lambda: _inference_tensor(m).mul_(2)),
    "requires_grad_outside": lambda m: _inference_tensor(m).requires_grad_(),
    "saved_for_backward": lambda m: (m.ones(3, requires_grad=True) * _inference_tensor(m)).sum(),
    "saved_by_exp": lambda m: m.ones(3, requires_grad=True).exp() * _inference_tensor(m),
}


def _inference_tensor(m):
    with m.inference_mode():
        return m.ones(3)


def _under_no_grad(m, fn):
    with m.no_grad():
        return fn()


@pytest.mark.parametrize("case", INFERENCE_ERRORS.values(), ids=INFERENCE_ERRORS.keys())
def test_inference_tensor_errors_as_torch(case):
    # The first sentence is PyTorch's; what follows points yaten users at yaten's names.
    same(lambda m: _first_sentence(case, m))


def _first_sentence(case, m):
    try:
        return case(m).shape
    except RuntimeError as e:
        return "RuntimeError", str(e).split(".")[0]


def test_inference_tensor_may_be_read_by_ops_that_save_nothing():
    def case(m):
        x = m.ones(3, requires_grad=True)
        a = _inference_tensor(m)
        (x + a).sum().backward()
        return x.grad, (a + 1).is_inference()

    same(case)


# --- anomaly mode ----------------------------------------------------------------------------------
def test_anomaly_switches_as_torch():
    def case(m):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            states = [(m.is_anomaly_enabled(), m.is_anomaly_check_nan_enabled())]
            with m.autograd.detect_anomaly(check_nan=False):
                states.append((m.is_anomaly_enabled(), m.is_anomaly_check_nan_enabled()))
            m.autograd.set_detect_anomaly(True)
            states.append((m.is_anomaly_enabled(), m.is_anomaly_check_nan_enabled()))
            m.autograd.set_detect_anomaly(False)
            with m.autograd.set_detect_anomaly(True, check_nan=False):
                states.append((m.is_anomaly_enabled(), m.is_anomaly_check_nan_enabled()))
            states.append((m.is_anomaly_enabled(), m.is_anomaly_check_nan_enabled()))
        return states

    same(case)


@LIBS
def test_detect_anomaly_warns_when_enabled(m):
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
        m.autograd.detect_anomaly()


def _nan_backward(m):
    x = m.tensor([0.0, 1.0], requires_grad=True)
    y = x.sqrt() * 0  # the line the forward trace must show
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            y.sum().backward()
        except RuntimeError as e:
            return str(e), [str(w.message) for w in caught]
    return None, []


@LIBS
def test_nan_in_backward_names_the_node_and_the_forward_line(m):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with m.autograd.detect_anomaly():
            error, messages = _nan_backward(m)
    assert error == "Function 'SqrtBackward0' returned nan values in its 0th output."
    (message,) = [w for w in messages if w.startswith("Error detected in SqrtBackward0")]
    assert "Traceback of forward call that caused the error" in message
    assert "y = x.sqrt() * 0  # the line the forward trace must show" in message
    assert "yaten/" not in message and "runtime/autograd" not in message  # only the user's frames
    assert "generated/ops.py" not in message


@LIBS
def test_nan_goes_unnoticed_without_anomaly_mode(m):
    assert _nan_backward(m) == (None, [])


@LIBS
def test_anomaly_mode_reports_any_backward_error(m):
    x = m.ones(2, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with m.autograd.detect_anomaly():
            y = x.exp()
            y.register_hook(lambda g: g.sum())  # a hook returning the wrong shape
            with (
                pytest.warns(UserWarning, match="Error detected in ExpBackward0"),
                pytest.raises(RuntimeError),
            ):
                y.sum().backward()
