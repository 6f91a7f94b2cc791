"""Muon (momentum orthogonalized by Newton-Schulz), as ``torch.optim.Muon``."""

import math

import yaten

from .optimizer import Optimizer, _check_tensor_hyperparameter, _closure_loss, _lerp_, _to_scalar

__all__ = ["Muon", "muon"]

# the constants of Keller Jordan's Muon (https://kellerjordan.github.io/posts/muon/), as PyTorch's
EPS = 1e-7
DEFAULT_A = 3.4445
DEFAULT_B = -4.7750
DEFAULT_C = 2.0315
DEFAULT_NS_STEPS = 5


def _zeropower_via_newtonschulz(grad, ns_coefficients, ns_steps: int, eps: float):
    """An approximate orthogonalization of the matrix ``grad`` (``U V^T`` of its SVD), in bfloat16:
    ``ns_steps`` iterations of the quintic Newton-Schulz map with coefficients ``(a, b, c)``."""
    if ns_steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if len(grad.shape) != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(ns_coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = ns_coefficients
    ortho_grad = grad.bfloat16()
    if grad.size(0) > grad.size(1):
        ortho_grad = ortho_grad.T
    # a spectral norm of at most 1
    ortho_grad.div_(ortho_grad.norm().clamp(min=eps))
    for _ in range(ns_steps):
        gram_matrix = ortho_grad @ ortho_grad.T
        gram_update = yaten.addmm(gram_matrix, gram_matrix, gram_matrix, beta=b, alpha=c)
        ortho_grad = yaten.addmm(ortho_grad, gram_update, ortho_grad, beta=a)
    if grad.size(0) > grad.size(1):
        ortho_grad = ortho_grad.T
    return ortho_grad


def _adjust_lr(lr, adjust_lr_fn, param_shape):
    # the lr scaled for the matrix's shape: sqrt(max(1, rows / cols)), or 0.2 * sqrt(max(rows, cols))
    # to match AdamW's update RMS
    rows, cols = param_shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        adjusted_ratio = math.sqrt(max(1, rows / cols))
    elif adjust_lr_fn == "match_rms_adamw":
        adjusted_ratio = 0.2 * math.sqrt(max(rows, cols))
    else:
        adjusted_ratio = 1.0
    return lr * adjusted_ratio


class Muon(Optimizer):
    """Muon, as ``torch.optim.Muon``: SGD with (Nesterov) momentum whose update is orthogonalized
    by Newton-Schulz iterations, for 2-D parameters (hidden layers' weight matrices); optimize the
    others (biases, embeddings) with AdamW. State per parameter: ``momentum_buffer``.

    >>> import yaten
    >>> w = yaten.tensor([[1.0, 0.0], [0.0, 1.0]], requires_grad=True)
    >>> opt = yaten.optim.Muon([w], lr=0.1, weight_decay=0.0)
    >>> w.grad = yaten.tensor([[1.0, 0.0], [0.0, 0.0]])
    >>> opt.step()
    >>> [round(v, 1) for v in w.detach().reshape(-1).tolist()]
    [0.9, 0.0, 0.0, 1.0]
    """

    def __init__(
        self,
        params,
        lr=1e-3,
        weight_decay: float = 0.1,
        momentum: float = 0.95,
        nesterov: bool = True,
        ns_coefficients=(DEFAULT_A, DEFAULT_B, DEFAULT_C),
        eps: float = EPS,
        ns_steps: int = DEFAULT_NS_STEPS,
        adjust_lr_fn: str | None = None,
    ) -> None:
        _check_tensor_hyperparameter("lr", lr)
        if not lr >= 0.0:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not momentum >= 0.0:
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not weight_decay >= 0.0:
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ["original", "match_rms_adamw"]:
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        defaults = {
            "lr": lr,
            "weight_decay": weight_decay,
            "momentum": momentum,
            "nesterov": nesterov,
            "ns_coefficients": ns_coefficients,
            "eps": eps,
            "ns_steps": ns_steps,
            "adjust_lr_fn": adjust_lr_fn,
        }
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise ValueError(
                        f"Muon only supports 2D parameters whereas we found a parameter with size: {p.size()}"
                    )

    def step(self, closure=None):
        """Perform one step; ``closure`` re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)
        with yaten.no_grad():
            for group in self.param_groups:
                params, grads, bufs = [], [], []
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    if p.is_complex():
                        raise RuntimeError("Muon does not support complex parameters")
                    params.append(p)
                    grads.append(p.grad)
                    state = self.state[p]
                    if "momentum_buffer" not in state:
                        state["momentum_buffer"] = yaten.zeros_like(
                            p.grad, memory_format=yaten.preserve_format
                        )
                    bufs.append(state["momentum_buffer"])
                muon(
                    params,
                    grads,
                    bufs,
                    lr=group["lr"],
                    weight_decay=group["weight_decay"],
                    momentum=group["momentum"],
                    nesterov=group["nesterov"],
                    ns_coefficients=group["ns_coefficients"],
                    eps=group["eps"],
                    ns_steps=group["ns_steps"],
                    adjust_lr_fn=group["adjust_lr_fn"],
                )
        return loss


def muon(
    params: list,
    grads: list,
    muon_momentum_bufs: list,
    *,
    foreach: bool | None = None,
    lr,
    weight_decay: float,
    momentum: float,
    nesterov: bool,
    ns_coefficients,
    eps: float,
    ns_steps: int,
    adjust_lr_fn: str | None,
) -> None:
    """The functional Muon update (PyTorch's single-tensor algorithm), in place on ``params``."""
    if foreach:
        raise RuntimeError("Foreach is not supported for Muon yet")
    lr = _to_scalar(lr)
    for param, grad, buf in zip(params, grads, muon_momentum_bufs):
        if grad.ndim != 2:
            raise ValueError("Param gradient must be a 2D matrix")
        _lerp_(buf, grad, 1 - momentum)
        update = _lerp_(grad.clone(), buf, momentum) if nesterov else buf
        update = _zeropower_via_newtonschulz(update, ns_coefficients, ns_steps, eps)
        adjusted_lr = _adjust_lr(lr, adjust_lr_fn, param.shape)
        param.mul_(1 - lr * weight_decay)
        param.add_(update, alpha=-adjusted_lr)
