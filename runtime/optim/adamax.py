"""Adamax (Adam with the infinity norm), as ``torch.optim.Adamax``."""

import yaten
from yaten._tensor import Tensor

from ._lazy_state import _columns, _flags, _LazyStateOptimizer, _zeros
from .optimizer import (
    _check_adam_hyperparameters,
    _check_capturable,
    _check_foreach_differentiable,
    _get_value,
    _lerp_,
    _scalar_state,
    _to_scalar,
)

__all__ = ["Adamax", "adamax"]


class Adamax(_LazyStateOptimizer):
    """Adamax, as ``torch.optim.Adamax``.

    State per parameter: ``step``, ``exp_avg`` (first moment) and ``exp_inf`` (the exponentially
    weighted infinity norm, ``max(beta2 * exp_inf, |grad| + eps)``). The step is
    ``lr / (1 - beta1**step) * exp_avg / exp_inf``. ``foreach`` is accepted and computes the same
    update.

    >>> import yaten
    >>> p = yaten.tensor([1.0, -2.0], requires_grad=True)
    >>> opt = yaten.optim.Adamax([p], lr=0.1)
    >>> p.grad = yaten.tensor([0.5, -0.5])
    >>> opt.step()
    >>> p
    tensor([ 0.9000, -1.9000], requires_grad=True)
    >>> sorted(opt.state[p])
    ['exp_avg', 'exp_inf', 'step']
    """

    def __init__(
        self,
        params,
        lr=2e-3,
        betas=(0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ) -> None:
        _check_adam_hyperparameters(lr, betas, eps, weight_decay)
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    def _new_state(self, p, group) -> dict:
        return {
            "step": _scalar_state(p, group["capturable"]),
            "exp_avg": _zeros(p),
            "exp_inf": _zeros(p),
        }

    def _update(self, group, params, grads, states) -> None:
        beta1, beta2 = group["betas"]
        adamax(
            params,
            grads,
            *_columns(states, "exp_avg", "exp_inf", "step"),
            **_flags(group),
            eps=group["eps"],
            beta1=beta1,
            beta2=beta2,
            lr=group["lr"],
            weight_decay=group["weight_decay"],
        )


def adamax(
    params: list,
    grads: list,
    exp_avgs: list,
    exp_infs: list,
    state_steps: list,
    foreach: bool | None = None,
    differentiable: bool = False,
    capturable: bool = False,
    *,
    eps: float,
    beta1: float,
    beta2: float,
    lr,
    weight_decay: float,
    maximize: bool,
) -> None:
    """The functional Adamax update (PyTorch's single-tensor algorithm), in place on ``params``."""
    if not all(isinstance(t, Tensor) for t in state_steps):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors")
    _check_foreach_differentiable(foreach, differentiable)
    lr = _to_scalar(lr)
    for param, grad, exp_avg, exp_inf, step_t in zip(params, grads, exp_avgs, exp_infs, state_steps):
        grad = grad if not maximize else -grad
        if capturable:
            _check_capturable(param, step_t)
        step_t += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        _lerp_(exp_avg, grad, 1 - beta1)
        if differentiable:
            # out of place (torch scales exp_inf in place first): yaten's cat saves its inputs for
            # backward, so they must not be modified before exp_inf is overwritten
            norm_buf = yaten.cat([exp_inf.mul(beta2).unsqueeze(0), grad.abs().add_(eps).unsqueeze_(0)], 0)
            exp_inf.copy_(yaten.amax(norm_buf, 0, keepdim=False))
        else:
            yaten.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps), out=exp_inf)
        if capturable:
            neg_bias_correction = beta1**step_t - 1
            neg_bias_correction.div_(lr)
            param.addcdiv_(exp_avg, exp_inf * neg_bias_correction)
        else:
            clr = lr / (1 - beta1 ** _get_value(step_t))
            param.addcdiv_(exp_avg, exp_inf, value=-_get_value(clr))
