"""Adagrad, as ``torch.optim.Adagrad``."""

import yaten
from yaten._tensor import Tensor

from .optimizer import (
    Optimizer,
    _addcdiv_,
    _check_fused_flags,
    _check_not_complex,
    _check_tensor_hyperparameter,
    _closure_loss,
    _device_dtype_check_for_fused,
    _get_scalar_dtype,
    _get_value,
    _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["Adagrad", "adagrad"]


class Adagrad(Optimizer):
    """Adagrad, as ``torch.optim.Adagrad``.

    State (created for every parameter at construction, as PyTorch does): ``step`` and ``sum``,
    the running sum of squared gradients starting at ``initial_accumulator_value``. The step size
    is ``lr / (1 + (step - 1) * lr_decay)``. ``foreach`` and ``fused`` are accepted and compute
    the same update.

    >>> import yaten
    >>> p = yaten.tensor([1.0, -2.0], requires_grad=True)
    >>> opt = yaten.optim.Adagrad([p], lr=0.1)
    >>> p.grad = yaten.tensor([0.5, -0.5])
    >>> opt.step()
    >>> p
    tensor([ 0.9000, -1.9000], requires_grad=True)
    >>> opt.state[p]["sum"]
    tensor([0.2500, 0.2500])
    """

    def __init__(
        self,
        params,
        lr=1e-2,
        lr_decay: float = 0,
        weight_decay: float = 0,
        initial_accumulator_value: float = 0,
        eps: float = 1e-10,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        _check_tensor_hyperparameter("lr", lr)
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not lr_decay >= 0.0:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not initial_accumulator_value >= 0.0:
            raise ValueError(f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not eps >= 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")

        defaults = {
            "lr": lr,
            "lr_decay": lr_decay,
            "eps": eps,
            "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "fused": fused,
        }
        super().__init__(params, defaults)
        _check_fused_flags(fused, foreach, differentiable)

        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(self.state[p], group["fused"], p, initial_accumulator_value)

    @staticmethod
    def _init_state(state, fused, p, initial_accumulator_value):
        _check_not_complex("Adagrad", p)
        if fused:
            state["step"] = yaten.zeros((), dtype=_get_scalar_dtype(is_fused=fused), device=p.device)
        else:
            state["step"] = yaten.tensor(0.0, dtype=_get_scalar_dtype())
        state["sum"] = yaten.full_like(p, initial_accumulator_value, memory_format=yaten.preserve_format)

    def __setstate__(self, state):
        super().__setstate__(state)
        fused = None
        for group in self.param_groups:
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)
            group.setdefault("differentiable", False)
            fused = group.setdefault("fused", None)
            for p in group["params"]:
                p_state = self.state.get(p, [])
                if len(p_state) != 0 and not isinstance(p_state["step"], Tensor):
                    device = p.device if group["fused"] else None
                    p_state["step"] = yaten.tensor(
                        float(p_state["step"]),
                        dtype=_get_scalar_dtype(is_fused=fused),
                        device=device,
                    )

    def _init_group(self, group, params, grads, state_sums, state_steps):
        for p in group["params"]:
            if p.grad is None:
                continue
            if group["fused"]:
                _device_dtype_check_for_fused(p)
            params.append(p)
            grads.append(p.grad)
            state = self.state[p]
            if len(state) == 0:
                # PyTorch reads the optimizer's default here, not the group's
                self._init_state(state, group["fused"], p, self.defaults["initial_accumulator_value"])
            state_sums.append(state["sum"])
            state_steps.append(state["step"])

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Perform one step; ``closure`` re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)

        for group in self.param_groups:
            params: list = []
            grads: list = []
            state_sums: list = []
            state_steps: list = []
            self._init_group(group, params, grads, state_sums, state_steps)
            adagrad(
                params,
                grads,
                state_sums,
                state_steps,
                lr=group["lr"],
                weight_decay=group["weight_decay"],
                lr_decay=group["lr_decay"],
                eps=group["eps"],
                maximize=group["maximize"],
                differentiable=group["differentiable"],
            )
        return loss


def adagrad(
    params: list,
    grads: list,
    state_sums: list,
    state_steps: list,
    *,
    lr,
    weight_decay: float,
    lr_decay: float,
    eps: float,
    maximize: bool,
    differentiable: bool = False,
) -> None:
    """The functional Adagrad update (PyTorch's single-tensor algorithm), in place on ``params``."""
    if not all(isinstance(t, Tensor) for t in state_steps):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors")
    lr = _to_scalar(lr)  # a tensor lr makes clr a tensor of its dtype, as in PyTorch
    for param, grad, state_sum, step_t in zip(params, grads, state_sums, state_steps):
        step_t += 1
        step = _get_value(step_t)
        grad = grad if not maximize else -grad
        if weight_decay != 0:
            if grad.is_sparse:
                raise RuntimeError("weight_decay option is not compatible with sparse gradients")
            grad = grad.add(param, alpha=weight_decay)
        clr = lr / (1 + (step - 1) * lr_decay)
        if grad.is_sparse:  # torch's update at the (coalesced) entries the gradient names
            grad = grad.coalesce()
            indices, values = grad._indices(), grad._values()
            state_sum.add_(yaten.sparse_coo_tensor(indices, values.pow(2), grad.shape))
            std_values = state_sum.sparse_mask(grad)._values().sqrt_().add_(eps)
            param.add_(yaten.sparse_coo_tensor(indices, values / std_values, grad.shape), alpha=-clr)
            continue
        state_sum.addcmul_(grad, grad, value=1)
        std = state_sum.sqrt() + eps if differentiable else state_sum.sqrt().add_(eps)
        _addcdiv_(param, grad, std, value=-clr)
