"""``autograd.Function``: a user-defined operation with its own forward and backward, as in PyTorch.

Each ``Function`` subclass gets its own Backward node class (``class Exp(Function)`` ->
``ExpBackward``), and the ``ctx`` that ``forward`` / ``setup_context`` receive IS that node, so
``ctx is y.grad_fn``. ``Function.apply`` runs ``forward`` with grad mode off, then gives the outputs
their history (what PyTorch's ``THPFunction_apply`` and ``_wrap_outputs`` do); the node's ``apply``
calls the user's ``backward`` and checks what it returned (PyTorch's ``PyNode::apply``).
"""

import functools
import inspect
import itertools
import warnings

from .. import _tensor as T
from .grad_mode import STATE, no_grad
from .node import Node
from .record import TensorMeta, check_inplace, connect, set_history, set_inplace_history
from .saved import FREED, SavedVariable

__all__ = [
    "BackwardCFunction",
    "Function",
    "FunctionCtx",
    "FunctionMeta",
    "InplaceFunction",
    "once_differentiable",
]

_function_ids = itertools.count()


class FunctionCtx:
    """What ``forward`` / ``setup_context`` call on ``ctx`` to prepare the backward pass.

    ``ctx`` is the Backward node itself: attributes set on it (``ctx.k = 3``) are there in
    ``backward``, and ``ctx.needs_input_grad`` tells which inputs want a gradient.

    >>> import yaten
    >>> class Scale(yaten.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x, k):
    ...         ctx.k = k
    ...         return x * k
    ...     @staticmethod
    ...     def backward(ctx, grad):
    ...         return grad * ctx.k, None
    >>> x = yaten.tensor([1.0, 2.0], requires_grad=True)
    >>> y = Scale.apply(x, 3)
    >>> y.grad_fn.needs_input_grad
    (True, False)
    >>> y.sum().backward()
    >>> x.grad
    tensor([3., 3.])
    """

    def save_for_backward(self, *tensors) -> None:
        """Keep tensors (or None) for ``backward``, which reads them from ``ctx.saved_tensors``.

        Saved tensors are version-checked: modifying one in place before backward is an error.

        >>> import yaten
        >>> class Square(yaten.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x * x
        ...     @staticmethod
        ...     def backward(ctx, grad):
        ...         (x,) = ctx.saved_tensors
        ...         return 2 * x * grad
        >>> x = yaten.tensor([1.0, 3.0], requires_grad=True)
        >>> Square.apply(x).sum().backward()
        >>> x.grad
        tensor([2., 6.])
        """
        self.to_save = tensors

    def save_for_forward(self, *tensors) -> None:
        """Accepted for compatibility: yaten has no forward-mode AD, so ``jvp`` never reads them."""
        for t in tensors:
            if not (t is None or isinstance(t, T.Tensor)):
                raise AssertionError(
                    "save_for_forward expects all arguments to be tensors; you should save non-tensors as "
                    "attributes on ctx."
                )
        self.saved_for_forward = tensors

    def mark_dirty(self, *tensors) -> None:
        """Declare the inputs that ``forward`` modified in place (they must be returned as outputs).

        >>> import yaten
        >>> class AddOne_(yaten.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         x.add_(1)
        ...         ctx.mark_dirty(x)
        ...         return x
        ...     @staticmethod
        ...     def backward(ctx, grad):
        ...         return grad
        >>> h = yaten.tensor([1.0, 2.0], requires_grad=True) * 1
        >>> AddOne_.apply(h) is h, h.grad_fn.name()
        (True, 'AddOne_Backward')
        """
        self.dirty_tensors = tensors

    def mark_non_differentiable(self, *tensors) -> None:
        """Declare outputs that have no gradient (indices, masks); backward still gets a zero for each.

        >>> import yaten
        >>> class Abs(yaten.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         sign = x.sign()
        ...         ctx.mark_non_differentiable(sign)
        ...         ctx.save_for_backward(sign)
        ...         return x.abs(), sign
        ...     @staticmethod
        ...     def backward(ctx, grad, grad_sign):
        ...         (sign,) = ctx.saved_tensors
        ...         return grad * sign
        >>> x = yaten.tensor([-2.0, 3.0], requires_grad=True)
        >>> y, sign = Abs.apply(x)
        >>> y.requires_grad, sign.requires_grad
        (True, False)
        """
        self.non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """With False, ``backward`` receives None (not zeros) for outputs no gradient reached.

        >>> import yaten
        >>> class Pair(yaten.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.set_materialize_grads(False)
        ...         return x * 2, x * 3
        ...     @staticmethod
        ...     def backward(ctx, g1, g2):
        ...         print(g1, g2)
        ...         return g2 * 3
        >>> a, b = Pair.apply(yaten.tensor([1.0], requires_grad=True))
        >>> b.sum().backward()
        None tensor([1.])
        """
        self.materialize_grads = value


class BackwardCFunction(Node, FunctionCtx):
    """The base of every ``<Name>Backward`` node; an instance is the ``ctx`` of one ``apply``."""

    # Set by Function.apply; read as attributes, as PyTorch's _FunctionBase fields.
    needs_input_grad = None
    to_save = None
    dirty_tensors = None
    non_differentiable = None
    saved_for_forward = None
    materialize_grads = True
    _skips_without_grads = False  # as PyTorch: a custom backward runs even with no gradient (zeros)
    _saved = ()
    _tensor_inputs = ()  # per forward argument: whether it was a tensor (those have an edge)
    _buffers_freed = False
    _saved_accessed = False

    @property
    def saved_tensors(self) -> tuple:
        """The tensors given to ``save_for_backward``, checked for in-place changes since."""
        if self.saved_for_forward is not None:
            return self.saved_for_forward
        if self._forward_cls.clear_saved_tensors_on_access:
            if self._saved_accessed:
                raise RuntimeError(
                    "saved_tensors can only be accessed once when clear_saved_tensors_on_access=True is set on "
                    "the autograd.Function. Either access saved_tensors only once, or set "
                    "clear_saved_tensors_on_access=False."
                )
            self._saved_accessed = True
        if self._buffers_freed:
            raise RuntimeError(FREED)
        saved = tuple(s.unpack(self) for s in self._saved)
        if self._forward_cls.clear_saved_tensors_on_access:
            self._release()
        return saved

    def _user_fn(self):
        fwd = self._forward_cls
        if fwd.backward is not Function.backward and fwd.vjp is not Function.vjp:
            raise RuntimeError(
                "Implementing both 'backward' and 'vjp' for a custom Function is not allowed. You should only "
                "implement one of them."
            )
        return fwd.vjp if fwd.vjp is not Function.vjp else fwd.backward

    def apply(self, grads):
        """Run the user's backward on the output gradients; one gradient per tensor input back."""
        grads = list(grads)
        if self.materialize_grads:
            from .formulas import zeros_for

            grads = [
                zeros_for(m) if g is None and m is not None else g for g, m in zip(grads, self._output_meta)
            ]
        user_fn = self._user_fn()
        result = user_fn(self, grads) if self._forward_cls.boxed_grads_call else user_fn(self, *grads)
        return self._checked(result)

    def _checked(self, result) -> tuple:
        """PyTorch's checks on what backward returned: one gradient per forward input."""
        if not isinstance(result, tuple):
            result = (result,)
        expected = len(self._tensor_inputs)
        if len(result) > expected and all(r is None for r in result[expected:]):
            result = result[:expected]  # extra trailing Nones are allowed
        if len(result) != expected:
            raise RuntimeError(
                f"function {self.name()} returned an incorrect number of gradients (expected {expected}, got "
                f"{len(result)})"
            )
        grads = []
        for i, (g, is_tensor) in enumerate(zip(result, self._tensor_inputs)):
            if not is_tensor:
                if g is not None:
                    raise RuntimeError(
                        f"function {self.name()} returned a gradient different than None at position {i + 1}, but "
                        "the corresponding forward input was not a Variable"
                    )
                continue
            if g is not None and not isinstance(g, T.Tensor):
                raise RuntimeError(f"expected Variable or None (got {_typename(g)})")
            grads.append(g)
        return tuple(grads)

    def _release(self) -> None:
        # Only saved_tensors refuses afterwards: a backward that reads none can run again (as PyTorch).
        for s in self._saved:
            s.release()  # kept, released, so a drawing of the graph can show them as freed
        self._buffers_freed = True


class FunctionMeta(type):
    """Gives each Function subclass its Backward node class, ``<Name>Backward`` (``_backward_cls``)."""

    def __init__(cls, name, bases, attrs):
        backward_cls = type(name + "Backward", (BackwardCFunction,), {"_forward_cls": cls})
        backward_cls._autograd_function_id = next(_function_ids)
        cls._backward_cls = backward_cls
        super().__init__(name, bases, attrs)


class Function(FunctionCtx, metaclass=FunctionMeta):
    """The base of a custom differentiable operation: static ``forward`` and ``backward``, used through
    ``apply``.

    ``forward(ctx, *args)`` computes the outputs (with grad mode off) and prepares ``ctx``; or
    ``forward(*args)`` plus ``setup_context(ctx, inputs, output)``. ``backward(ctx, *grads)`` gets one
    gradient per output and returns one per input (None for non-tensors and inputs not needing one).
    ``vjp`` is another name for ``backward``; yaten has no forward mode, so ``jvp`` is never used.

    >>> import yaten
    >>> class Exp(yaten.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         y = x.exp()
    ...         ctx.save_for_backward(y)
    ...         return y
    ...     @staticmethod
    ...     def backward(ctx, grad):
    ...         (y,) = ctx.saved_tensors
    ...         return grad * y
    >>> x = yaten.tensor([0.0, 1.0], requires_grad=True)
    >>> y = Exp.apply(x)
    >>> y
    tensor([1.0000, 2.7183], grad_fn=<ExpBackward>)
    >>> y.sum().backward()
    >>> x.grad
    tensor([1.0000, 2.7183])
    """

    clear_saved_tensors_on_access = False
    boxed_grads_call = False

    def __init__(self, *args, **kwargs):
        warnings.warn(
            f"{self.__class__} should not be instantiated. Methods on autograd functions are all static, so you "
            "should invoke them on the class itself. Instantiating an autograd function will raise an error in a "
            "future version of PyTorch.",
            DeprecationWarning,
            stacklevel=2,
        )

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use new-style autograd "
            "function with static forward method. (Example: https://pytorch.org/docs/stable/autograd.html"
            "#torch.autograd.Function)"
        )

    @staticmethod
    def forward(*args, **kwargs):
        """Compute the outputs: ``forward(ctx, *args)``, or ``forward(*args)`` with ``setup_context``."""
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        """Prepare ``ctx`` from the inputs and output of a ``forward`` that takes no ctx."""
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        """One gradient per forward input from one gradient per forward output."""
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom autograd.Function to use it "
            "with backward mode AD."
        )

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        """Forward-mode derivative. yaten has no forward-mode AD, so this is never called."""
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with forward mode AD."
        )

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` on the arguments and record the Backward node, as ``torch.autograd.Function.apply``."""
        with_setup = cls.setup_context is not Function.setup_context
        if with_setup:
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs
        if kwargs:
            args = _positional(cls.forward, args, kwargs, skip_ctx=not with_setup)
        return _apply(cls, args, with_setup)


class InplaceFunction(Function):
    """Kept for compatibility with old code, as in PyTorch; use ``Function``."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace


def _positional(forward, args, kwargs, skip_ctx: bool) -> tuple:
    """Keyword arguments placed at their parameter's position, as PyTorch's ``apply`` does
    (keyword-only parameters are not supported, and defaults are not filled in)."""
    names = [
        p.name
        for p in inspect.signature(forward).parameters.values()
        if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    ]
    if skip_ctx:
        names = names[1:]
    missing = object()
    slots = list(args)
    for name, value in kwargs.items():
        if name not in names:
            raise TypeError(f"forward() got an unexpected keyword argument '{name}'")
        i = names.index(name)
        if i < len(args):
            raise TypeError(f"forward() got multiple values for argument '{name}'")
        slots.extend([missing] * (i + 1 - len(slots)))
        slots[i] = value
    for i, v in enumerate(slots):
        if v is missing:
            raise TypeError(f"forward() missing required argument: '{names[i]}' (position {i})")
    return tuple(slots)


def _apply(cls, args: tuple, with_setup: bool):
    ctx = cls._backward_cls()
    is_tensor = tuple(isinstance(a, T.Tensor) for a in args)
    ctx._tensor_inputs = is_tensor
    ctx.needs_input_grad = tuple(t and a._rg for a, t in zip(args, is_tensor))
    inputs = [a for a, t in zip(args, is_tensor) if t]
    executable = STATE.enabled and any(t._rg for t in inputs)
    if executable:
        connect(ctx, [t if t._rg else None for t in inputs])
    with no_grad():
        if with_setup:
            output = cls.forward(*args)
            cls.setup_context(ctx, args, output)
        else:
            output = cls.forward(ctx, *args)
    single = not isinstance(output, tuple)
    outputs = _wrap_outputs(ctx, inputs, (output,) if single else output, executable, with_setup)
    return outputs[0] if single else outputs


def _wrap_outputs(ctx, inputs, raw: tuple, executable: bool, with_setup: bool) -> tuple:
    """Give each tensor output its history (PyTorch's ``_process_backward_mode_ad``), then save."""
    non_diff = {id(t) for t in _tensor_args(ctx.non_differentiable, "mark_non_differentiable")}
    dirty = _tensor_args(ctx.dirty_tensors, "mark_dirty")
    for t in dirty:
        t._vc[0] += 1
    dirty_ids = {id(t) for t in dirty}
    to_save = ctx.to_save or ()
    for i, t in enumerate(to_save):
        if executable and not (t is None or isinstance(t, T.Tensor)):
            raise TypeError(
                f"save_for_backward can only save variables, but argument {i} is of type {_typename(t)}"
            )
    saved_ids = {id(t) for t in to_save if isinstance(t, T.Tensor)} if with_setup else set()
    input_ids = {id(t) for t in inputs}
    node = ctx if executable else None
    if executable:
        ctx._num_outputs = len(raw)
        ctx._output_meta = [TensorMeta(o) if isinstance(o, T.Tensor) else None for o in raw]

    outputs = []
    for i, var in enumerate(raw):
        if not isinstance(var, T.Tensor):
            outputs.append(var)
            continue
        key = id(var)
        is_input = key in input_ids
        is_modified = key in dirty_ids
        inexact = var._dtype.is_floating_point or var._dtype.is_complex
        differentiable = node is not None and key not in non_diff and inexact
        if not differentiable:
            if not var._rg:
                if is_input and not is_modified:
                    _check_not_saved(key, saved_ids)
                    var = _view_as_self(var)
            elif is_input:
                var = var.detach()  # a detached alias rather than changing the input's requires_grad
            elif var._base is None:
                var._grad_fn = None
                var._rg = False
        elif is_modified:
            if var.grad_fn is None and var._rg:
                raise RuntimeError(
                    "a leaf Variable that requires grad has been used in an in-place operation."
                )
            if not is_input:
                warnings.warn(
                    "ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that have been "
                    "mutated should be passed to ctx.mark_dirty().",
                    UserWarning,
                    stacklevel=3,
                )
            if var._base is not None and len(raw) > 1:
                raise RuntimeError(_DIRTY_VIEW_MULTI_OUTPUT)
            check_inplace(var)
            var._grad = None
            set_inplace_history(var, node, i)
        else:
            if is_input:
                _check_not_saved(key, saved_ids)
                var = _view_as_self(var)
            set_history(var, node, i)
            if var._base is not None:
                # Its history is this node; autograd may not replace it by one made from the base.
                var._view_version = var._vc[0]
                var.__dict__["_custom_view"] = f"Output {i} of {type(node).__name__.removesuffix('Backward')}"
        outputs.append(var)

    returned = {id(o) for o in raw if isinstance(o, T.Tensor)}
    if any(key not in returned for key in dirty_ids):
        raise RuntimeError(
            "Some elements marked as dirty during the forward method were not returned as output. The inputs that "
            "are modified inplace must all be outputs of the Function."
        )
    # Saved after the outputs have their grad_fn, so a saved output is saved as an output (no cycle).
    if executable:
        ctx._saved = tuple(SavedVariable(t, t is not None and t.grad_fn is ctx) for t in to_save)
    ctx.to_save = None
    ctx.non_differentiable = None
    ctx.dirty_tensors = None
    ctx.saved_for_forward = None
    return tuple(outputs)


def _tensor_args(tensors, method: str) -> tuple:
    tensors = tensors or ()
    for i, t in enumerate(tensors):
        if not isinstance(t, T.Tensor):
            if method == "mark_dirty":
                raise RuntimeError(
                    f"mark_dirty can only accept variables, but argument {i} is of type {_typename(t)}"
                )
            raise RuntimeError(
                f"mark_non_differentiable only accepts variable arguments, but got {_typename(t)}"
            )
    return tuple(tensors)


def _check_not_saved(key: int, saved_ids: set) -> None:
    if key in saved_ids:
        raise RuntimeError(
            "An input that has been returned as-is as output is being saved for backward. This is not supported if "
            "you override setup_context. You should return and save a view of the input instead, e.g. with "
            "x.view_as(x) or setup ctx inside the forward function itself."
        )


def _view_as_self(t):
    """An input returned as-is comes back as a new tensor viewing it (``x.view_as(x)`` under no_grad)."""
    with no_grad():
        out = T.view_of(t, t._data, t._offset)
    out._strides = t._strides
    return out


def _typename(obj) -> str:
    return type(obj).__name__


_DIRTY_VIEW_MULTI_OUTPUT = (
    "If your Function modifies inplace an input that is a view of another Tensor, your Function cannot return more "
    "than one Tensor. This is not supported by the current autograd engine. You should either make sure the input "
    "is not a view (using .clone() for example) or make your Function only return one Tensor (potentially "
    "splitting it into two Functions: one doing the inplace that returns a single Tensor and a second one that "
    "does the other operations). You can ask on the forum https://discuss.pytorch.org/ if you need help to do "
    "this change."
)

_ONCE = "trying to differentiate twice a function that was marked with @once_differentiable"


class DelayedError(Node):
    """Passes its inputs through; differentiating through it raises ``msg`` (``@once_differentiable``)."""

    __slots__ = ("_msg",)

    def __init__(self, msg: str, num_outputs: int):
        super().__init__((), num_outputs)
        self._msg = msg

    def name(self) -> str:
        return "Error"

    def apply(self, grads):
        raise RuntimeError(self._msg)


def once_differentiable(fn):
    """Decorate a ``backward`` that is not itself differentiable: it runs under ``no_grad``, and
    differentiating its result again (double backward) raises an error instead of a wrong answer.

    >>> import yaten
    >>> from yaten.autograd.function import once_differentiable
    >>> class Cube(yaten.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x)
    ...         return x**3
    ...     @staticmethod
    ...     @once_differentiable
    ...     def backward(ctx, grad):
    ...         (x,) = ctx.saved_tensors
    ...         return 3 * x**2 * grad
    >>> x = yaten.tensor([2.0], requires_grad=True)
    >>> yaten.autograd.grad(Cube.apply(x).sum(), x)
    (tensor([12.]),)
    """

    @functools.wraps(fn)
    def wrapper(ctx, *args, **kwargs):
        with no_grad():
            outputs = fn(ctx, *args, **kwargs)
        if not STATE.enabled:
            return outputs
        # Only an approximation of requires_grad, as in PyTorch: the incoming gradients decide.
        if not any(isinstance(a, T.Tensor) and a._rg for a in args):
            return outputs
        outs = outputs if isinstance(outputs, tuple) else (outputs,)
        fakes = [None if v is None else v.detach().requires_grad_() for v in outs]
        node = DelayedError(_ONCE, len(fakes))
        connect(node, fakes)
        results = []
        for i, v in enumerate(fakes):
            if v is not None:
                v = v.detach()
                set_history(v, node, i)
            results.append(v)
        return results[0] if len(results) == 1 else tuple(results)

    return wrapper
