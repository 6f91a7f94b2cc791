"""SparseAdam, as ``torch.optim.SparseAdam``.

SparseAdam updates only the entries a sparse gradient names. yaten has no sparse tensors, so every
gradient is dense, and PyTorch's SparseAdam refuses dense gradients: ``step`` raises its error for
any parameter that has a gradient (and does nothing when none has), exactly as ``torch.optim``.
Construction validates its arguments as PyTorch does, so programs that build one import and run.
"""

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
        """Perform one step; a parameter with a (necessarily dense) gradient raises, as in PyTorch."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            if any(p.grad is not None for p in group["params"]):
                raise RuntimeError(
                    "SparseAdam does not support dense gradients, please consider Adam instead"
                )
        return loss
