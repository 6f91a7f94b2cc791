"""What Backward nodes save, and saved-tensor hooks, side by side with PyTorch.

Each ``case(m)`` runs with ``m = torch`` and ``m = yaten``; results and errors must agree.
"""

import gc
import os
import tempfile
import weakref

import numpy as np
import pytest
import torch

import yaten
from tests.runtime.parity import same
from tests.tolerances import assert_close

LIBS = pytest.mark.parametrize("m", [torch, yaten], ids=["torch", "yaten"])


def _leaf(m, n=3):
    return m.arange(1.0, n + 1).requires_grad_()


# --- what a node saves ---------------------------------------------------------------------------
@LIBS
def test_saved_input_is_the_input_itself(m):
    x = _leaf(m)
    y = x.sin()
    assert y.grad_fn._saved_self is x


@LIBS
def test_saved_output_is_a_new_tensor_over_the_same_data(m):
    x = _leaf(m)
    y = x.exp()
    saved = y.grad_fn._saved_result
    assert saved is not y and saved.data_ptr() == y.data_ptr() and saved.tolist() == y.tolist()
    assert saved.grad_fn is y.grad_fn


def test_operands_are_saved_only_for_the_gradients_needed():
    def case(m):
        x, w = _leaf(m), m.arange(3.0)
        y = x * w
        return y.grad_fn._saved_self, y.grad_fn._saved_other is w

    same(case)


@LIBS
def test_only_metadata_saved_does_not_keep_the_tensor_alive(m):
    x = _leaf(m)
    b = x * 2
    ref = weakref.ref(b)
    s = b.sum()  # saves b's size only
    del b
    gc.collect()
    assert ref() is None
    assert tuple(s.grad_fn._saved_self_sym_sizes) == (3,)


@LIBS
def test_saved_tensors_are_released_by_backward(m):
    x = _leaf(m)
    b = x * 2
    c = b.sin()  # saves b
    ref = weakref.ref(b)
    del b
    gc.collect()
    assert ref() is not None
    c.sum().backward()
    gc.collect()
    assert ref() is None


def test_freed_saved_tensors_raise_on_access():
    def case(m):
        x = _leaf(m)
        y = x.exp()
        y.sum().backward()
        return y.grad_fn._saved_result

    same(case)


def test_unsaved_operand_reads_none_after_backward():
    def case(m):
        x, w = _leaf(m), m.arange(3.0)
        y = x * w
        y.sum().backward()
        return y.grad_fn._saved_self

    same(case)


def test_second_backward_raises():
    def case(m):
        y = _leaf(m).exp().sum()
        y.backward()
        y.backward()

    same(case)


# --- saved_tensors_hooks --------------------------------------------------------------------------
@LIBS
def test_pack_runs_once_per_save_and_unpack_on_each_read(m):
    calls = []

    def pack(t):
        calls.append(("pack", m.is_grad_enabled()))
        return t

    def unpack(t):
        calls.append("unpack")
        return t

    x = _leaf(m)
    with m.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x.sin() * x.exp()  # SinBackward saves x; ExpBackward its result; MulBackward both operands
    assert calls == [("pack", False)] * 4
    first, second = y.grad_fn._saved_self, y.grad_fn._saved_self
    assert calls.count("unpack") == 2 and first.tolist() == second.tolist()
    y.sum().backward()
    assert calls.count("unpack") == 6
    assert_close(x.grad, x.detach().cos() * x.detach().exp() + x.detach().sin() * x.detach().exp())


@LIBS
@pytest.mark.parametrize("kind", ["index", "closure", "string"])
def test_packed_object_may_be_anything(m, kind):
    store = []

    def pack(t):
        store.append(t.detach().clone())
        i = len(store) - 1
        return {"index": i, "closure": (i, lambda: store[i]), "string": f"slot-{i}"}[kind]

    def unpack(p):
        if kind == "index":
            return store[p]
        if kind == "closure":
            return p[1]()
        return store[int(p.split("-")[1])]

    x = _leaf(m)
    with m.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = (x * x).sum()
    y.backward()
    assert x.grad.tolist() == [2.0, 4.0, 6.0]


@LIBS
def test_packed_object_released_with_the_graph(m):
    class Box:
        def __init__(self, t):
            self.t = t

    refs = []

    def pack(t):
        box = Box(t)
        refs.append(weakref.ref(box))
        return box

    x = _leaf(m)
    with m.autograd.graph.saved_tensors_hooks(pack, lambda box: box.t):
        y = (x * 2).sin()
    gc.collect()
    assert refs[0]() is not None
    y.sum().backward()
    gc.collect()
    assert refs[0]() is None


@LIBS
def test_self_deleting_temp_file(m):
    """The tutorial's pattern: saved tensors go to disk and the files go when the graph does."""
    paths = []

    class SelfDeletingTempFile:
        def __init__(self):
            fd, self.name = tempfile.mkstemp()
            os.close(fd)
            paths.append(self.name)

        def __del__(self):
            os.remove(self.name)

    def pack(t):
        f = SelfDeletingTempFile()
        with open(f.name, "wb") as fh:
            np.save(fh, t.detach().numpy())
        return f

    def unpack(f):
        with open(f.name, "rb") as fh:
            return m.from_numpy(np.load(fh))

    x = _leaf(m)
    with m.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = (x.exp() * x).sum()
    assert all(os.path.exists(p) for p in paths) and paths
    y.backward()
    gc.collect()
    assert not any(os.path.exists(p) for p in paths)
    assert_close(x.grad, x.detach().exp() * (x.detach() + 1))


@LIBS
def test_innermost_hooks_win(m):
    log = []
    outer = m.autograd.graph.saved_tensors_hooks(lambda t: log.append("outer") or t, lambda t: t)
    inner = m.autograd.graph.saved_tensors_hooks(lambda t: log.append("inner") or t, lambda t: t)
    x = _leaf(m)
    with outer:
        with inner:
            x.sin()
        x.cos()
    x.tan()
    assert log == ["inner", "outer"]


@LIBS
def test_hooks_apply_to_a_saved_leaf_through_double_backward(m):
    x = _leaf(m)
    with m.autograd.graph.saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t):
        y = (x * x * x).sum()
    (g,) = m.autograd.grad(y, x, create_graph=True)
    g.sum().backward()
    assert x.grad.tolist() == [6.0, 12.0, 18.0]


def test_hook_errors_as_torch():
    def bad_unpack(m):
        x = _leaf(m)
        with m.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: 5):
            y = x.sin()
        y.sum().backward()

    def pack_modifies(m):
        a = _leaf(m) * 1

        def pack(t):
            t.add_(1)
            return t

        with m.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            a.sin()

    def disabled(m):
        hooks = m.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t)
        with m.autograd.graph.disable_saved_tensors_hooks("no hooks here"), hooks:
            pass

    def inference_saved(m):
        with m.inference_mode():
            a = m.ones(3)
        return (_leaf(m) * a).sum()

    same(bad_unpack)
    same(lambda m: " ".join(str(e) for e in _errors(pack_modifies, m))[:80])
    same(disabled)
    same(lambda m: [str(e).split(" Please")[0] for e in _errors(inference_saved, m)])


def _errors(case, m):
    try:
        case(m)
    except RuntimeError as e:
        return [e]
    return []


@LIBS
def test_save_on_cpu(m):
    x = _leaf(m)
    with m.autograd.graph.save_on_cpu(pin_memory=False):
        y = (x.exp() * x).sum()
    y.backward()
    assert_close(x.grad, x.detach().exp() * (x.detach() + 1))


@LIBS
def test_versions_are_not_checked_through_hooks(m):
    x = _leaf(m)
    with m.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        a = x * 1
        b = a.sin()
    a.detach().mul_(2)
    b.sum().backward()  # the hooks own what was saved: no version check, as in PyTorch
    assert x.grad is not None


# --- numbers: PyTorch's binding wraps them into tensors for the Tensor overload ---------------------
@pytest.mark.parametrize(
    "expr", ["x * 2", "x * 2.5", "x + 2", "x - 1.5", "x / 4", "x.mul(True)", "x.add(1, alpha=3)"]
)
def test_an_op_with_a_number_records_the_tensor_overloads_node(expr):
    def case(m):
        x = _leaf(m)
        y = eval(expr, {"x": x})
        fn = y.grad_fn
        saved = [
            (n, getattr(fn, n)) for n in ("_saved_other", "_saved_self", "_saved_alpha") if hasattr(fn, n)
        ]
        y.sum().backward()
        return (
            fn.name(),
            [e[0] is None for e in fn.next_functions],
            saved,
            repr(y).split("grad_fn=")[1],
            x.grad,
        )

    same(case)


def test_a_number_promotes_as_a_scalar_in_the_formula():
    def case(m):
        x = m.tensor(3.0, requires_grad=True)  # 0-dim float32: the wrapped float64 must not promote it
        (g,) = m.autograd.grad(x * 2.5, x, create_graph=True)
        return g, g.dtype == m.float32

    same(case)
