"""NAdam (Adam with Nesterov momentum), as ``torch.optim.NAdam``."""

from yaten._tensor import Tensor

from ._lazy_state import _columns, _flags, _LazyStateOptimizer, _zeros
from .optimizer import (
    _CAPTURABLE_DEVICES,
    _check_adam_hyperparameters,
    _check_foreach_differentiable,
    _get_value,
    _lerp_,
    _scalar_state,
    _to_scalar,
)

__all__ = ["NAdam", "nadam"]


class NAdam(_LazyStateOptimizer):
    """NAdam, as ``torch.optim.NAdam``.

    State per parameter: ``step``, ``mu_product`` (the product of the momentum schedule
    ``mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))``), ``exp_avg`` and ``exp_avg_sq``.
    ``decoupled_weight_decay`` decays the parameter (NAdamW) instead of the gradient. ``foreach``
    is accepted and computes the same update.

    >>> import yaten
    >>> p = yaten.tensor([1.0, -2.0], requires_grad=True)
    >>> opt = yaten.optim.NAdam([p], lr=0.1)
    >>> p.grad = yaten.tensor([0.5, -0.5])
    >>> opt.step()
    >>> p
    tensor([ 0.8944, -1.8944], requires_grad=True)
    >>> sorted(opt.state[p])
    ['exp_avg', 'exp_avg_sq', 'mu_product', 'step']
    """

    _scalar_keys = ("step", "mu_product")
    _extra_defaults = (("decoupled_weight_decay", False),)

    def __init__(
        self,
        params,
        lr=2e-3,
        betas=(0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum_decay: float = 4e-3,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check_adam_hyperparameters(lr, betas, eps, weight_decay)
        if not momentum_decay >= 0.0:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "momentum_decay": momentum_decay,
            "decoupled_weight_decay": decoupled_weight_decay,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _new_state(self, p, group) -> dict:
        return {
            "step": _scalar_state(p, group["capturable"]),
            "mu_product": _scalar_state(p, group["capturable"], 1.0),
            "exp_avg": _zeros(p),
            "exp_avg_sq": _zeros(p),
        }

    def _update(self, group, params, grads, states) -> None:
        beta1, beta2 = group["betas"]
        nadam(
            params,
            grads,
            *_columns(states, "exp_avg", "exp_avg_sq", "mu_product", "step"),
            **_flags(group),
            decoupled_weight_decay=group["decoupled_weight_decay"],
            beta1=beta1,
            beta2=beta2,
            lr=group["lr"],
            weight_decay=group["weight_decay"],
            momentum_decay=group["momentum_decay"],
            eps=group["eps"],
        )


def nadam(
    params: list,
    grads: list,
    exp_avgs: list,
    exp_avg_sqs: list,
    mu_products: list,
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
    momentum_decay: float,
    eps: float,
    maximize: bool,
) -> None:
    """The functional NAdam update (PyTorch's single-tensor algorithm), in place on ``params``."""
    if not all(isinstance(t, Tensor) for t in state_steps):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors")
    if not all(isinstance(t, Tensor) for t in mu_products):
        raise RuntimeError("API has changed, `mu_products` argument must contain a list of singleton tensors")
    if params:
        _check_foreach_differentiable(foreach, differentiable)
    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg, exp_avg_sq, mu_product, step_t = exp_avgs[i], exp_avg_sqs[i], mu_products[i], state_steps[i]
        if capturable and not (
            param.device.type == mu_product.device.type == step_t.device.type
            and param.device.type in _CAPTURABLE_DEVICES
        ):
            raise AssertionError(
                "If capturable=True, params, mu_products and state_steps must be "
                f"on supported devices: {_CAPTURABLE_DEVICES}."
            )
        step_t += 1
        step = step_t if capturable else _get_value(step_t)
        bias_correction2 = 1 - beta2**step

        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)

        # the momentum cache mu_t and mu_{t+1}
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
        mu_product *= mu

        _lerp_(exp_avg, grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denom = exp_avg_sq.div(bias_correction2).sqrt()

        if differentiable or capturable:
            # scale grad and exp_avg as tensors, so autograd (or the device) sees every factor
            denom = denom.add(eps)
            mu_product_next = mu_product * mu_next
            param.addcdiv_(grad * (-lr * (1.0 - mu) / (1.0 - mu_product)), denom)
            param.addcdiv_(exp_avg * (-lr * mu_next / (1.0 - mu_product_next)), denom)
        else:
            mu_product_next = _get_value(mu_product) * mu_next
            denom.add_(eps)
            param.addcdiv_(grad, denom, value=_get_value(-lr * (1.0 - mu) / (1.0 - _get_value(mu_product))))
            param.addcdiv_(exp_avg, denom, value=_get_value((-lr * mu_next) / (1.0 - mu_product_next)))
