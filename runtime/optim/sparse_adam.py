"""SparseAdam, as ``torch.optim.SparseAdam``.

SparseAdam updates only the entries a sparse COO gradient names (``nn.Embedding(sparse=True)``'s), as
torch's single-tensor algorithm: the moments are dense tensors updated at those entries only; a dense
gradient is torch's error.
"""

import math

import yaten

from .optimizer import Optimizer, _check_tensor_hyperparameter, _closure_loss

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    """SparseAdam, as ``torch.optim.SparseAdam``: Adam for sparse gradients (use Adam for dense).

    >>> import yaten
    >>> p = yaten.zeros(2, requires_grad=True)
    >>> opt = yaten.optim.SparseAdam([p], lr=0.1)
    >>> opt.defaults["betas"]
    (0.9, 0.999)
    >>> p.grad = yaten.ones(2)
    >>> opt.step()
    Traceback (most recent call last):
    ...
    RuntimeError: SparseAdam does not support dense gradients, please consider Adam instead
    >>> p.grad = yaten.sparse_coo_tensor([[1]], [1.0], (2,))
    >>> opt.step()
    >>> p
    tensor([ 0.0000, -0.1000], requires_grad=True)
    """

    def __init__(
        self, params, lr=1e-3, betas=(0.9, 0.999), eps: float = 1e-8, maximize: bool = False
    ) -> None:
        _check_tensor_hyperparameter("lr", lr)
        if not lr > 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not eps > 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        for i in (0, 1):
            if not 0.0 <= betas[i] < 1.0:
                raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize}
        super().__init__(params, defaults)

        complex_params = [
            [index, d_index]
            for index, group in enumerate(self.param_groups)
            for d_index, p in enumerate(group["params"])
            if p.is_complex()
        ]
        if complex_params:
            raise ValueError(
                f"Complex params at indices {complex_params}: SparseAdam does not support complex parameters"
            )

    def step(self, closure=None):
        """Perform one step on the entries each parameter's sparse gradient names."""
        loss = _closure_loss(closure)
        with yaten.no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    if not p.grad.is_sparse:
                        raise RuntimeError(
                            "SparseAdam does not support dense gradients, please consider Adam instead"
                        )
                    state = self.state[p]
                    if len(state) == 0:
                        state["step"] = 0
                        state["exp_avg"] = yaten.zeros_like(p)
                        state["exp_avg_sq"] = yaten.zeros_like(p)
                    state["step"] += 1
                    _sparse_adam_step(p, state, group)
        return loss


def _sparse_adam_step(param, state, group) -> None:
    """torch's ``_single_tensor_sparse_adam`` for one parameter: ``old += (1 - b) * (new - old)`` at the
    gradient's (coalesced) entries, then the bias-corrected step there."""
    beta1, beta2 = group["betas"]
    grad = (-param.grad if group["maximize"] else param.grad).coalesce()
    indices, values = grad._indices(), grad._values()
    if values.numel() == 0:
        return

    def make_sparse(v):
        return yaten.sparse_coo_tensor(indices, v, grad.shape)

    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
    old_exp_avg = exp_avg.sparse_mask(grad)._values()
    exp_avg_update = values.sub(old_exp_avg).mul_(1 - beta1)
    exp_avg.add_(make_sparse(exp_avg_update))
    old_exp_avg_sq = exp_avg_sq.sparse_mask(grad)._values()
    exp_avg_sq_update = values.pow(2).sub_(old_exp_avg_sq).mul_(1 - beta2)
    exp_avg_sq.add_(make_sparse(exp_avg_sq_update))
    numer = exp_avg_update.add_(old_exp_avg)
    denom = exp_avg_sq_update.add_(old_exp_avg_sq).sqrt_().add_(group["eps"])
    step = state["step"]
    step_size = group["lr"] * math.sqrt(1 - beta2**step) / (1 - beta1**step)
    param.add_(make_sparse(-step_size * numer.div_(denom)))
