"""Tensor hooks: a gradient hook on a tensor is a pre-hook on the node its gradient enters."""

import weakref

from .. import _tensor as T
from ..utils.hooks import RemovableHandle
from .node import accumulate_node, gradient_edge


def _checked(hook, old, new):
    """PyTorch's checks on what a tensor hook returned: a tensor of the same type and size."""
    if not isinstance(new, T.Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(new).__name__}'")
    name = getattr(hook, "__name__", type(hook).__name__)
    if new._dtype is not old._dtype or new._device != old._device:
        raise RuntimeError(
            f"hook '{name}' has changed the type of value (was {T.legacy_type_name(old)} got "
            f"{T.legacy_type_name(new)})"
        )
    if new._data.shape != old._data.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")
    return new


def register_tensor_hook(t, hook) -> RemovableHandle:
    if not t._rg:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    node, nr = gradient_edge(t)
    if node._pre_hooks is None:
        node._pre_hooks = {}

    def prehook(grads):
        g = grads[nr]
        new = hook(g)  # as PyTorch, also with None when no gradient reached this output
        if new is None or g is None:
            return None
        grads = list(grads)
        grads[nr] = _checked(hook, g, new)
        return grads

    if t.grad_fn is None:
        t.__dict__.setdefault("_keep_accumulator", node)  # the hook lives as long as the leaf
    return RemovableHandle(node._pre_hooks, prehook)


def register_post_accumulate_grad_hook(t, hook) -> RemovableHandle:
    """``hook(t)`` runs after a gradient was accumulated into leaf ``t``'s ``.grad``."""
    if not t._rg:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if t.grad_fn is not None:
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
    node = accumulate_node(t)
    if node._post_acc_hooks is None:
        node._post_acc_hooks = {}
    t.__dict__.setdefault("_keep_accumulator", node)
    return RemovableHandle(node._post_acc_hooks, hook)


def retain_grad_hook(t):
    """The hook that stores a non-leaf's incoming gradient in ``t.grad`` (accumulating, as PyTorch)."""
    ref = weakref.ref(t)
    nr = t._output_nr

    def hook(grads):
        target = ref()
        g = grads[nr]
        if target is not None and target._retains_grad and g is not None:
            # Under create_graph the engine records this clone/add, so the retained grad is differentiable.
            target._grad = g.clone() if target._grad is None else target._grad + g

    return hook


def register_retain_grad(t) -> None:
    """Make ``t`` (a non-leaf) keep its gradient: the hook runs after the tensor's other hooks."""
    node = t.grad_fn
    if node._retain_hooks is None:
        node._retain_hooks = {}
    node._retain_hooks[t._output_nr] = retain_grad_hook(t)
