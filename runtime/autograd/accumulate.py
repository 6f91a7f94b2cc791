"""How a leaf's ``.grad`` receives a gradient: a private copy first, added in place after.

The first copy follows PyTorch's gradient layout contract: ``.grad`` gets the strides of its leaf
(when the leaf is non-overlapping and dense; contiguous strides otherwise), whatever layout the
backward formula produced, so ``weight.grad`` of a Linear is row-major like the weight.
"""

import importlib
import sys

from .._factories import empty_strided
from .._layout import contiguous_strides, is_non_overlapping_and_dense
from .._memory_format import contiguous_format
from .._tensor import wrap
from .grad_mode import STATE

_generated = None  # yaten._generated.ops: it imports autograd, so it is looked up on first use

# The references to a gradient no one else holds when AccumulateGrad passes it here: the engine's list
# of the node's incoming gradients, this function's argument, and sys.getrefcount's own.
_UNSHARED_REFS = 3


def accumulate_grad(variable, grad) -> None:
    global _generated
    if grad is None:
        return
    ops = _generated or (_generated := importlib.import_module("yaten._generated.ops"))

    old = variable._grad
    if old is None and grad.is_sparse:
        variable._grad = ops.clone(grad)  # a sparse gradient is kept as torch keeps it: its own copy
    elif old is None:
        if not STATE.enabled and sys.getrefcount(grad) <= _UNSHARED_REFS and _sole_owner(grad, variable):
            # No one else can reach this gradient or its memory: .grad takes it as it is, as
            # PyTorch's AccumulateGrad takes a gradient whose use count says the same.
            variable._grad = grad if grad._base is None else wrap(grad._data, grad._device)
        else:
            # It may also be another leaf's gradient, a hook's or the caller's: keep a copy. Under
            # create_graph the copy keeps its history so the gradient can be differentiated.
            variable._grad = _contract_copy(ops, grad, variable)
    elif old.is_sparse and not grad.is_sparse:
        variable._grad = ops.add_Tensor(grad, old)  # a dense gradient joining a sparse one: dense + sparse
    elif STATE.enabled or old._rg:
        variable._grad = ops.add_Tensor(old, grad)
    else:
        ops.add__Tensor(old, grad)
    ref = variable._acc
    node = ref() if ref is not None else None
    if node is not None and node._post_acc_hooks:
        for hook in tuple(node._post_acc_hooks.values()):
            returned = hook(variable)
            if returned is not None:  # PyTorch's check (and wording): these hooks return nothing
                raise TypeError(f"expected Variable, but hook returned '{type(returned).__name__}'")


def _sole_owner(grad, variable) -> bool:
    """Whether ``grad`` (referenced only by its caller) is the only way to its memory, and has the
    layout the contract asks. A view qualifies when its base is reachable only through it (a product
    computed transposed and viewed back, as a Linear weight's gradient); a saved output unpacks to a
    second Tensor over the same array, so the array must not be shared either."""
    if grad._base is None:
        alone = grad._storage is None  # no view or storage handle was ever made of it
    else:
        # references: the view's _base (and the view's and base's _storage), plus getrefcount's own
        alone = sys.getrefcount(grad._base) <= 2 and sys.getrefcount(grad._storage) <= 3
    return alone and sys.getrefcount(grad._data) <= 2 and _obeys_layout_contract(grad, variable)


def _obeys_layout_contract(grad, variable) -> bool:
    """Whether ``grad`` already has the layout the contract asks (c10's ``obeys_layout_contract``)."""
    shape, strides = variable.shape, variable.stride()
    grad_strides = grad.stride()
    if grad_strides == strides and strides == contiguous_strides(shape):
        return True  # the usual case: both contiguous
    if not is_non_overlapping_and_dense(shape, strides):
        return grad.is_contiguous()
    # dims of size 1 may have any stride but 0 (a broadcast there is a view of something else)
    return all(g != 0 if n == 1 else g == s for n, g, s in zip(shape, grad_strides, strides))


def _contract_copy(ops, grad, variable):
    """A copy of ``grad`` laid out as the contract asks; under grad mode it is a ``CopyBackwards``
    of ``grad`` (or a clone, for a leaf that is not dense), as PyTorch's ``clone_obey_contract``."""
    if not STATE.enabled and _obeys_layout_contract(grad, variable):
        return ops.clone(grad)  # a shared gradient that already has the layout: a copy with its strides
    if is_non_overlapping_and_dense(variable.shape, variable.stride()):
        out = empty_strided(variable.shape, variable.stride(), dtype=grad.dtype, device=grad.device)
        return ops.copy_(out, grad)
    return ops.clone(grad, memory_format=contiguous_format)
