"""RAdam (rectified Adam), as ``torch.optim.RAdam``."""

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

__all__ = ["RAdam", "radam"]


class RAdam(_LazyStateOptimizer):
    """RAdam, as ``torch.optim.RAdam``.

    State per parameter: ``step``, ``exp_avg`` and ``exp_avg_sq``. While the length of the
    approximated simple moving average ``rho_t`` is at most 5 the step is SGD with momentum
    (``lr * exp_avg / (1 - beta1**step)``); after that the adaptive step is rectified.
    ``decoupled_weight_decay`` decays the parameter (RAdamW). ``foreach`` is accepted and
    computes the same update.

    >>> import yaten
    >>> p = yaten.tensor([1.0, -2.0], requires_grad=True)
    >>> opt = yaten.optim.RAdam([p], lr=0.1)
    >>> p.grad = yaten.tensor([0.5, -0.5])
    >>> opt.step()
    >>> p
    tensor([ 0.9500, -1.9500], requires_grad=True)
    """

    _extra_defaults = (("decoupled_weight_decay", False),)

    def __init__(
        self,
        params,
        lr=1e-3,
        betas=(0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check_adam_hyperparameters(lr, betas, eps, weight_decay)
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "decoupled_weight_decay": decoupled_weight_decay,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _new_state(self, p, group) -> dict:
        return {
            "step": _scalar_state(p, group["capturable"]),
            "exp_avg": _zeros(p),
            "exp_avg_sq": _zeros(p),
        }

    def _update(self, group, params, grads, states) -> None:
        beta1, beta2 = group["betas"]
        radam(
            params,
            grads,
            *_columns(states, "exp_avg", "exp_avg_sq", "step"),
            **_flags(group),
            decoupled_weight_decay=group["decoupled_weight_decay"],
            beta1=beta1,
            beta2=beta2,
            lr=group["lr"],
            weight_decay=group["weight_decay"],
            eps=group["eps"],
        )


def radam(
    params: list,
    grads: list,
    exp_avgs: list,
    exp_avg_sqs: list,
    state_steps: list,
    decoupled_weight_decay: bool = False,
    foreach: bool | None = None,
    capturable: bool = False,
    differentiable: bool = False,
    *,
    beta1: float,
    beta2: float,
    lr,
    weight_decay: float,
    eps: float,
    maximize: bool,
) -> None:
    """The functional RAdam update (PyTorch's single-tensor algorithm), in place on ``params``."""
    if not all(isinstance(t, Tensor) for t in state_steps):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors")
    if params:
        _check_foreach_differentiable(foreach, differentiable)
    lr = _to_scalar(lr)
    for param, grad, exp_avg, exp_avg_sq, step_t in zip(params, grads, exp_avgs, exp_avg_sqs, state_steps):
        grad = grad if not maximize else -grad
        if capturable:
            _check_capturable(param, step_t)
        step_t += 1
        step = step_t if capturable else _get_value(step_t)

        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)

        _lerp_(exp_avg, grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)

        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        bias_corrected_exp_avg = exp_avg / bias_correction1

        # the maximum and the current length of the approximated simple moving average
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2

        if capturable or rho_t > 5.0:
            # the variance rectification term and the adaptive lr
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            exp_avg_sq_sqrt = exp_avg_sq.sqrt()
            exp_avg_sq_sqrt = exp_avg_sq_sqrt.add(eps) if differentiable else exp_avg_sq_sqrt.add_(eps)
            adaptive_lr = (bias_correction2**0.5) / exp_avg_sq_sqrt
        if capturable:
            update = yaten.where(rho_t > 5.0, rect * adaptive_lr, 1.0)
            param.add_(bias_corrected_exp_avg * lr * update, alpha=-1.0)
        elif rho_t > 5.0:
            param.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0)
        else:
            # while the moving average is too short, an SGD-with-momentum step
            param.add_(bias_corrected_exp_avg * lr, alpha=-1.0)
