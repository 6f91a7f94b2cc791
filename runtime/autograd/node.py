"""Node: one step of the backward graph; AccumulateGrad: the node that fills a leaf's ``.grad``."""

import itertools
import weakref

from .accumulate import accumulate_grad
from .saved import FREED, SavedVariable
from .view_history import refresh_view

_sequence = itertools.count()


class Node:
    """A backward function, as ``torch.autograd.graph.Node``.

    Subclasses (the generated ``<Op>Backward<N>`` classes) set ``_saved_fields`` and define
    ``apply(node, grads)`` returning one gradient (or None) per forward input.
    """

    __slots__ = (
        "__weakref__",
        "_freed",
        "_input_meta",
        "_num_outputs",
        "_output_meta",
        "_post_hooks",
        "_pre_hooks",
        "_retain_hooks",
        "_seq",
        "metadata",
        "next_functions",
    )  # fmt: skip
    _saved_fields: tuple = ()
    _skips_without_grads = True  # when no gradient reached it, its inputs get none either (not run)

    def __init__(self, next_functions=(), num_outputs: int = 1):
        self.next_functions = next_functions
        self._seq = next(_sequence)
        self._num_outputs = num_outputs
        self._pre_hooks = None
        self._post_hooks = None
        self._retain_hooks = None  # output_nr -> the retain_grad hook of that output (runs last)
        self._freed = False
        self._output_meta = None
        self._input_meta = ()
        self.metadata = {}

    def name(self) -> str:
        return type(self).__name__

    def apply(self, grads):
        raise NotImplementedError

    def __call__(self, *grads):
        return self.apply(grads)

    def _needs(self) -> tuple:
        """Which inputs want a gradient (``needs_input_grad``)."""
        return tuple(n is not None for n, _ in self.next_functions)

    def _materialize(self, grads) -> list:
        """Zeros for the outputs no gradient reached, so multi-output formulas see tensors."""
        if all(g is not None for g in grads):
            return grads
        from .formulas import zeros_for

        return [zeros_for(m) if g is None else g for g, m in zip(grads, self._output_meta)]

    def _sequence_nr(self) -> int:
        return self._seq

    def register_hook(self, fn):
        """``fn(grad_inputs, grad_outputs)`` runs after this node; it may return new grad_inputs."""
        from ..utils.hooks import RemovableHandle

        if self._post_hooks is None:
            self._post_hooks = {}
        return RemovableHandle(self._post_hooks, fn)

    def register_prehook(self, fn):
        """``fn(grad_outputs)`` runs before this node; it may return new grad_outputs."""
        from ..utils.hooks import RemovableHandle

        if self._pre_hooks is None:
            self._pre_hooks = {}
        return RemovableHandle(self._pre_hooks, fn)

    def _release(self) -> None:
        """Free the saved tensors once a backward without retain_graph went through.

        Only tensors are freed, as in PyTorch: a node that saved none (or only sizes and scalars)
        can run again, so ``(x + 1).sum().backward()`` may be called twice.
        """
        for field in self._saved_fields:
            saved = getattr(self, field, None)
            for s in saved if isinstance(saved, list) else (saved,):
                if isinstance(s, SavedVariable):
                    s.release()
                    self._freed = True

    def _check_not_freed(self) -> None:
        if self._freed:
            raise RuntimeError(FREED)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {hex(id(self))}>"


class AccumulateGrad(Node):
    """Adds the incoming gradient into ``variable.grad`` (a leaf's sink in the graph)."""

    __slots__ = ("_post_acc_hooks", "variable")
    _skips_without_grads = False

    def __init__(self, variable):
        super().__init__((), 1)
        self.variable = variable
        self._post_acc_hooks = None

    def name(self) -> str:
        return "yaten::autograd::AccumulateGrad"  # PyTorch names its C++ nodes by their namespace

    def apply(self, grads):
        accumulate_grad(self.variable, grads[0])
        return ()


class NotImplementedBackward(Node):
    """The grad_fn of a result whose derivative yaten does not have (as PyTorch's ``NotImplemented``)."""

    __slots__ = ("_op",)

    def __init__(self, op: str):
        super().__init__()
        self._op = op

    def name(self) -> str:
        return "NotImplemented"

    def apply(self, grads):
        raise RuntimeError(f"derivative for {self._op} is not implemented")


def accumulate_node(t) -> AccumulateGrad:
    """The AccumulateGrad node of leaf ``t`` (one per leaf while any graph holds it)."""
    ref = t._acc
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(t)
        t._acc = weakref.ref(node)
    return node


def gradient_edge(t):
    """The ``(node, input_nr)`` where gradients for tensor ``t`` enter the graph."""
    if t._base is not None:
        refresh_view(t)
    fn = t._grad_fn
    if fn is not None:
        return (fn, t._output_nr)
    if t._rg:
        return (accumulate_node(t), 0)
    return (None, 0)
