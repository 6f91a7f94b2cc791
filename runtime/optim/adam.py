"""Adam, as ``torch.optim.Adam`` (AdamW is Adam with ``decoupled_weight_decay=True``)."""

import yaten
from yaten._tensor import Tensor
from yaten.kernels.cpu import optim as fused_kernels

from .optimizer import (
    Optimizer,
    _addcdiv_,
    _check_capturable,
    _check_fused_flags,
    _check_not_complex,
    _check_tensor_hyperparameter,
    _closure_loss,
    _device_dtype_check_for_fused,
    _get_scalar_dtype,
    _get_value,
    _lerp_,
    _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["Adam", "adam"]

_FUSED_DTYPES = (yaten.float32, yaten.float64)


def _fusable(param, *tensors) -> bool:
    """Whether one fused host kernel can update ``param`` with these (state) tensors: all on the cpu,
    C-contiguous and of one float dtype (None entries, absent state, are skipped)."""
    if param._device.type != "cpu" or param._dtype not in _FUSED_DTYPES:
        return False
    *arrays, step = tensors
    return step._device.type == "cpu" and all(
        t is None or (t._device == param._device and t._dtype is param._dtype and t._data.flags.c_contiguous)
        for t in (param, *arrays)
    )


def _flat(t: Tensor):
    return t._data.reshape(-1)


class Adam(Optimizer):
    """Adam, as ``torch.optim.Adam``.

    State per parameter: ``step`` (a 0-dim float32 tensor), ``exp_avg``, ``exp_avg_sq`` and, with
    ``amsgrad``, ``max_exp_avg_sq``. With ``decoupled_weight_decay`` the parameter is decayed by
    ``1 - lr * weight_decay`` before the update (AdamW) instead of adding ``weight_decay * p`` to
    the gradient. ``foreach`` and ``fused`` are accepted and compute the same update.

    >>> import yaten
    >>> p = yaten.tensor([1.0, -2.0], requires_grad=True)
    >>> opt = yaten.optim.Adam([p], lr=0.1)
    >>> p.grad = yaten.tensor([0.5, -0.5])
    >>> opt.step()
    >>> p
    tensor([ 0.9000, -1.9000], requires_grad=True)
    >>> sorted(opt.state[p])
    ['exp_avg', 'exp_avg_sq', 'step']
    """

    def __init__(
        self,
        params,
        lr=1e-3,
        betas=(0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        amsgrad: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
        decoupled_weight_decay: bool = False,
    ) -> None:
        if isinstance(lr, Tensor):
            if foreach and not capturable:
                raise ValueError("lr as a Tensor is not supported for capturable=False and foreach=True")
            _check_tensor_hyperparameter("lr", lr)
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not eps >= 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not (
            (isinstance(betas[0], float) and isinstance(betas[1], float))
            or (isinstance(betas[0], Tensor) and isinstance(betas[1], Tensor))
        ):
            raise ValueError("betas must be either both floats or both Tensors")
        for i in (0, 1):
            if isinstance(betas[i], Tensor):
                if not capturable and foreach:
                    raise ValueError(
                        f"betas[{i}] as a Tensor is not supported for capturable=False and foreach=True"
                    )
                _check_tensor_hyperparameter(f"betas[{i}]", betas[i])
        betas = tuple(map(_to_scalar, betas))

        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "amsgrad": amsgrad,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
            "fused": fused,
            "decoupled_weight_decay": decoupled_weight_decay,
        }
        super().__init__(params, defaults)
        _check_fused_flags(fused, foreach, differentiable)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("amsgrad", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("capturable", False)
            group.setdefault("differentiable", False)
            group.setdefault("decoupled_weight_decay", False)
            fused = group.setdefault("fused", None)
            for p in group["params"]:
                p_state = self.state.get(p, [])
                if len(p_state) != 0 and not isinstance(p_state["step"], Tensor):
                    step_val = float(p_state["step"])
                    if group["capturable"] or group["fused"]:
                        p_state["step"] = yaten.tensor(
                            step_val, dtype=_get_scalar_dtype(is_fused=fused), device=p.device
                        )
                    else:
                        p_state["step"] = yaten.tensor(step_val, dtype=_get_scalar_dtype())

    def _init_group(self, group, params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps):
        for p in group["params"]:
            if p.grad is None:
                continue
            _check_not_complex("Adam", p)
            params.append(p)
            grads.append(p.grad)
            state = self.state[p]
            if len(state) == 0:
                if group["fused"]:
                    _device_dtype_check_for_fused(p)
                # step lives on the cpu unless capturable or fused, as in PyTorch
                if group["capturable"] or group["fused"]:
                    state["step"] = yaten.zeros(
                        (), dtype=_get_scalar_dtype(is_fused=group["fused"]), device=p.device
                    )
                else:
                    state["step"] = yaten.tensor(0.0, dtype=_get_scalar_dtype(), device="cpu")
                state["exp_avg"] = yaten.zeros_like(p, memory_format=yaten.preserve_format)
                state["exp_avg_sq"] = yaten.zeros_like(p, memory_format=yaten.preserve_format)
                if group["amsgrad"]:
                    state["max_exp_avg_sq"] = yaten.zeros_like(p, memory_format=yaten.preserve_format)
            exp_avgs.append(state["exp_avg"])
            exp_avg_sqs.append(state["exp_avg_sq"])
            if group["amsgrad"]:
                max_exp_avg_sqs.append(state["max_exp_avg_sq"])
            if group["differentiable"] and state["step"].requires_grad:
                raise RuntimeError("`requires_grad` is not supported for `step` in differentiable mode")
            if group["foreach"] and isinstance(group["lr"], Tensor) and not group["capturable"]:
                raise RuntimeError("lr as a Tensor is not supported for capturable=False and foreach=True")
            steps.append(state["step"])

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Perform one step; ``closure`` re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)

        for group in self.param_groups:
            params: list = []
            grads: list = []
            exp_avgs: list = []
            exp_avg_sqs: list = []
            max_exp_avg_sqs: list = []
            steps: list = []
            beta1, beta2 = group["betas"]
            self._init_group(group, params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps)
            adam(
                params,
                grads,
                exp_avgs,
                exp_avg_sqs,
                max_exp_avg_sqs,
                steps,
                amsgrad=group["amsgrad"],
                beta1=beta1,
                beta2=beta2,
                lr=group["lr"],
                weight_decay=group["weight_decay"],
                eps=group["eps"],
                maximize=group["maximize"],
                capturable=group["capturable"],
                differentiable=group["differentiable"],
                decoupled_weight_decay=group["decoupled_weight_decay"],
            )
        return loss


def adam(
    params: list,
    grads: list,
    exp_avgs: list,
    exp_avg_sqs: list,
    max_exp_avg_sqs: list,
    state_steps: list,
    capturable: bool = False,
    differentiable: bool = False,
    decoupled_weight_decay: bool = False,
    *,
    amsgrad: bool,
    beta1,
    beta2,
    lr,
    weight_decay: float,
    eps: float,
    maximize: bool,
) -> None:
    """The functional Adam update (PyTorch's single-tensor algorithm), in place on ``params``."""
    if not all(isinstance(t, Tensor) for t in state_steps):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors")
    lr, beta1, beta2 = _to_scalar(lr), _to_scalar(beta1), _to_scalar(beta2)
    fusable = not (capturable or differentiable) and not any(
        isinstance(h, Tensor) for h in (lr, beta1, beta2, weight_decay)
    )
    for i, param in enumerate(params):
        max_exp_avg_sq = max_exp_avg_sqs[i] if amsgrad else None
        if fusable and _fusable(param, grads[i], exp_avgs[i], exp_avg_sqs[i], max_exp_avg_sq, state_steps[i]):
            step_t = state_steps[i]
            # Versions count the writes before they happen, as in an in-place op (so an inference
            # tensor refuses here, untouched).
            for t in (step_t, param, exp_avgs[i], exp_avg_sqs[i], max_exp_avg_sq):
                if t is not None:
                    t._vc[0] += 1
            step_t._data += 1  # the 0-dim host step
            fused_kernels.adam(
                *(_flat(t) for t in (param, grads[i], exp_avgs[i], exp_avg_sqs[i])),
                None if max_exp_avg_sq is None else _flat(max_exp_avg_sq),
                maximize=maximize, decoupled=decoupled_weight_decay, lr=lr, weight_decay=weight_decay,
                beta1=beta1, beta2=beta2, eps=eps, step=float(step_t._data),
            )  # fmt: skip
            continue
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step_t = state_steps[i]
        if capturable:
            _check_capturable(param, step_t)

        step_t += 1

        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            elif differentiable and isinstance(weight_decay, Tensor) and weight_decay.requires_grad:
                grad = grad.addcmul_(param.clone(), weight_decay)
            else:
                grad = grad.add(param, alpha=_get_value(weight_decay))

        if isinstance(beta1, Tensor):
            # torch moves a tensor beta1 to the param's dtype before taking 1 - beta1
            _lerp_(exp_avg, grad, (1 - beta1.to(dtype=param.dtype)).item())
        else:
            _lerp_(exp_avg, grad, 1 - beta1)
        if differentiable and isinstance(beta2, Tensor) and beta2.requires_grad:
            exp_avg_sq.lerp_(yaten.square(grad), 1 - beta2)
        else:
            exp_avg_sq.mul_(_get_value(beta2)).addcmul_(grad, grad, value=_get_value(1 - beta2))

        if capturable or differentiable:
            # step stays a tensor, so autograd (or the device) sees the whole computation
            step = step_t
            bias_correction1 = 1 - beta1**step
            bias_correction2 = 1 - beta2**step
            step_size = lr / bias_correction1
            step_size_neg = step_size.neg()
            bias_correction2_sqrt = bias_correction2.sqrt()
            if amsgrad:
                max_exp_avg_sq = max_exp_avg_sqs[i].clone() if differentiable else max_exp_avg_sqs[i]
                max_exp_avg_sqs[i].copy_(yaten.maximum(max_exp_avg_sq, exp_avg_sq))
                denom = (max_exp_avg_sqs[i].sqrt() / (bias_correction2_sqrt * step_size_neg)).add_(
                    eps / step_size_neg
                )
            else:
                denom = (exp_avg_sq.sqrt() / (bias_correction2_sqrt * step_size_neg)).add_(
                    eps / step_size_neg
                )
            _addcdiv_(param, exp_avg.clone() if differentiable else exp_avg, denom)
        else:
            step = _get_value(step_t)
            bias_correction1 = 1 - beta1**step
            bias_correction2 = 1 - beta2**step
            # a tensor lr keeps step_size a tensor of its dtype, as in PyTorch
            step_size = lr / bias_correction1
            bias_correction2_sqrt = bias_correction2**0.5
            if amsgrad:
                max_exp_avg_sqs[i].copy_(yaten.maximum(max_exp_avg_sqs[i], exp_avg_sq))
                denom = (max_exp_avg_sqs[i].sqrt() / bias_correction2_sqrt).add_(eps)
            else:
                denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
            _addcdiv_(param, exp_avg, denom, value=-step_size)
