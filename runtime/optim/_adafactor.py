"""Adafactor, as ``torch.optim.Adafactor``."""

import yaten
from yaten._tensor import Tensor

from .optimizer import (
    Optimizer,
    _check_tensor_hyperparameter,
    _closure_loss,
    _lerp_,
    _scalar_state,
    _to_scalar,
)

__all__ = ["Adafactor", "adafactor"]


class Adafactor(Optimizer):
    """Adafactor, as ``torch.optim.Adafactor`` (PyTorch's variant: no first moment, the relative
    step size ``min(lr, 1 / sqrt(step))`` scaled by the parameter's RMS, update clipping by ``d``).

    State per parameter: ``step`` and, for a matrix (or higher) gradient, the factored second
    moment ``row_var`` and ``col_var`` (means over the last and the second-last dimension), or for
    a vector gradient the full ``variance``. The decay is ``1 - step ** beta2_decay``.
    ``foreach`` is accepted and computes the same update.

    >>> import yaten
    >>> p = yaten.tensor([[1.0, -2.0], [0.5, 1.0]], requires_grad=True)
    >>> opt = yaten.optim.Adafactor([p], lr=0.1)
    >>> p.grad = yaten.tensor([[0.5, -0.5], [0.2, 0.1]])
    >>> opt.step()
    >>> sorted(opt.state[p]), tuple(opt.state[p]["row_var"].shape)
    (['col_var', 'row_var', 'step'], (2, 1))
    """

    def __init__(
        self,
        params,
        lr=1e-2,
        beta2_decay: float = -0.8,
        eps=(None, 1e-3),
        d: float = 1.0,
        weight_decay: float = 0.0,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
    ) -> None:
        _check_tensor_hyperparameter("lr", lr)
        if not lr >= 0.0:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not beta2_decay <= 0.0:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not eps[0] >= 0.0:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not eps[1] >= 0.0:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not d >= 1.0:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not weight_decay >= 0.0:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = {
            "lr": lr,
            "beta2_decay": beta2_decay,
            "eps": eps,
            "d": d,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
        }
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("foreach", None)
            for p in group["params"]:
                p_state = self.state.get(p, {})
                if len(p_state) != 0 and not isinstance(p_state["step"], Tensor):
                    p_state["step"] = _scalar_state(p, False, float(p_state["step"]))

    def _init_group(self, group, params, grads, row_vars, col_vars, variances, steps) -> None:
        for p in group["params"]:
            if p.grad is None:
                continue
            if p.is_complex():
                raise RuntimeError("Adafactor does not support complex parameters")
            params.append(p)
            grads.append(p.grad)
            state = self.state[p]
            if len(state) == 0:
                state["step"] = _scalar_state(p, False)
                if p.grad.dim() > 1:
                    # the factored second moment: one value per row, one per column
                    state["row_var"] = p.grad.new_zeros((*p.grad.shape[:-1], 1))
                    state["col_var"] = p.grad.new_zeros((*p.grad.shape[:-2], 1, p.grad.shape[-1]))
                else:
                    state["variance"] = yaten.zeros_like(p.grad, memory_format=yaten.preserve_format)
            row_vars.append(state.get("row_var"))
            col_vars.append(state.get("col_var"))
            variances.append(state.get("variance"))
            steps.append(state["step"])

    def step(self, closure=None):
        """Perform one step; ``closure`` re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)
        with yaten.no_grad():
            for group in self.param_groups:
                params: list = []
                grads: list = []
                row_vars: list = []
                col_vars: list = []
                variances: list = []
                steps: list = []
                eps1, eps2 = group["eps"]
                self._init_group(group, params, grads, row_vars, col_vars, variances, steps)
                adafactor(
                    params,
                    grads,
                    row_vars,
                    col_vars,
                    variances,
                    steps,
                    foreach=group["foreach"],
                    d=group["d"],
                    lr=group["lr"],
                    beta2_decay=group["beta2_decay"],
                    weight_decay=group["weight_decay"],
                    eps1=eps1,
                    eps2=eps2,
                    maximize=group["maximize"],
                )
        return loss


def adafactor(
    params: list,
    grads: list,
    row_vars: list,
    col_vars: list,
    variances: list,
    state_steps: list,
    foreach: bool | None = None,
    *,
    d: float,
    lr,
    beta2_decay: float,
    weight_decay: float,
    eps1: float | None,
    eps2: float,
    maximize: bool,
) -> None:
    """The functional Adafactor update (PyTorch's single-tensor algorithm), in place on ``params``."""
    lr = _to_scalar(lr)
    for param, grad, row_var, col_var, variance, step_t in zip(
        params, grads, row_vars, col_vars, variances, state_steps
    ):
        grad = grad if not maximize else -grad
        if eps1 is None:
            eps1 = yaten.finfo(param.dtype).eps
        step_t += 1
        step_float = step_t.item()
        one_minus_beta2_t = step_float**beta2_decay
        rho_t = min(lr, 1 / (step_float**0.5))
        # the step size relative to the parameter's RMS (at least eps2)
        alpha = max(eps2, param.norm(2).item() / (param.numel() ** 0.5)) * rho_t

        if weight_decay != 0:
            param.mul_(1 - lr * weight_decay)

        if grad.dim() > 1:
            # the means of g * g over the last and the second-last dimension, through norms
            row_mean = yaten.norm(grad, dim=-1, keepdim=True).square_().div_(grad.size(-1))
            _lerp_(row_var, row_mean, one_minus_beta2_t)
            col_mean = yaten.norm(grad, dim=-2, keepdim=True).square_().div_(grad.size(-2))
            _lerp_(col_var, col_mean, one_minus_beta2_t)
            var_estimate = row_var @ col_var
            var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            _lerp_(variance, grad * grad, one_minus_beta2_t)
            var_estimate = variance.clone()

        # eps1 squared: the square root below brings it back to eps1's magnitude
        update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_()
        update.mul_(grad)
        denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * d))
        param.add_(update, alpha=-alpha / denom)
