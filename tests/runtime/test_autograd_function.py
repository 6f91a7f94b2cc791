"""autograd.Function (runtime/autograd/function.py) side by side with PyTorch.

Each Function is defined by a factory taking the library module ``m`` (``torch`` or ``yaten``), so the
same definition runs on both; a case is a function of ``m`` whose results (values, dtypes, shapes,
requires_grad) or raised error (type and message) must agree between the two libraries.
"""

import gc
import warnings
import weakref

import pytest
import torch

import yaten
from tests.runtime.parity import name as _name
from tests.runtime.parity import same as _same
from yaten.autograd.function import FunctionCtx, InplaceFunction, once_differentiable


def _leaf(m, data, dtype=None):
    return m.tensor(data, dtype=dtype or m.float32, requires_grad=True)


def _once(m):
    return torch.autograd.function.once_differentiable if m is torch else once_differentiable


# --- Functions, one factory per definition ------------------------------------------------------------
def _exp(m, seen=None):
    """exp, saving its output. ``seen`` collects the ctx and the grad mode inside forward / backward."""

    class Exp(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            if seen is not None:
                seen["ctx"] = ctx
                seen["forward_grad"] = m.is_grad_enabled()
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            if seen is not None:
                seen["backward_grad"] = m.is_grad_enabled()
            (y,) = ctx.saved_tensors
            return grad * y

    return Exp


def _square(m):
    """x * x, saving its input: its backward is made of library ops, so it is differentiable again."""

    class Square(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 2 * x * grad

    return Square


def _scaled_mul(m, seen=None):
    """x * y * k in the setup_context style, with a default argument."""

    class ScaledMul(m.autograd.Function):
        @staticmethod
        def forward(x, y, k=2.0):
            if seen is not None:
                seen["forward_grad"] = m.is_grad_enabled()
            return x * y * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, y, k = inputs
            if seen is not None:
                seen["inputs"] = len(inputs), k
                seen["needs"] = ctx.needs_input_grad
                seen["setup_grad"] = m.is_grad_enabled()
                seen["output_grad_fn"] = output.grad_fn
            ctx.save_for_backward(x, y)
            ctx.k = k

        @staticmethod
        def backward(ctx, grad):
            x, y = ctx.saved_tensors
            return grad * y * ctx.k, grad * x * ctx.k, None

    return ScaledMul


def _returning(m, grads):
    """forward(ctx, x, y, k) = x * y * k whose backward returns ``grads(g)``: to test the checks on it."""

    class Bad(m.autograd.Function):
        @staticmethod
        def forward(ctx, x, y, k):
            return x * y * k

        @staticmethod
        def backward(ctx, g):
            return grads(m, g)

    return Bad


def _add_one_(m):
    """Adds 1 in place and says so with mark_dirty."""

    class AddOne_(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad * 1

    return AddOne_


def _identity(m):
    """Returns its input unchanged (not marked dirty)."""

    class Identity(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad * 3  # not the true derivative, so the test sees this backward ran

    return Identity


# --- the Backward class and ctx -----------------------------------------------------------------------
def test_each_function_gets_its_own_backward_class_named_like_torch():
    for m in (torch, yaten):
        seen = {}
        Exp = _exp(m, seen)
        x = _leaf(m, [1.0, 2.0])
        y = Exp.apply(x)
        assert type(y.grad_fn).__name__ == "ExpBackward" and y.grad_fn.name() == "ExpBackward"
        assert type(y.grad_fn) is Exp._backward_cls and Exp._backward_cls._forward_cls is Exp
        assert Exp._backward_cls is not _exp(m)._backward_cls  # a new class per Function subclass
        assert seen["ctx"] is y.grad_fn  # ctx IS the node
        assert isinstance(y.grad_fn, m.autograd.function.FunctionCtx)
        assert issubclass(Exp, m.autograd.function.FunctionCtx)
        ((acc, nr),) = y.grad_fn.next_functions
        assert type(acc).__name__ == "AccumulateGrad" and acc.variable is x and nr == 0
        assert "grad_fn=<ExpBackward>" in repr(y)
    assert yaten.autograd.Function is yaten.autograd.function.Function
    assert isinstance(yaten.tensor(1.0, requires_grad=True).exp().grad_fn, yaten.autograd.Node)


def test_ctx_attributes_reach_backward():
    def case(m):
        class Scale(m.autograd.Function):
            @staticmethod
            def forward(ctx, x, k):
                ctx.k = k
                return x * k

            @staticmethod
            def backward(ctx, grad):
                return grad * ctx.k, None

        x = _leaf(m, [1.0, 2.0])
        y = Scale.apply(x, 3)
        y.sum().backward()
        return y, y.grad_fn.k, x.grad

    assert _same(case)[1][1] == 3


# --- gradients: both styles ----------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_classic_style_gradients(dtype):
    def case(m):
        x = _leaf(m, [0.5, -1.0, 2.0], getattr(m, dtype))
        y = _exp(m).apply(x)
        (y * m.tensor([1.0, 2.0, 3.0], dtype=getattr(m, dtype))).sum().backward()
        return y, x.grad

    assert _same(case)[1][1][3].values == pytest.approx([1.6487213, 0.7357589, 22.1671683])


def test_forward_runs_without_grad_and_backward_with_the_engine_grad_mode():
    for m in (torch, yaten):
        seen = {}
        x = _leaf(m, [1.0])
        y = _exp(m, seen).apply(x)
        y.backward()
        assert (seen["forward_grad"], seen["backward_grad"]) == (False, False)
        y = _exp(m, seen).apply(x)
        m.autograd.grad(y, x, create_graph=True)
        assert seen["backward_grad"] is True


def test_setup_context_style():
    def case(m):
        seen = {}
        F = _scaled_mul(m, seen)
        x, y = _leaf(m, [1.0, 2.0]), m.tensor([3.0, 4.0])
        out = F.apply(x, y)
        out.sum().backward()
        out3 = F.apply(x, y=y, k=3.0)  # keywords bound to forward's signature, defaults filled in
        assert seen["output_grad_fn"] is None  # setup_context sees the output before it has history
        return out, x.grad, out3, seen["inputs"], seen["needs"], seen["forward_grad"], seen["setup_grad"]

    result = _same(case)
    assert result[1][3:] == [("tuple", [3, 3.0]), ("tuple", [True, False, False]), False, False]


def test_no_node_under_no_grad_or_without_inputs_requiring_grad():
    def case(m):
        seen = {}
        x = _leaf(m, [1.0])
        with m.no_grad():
            a = _exp(m, seen).apply(x)
        needs_under_no_grad = seen["ctx"].needs_input_grad  # still says what requires grad
        b = _exp(m).apply(m.tensor([1.0]))
        c = _exp(m).apply(x)
        return a.requires_grad, a.grad_fn is None, b.requires_grad, b.grad_fn is None, c.grad_fn is None, \
            needs_under_no_grad  # fmt: skip

    assert _same(case) == ("tuple", [False, True, False, True, False, ("tuple", [True])])


def test_needs_input_grad_and_non_tensor_arguments():
    def case(m):
        seen = []

        class Affine(m.autograd.Function):
            @staticmethod
            def forward(ctx, x, w, k, name):
                seen.append(ctx.needs_input_grad)
                ctx.save_for_backward(x, w)
                ctx.k = k
                return x * w + k

            @staticmethod
            def backward(ctx, grad):
                seen.append(ctx.needs_input_grad)
                x, w = ctx.saved_tensors
                gx = grad * w if ctx.needs_input_grad[0] else None
                gw = grad * x if ctx.needs_input_grad[1] else None
                return gx, gw, None, None

        x, w = _leaf(m, [1.0, 2.0]), m.tensor([3.0, 4.0])
        y = Affine.apply(x, w, 5, "affine")
        y.sum().backward()
        return y, x.grad, w.grad, seen

    assert _same(case)[1][3] == ("list", [("tuple", [True, False, False, False])] * 2)


def test_keyword_arguments_as_torch_binds_them():
    def case(m):
        class K(m.autograd.Function):
            @staticmethod
            def forward(ctx, x, y=None, z=3):
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                return grad * 2, None, None

        x = _leaf(m, [1.0])
        results = [K.apply(y=x, x=x).grad_fn.needs_input_grad]
        for kwargs in ({"x": x, "bogus": 1}, {"x": x, "z": 5}, {"y": x}):
            try:
                K.apply(**kwargs)
            except TypeError as e:
                results.append(str(e))
        try:
            K.apply(x, 1, 2, y=3)
        except TypeError as e:
            results.append(str(e))
        return results

    assert _same(case)[1][1:] == [
        "forward() got an unexpected keyword argument 'bogus'",
        "forward() missing required argument: 'y' (position 1)",
        "forward() missing required argument: 'x' (position 0)",
        "forward() got multiple values for argument 'y'",
    ]


# --- outputs ---------------------------------------------------------------------------------------
def test_several_outputs_and_non_tensor_outputs():
    def case(m):
        received = []

        class Many(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2, x * 3, 5, "s", None

            @staticmethod
            def backward(ctx, *grads):
                received.append([g if g is None else g.tolist() for g in grads])
                return grads[0] * 2 + grads[1] * 3

        x = _leaf(m, [1.0, 2.0])
        a, b, five, s, none = Many.apply(x)
        a.sum().backward()  # b got no gradient: backward sees zeros for it (materialized)
        return a, b, a.output_nr, b.output_nr, five, s, none, x.grad, received

    result = _same(case)
    assert result[1][2:4] == [0, 1]
    assert result[1][8] == (
        "list",
        [("list", [("list", [1.0, 1.0]), ("list", [0.0, 0.0]), None, None, None])],
    )


def test_set_materialize_grads_false_passes_none():
    def case(m):
        received = []

        class Pair(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.set_materialize_grads(False)
                return x * 2, x * 3

            @staticmethod
            def backward(ctx, ga, gb):
                received.append((ga, gb is None))
                return gb * 3

        x = _leaf(m, [1.0])
        Pair.apply(x)[1].sum().backward()
        return received, x.grad

    assert _same(case)[1][0] == ("list", [("tuple", [None, False])])


def test_mark_non_differentiable():
    def case(m):
        received = []

        class AbsArgmax(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                sign, idx = x.sign(), x.argmax()
                ctx.mark_non_differentiable(sign, idx)
                ctx.save_for_backward(sign)
                return x.abs(), sign, idx

            @staticmethod
            def backward(ctx, grad, grad_sign, grad_idx):
                received.append((grad_sign, grad_idx))  # zeros, as the outputs they stand for
                (sign,) = ctx.saved_tensors
                return grad * sign

        x = _leaf(m, [-2.0, 3.0])
        y, sign, idx = AbsArgmax.apply(x)
        y.sum().backward()
        return y, sign, idx, sign.grad_fn is None, x.grad, received

    result = _same(case)
    assert result[1][1][4] is False and result[1][5][1][0][1][1] == ("Tensor", "yaten.int64", (), 0, False)


def test_mark_non_differentiable_on_an_input_returns_a_detached_alias():
    def case(m):
        class Mark(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.mark_non_differentiable(x)
                return x

            @staticmethod
            def backward(ctx, grad):
                return grad

        x = _leaf(m, [1.0])
        y = Mark.apply(x)
        return y, y is x, y._base is None, y.grad_fn is None

    assert _same(case)[1][1:] == [False, True, True]


def test_an_input_returned_as_is_comes_back_as_a_view_with_this_node():
    def case(m):
        x = _leaf(m, [1.0, 2.0])
        y = _identity(m).apply(x)
        facts = [y is x, y._base is x, y.grad_fn.name(), y.data_ptr() == x.data_ptr()]
        y.sum().backward()
        plain = m.tensor([1.0])
        z = _identity(m).apply(plain)  # no graph: still a new tensor viewing the input
        facts += [z is plain, z._base is plain, z.grad_fn is None]
        with m.no_grad():
            w = _identity(m).apply(x)  # no graph and the input requires grad: a detached alias
        facts += [w is x, w._base is None, w.requires_grad]
        return facts, x.grad

    assert _same(case)[1][0] == ("list", [False, True, "IdentityBackward", True, False, True, True, False, True,
                                          False])  # fmt: skip


def test_setup_context_may_not_save_an_input_returned_as_is():
    def case(m):
        class Same(m.autograd.Function):
            @staticmethod
            def forward(x):
                return x

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.save_for_backward(output)

            @staticmethod
            def backward(ctx, grad):
                return grad

        return Same.apply(_leaf(m, [1.0]))

    assert _same(case)[0] is RuntimeError


# --- mark_dirty --------------------------------------------------------------------------------------
def test_mark_dirty_rebases_the_input_history():
    def case(m):
        x = _leaf(m, [1.0, 2.0])
        h = x * 2
        out = _add_one_(m).apply(h)
        facts = [out is h, h.grad_fn.name(), h._version, h.output_nr]
        (out * out).sum().backward()
        return facts, h, x.grad

    assert _same(case)[1][0] == ("list", [True, "AddOne_Backward", 2, 0])


def test_mark_dirty_on_an_input_not_requiring_grad():
    def case(m):
        class AddInto_(m.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                a.add_(b)
                ctx.mark_dirty(a)
                return a

            @staticmethod
            def backward(ctx, grad):
                return grad, grad * 2

        a, b = m.tensor([1.0, 2.0]), _leaf(m, [1.0, 1.0])
        out = AddInto_.apply(a, b)
        out.sum().backward()
        return out is a, a.grad_fn.name(), a.is_leaf, a, b.grad

    assert _same(case)[1][:3] == [True, "AddInto_Backward", False]


def test_mark_dirty_on_a_leaf_requiring_grad_is_refused():
    def case(m):
        x = _leaf(m, [1.0, 2.0])
        try:
            _add_one_(m).apply(x)
        except RuntimeError as e:
            return str(e), x.detach()  # forward did run

    assert _same(case)[1][0] == "a leaf Variable that requires grad has been used in an in-place operation."


def test_mark_dirty_under_no_grad_and_without_graph():
    def case(m):
        x = _leaf(m, [1.0])
        with m.no_grad():
            a = _add_one_(m).apply(x)  # allowed; the result is a detached alias of the leaf
        p = m.tensor([1.0])
        b = _add_one_(m).apply(p)  # nothing requires grad: the input itself comes back
        return a, a is x, x._version, b is p, p._version

    assert _same(case)[1][1:] == [False, 2, True, 2]


def test_mark_dirty_errors_and_warning():
    def case(m):
        class NotReturned(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                x.add_(1)
                ctx.mark_dirty(x)
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                return grad

        class NotInput(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                y = x * 2
                ctx.mark_dirty(y)
                return y

            @staticmethod
            def backward(ctx, grad):
                return grad * 2

        class ViewTwoOutputs(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                x.add_(1)
                ctx.mark_dirty(x)
                return x, x * 2

            @staticmethod
            def backward(ctx, ga, gb):
                return ga

        x = _leaf(m, [1.0, 2.0])
        found = []
        for fn, arg in ((NotReturned, x * 1), (ViewTwoOutputs, (x * 1)[:1])):
            try:
                fn.apply(arg)
            except RuntimeError as e:
                found.append(str(e))
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            y = NotInput.apply(x)
        found.append([str(i.message).split(" (Triggered internally")[0] for i in w])
        return found, y.grad_fn.name()

    result = _same(case)
    assert result[1][0][1][0].startswith("Some elements marked as dirty")


def test_mark_dirty_of_a_view_rebases_its_base():
    def case(m):
        x = _leaf(m, [1.0, 2.0, 3.0])
        base = x * 2
        v = base[:2]
        out = _add_one_(m).apply(v)
        facts = [out is v, v.grad_fn.name(), type(base.grad_fn).__name__]
        (base * base).sum().backward()
        return facts, base, x.grad

    assert _same(case)[1][0] == ("list", [True, "AsStridedBackward0", "CopySlices"])


def test_mark_arguments_must_be_tensors():
    def marking(m, method):
        class Bad(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                getattr(ctx, method)(3)
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                return grad

        return Bad

    def case(m):
        found = []
        for method in ("mark_dirty", "mark_non_differentiable"):
            try:
                marking(m, method).apply(_leaf(m, [1.0]))
            except RuntimeError as e:
                found.append(str(e).split(", but")[0])  # torch's message is cut short after this
        return found

    assert _same(case)[1] == ["mark_dirty can only accept variables", "mark_non_differentiable only accepts variable "
                                                                      "arguments"]  # fmt: skip


# --- what backward returns -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "grads",
    [
        lambda m, g: (g, g),  # too few
        lambda m, g: (g, g, None, None, None),  # extra trailing Nones are fine
        lambda m, g: (g, g, None, g),  # too many
        lambda m, g: (g, g, g),  # a gradient for the non-tensor k
        lambda m, g: (g, 3.0, None),  # not a tensor
        lambda m, g: [g, g, None],  # a list is one (wrong) value
        lambda m, g: (None, g.double(), None),  # cast to the input's dtype
        lambda m, g: (m.ones(2, 2), None, None),  # summed to the input's shape
        lambda m, g: (m.ones(3), None, None),  # not broadcastable
    ],
)
def test_checks_on_what_backward_returns(grads):
    def case(m):
        x, y = _leaf(m, [1.0, 2.0]), _leaf(m, [3.0, 4.0])
        _returning(m, grads).apply(x, y, 2).sum().backward()
        return x.grad, y.grad

    _same(case)


def test_wrong_gradient_count_message():
    def case(m):
        x, y = _leaf(m, [1.0]), _leaf(m, [2.0])
        _returning(m, lambda m, g: (g, g)).apply(x, y, 2).sum().backward()

    assert _same(case) == (RuntimeError, "function BadBackward returned an incorrect number of gradients (expected 3, "
                                         "got 2)")  # fmt: skip


# --- saved tensors -------------------------------------------------------------------------------
def test_save_for_backward_details():
    def case(m):
        seen = []

        class Save(m.autograd.Function):
            @staticmethod
            def forward(ctx, x, w):
                ctx.save_for_backward(None, x, w)
                seen.append(ctx.saved_tensors)  # nothing yet during forward
                y = x * w
                ctx.save_for_backward(None, x, y)  # the last call wins
                return y

            @staticmethod
            def backward(ctx, grad):
                none, x, y = ctx.saved_tensors
                seen.append((none, y.grad_fn is ctx, y.requires_grad, y.output_nr))
                return grad * y / x, None

        x = _leaf(m, [1.0, 2.0])
        out = Save.apply(x, m.tensor([3.0, 4.0]))
        saved = out.grad_fn.saved_tensors
        facts = [saved[1] is x, saved[2] is out, saved[2].grad_fn is out.grad_fn, out.grad_fn.to_save]
        out.sum().backward()
        return seen, facts, x.grad

    assert _same(case)[1][1] == ("list", [True, False, True, None])


def test_save_for_backward_refuses_non_tensors_when_recording():
    def case(m):
        class Bad(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x, 3)
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                return grad

        result = Bad.apply(m.tensor([1.0]))  # no graph: not checked, as in torch
        try:
            Bad.apply(_leaf(m, [1.0]))
        except TypeError as e:
            return result, str(e)

    assert _same(case)[1][1] == "save_for_backward can only save variables, but argument 1 is of type int"


def test_a_saved_output_makes_no_reference_cycle():
    for m in (torch, yaten):
        gc.disable()
        try:
            y = _exp(m).apply(_leaf(m, [1.0]))
            ref = weakref.ref(y.grad_fn)
            del y
            assert ref() is None
        finally:
            gc.enable()


def _modified_message(e) -> str:
    return _name(e).split(" Hint:")[0]  # the hint names each library's own anomaly-mode API


def test_version_check_on_saved_tensors():
    def case(m):
        messages = []
        x = _leaf(m, [1.0, 2.0])
        h = x * 1
        y = _square(m).apply(h)  # saves its input h
        h.add_(1)
        z = _exp(m).apply(x)  # saves its output z
        z.mul_(2)
        for out in (y, z):
            try:
                out.sum().backward()
            except RuntimeError as e:
                messages.append(_modified_message(e))
        return messages

    messages = _same(case)[1]
    assert messages[0].endswith("which is output 0 of Add, is at version 1; expected version 0 instead.")
    assert messages[1].endswith("which is output 0 of Exp, is at version 1; expected version 0 instead.")


def test_freed_graph():
    def case(m):
        found = []
        x = _leaf(m, [1.0, 2.0])
        y = _exp(m).apply(x)
        y.sum().backward(retain_graph=True)
        y.sum().backward()
        for attempt in (lambda: y.sum().backward(), lambda: y.grad_fn.saved_tensors):
            try:
                attempt()
            except RuntimeError as e:
                found.append(str(e))

        class Twice(m.autograd.Function):  # saves nothing: backward may run again
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                return grad * 2

        t = Twice.apply(x)
        t.sum().backward()
        t.sum().backward()
        return found, x.grad

    found = _same(case)[1][0][1]
    assert len(found) == 2 and all(
        s.startswith("Trying to backward through the graph a second time") for s in found
    )


def test_saved_tensor_hooks_see_function_saves():
    def case(m):
        packed = []

        def pack(t):
            packed.append(tuple(t.shape))
            return t.clone()

        x = _leaf(m, [1.0, 2.0])
        with m.autograd.graph.saved_tensors_hooks(pack, lambda t: t * 10):
            y = _square(m).apply(x)
        y.sum().backward()
        return packed, x.grad

    assert _same(case)[1][1][3] == [20.0, 40.0]  # backward saw the unpacked (x * 10)


def test_clear_saved_tensors_on_access():
    def case(m):
        found = []

        class Clear(m.autograd.Function):
            clear_saved_tensors_on_access = True

            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                try:
                    _ = ctx.saved_tensors
                except RuntimeError as e:
                    found.append(str(e)[:60])
                return grad * x

        x = _leaf(m, [1.0])
        Clear.apply(x).sum().backward()
        return found, x.grad

    assert len(_same(case)[1][0][1]) == 1


# --- once_differentiable and double backward ----------------------------------------------------------
def _cube(m, seen=None):
    class Cube(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        @_once(m)
        def backward(ctx, grad):
            if seen is not None:
                seen.append(m.is_grad_enabled())
            (x,) = ctx.saved_tensors
            return 3 * x**2 * grad

    return Cube


def test_once_differentiable_first_order():
    def case(m):
        seen = []
        x = _leaf(m, [1.0, 2.0])
        (g,) = m.autograd.grad(_cube(m, seen).apply(x).sum(), x, create_graph=True)
        return g, g.grad_fn is None, seen  # the incoming grad did not require grad: a plain result

    assert _same(case)[1][1:] == [True, ("list", [False])]
    assert _cube(yaten).backward.__wrapped__.__name__ == "backward"


def test_once_differentiable_double_backward_raises():
    def case(m):
        x = _leaf(m, [1.0, 2.0])
        y = _cube(m).apply(x)
        (g,) = m.autograd.grad((y * x).sum(), x, create_graph=True)  # the incoming grad (x) requires grad
        g.sum().backward()

    assert _same(case) == (
        RuntimeError,
        "trying to differentiate twice a function that was marked with @once_differentiable",
    )


def test_once_differentiable_outputs():
    for m in (torch, yaten):

        @_once(m)
        def backward(ctx, grad):
            return grad * 2, None, grad * 3

        a, none, b = backward(None, _leaf(m, [1.0]))
        assert none is None and a.grad_fn is b.grad_fn and (a.output_nr, b.output_nr) == (0, 2)
        assert [type(n).__name__ for n, _ in a.grad_fn.next_functions] == ["AccumulateGrad", "NoneType",
                                                                           "AccumulateGrad"]  # fmt: skip
        plain = backward(None, m.tensor([1.0]))
        assert plain[0].grad_fn is None


def test_double_backward_through_a_differentiable_backward():
    def case(m):
        x = _leaf(m, [1.0, 2.0], m.float64)
        (g,) = m.autograd.grad(_square(m).apply(x).sum(), x, create_graph=True)
        g.sum().backward()
        first = x.grad.clone()
        x.grad = None
        (h,) = m.autograd.grad(_exp(m).apply(x).sum(), x, create_graph=True)  # through a saved output
        h.sum().backward()
        return g, first, h, h.grad_fn.next_functions[1][0].name(), x.grad

    assert _same(case)[1][1][3] == [2.0, 2.0]


def test_gradcheck_of_custom_functions():
    x = yaten.tensor([0.3, -1.2, 2.0], dtype=yaten.float64, requires_grad=True)
    w = yaten.tensor([1.5, 0.5, -2.0], dtype=yaten.float64, requires_grad=True)
    f = _scaled_mul(yaten)
    assert yaten.autograd.gradcheck(lambda a, b: f.apply(a, b, 1.5), (x, w))
    assert yaten.autograd.gradcheck(_exp(yaten).apply, (x,))
    assert yaten.autograd.gradgradcheck(_square(yaten).apply, (x,))
    assert yaten.autograd.gradgradcheck(_exp(yaten).apply, (x,))

    class WrongExp(yaten.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.exp()

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    assert not yaten.autograd.gradcheck(WrongExp.apply, (x,), raise_exception=False)


# --- the class API ---------------------------------------------------------------------------------
def test_legacy_instance_and_missing_methods():
    def case(m):
        found = []
        Exp = _exp(m)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            f = Exp()
        found.append([(i.category.__name__, str(i.message)) for i in w])

        class NoBackward(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

        class Both(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                return grad

            @staticmethod
            def vjp(ctx, grad):
                return grad

        x = _leaf(m, [1.0])
        attempts = (
            lambda: f(x),
            lambda: m.autograd.Function.forward(None, x),
            lambda: NoBackward.apply(x).sum().backward(),
            lambda: Both.apply(x).sum().backward(),
            lambda: Exp.jvp(None, x),
        )
        for attempt in attempts:
            try:
                attempt()
            except (RuntimeError, NotImplementedError) as e:
                found.append((type(e).__name__, _name(e)))
        return found

    found = _same(case)[1]
    (category, message) = found[0][1][0][1]
    assert category == "DeprecationWarning" and message.endswith("Exp'> should not be instantiated. Methods on "
        "autograd functions are all static, so you should invoke them on the class itself. Instantiating an "
        "autograd function will raise an error in a future version of PyTorch.")  # fmt: skip
    assert len(found) == 6


def test_vjp_is_backward():
    def case(m):
        class OnlyVjp(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def vjp(ctx, grad):
                return grad * 5

        x = _leaf(m, [1.0])
        OnlyVjp.apply(x).sum().backward()
        return x.grad, m.autograd.Function.vjp is m.autograd.Function.backward

    assert _same(case)[1][0][3] == [5.0]


def test_boxed_grads_call():
    def case(m):
        class Boxed(m.autograd.Function):
            boxed_grads_call = True

            @staticmethod
            def forward(ctx, x):
                return x * 2, x * 3

            @staticmethod
            def backward(ctx, grads):
                assert isinstance(grads, list)
                return grads[0] * 2 + grads[1] * 3

        x = _leaf(m, [1.0])
        a, b = Boxed.apply(x)
        (a + b).sum().backward()
        return x.grad

    assert _same(case)[3] == [5.0]


def test_node_hooks_on_a_function_node():
    def case(m):
        calls = []

        class Affine(m.autograd.Function):
            @staticmethod
            def forward(ctx, a, k, b):
                return a * k + b

            @staticmethod
            def backward(ctx, grad):
                return grad * ctx.needs_input_grad[0], None, grad

        x = _leaf(m, [1.0, 2.0])
        y = Affine.apply(x, 2, x)
        y.grad_fn.register_prehook(lambda go: calls.append(("pre", len(go))))
        y.grad_fn.register_hook(lambda gi, go: calls.append(("post", len(gi), len(go))))
        y.sum().backward()
        return calls, x.grad

    assert _same(case)[1][0] == ("list", [("tuple", ["pre", 1]), ("tuple", ["post", 2, 1])])


def test_inplace_function_is_kept_for_compatibility():
    with pytest.warns(DeprecationWarning):
        f = InplaceFunction(inplace=True)
    assert f.inplace is True and issubclass(InplaceFunction, yaten.autograd.Function)
    assert isinstance(f, FunctionCtx) and InplaceFunction._backward_cls.__name__ == "InplaceFunctionBackward"


def test_backward_runs_when_no_gradient_reached_it():
    def case(m):
        class Stop(m.autograd.Function):  # backward returns None: no gradient flows on
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                return None

        x = _leaf(m, [1.0, 2.0])
        Stop.apply(_square(m).apply(x)).sum().backward()
        return x.grad  # torch runs Square's backward on materialized zeros: a zero gradient, not None

    _same(case)


def test_in_place_on_a_view_output_of_a_function():
    def case(m):
        h = _leaf(m, [1.0, 2.0]) * 1
        _identity(m).apply(h).mul_(2)

    def base_changed(m):
        h = _leaf(m, [1.0, 2.0]) * 1
        o = _identity(m).apply(h)
        h.mul_(2)
        (o * 1).sum().backward()

    _same(case)
    _same(base_changed)
