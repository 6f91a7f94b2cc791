"""ASGD (averaged stochastic gradient descent), as ``torch.optim.ASGD``."""

import yaten

from ._lazy_state import _columns, _flags, _LazyStateOptimizer, _zeros
from .optimizer import (
    _CAPTURABLE_DEVICES,
    _check_foreach_differentiable,
    _check_tensor_hyperparameter,
    _get_value,
    _scalar_state,
    _to_scalar,
)

__all__ = ["ASGD", "asgd"]


class ASGD(_LazyStateOptimizer):
    """ASGD, as ``torch.optim.ASGD``.

    State per parameter (all on the parameter's device): ``step``, ``eta`` (the decaying step
    size ``lr / (1 + lambd * lr * step) ** alpha``), ``mu`` (the averaging rate, 1 until ``t0``
    steps) and ``ax``, the running average of the parameter. ``foreach`` is accepted and
    computes the same update.

    >>> import yaten
    >>> p = yaten.tensor([1.0, -2.0], requires_grad=True)
    >>> opt = yaten.optim.ASGD([p], lr=0.1)
    >>> p.grad = yaten.tensor([0.5, -0.5])
    >>> opt.step()
    >>> p
    tensor([ 0.9500, -1.9500], requires_grad=True)
    >>> opt.state[p]["ax"]
    tensor([ 0.9500, -1.9500])
    """

    _scalar_keys = ("step", "eta", "mu")
    _scalars_on_param_device = True

    def __init__(
        self,
        params,
        lr=1e-2,
        lambd: float = 1e-4,
        alpha: float = 0.75,
        t0: float = 1e6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ) -> None:
        _check_tensor_hyperparameter("lr", lr)
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {
            "lr": lr,
            "lambd": lambd,
            "alpha": alpha,
            "t0": t0,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    def _new_state(self, p, group) -> dict:
        return {
            "step": _scalar_state(p, True),
            "eta": _scalar_state(p, True, _get_value(_to_scalar(group["lr"]))),
            "mu": _scalar_state(p, True, 1.0),
            "ax": _zeros(p),
        }

    def _update(self, group, params, grads, states) -> None:
        asgd(
            params,
            grads,
            *_columns(states, "ax", "mu", "eta", "step"),
            **_flags(group),
            lambd=group["lambd"],
            lr=group["lr"],
            t0=group["t0"],
            alpha=group["alpha"],
            weight_decay=group["weight_decay"],
        )


def asgd(
    params: list,
    grads: list,
    axs: list,
    mus: list,
    etas: list,
    state_steps: list,
    foreach: bool | None = None,
    maximize: bool = False,
    differentiable: bool = False,
    capturable: bool = False,
    *,
    lambd: float,
    lr,
    t0: float,
    alpha: float,
    weight_decay: float,
) -> None:
    """The functional ASGD update (PyTorch's single-tensor algorithm), in place on ``params``."""
    if params:
        _check_foreach_differentiable(foreach, differentiable)
    lr = _to_scalar(lr)
    for param, grad, ax, mu, eta, step_t in zip(params, grads, axs, mus, etas, state_steps):
        grad = grad if not maximize else -grad
        if capturable and not (
            param.device.type == mu.device.type == eta.device.type == step_t.device.type
            and param.device.type in _CAPTURABLE_DEVICES
        ):
            raise AssertionError(
                "If capturable=True, params, mus, etas, and state_steps must be "
                f"on supported devices: {_CAPTURABLE_DEVICES}."
            )
        step_t += 1
        if foreach and not capturable:
            _foreach_step(
                param, grad, ax, mu, eta, step_t, lambd=lambd, lr=lr, t0=t0, alpha=alpha, wd=weight_decay
            )
            continue
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)

        if capturable:
            param.mul_(1 - lambd * eta)
            param.addcmul_(grad, eta, value=-1)
        else:
            eta_value = _get_value(eta)
            param.mul_(1 - lambd * eta_value)
            param.add_(grad, alpha=-eta_value)

        # averaging: ax follows the parameter until t0 steps, then averages it
        if capturable or mu.item() != 1:
            ax.add_(param.sub(ax).mul_(mu))
        else:
            ax.copy_(param)

        if capturable:
            eta.copy_(lr / ((1 + lambd * lr * step_t) ** alpha))
            mu.copy_(1 / yaten.maximum(step_t - t0, yaten.ones_like(step_t)))
        else:
            step = _get_value(step_t)
            eta.copy_(yaten.as_tensor(lr / ((1 + lambd * lr * step) ** alpha)))
            mu.copy_(yaten.as_tensor(1 / max(1, step - t0)))


def _foreach_step(param, grad, ax, mu, eta, step_t, *, lambd, lr, t0, alpha, wd) -> None:
    # torch's multi-tensor ASGD arranges the update otherwise (param - eta * (grad + lambd * param))
    # and computes eta from the float32 step in float32; foreach=True follows it, so that both
    # libraries agree step for step with either flag
    intermediate = grad.add(param, alpha=wd) if wd != 0 else grad
    intermediate = intermediate.add(param, alpha=lambd)
    param.addcmul_(intermediate, eta, value=-1)
    ax.addcmul_(param.sub(ax), mu)
    eta.copy_(yaten.as_tensor(lr / ((1 + lambd * lr * step_t) ** alpha)))
    mu.copy_(yaten.as_tensor(1 / max(1, _get_value(step_t) - t0)))
