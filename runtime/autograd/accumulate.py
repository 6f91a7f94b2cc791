"""How a leaf's ``.grad`` receives a gradient: a private copy first, added in place after."""

import importlib

from .grad_mode import STATE

_generated = None  # yaten._generated.ops: it imports autograd, so it is looked up on first use


def accumulate_grad(variable, grad) -> None:
    global _generated
    if grad is None:
        return
    ops = _generated or (_generated := importlib.import_module("yaten._generated.ops"))

    old = variable._grad
    if old is None:
        # The incoming tensor may also be another leaf's gradient or the caller's: keep a copy.
        # Under create_graph the copy keeps its history so the gradient can be differentiated.
        variable._grad = ops.clone(grad)
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
