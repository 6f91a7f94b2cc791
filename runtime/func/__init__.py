"""yaten.func: composable function transforms, as ``torch.func`` (``grad``, ``vjp``, ``jvp``, ``jacrev``,
``jacfwd``, ``hessian``, ``linearize``, ``vmap``, ``functional_call``, ``stack_module_state``, ...), built on yaten's
reverse-mode autograd; see each transform for how it is computed."""

from ._functional_call import functional_call, replace_all_batch_norm_modules_, stack_module_state
from ._transforms import (
    debug_unwrap,
    functionalize,
    grad,
    grad_and_value,
    hessian,
    jacfwd,
    jacrev,
    jvp,
    linearize,
    vjp,
)
from ._vmap import vmap

__all__ = [
    "debug_unwrap",
    "functional_call",
    "functionalize",
    "grad",
    "grad_and_value",
    "hessian",
    "jacfwd",
    "jacrev",
    "jvp",
    "linearize",
    "replace_all_batch_norm_modules_",
    "stack_module_state",
    "vjp",
    "vmap",
]
