"""How a Module's full backward hooks see the gradients of its inputs and outputs (as PyTorch's
``torch.utils.hooks.BackwardHook``).

The module's tensor inputs, and then its tensor outputs, each pass through an identity
``autograd.Function``. A hook on the output identity's node sees the gradients w.r.t. the outputs
(the backward pre-hooks run there and may replace them); a hook on the input identity's node then
sees the gradients w.r.t. the inputs, and calls the full backward hooks with both. Each identity is
one node, so the hooks fire once per backward whatever the number of inputs and outputs.
"""

import warnings

from ..._tensor import Tensor
from ...autograd.function import Function
from ...autograd.grad_mode import STATE


class BackwardHookFunction(Function):
    """Returns its tensor arguments unchanged; its backward returns the gradients unchanged."""

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *grads):
        return grads


class BackwardHook:
    """Links the output gradients and input gradients of one module call to its hooks."""

    def __init__(self, module, user_hooks, user_pre_hooks):
        self.module = module
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.grad_outputs = None
        self.n_outputs = -1
        self.output_tensors_index = None
        self.n_inputs = -1
        self.input_tensors_index = None

    @staticmethod
    def _pack_with_none(indices, values, size) -> tuple:
        res = [None] * size
        for i, v in zip(indices, values, strict=True):
            res[i] = v
        return tuple(res)

    def _set_user_hook(self, grad_fn) -> None:
        def hook(grad_input, _):
            if self.grad_outputs is None:
                return None  # the gradient reached the inputs without passing through the outputs
            res = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            for user_hook in self.user_hooks:
                out = user_hook(self.module, res, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(res):
                    raise RuntimeError(
                        "Backward hook returned an invalid number of grad_input, "
                        f"got {len(out)}, but expected {len(res)}"
                    )
                res = out
            self.grad_outputs = None
            return tuple(res[i] for i in self.input_tensors_index)

        grad_fn.register_hook(hook)

    def _apply_on_tensors(self, fn, args):
        """Pass the tensors of ``args`` through the identity; ``fn`` gets its node. Returns the new
        args and the tensors' positions (None when no tensor requires grad: no hook then)."""
        idx = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        tensors = [args[i] for i in idx]
        if not (any(t.requires_grad for t in tensors) and STATE.enabled):
            return args, None
        new = BackwardHookFunction.apply(*tensors)
        grad_fns = [
            t.grad_fn
            for t in new
            if t.grad_fn is not None and t.grad_fn.name() == "BackwardHookFunctionBackward"
        ]
        fn(grad_fns[0])
        out = list(args)
        for i, v in zip(idx, new, strict=True):
            out[i] = v
        return (tuple(out) if type(args) is tuple else type(args)(*out)), idx

    def setup_input_hook(self, args):
        res, idx = self._apply_on_tensors(self._set_user_hook, args)
        self.n_inputs = len(args)
        self.input_tensors_index = idx
        return res

    def setup_output_hook(self, result):
        def fn(grad_fn) -> None:
            def hook(_, grad_output):
                self.grad_outputs = self._pack_with_none(
                    self.output_tensors_index, grad_output, self.n_outputs
                )
                expected = len(self.grad_outputs)
                for pre_hook in self.user_pre_hooks:
                    new = pre_hook(self.module, self.grad_outputs)
                    if new is None:
                        continue
                    if len(new) != expected:
                        raise RuntimeError(
                            "Backward pre hook returned an invalid number of grad_output, "
                            f"got {len(new)}, but expected {expected}"
                        )
                    self.grad_outputs = new
                local = self.grad_outputs
                if self.input_tensors_index is None:
                    # No input requires grad: the full hooks fire here, with no input gradients.
                    warnings.warn(_NO_INPUT_GRAD_WARNING, stacklevel=5)
                    grad_inputs = self._pack_with_none([], [], self.n_inputs)
                    for user_hook in self.user_hooks:
                        res = user_hook(self.module, grad_inputs, self.grad_outputs)
                        if res is not None and not (isinstance(res, tuple) and all(r is None for r in res)):
                            raise RuntimeError(
                                "Backward hook for Modules where no input requires gradient should always "
                                "return None or None for all gradients."
                            )
                    self.grad_outputs = None
                return tuple(local[i] for i in self.output_tensors_index)

            grad_fn.register_hook(hook)

        is_tuple = isinstance(result, tuple)
        args = result if is_tuple else (result,)
        res, idx = self._apply_on_tensors(fn, args)
        self.n_outputs = len(args)
        self.output_tensors_index = idx
        return res if is_tuple else res[0]


_NO_INPUT_GRAD_WARNING = (
    "Full backward hook is firing when gradients are computed with respect to module outputs since no inputs "
    "require gradients. See https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
    "#torch.nn.Module.register_full_backward_hook for more details."
)
