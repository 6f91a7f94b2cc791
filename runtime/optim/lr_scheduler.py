"""Learning-rate schedulers, as ``torch.optim.lr_scheduler``.

Each scheduler writes ``param_group["lr"]`` of its optimizer on every ``step()``. The step rules
are PyTorch's chainable (recursive) forms, so several schedulers may drive one optimizer and
each sees the lr the others left; ``step(epoch)`` uses the closed form where one exists.
"""

import math
import types
import warnings
from bisect import bisect_right
from collections import Counter
from functools import wraps
from weakref import ref

from yaten._tensor import Tensor

from .optimizer import Optimizer, _to_scalar

__all__ = [
    "CosineAnnealingLR",
    "ExponentialLR",
    "LRScheduler",
    "LambdaLR",
    "MultiStepLR",
    "OneCycleLR",
    "ReduceLROnPlateau",
    "StepLR",
]

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)


def _format_param(name: str, optimizer: Optimizer, param) -> list:
    # one value per param group: a list/tuple is checked, a scalar repeated
    if isinstance(param, (list, tuple)):
        if len(param) != len(optimizer.param_groups):
            raise ValueError(
                f"{name} must have the same length as optimizer.param_groups. "
                f"{name} has {len(param)} values, param_groups has "
                f"{len(optimizer.param_groups)}."
            )
    else:
        param = [param] * len(optimizer.param_groups)
    return [p.clone() if isinstance(p, Tensor) else p for p in param]


def _update_param_group_val(param_group: dict, key: str, val) -> None:
    # a tensor lr is updated in place so that whoever holds it sees the new value
    if isinstance(param_group[key], Tensor):
        param_group[key].fill_(_to_scalar(val))
    else:
        param_group[key] = val


def _param_groups_val_list(optimizer: Optimizer, key: str) -> list:
    return [
        group[key].clone() if isinstance(group[key], Tensor) else group[key]
        for group in optimizer.param_groups
    ]


def _warn_get_lr_called_within_step(scheduler) -> None:
    if not scheduler._get_lr_called_within_step:
        warnings.warn(
            "To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
            UserWarning,
            stacklevel=3,
        )


class LRScheduler:
    """Base class of the schedulers, as ``torch.optim.lr_scheduler.LRScheduler``.

    Subclasses implement ``get_lr()``. Construction records ``initial_lr`` in every param group
    (when ``last_epoch == -1``) and performs the initial step, so ``last_epoch`` becomes 0.

    >>> import yaten
    >>> opt = yaten.optim.SGD([yaten.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = yaten.optim.lr_scheduler.LambdaLR(opt, lambda epoch: 1 / (epoch + 1))
    >>> sched.last_epoch, opt.param_groups[0]["initial_lr"], sched.get_last_lr()
    (0, 1.0, [1.0])
    """

    _get_lr_called_within_step: bool = False
    _is_initial: bool = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                initial_lr = group["lr"]
                if isinstance(initial_lr, Tensor):
                    initial_lr = initial_lr.clone()
                group.setdefault("initial_lr", initial_lr)
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when "
                        "resuming scheduler with last_epoch >= 0.\n"
                        "This typically happens when:\n"
                        "1. You're trying to resume training from a checkpoint but haven't "
                        "properly loaded the optimizer state\n"
                        "2. You're using last_epoch >= 0 for a fresh training run "
                        "(not recommended)"
                    )
        self.base_lrs = _param_groups_val_list(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        self._patch_track_step_called()
        self._initial_step()

    def _patch_track_step_called(self) -> None:
        # wrap optimizer.step (once) so a scheduler stepped first can warn, as PyTorch does
        opt = self.optimizer
        if hasattr(opt.step, "_wrapped_by_lr_sched"):
            return
        opt_ref = ref(opt)
        func = opt.step.__func__

        @wraps(func)
        def wrapper(*args, **kwargs):
            o = opt_ref()
            o._opt_called = True
            return func.__get__(o, o.__class__)(*args, **kwargs)

        wrapper._wrapped_by_lr_sched = True
        opt.step = wrapper

    def _initial_step(self) -> None:
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def state_dict(self) -> dict:
        """Every attribute but the optimizer, as PyTorch."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore the attributes saved by :meth:`state_dict`."""
        self.__dict__.update(state_dict)

    def get_last_lr(self) -> list:
        """The learning rates the last ``step()`` set, one per param group."""
        return self._last_lr

    def get_lr(self) -> list:
        """The learning rates of the current epoch (the subclass's rule)."""
        raise NotImplementedError

    def step(self, epoch: int | None = None) -> None:
        """Advance one epoch (or jump to ``epoch``, deprecated) and update the learning rates."""
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn(
                    "Seems like `optimizer.step()` has been overridden after learning rate "
                    "scheduler initialization. Please, make sure to call `optimizer.step()` "
                    "before `lr_scheduler.step()`. See more details at "
                    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                    UserWarning,
                    stacklevel=2,
                )
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn(
                    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
                    "In PyTorch 1.1.0 and later, you should call them in the opposite order: "
                    "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this "
                    "will result in PyTorch skipping the first value of the learning rate "
                    "schedule. See more details at "
                    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                    UserWarning,
                    stacklevel=2,
                )
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed_form = getattr(self, "_get_closed_form_lr", self.get_lr)
                values = closed_form()
        finally:
            self._get_lr_called_within_step = False
        for param_group, lr in zip(self.optimizer.param_groups, values):
            _update_param_group_val(param_group, "lr", lr)
        self._last_lr = _param_groups_val_list(self.optimizer, "lr")


class LambdaLR(LRScheduler):
    """Sets each group's lr to ``initial_lr * lr_lambda(epoch)`` (one lambda, or one per group).

    >>> import yaten
    >>> opt = yaten.optim.SGD([yaten.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = yaten.optim.lr_scheduler.LambdaLR(opt, lambda epoch: 0.5 ** epoch)
    >>> for _ in range(3):
    ...     opt.step()
    ...     sched.step()
    >>> sched.get_last_lr()
    [0.125]
    """

    def __init__(self, optimizer: Optimizer, lr_lambda, last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        if not isinstance(lr_lambda, (list, tuple)):
            self.lr_lambdas = [lr_lambda] * len(optimizer.param_groups)
        else:
            if len(lr_lambda) != len(optimizer.param_groups):
                raise ValueError(
                    f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}"
                )
            self.lr_lambdas = list(lr_lambda)
        super().__init__(optimizer, last_epoch)

    def state_dict(self) -> dict:
        """As the base, but a lambda is saved only as its ``__dict__`` (when it is an object)."""
        state_dict = {
            key: value for key, value in self.__dict__.items() if key not in ("optimizer", "lr_lambdas")
        }
        state_dict["lr_lambdas"] = [None] * len(self.lr_lambdas)
        for idx, fn in enumerate(self.lr_lambdas):
            if not isinstance(fn, types.FunctionType):
                state_dict["lr_lambdas"][idx] = fn.__dict__.copy()
        return state_dict

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore the attributes; callable objects get their saved ``__dict__`` back."""
        lr_lambdas = state_dict.pop("lr_lambdas")
        self.__dict__.update(state_dict)
        state_dict["lr_lambdas"] = lr_lambdas
        for idx, fn in enumerate(lr_lambdas):
            if fn is not None:
                self.lr_lambdas[idx].__dict__.update(fn)

    def get_lr(self) -> list:
        """``base_lr * lr_lambda(last_epoch)`` per group."""
        _warn_get_lr_called_within_step(self)
        return [base_lr * lmbda(self.last_epoch) for lmbda, base_lr in zip(self.lr_lambdas, self.base_lrs)]


class StepLR(LRScheduler):
    """Multiplies the lr by ``gamma`` every ``step_size`` epochs.

    >>> import yaten
    >>> opt = yaten.optim.SGD([yaten.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = yaten.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    >>> lrs = []
    >>> for _ in range(5):
    ...     opt.step()
    ...     sched.step()
    ...     lrs += sched.get_last_lr()
    >>> lrs
    [1.0, 0.5, 0.5, 0.25, 0.25]
    """

    def __init__(
        self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1
    ) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        """The current lr, times ``gamma`` on a multiple of ``step_size``."""
        _warn_get_lr_called_within_step(self)
        if (self.last_epoch == 0) or (self.last_epoch % self.step_size != 0):
            return _param_groups_val_list(self.optimizer, "lr")
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiplies the lr by ``gamma`` at each milestone epoch (a repeated milestone counts twice).

    >>> import yaten
    >>> opt = yaten.optim.SGD([yaten.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = yaten.optim.lr_scheduler.MultiStepLR(opt, milestones=[1, 3], gamma=0.5)
    >>> lrs = []
    >>> for _ in range(4):
    ...     opt.step()
    ...     sched.step()
    ...     lrs += sched.get_last_lr()
    >>> lrs
    [0.5, 0.5, 0.25, 0.25]
    """

    def __init__(self, optimizer: Optimizer, milestones, gamma: float = 0.1, last_epoch: int = -1) -> None:
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        """The current lr, times ``gamma ** count`` at a milestone."""
        _warn_get_lr_called_within_step(self)
        if self.last_epoch not in self.milestones:
            return _param_groups_val_list(self.optimizer, "lr")
        return [
            group["lr"] * self.gamma ** self.milestones[self.last_epoch]
            for group in self.optimizer.param_groups
        ]

    def _get_closed_form_lr(self) -> list:
        milestones = sorted(self.milestones.elements())
        return [
            base_lr * self.gamma ** bisect_right(milestones, self.last_epoch) for base_lr in self.base_lrs
        ]


class ExponentialLR(LRScheduler):
    """Multiplies the lr by ``gamma`` every epoch.

    >>> import yaten
    >>> opt = yaten.optim.SGD([yaten.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = yaten.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
    >>> opt.step(); sched.step(); opt.step(); sched.step()
    >>> sched.get_last_lr()
    [0.25]
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        """The current lr times ``gamma`` (unchanged at construction)."""
        _warn_get_lr_called_within_step(self)
        if self._is_initial:
            return _param_groups_val_list(self.optimizer, "lr")
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [base_lr * self.gamma**self.last_epoch for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Anneals the lr from ``initial_lr`` to ``eta_min`` over ``T_max`` epochs on a cosine.

    The update is PyTorch's recursive form (it multiplies the current lr by a ratio of cosines),
    so it composes with other schedulers; past ``T_max`` the lr rises again, with period
    ``2 * T_max``.

    >>> import yaten
    >>> opt = yaten.optim.SGD([yaten.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = yaten.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=2)
    >>> lrs = []
    >>> for _ in range(4):
    ...     opt.step()
    ...     sched.step()
    ...     lrs.append(round(sched.get_last_lr()[0], 6))
    >>> lrs
    [0.5, 0.0, 0.5, 1.0]
    """

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1) -> None:
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        """The next lr of the recursive cosine rule."""
        _warn_get_lr_called_within_step(self)
        groups = self.optimizer.param_groups
        if self._is_initial:
            return _param_groups_val_list(self.optimizer, "lr")
        if self._step_count == 1 and self.last_epoch > 0:
            return [
                self.eta_min
                + (base_lr - self.eta_min) * (1 + math.cos((self.last_epoch) * math.pi / self.T_max)) / 2
                for base_lr in self.base_lrs
            ]
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            return [
                group["lr"] + (base_lr - self.eta_min) * (1 - math.cos(math.pi / self.T_max)) / 2
                for base_lr, group in zip(self.base_lrs, groups)
            ]
        return [
            (1 + math.cos(math.pi * self.last_epoch / self.T_max))
            / (1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max))
            * (group["lr"] - self.eta_min)
            + self.eta_min
            for group in groups
        ]

    def _get_closed_form_lr(self) -> list:
        return [
            self.eta_min
            + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
            for base_lr in self.base_lrs
        ]


class OneCycleLR(LRScheduler):
    """The 1cycle policy: lr rises from ``max_lr / div_factor`` to ``max_lr``, then falls to
    ``initial_lr / final_div_factor``; momentum (or Adam's ``beta1``) cycles inversely.

    Step it once per batch; ``total_steps`` (or ``epochs * steps_per_epoch``) steps in all.
    Not chainable.

    >>> import yaten
    >>> opt = yaten.optim.SGD([yaten.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)
    >>> sched = yaten.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=4,
    ...                                             anneal_strategy="linear")
    >>> lrs = sched.get_last_lr()
    >>> for _ in range(3):
    ...     opt.step()
    ...     sched.step()
    ...     lrs += sched.get_last_lr()
    >>> [round(lr, 6) for lr in lrs]
    [0.04, 0.714287, 0.357145, 4e-06]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        max_lr,
        total_steps: int | None = None,
        epochs: int | None = None,
        steps_per_epoch: int | None = None,
        pct_start: float = 0.3,
        anneal_strategy: str = "cos",
        cycle_momentum: bool = True,
        base_momentum=0.85,
        max_momentum=0.95,
        div_factor: float = 25.0,
        final_div_factor: float = 1e4,
        three_phase: bool = False,
        last_epoch: int = -1,
    ) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer

        if total_steps is not None:
            if total_steps <= 0 or not isinstance(total_steps, int):
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            self.total_steps = total_steps
        elif epochs is not None and steps_per_epoch is not None:
            if not isinstance(epochs, int) or epochs <= 0:
                raise ValueError(f"Expected positive integer epochs, but got {epochs}")
            if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
                raise ValueError(f"Expected positive integer steps_per_epoch, but got {steps_per_epoch}")
            self.total_steps = epochs * steps_per_epoch
        else:
            raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")

        phase_one = {
            "end_step": float(pct_start * self.total_steps) - 1,
            "start_lr": "initial_lr",
            "end_lr": "max_lr",
            "start_momentum": "max_momentum",
            "end_momentum": "base_momentum",
        }
        if three_phase:
            self._schedule_phases = [
                phase_one,
                {
                    "end_step": float(2 * pct_start * self.total_steps) - 2,
                    "start_lr": "max_lr",
                    "end_lr": "initial_lr",
                    "start_momentum": "base_momentum",
                    "end_momentum": "max_momentum",
                },
                {
                    "end_step": self.total_steps - 1,
                    "start_lr": "initial_lr",
                    "end_lr": "min_lr",
                    "start_momentum": "max_momentum",
                    "end_momentum": "max_momentum",
                },
            ]
        else:
            self._schedule_phases = [
                phase_one,
                {
                    "end_step": self.total_steps - 1,
                    "start_lr": "max_lr",
                    "end_lr": "min_lr",
                    "start_momentum": "base_momentum",
                    "end_momentum": "max_momentum",
                },
            ]

        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        self._anneal_func_type = anneal_strategy

        max_lrs = _format_param("max_lr", self.optimizer, max_lr)
        if last_epoch == -1:
            for idx, group in enumerate(self.optimizer.param_groups):
                group["initial_lr"] = max_lrs[idx] / div_factor
                group["max_lr"] = max_lrs[idx]
                group["min_lr"] = group["initial_lr"] / final_div_factor

        self.cycle_momentum = cycle_momentum
        if self.cycle_momentum:
            if "momentum" not in self.optimizer.defaults and "betas" not in self.optimizer.defaults:
                raise ValueError(
                    "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"
                )
            self.use_beta1 = "betas" in self.optimizer.defaults
            max_momentums = _format_param("max_momentum", optimizer, max_momentum)
            base_momentums = _format_param("base_momentum", optimizer, base_momentum)
            if last_epoch == -1:
                for m_momentum, b_momentum, group in zip(
                    max_momentums, base_momentums, optimizer.param_groups
                ):
                    if self.use_beta1:
                        group["betas"] = (m_momentum, *group["betas"][1:])
                    else:
                        group["momentum"] = m_momentum
                    group["max_momentum"] = m_momentum
                    group["base_momentum"] = b_momentum

        super().__init__(optimizer, last_epoch)

    def _anneal_func(self, start, end, pct):
        if self._anneal_func_type == "cos":
            return self._annealing_cos(start, end, pct)
        return self._annealing_linear(start, end, pct)

    @staticmethod
    def _annealing_cos(start, end, pct):
        cos_out = math.cos(math.pi * pct) + 1
        return end + (start - end) / 2.0 * cos_out

    @staticmethod
    def _annealing_linear(start, end, pct):
        return (end - start) * pct + start

    def get_lr(self) -> list:
        """The lr of step ``last_epoch`` (and the momentum it implies, set on the groups)."""
        _warn_get_lr_called_within_step(self)
        lrs = []
        step_num = self.last_epoch
        if step_num > self.total_steps:
            raise ValueError(
                f"Tried to step {step_num} times. The specified number of total steps is {self.total_steps}"
            )
        for group in self.optimizer.param_groups:
            start_step = 0.0
            for i, phase in enumerate(self._schedule_phases):
                end_step = phase["end_step"]
                if step_num <= end_step or i == len(self._schedule_phases) - 1:
                    pct = (step_num - start_step) / (end_step - start_step)
                    computed_lr = self._anneal_func(group[phase["start_lr"]], group[phase["end_lr"]], pct)
                    if self.cycle_momentum:
                        computed_momentum = self._anneal_func(
                            group[phase["start_momentum"]], group[phase["end_momentum"]], pct
                        )
                    break
                start_step = phase["end_step"]
            lrs.append(computed_lr)
            if self.cycle_momentum:
                if self.use_beta1:
                    group["betas"] = (computed_momentum, *group["betas"][1:])
                else:
                    group["momentum"] = computed_momentum
        return lrs


class ReduceLROnPlateau(LRScheduler):
    """Multiplies the lr by ``factor`` once a metric has stopped improving for ``patience`` epochs.

    ``step(metric)`` takes the metric. ``mode`` is ``"min"`` or ``"max"``; an improvement must beat
    the best value by ``threshold`` (relative or absolute, ``threshold_mode``); after a reduction,
    ``cooldown`` epochs are ignored; the lr never goes below ``min_lr`` and changes smaller than
    ``eps`` are skipped.

    >>> import yaten
    >>> opt = yaten.optim.SGD([yaten.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = yaten.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=1)
    >>> for loss in [3.0, 2.0, 2.0, 2.0, 2.0]:
    ...     sched.step(loss)
    >>> sched.get_last_lr()
    [0.5]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        mode: str = "min",
        factor: float = 0.1,
        patience: int = 10,
        threshold: float = 1e-4,
        threshold_mode: str = "rel",
        cooldown: int = 0,
        min_lr=0,
        eps: float = 1e-8,
    ) -> None:
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        self.factor = factor
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer

        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != len(optimizer.param_groups):
                raise ValueError(f"expected {len(optimizer.param_groups)} min_lrs, got {len(min_lr)}")
            self.default_min_lr = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * len(optimizer.param_groups)

        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = _param_groups_val_list(self.optimizer, "lr")
        self._init_is_better(mode=mode, threshold=threshold, threshold_mode=threshold_mode)
        self._reset()

    def _reset(self) -> None:
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def step(self, metrics, epoch=None) -> None:
        """Record this epoch's metric; reduce the lr when it has plateaued."""
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self.last_epoch = epoch

        if self._is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1

        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0  # bad epochs in cooldown do not count

        if self.num_bad_epochs > self.patience:
            self._reduce_lr(epoch)
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0

        self._last_lr = _param_groups_val_list(self.optimizer, "lr")

    def _reduce_lr(self, epoch) -> None:
        if len(self.optimizer.param_groups) != len(self.min_lrs):
            if self.default_min_lr is None:
                raise RuntimeError(
                    "The number of param groups in the `optimizer` "
                    f"({len(self.optimizer.param_groups)}) differs "
                    "from when `ReduceLROnPlateau` was initialized "
                    f"({len(self.min_lrs)}), usually due to a new "
                    "param group being added to the optimizer. Please "
                    "modify the `min_lrs` field to match the length "
                    "of the `optimizer` param groups."
                )
            self.min_lrs = [self.default_min_lr] * len(self.optimizer.param_groups)
        for i, param_group in enumerate(self.optimizer.param_groups):
            old_lr = float(param_group["lr"])
            new_lr = max(old_lr * self.factor, self.min_lrs[i])
            if old_lr - new_lr > self.eps:
                _update_param_group_val(param_group, "lr", new_lr)

    @property
    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def _is_better(self, a, best) -> bool:
        if self.mode == "min" and self.threshold_mode == "rel":
            return a < best * (1.0 - self.threshold)
        if self.mode == "min" and self.threshold_mode == "abs":
            return a < best - self.threshold
        if self.mode == "max" and self.threshold_mode == "rel":
            return a > best * (self.threshold + 1.0)
        return a > best + self.threshold

    def _init_is_better(self, mode, threshold, threshold_mode) -> None:
        if mode not in {"min", "max"}:
            raise ValueError("mode " + mode + " is unknown!")
        if threshold_mode not in {"rel", "abs"}:
            raise ValueError("threshold mode " + threshold_mode + " is unknown!")
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore the attributes saved by :meth:`state_dict`."""
        self.__dict__.update(state_dict)
        self._init_is_better(mode=self.mode, threshold=self.threshold, threshold_mode=self.threshold_mode)
