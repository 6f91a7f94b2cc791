"""SGD: stochastic gradient descent with momentum, as ``torch.optim.SGD``."""

from yaten._tensor import Tensor

from .optimizer import (
    Optimizer,
    _check_fused_flags,
    _check_tensor_hyperparameter,
    _closure_loss,
    _device_dtype_check_for_fused,
    _get_value,
    _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["SGD", "sgd"]


class SGD(Optimizer):
    """Stochastic gradient descent (optionally with momentum), as ``torch.optim.SGD``.

    Per step, with ``g`` the gradient (negated when ``maximize``)::

        g = g + weight_decay * p
        b = g (first step), else momentum * b + (1 - dampening) * g
        g = g + momentum * b if nesterov else b
        p = p - lr * g

    ``foreach`` and ``fused`` are accepted and compute the same update.

    >>> import yaten
    >>> p = yaten.tensor([1.0, 2.0], requires_grad=True)
    >>> opt = yaten.optim.SGD([p], lr=0.1, momentum=0.9)
    >>> for _ in range(2):
    ...     opt.zero_grad()
    ...     (p * p).sum().backward()
    ...     opt.step()
    >>> p
    tensor([0.4600, 0.9200], requires_grad=True)
    """

    def __init__(
        self,
        params,
        lr=1e-3,
        momentum: float = 0,
        dampening: float = 0,
        weight_decay=0,
        nesterov: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        _check_tensor_hyperparameter("lr", lr)
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")

        defaults = {
            "lr": lr,
            "momentum": momentum,
            "dampening": dampening,
            "weight_decay": weight_decay,
            "nesterov": nesterov,
            "maximize": maximize,
            "foreach": foreach,
            "differentiable": differentiable,
            "fused": fused,
        }
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        _check_fused_flags(fused, foreach, differentiable)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("nesterov", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("differentiable", False)
            group.setdefault("fused", False)

    def _init_group(self, group, params, grads, momentum_buffer_list):
        for p in group["params"]:
            if p.grad is None:
                continue
            if group["fused"]:
                _device_dtype_check_for_fused(p)
            params.append(p)
            grads.append(p.grad)
            if group["momentum"] != 0:
                momentum_buffer_list.append(self.state[p].get("momentum_buffer"))

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Perform one step; ``closure`` re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)

        for group in self.param_groups:
            params: list = []
            grads: list = []
            momentum_buffer_list: list = []
            self._init_group(group, params, grads, momentum_buffer_list)
            sgd(
                params,
                grads,
                momentum_buffer_list,
                weight_decay=group["weight_decay"],
                momentum=group["momentum"],
                lr=group["lr"],
                dampening=group["dampening"],
                nesterov=group["nesterov"],
                maximize=group["maximize"],
            )
            if group["momentum"] != 0:
                for p, buf in zip(params, momentum_buffer_list):
                    self.state[p]["momentum_buffer"] = buf
        return loss


def sgd(
    params: list,
    d_p_list: list,
    momentum_buffer_list: list,
    *,
    weight_decay: float,
    momentum: float,
    lr: float,
    dampening: float,
    nesterov: bool,
    maximize: bool,
) -> None:
    """The functional SGD update (PyTorch's single-tensor algorithm), in place on ``params``."""
    lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = d_p_list[i] if not maximize else -d_p_list[i]
        if weight_decay != 0:
            if isinstance(weight_decay, Tensor) and weight_decay.requires_grad:
                grad = grad.add_(param.clone().mul(weight_decay))
            else:
                grad = grad.add(param, alpha=_get_value(weight_decay))
        if momentum != 0:
            buf = momentum_buffer_list[i]
            if buf is None:
                buf = grad.detach().clone()
                momentum_buffer_list[i] = buf
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - dampening)
            grad = grad.add(buf, alpha=momentum) if nesterov else buf
        if isinstance(lr, Tensor) and lr.requires_grad:
            param.add_(grad.mul(lr).mul_(-1))
        else:
            param.add_(grad, alpha=-_get_value(lr))
