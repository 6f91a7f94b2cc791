"""Stochastic weight averaging and EMA of a model, as ``torch.optim.swa_utils``.

``AveragedModel`` keeps a running average (SWA, or an EMA) of a model's parameters (and, with
``use_buffers``, of its buffers); ``SWALR`` anneals the lr to a constant SWA lr; ``update_bn``
recomputes BatchNorm statistics for the averaged weights with one pass over the data.
"""

import itertools
import math
from copy import deepcopy

import yaten
from yaten._tensor import Tensor
from yaten.nn import Module
from yaten.nn.modules.batchnorm import _BatchNorm

from .lr_scheduler.base import LRScheduler, _format_param, _warn_get_lr_called_within_step
from .optimizer import _lerp_

__all__ = [
    "SWALR",
    "AveragedModel",
    "get_ema_avg_fn",
    "get_ema_multi_avg_fn",
    "get_swa_avg_fn",
    "get_swa_multi_avg_fn",
    "update_bn",
]

# the devices whose foreach kernels PyTorch's default averaging uses (lerp there, a division on the cpu)
_FOREACH_DEVICES = ("cuda",)


def _check_decay(decay) -> None:
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] range.")


def get_ema_multi_avg_fn(decay=0.999):
    """The EMA update of a list of averaged tensors in place: ``ema = decay * ema + (1 - decay) * p``.

    >>> import yaten
    >>> ema, p = [yaten.zeros(2)], [yaten.ones(2)]
    >>> yaten.optim.swa_utils.get_ema_multi_avg_fn(0.75)(ema, p, 1)
    >>> ema[0]
    tensor([0.2500, 0.2500])
    """
    _check_decay(decay)

    def ema_update(ema_param_list, current_param_list, _) -> None:
        with yaten.no_grad():
            if ema_param_list[0].is_floating_point() or ema_param_list[0].is_complex():
                for p_ema, p_model in zip(ema_param_list, current_param_list):
                    _lerp_(p_ema, p_model, 1 - decay)
            else:
                for p_ema, p_model in zip(ema_param_list, current_param_list):
                    p_ema.copy_(p_ema * decay + p_model * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn():
    """The SWA update of a list of averaged tensors in place: the running mean of ``n + 1`` values.

    >>> import yaten
    >>> avg, p = [yaten.ones(2)], [yaten.full((2,), 4.0)]
    >>> yaten.optim.swa_utils.get_swa_multi_avg_fn()(avg, p, 2)
    >>> avg[0]
    tensor([2., 2.])
    """

    def swa_update(averaged_param_list, current_param_list, num_averaged) -> None:
        with yaten.no_grad():
            if averaged_param_list[0].is_floating_point() or averaged_param_list[0].is_complex():
                weight = 1 / (num_averaged + 1)
                weight = weight.item() if isinstance(weight, Tensor) else weight
                for p_avg, p_model in zip(averaged_param_list, current_param_list):
                    _lerp_(p_avg, p_model, weight)
            else:
                for p_avg, p_model in zip(averaged_param_list, current_param_list):
                    diff = p_model.sub(p_avg)
                    if isinstance(num_averaged, Tensor):
                        p_avg.addcdiv_(diff, num_averaged + 1)
                    else:
                        p_avg.add_(diff, alpha=1.0 / (num_averaged + 1))

    return swa_update


def get_ema_avg_fn(decay=0.999):
    """The EMA of one tensor: returns ``decay * ema + (1 - decay) * p``.

    >>> import yaten
    >>> yaten.optim.swa_utils.get_ema_avg_fn(0.5)(yaten.zeros(2), yaten.ones(2), 3)
    tensor([0.5000, 0.5000])
    """
    _check_decay(decay)

    def ema_update(ema_param, current_param, num_averaged):
        with yaten.no_grad():
            return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn():
    """The SWA running mean of one tensor: returns ``avg + (p - avg) / (n + 1)``.

    >>> import yaten
    >>> yaten.optim.swa_utils.get_swa_avg_fn()(yaten.ones(2), yaten.full((2,), 4.0), 2)
    tensor([2., 2.])
    """

    def swa_update(averaged_param, current_param, num_averaged):
        with yaten.no_grad():
            return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


class AveragedModel(Module):
    """A copy of ``model`` whose parameters are the average of the ones it is updated with.

    The first :meth:`update_parameters` copies the model; each next one folds it into the average:
    by ``avg_fn`` (one tensor at a time), ``multi_avg_fn`` (lists of tensors, in place), or the
    equal-weight SWA mean. ``use_buffers`` averages the buffers too; otherwise they are copied.
    ``n_averaged`` counts the updates. Calling it runs the averaged copy.

    >>> import yaten
    >>> model = yaten.nn.Linear(2, 1)
    >>> swa = yaten.optim.swa_utils.AveragedModel(model)
    >>> with yaten.no_grad():
    ...     _ = model.bias.fill_(1.0)
    ...     swa.update_parameters(model)
    ...     _ = model.bias.fill_(3.0)
    ...     swa.update_parameters(model)
    >>> swa.module.bias, swa.n_averaged
    (Parameter containing:
    tensor([2.], requires_grad=True), tensor(2))
    """

    def __init__(self, model: Module, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", yaten.tensor(0, dtype=yaten.long, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        """Run the averaged copy of the model."""
        return self.module(*args, **kwargs)

    def update_parameters(self, model: Module) -> None:
        """Fold ``model``'s current parameters (and buffers, with ``use_buffers``) into the average."""
        if self.use_buffers:
            self_param = itertools.chain(self.module.parameters(), self.module.buffers())
            model_param = itertools.chain(model.parameters(), model.buffers())
        else:
            self_param, model_param = self.parameters(), model.parameters()
        self_detached, model_detached = [], []
        copy_param = bool(self.n_averaged == 0)
        for p_averaged, p_model in zip(self_param, model_param):
            p_model_ = p_model.detach().to(p_averaged.device)
            self_detached.append(p_averaged.detach())
            model_detached.append(p_model_)
            if copy_param:
                p_averaged.detach().copy_(p_model_)

        if self.n_averaged > 0:
            if self.multi_avg_fn is not None or self.avg_fn is None:
                self._average_groups(self_detached, model_detached)
            else:
                for p_averaged, p_model in zip(self_detached, model_detached):
                    n_averaged = self.n_averaged.to(p_averaged.device)
                    p_averaged.copy_(self.avg_fn(p_averaged, p_model, n_averaged))

        if not self.use_buffers:
            # buffers that are not averaged follow the model
            for b_swa, b_model in zip(self.module.buffers(), model.buffers()):
                b_swa.detach().copy_(b_model.detach().to(b_swa.device))
        self.n_averaged += 1

    def _average_groups(self, self_detached: list, model_detached: list) -> None:
        # per (device, dtype) group, as PyTorch: multi_avg_fn, or the default SWA mean (lerp where
        # PyTorch has foreach kernels, the division formula elsewhere)
        groups: dict = {}
        for p_averaged, p_model in zip(self_detached, model_detached):
            pair = groups.setdefault((p_averaged.device, p_averaged.dtype), ([], []))
            pair[0].append(p_averaged)
            pair[1].append(p_model)
        for (device, _), (self_params, model_params) in groups.items():
            n_averaged = self.n_averaged.to(device)
            if self.multi_avg_fn:
                self.multi_avg_fn(self_params, model_params, n_averaged)
            elif device.type in _FOREACH_DEVICES:
                get_swa_multi_avg_fn()(self_params, model_params, n_averaged)
            else:
                avg_fn = get_swa_avg_fn()
                for p_averaged, p_model in zip(self_params, model_params):
                    p_averaged.copy_(avg_fn(p_averaged, p_model, n_averaged))


def update_bn(loader, model: Module, device=None) -> None:
    """Recompute the running statistics of ``model``'s BatchNorm layers with one pass over ``loader``.

    The statistics are reset, then accumulated as an equal-weight mean (momentum ``None``) over the
    batches (the first element of a list or tuple batch); momenta and the training mode are restored.

    >>> import yaten
    >>> model = yaten.nn.Sequential(yaten.nn.Linear(2, 2), yaten.nn.BatchNorm1d(2))
    >>> loader = [yaten.ones(4, 2), yaten.zeros(4, 2)]
    >>> yaten.optim.swa_utils.update_bn(loader, model)
    >>> int(model[1].num_batches_tracked)
    2
    """
    with yaten.no_grad():
        momenta = {}
        for module in model.modules():
            if isinstance(module, _BatchNorm):
                module.reset_running_stats()
                momenta[module] = module.momentum
        if not momenta:
            return
        was_training = model.training
        model.train()
        for module in momenta:
            module.momentum = None
        for input in loader:
            if isinstance(input, (list, tuple)):
                input = input[0]
            if device is not None:
                input = input.to(device)
            model(input)
        for bn_module in momenta:
            bn_module.momentum = momenta[bn_module]
        model.train(was_training)


class SWALR(LRScheduler):
    """Anneals each group's lr to ``swa_lr`` over ``anneal_epochs`` (cosine or linear), then holds it.

    >>> import yaten
    >>> opt = yaten.optim.SGD([yaten.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = yaten.optim.swa_utils.SWALR(opt, swa_lr=0.1, anneal_epochs=2, anneal_strategy="linear")
    >>> lrs = sched.get_last_lr()
    >>> for _ in range(3):
    ...     opt.step()
    ...     sched.step()
    ...     lrs += sched.get_last_lr()
    >>> [round(lr, 6) for lr in lrs]
    [1.0, 0.55, 0.1, 0.1]
    """

    def __init__(
        self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy: str = "cos", last_epoch=-1
    ) -> None:
        swa_lrs = _format_param("swa_lr", optimizer, swa_lr)
        for lr, group in zip(swa_lrs, optimizer.param_groups):
            group["swa_lr"] = lr
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list:
        """The next lr: the annealing's starting lr recovered from the current one, moved on by one step."""
        _warn_get_lr_called_within_step(self)
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        prev_lrs = [
            self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
            for group in self.optimizer.param_groups
        ]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [
            group["swa_lr"] * alpha + lr * (1 - alpha)
            for group, lr in zip(self.optimizer.param_groups, prev_lrs)
        ]

    def _set_anneal_func(self, anneal_strategy: str) -> None:
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal

    def state_dict(self) -> dict:
        """Every attribute but the optimizer and the anneal function."""
        return {key: value for key, value in self.__dict__.items() if key not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore the attributes and the anneal function."""
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
