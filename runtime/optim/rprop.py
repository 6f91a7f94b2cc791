"""Rprop (resilient backpropagation), as ``torch.optim.Rprop``."""

import yaten
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

__all__ = ["Rprop", "rprop"]


class Rprop(_LazyStateOptimizer):
    """Rprop, as ``torch.optim.Rprop``.

    State per parameter: ``step``, ``prev`` (the previous gradient, zeroed where its sign flipped)
    and ``step_size``, one per element, starting at ``lr``: multiplied by ``etas[1]`` while the
    gradient keeps its sign, by ``etas[0]`` when it flips, and clamped to ``step_sizes``. The
    parameter moves by ``step_size`` against the sign of the gradient. ``foreach`` is accepted
    and computes the same update.

    >>> import yaten
    >>> p = yaten.tensor([1.0, -2.0], requires_grad=True)
    >>> opt = yaten.optim.Rprop([p], lr=0.1)
    >>> p.grad = yaten.tensor([0.5, -0.5])
    >>> opt.step()
    >>> p
    tensor([ 0.9000, -1.9000], requires_grad=True)
    """

    def __init__(
        self,
        params,
        lr=1e-2,
        etas=(0.5, 1.2),
        step_sizes=(1e-6, 50),
        *,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check_tensor_hyperparameter("lr", lr)
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {
            "lr": lr,
            "etas": etas,
            "step_sizes": step_sizes,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    def _new_state(self, p, group) -> dict:
        return {
            "step": _scalar_state(p, group["capturable"]),
            "prev": _zeros(p),
            "step_size": yaten.full_like(p.grad, _get_value(_to_scalar(group["lr"]))),
        }

    def _update(self, group, params, grads, states) -> None:
        etaminus, etaplus = group["etas"]
        step_size_min, step_size_max = group["step_sizes"]
        rprop(
            params,
            grads,
            *_columns(states, "prev", "step_size", "step"),
            **_flags(group),
            step_size_min=step_size_min,
            step_size_max=step_size_max,
            etaminus=etaminus,
            etaplus=etaplus,
        )


def rprop(
    params: list,
    grads: list,
    prevs: list,
    step_sizes: list,
    state_steps: list,
    foreach: bool | None = None,
    capturable: bool = False,
    maximize: bool = False,
    differentiable: bool = False,
    *,
    step_size_min: float,
    step_size_max: float,
    etaminus: float,
    etaplus: float,
) -> None:
    """The functional Rprop update (PyTorch's single-tensor algorithm), in place on ``params``."""
    if not all(isinstance(t, Tensor) for t in state_steps):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors")
    if params:
        _check_foreach_differentiable(foreach, differentiable)
    for param, grad, prev, step_size, step in zip(params, grads, prevs, step_sizes, state_steps):
        grad = grad if not maximize else -grad
        if capturable:
            _check_capturable(param, step)
        step += 1
        sign = grad.mul(prev.clone() if differentiable else prev).sign()
        # the factor per element: grown while the sign holds, shrunk where it flipped
        factor = yaten.where(sign.lt(0), etaminus, yaten.where(sign.eq(0), 1.0, sign))
        sign.copy_(yaten.where(sign.gt(0), etaplus, factor))
        step_size.mul_(sign).clamp_(step_size_min, step_size_max)
        # where the sign flipped the gradient counts as 0: no move now, no flip next step
        grad = yaten.where(sign.eq(etaminus), 0.0, grad)
        param.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)
