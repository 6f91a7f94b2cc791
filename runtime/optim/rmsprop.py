"""RMSprop, as ``torch.optim.RMSprop``."""

import yaten
from yaten._tensor import Tensor

from .optimizer import (
    Optimizer,
    _addcdiv_,
    _check_capturable,
    _check_not_complex,
    _check_tensor_hyperparameter,
    _closure_loss,
    _get_scalar_dtype,
    _get_value,
    _lerp_,
    _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["RMSprop", "rmsprop"]


class RMSprop(Optimizer):
    """RMSprop, as ``torch.optim.RMSprop``.

    State per parameter: ``step``, ``square_avg`` (the running mean of squared gradients, decayed
    by ``alpha``), ``momentum_buffer`` when ``momentum > 0``, ``grad_avg`` when ``centered``.
    ``foreach`` is accepted and computes the same update.

    >>> import yaten
    >>> p = yaten.tensor([1.0, -2.0], requires_grad=True)
    >>> opt = yaten.optim.RMSprop([p], lr=0.01)
    >>> p.grad = yaten.tensor([0.5, -0.5])
    >>> opt.step()
    >>> p
    tensor([ 0.9000, -1.9000], requires_grad=True)
    """

    def __init__(
        self,
        params,
        lr=1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum: float = 0,
        centered: bool = False,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check_tensor_hyperparameter("lr", lr)
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not eps >= 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not momentum >= 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not alpha >= 0.0:
            raise ValueError(f"Invalid alpha value: {alpha}")

        defaults = {
            "lr": lr,
            "momentum": momentum,
            "alpha": alpha,
            "eps": eps,
            "centered": centered,
            "weight_decay": weight_decay,
            "capturable": capturable,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("momentum", 0)
            group.setdefault("centered", False)
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)
            group.setdefault("differentiable", False)
            group.setdefault("capturable", False)
            for p in group["params"]:
                p_state = self.state.get(p, [])
                if len(p_state) != 0 and not isinstance(p_state["step"], Tensor):
                    device = p.device if group["capturable"] else None
                    p_state["step"] = yaten.tensor(
                        float(p_state["step"]), dtype=_get_scalar_dtype(), device=device
                    )

    def _init_group(self, group, params, grads, square_avgs, momentum_buffers, grad_avgs, steps):
        for p in group["params"]:
            if p.grad is None:
                continue
            _check_not_complex("RMSprop", p)
            params.append(p)
            grads.append(p.grad)
            state = self.state[p]
            if len(state) == 0:
                if group["capturable"]:
                    state["step"] = yaten.zeros((), dtype=_get_scalar_dtype(), device=p.device)
                else:
                    state["step"] = yaten.zeros((), dtype=_get_scalar_dtype())
                state["square_avg"] = yaten.zeros_like(p, memory_format=yaten.preserve_format)
                if group["momentum"] > 0:
                    state["momentum_buffer"] = yaten.zeros_like(p, memory_format=yaten.preserve_format)
                if group["centered"]:
                    state["grad_avg"] = yaten.zeros_like(p, memory_format=yaten.preserve_format)
            square_avgs.append(state["square_avg"])
            steps.append(state["step"])
            if group["momentum"] > 0:
                momentum_buffers.append(state["momentum_buffer"])
            if group["centered"]:
                grad_avgs.append(state["grad_avg"])

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Perform one step; ``closure`` re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)

        for group in self.param_groups:
            params: list = []
            grads: list = []
            square_avgs: list = []
            grad_avgs: list = []
            momentum_buffers: list = []
            steps: list = []
            self._init_group(group, params, grads, square_avgs, momentum_buffers, grad_avgs, steps)
            rmsprop(
                params,
                grads,
                square_avgs,
                grad_avgs,
                momentum_buffers,
                steps,
                lr=group["lr"],
                alpha=group["alpha"],
                eps=group["eps"],
                weight_decay=group["weight_decay"],
                momentum=group["momentum"],
                centered=group["centered"],
                maximize=group["maximize"],
                differentiable=group["differentiable"],
                capturable=group["capturable"],
            )
        return loss


def rmsprop(
    params: list,
    grads: list,
    square_avgs: list,
    grad_avgs: list,
    momentum_buffer_list: list,
    state_steps: list,
    *,
    lr,
    alpha: float,
    eps: float,
    weight_decay: float,
    momentum: float,
    centered: bool,
    maximize: bool,
    differentiable: bool = False,
    capturable: bool = False,
) -> None:
    """The functional RMSprop update (PyTorch's single-tensor algorithm), in place on ``params``."""
    lr = _get_value(_to_scalar(lr))
    for i, param in enumerate(params):
        step = state_steps[i]
        if capturable:
            _check_capturable(param, step)
        grad = grads[i] if not maximize else -grads[i]
        square_avg = square_avgs[i]

        step += 1

        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)

        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)

        if centered:
            grad_avg = grad_avgs[i]
            _lerp_(grad_avg, grad, 1 - alpha)
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add(eps) if differentiable else avg.add_(eps)

        if momentum > 0:
            buf = momentum_buffer_list[i]
            _addcdiv_(buf.mul_(momentum), grad, avg)
            param.add_(buf, alpha=-lr)
        else:
            _addcdiv_(param, grad, avg, value=-lr)
