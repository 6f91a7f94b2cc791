"""Adadelta, as ``torch.optim.Adadelta``."""

from yaten._tensor import Tensor

from ._lazy_state import _columns, _flags, _LazyStateOptimizer, _zeros
from .optimizer import (
    _check_capturable,
    _check_foreach_differentiable,
    _check_tensor_hyperparameter,
    _get_value,
    _scalar_state,
    _to_scalar,
)

__all__ = ["Adadelta", "adadelta"]


class Adadelta(_LazyStateOptimizer):
    """Adadelta, as ``torch.optim.Adadelta``.

    State per parameter: ``step``, ``square_avg`` (running mean of squared gradients, decayed by
    ``rho``) and ``acc_delta`` (running mean of squared updates). The update is
    ``sqrt(acc_delta + eps) / sqrt(square_avg + eps) * grad``, scaled by ``lr``. ``foreach`` is
    accepted and computes the same update.

    >>> import yaten
    >>> p = yaten.tensor([1.0, -2.0], requires_grad=True)
    >>> opt = yaten.optim.Adadelta([p], lr=1.0)
    >>> p.grad = yaten.tensor([0.5, -0.5])
    >>> opt.step()
    >>> p
    tensor([ 0.9968, -1.9968], requires_grad=True)
    >>> sorted(opt.state[p])
    ['acc_delta', 'square_avg', 'step']
    """

    def __init__(
        self,
        params,
        lr=1.0,
        rho: float = 0.9,
        eps: float = 1e-6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        capturable: bool = False,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check_tensor_hyperparameter("lr", lr)
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not eps >= 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {
            "lr": lr,
            "rho": rho,
            "eps": eps,
            "weight_decay": weight_decay,
            "maximize": maximize,
            "capturable": capturable,
            "foreach": foreach,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _new_state(self, p, group) -> dict:
        return {
            "step": _scalar_state(p, group["capturable"]),
            "square_avg": _zeros(p),
            "acc_delta": _zeros(p),
        }

    def _update(self, group, params, grads, states) -> None:
        adadelta(
            params,
            grads,
            *_columns(states, "square_avg", "acc_delta", "step"),
            **_flags(group),
            lr=group["lr"],
            rho=group["rho"],
            eps=group["eps"],
            weight_decay=group["weight_decay"],
        )


def adadelta(
    params: list,
    grads: list,
    square_avgs: list,
    acc_deltas: list,
    state_steps: list,
    foreach: bool | None = None,
    capturable: bool = False,
    differentiable: bool = False,
    *,
    lr,
    rho: float,
    eps: float,
    weight_decay: float,
    maximize: bool,
) -> None:
    """The functional Adadelta update (PyTorch's single-tensor algorithm), in place on ``params``."""
    if not all(isinstance(t, Tensor) for t in state_steps):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors")
    _check_foreach_differentiable(foreach, differentiable)
    lr = _get_value(_to_scalar(lr))
    for param, grad, square_avg, acc_delta, step in zip(params, grads, square_avgs, acc_deltas, state_steps):
        if capturable:
            _check_capturable(param, step)
        step += 1
        grad = grad if not maximize else -grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        if differentiable:
            delta = delta.clone()
        delta.div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        param.add_(delta, alpha=-lr)
