"""AdamW: Adam with decoupled weight decay, as ``torch.optim.AdamW``."""

from .adam import Adam, adam

__all__ = ["AdamW", "adamw"]


class AdamW(Adam):
    """Adam with decoupled weight decay (default ``weight_decay=1e-2``), as ``torch.optim.AdamW``.

    Each step first decays the parameter by ``1 - lr * weight_decay``, then applies Adam's update
    with the undecayed gradient.

    >>> import yaten
    >>> p = yaten.tensor([1.0, -2.0], requires_grad=True)
    >>> opt = yaten.optim.AdamW([p], lr=0.1, weight_decay=0.5)
    >>> p.grad = yaten.tensor([0.5, -0.5])
    >>> opt.step()
    >>> p
    tensor([ 0.8500, -1.8000], requires_grad=True)
    """

    def __init__(
        self,
        params,
        lr=1e-3,
        betas=(0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        super().__init__(
            params,
            lr,
            betas,
            eps,
            weight_decay,
            amsgrad,
            foreach=foreach,
            maximize=maximize,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=True,
        )

    def __setstate__(self, state):
        super().__setstate__(state)
        # a state dict loaded into AdamW always keeps decoupled weight decay, as in PyTorch
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True


def adamw(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, **kwargs) -> None:
    """The functional AdamW update: :func:`yaten.optim.adam.adam` with decoupled weight decay."""
    kwargs["decoupled_weight_decay"] = True
    adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, **kwargs)
