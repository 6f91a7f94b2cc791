"""Tensor hooks: a gradient hook on a tensor is a pre-hook on the node its gradient enters."""

from ..utils.hooks import RemovableHandle
from .node import gradient_edge


def register_tensor_hook(t, hook) -> RemovableHandle:
    if not t._rg:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    node, nr = gradient_edge(t)
    if node._pre_hooks is None:
        node._pre_hooks = {}

    def prehook(grads):
        g = grads[nr]
        if g is None:
            return None
        new = hook(g)
        if new is None:
            return None
        grads = list(grads)
        grads[nr] = new
        return grads

    if t.grad_fn is None:
        t.__dict__.setdefault("_keep_accumulator", node)  # the hook lives as long as the leaf
    return RemovableHandle(node._pre_hooks, prehook)


def retain_grad_hook(t):
    """The pre-hook that stores a non-leaf's incoming gradient in ``t.grad``."""
    import weakref

    ref = weakref.ref(t)
    nr = t._output_nr

    def prehook(grads):
        target = ref()
        g = grads[nr]
        if target is not None and target._retains_grad and g is not None:
            target._grad = g.detach().clone() if target._grad is None else target._grad + g.detach()

    return prehook
