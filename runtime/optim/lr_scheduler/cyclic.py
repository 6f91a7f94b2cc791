"""Cyclical schedules, stepped once per batch: CyclicLR and OneCycleLR."""

import math
from functools import partial

from ..optimizer import Optimizer
from .base import (
    LRScheduler,
    _callable_state,
    _format_param,
    _update_param_group_val,
    _warn_get_lr_called_within_step,
)


def _set_momentum(group: dict, momentum, use_beta1: bool) -> None:
    if use_beta1:
        group["betas"] = (momentum, *group["betas"][1:])
    else:
        group["momentum"] = momentum


def _init_cycle_momentum(scheduler, base_momentum, max_momentum, last_epoch: int) -> tuple:
    """For ``cycle_momentum``: check the optimizer has a momentum (or Adam's beta1), and on a fresh
    start set every group's momentum to its maximum. Returns ``(base_momentums, max_momentums)``."""
    optimizer = scheduler.optimizer
    if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
        raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` option enabled")
    scheduler.use_beta1 = "betas" in optimizer.defaults
    base_momentums = _format_param("base_momentum", optimizer, base_momentum)
    max_momentums = _format_param("max_momentum", optimizer, max_momentum)
    if last_epoch == -1:
        for m_momentum, b_momentum, group in zip(max_momentums, base_momentums, optimizer.param_groups):
            _set_momentum(group, m_momentum, scheduler.use_beta1)
            group["max_momentum"] = m_momentum
            group["base_momentum"] = b_momentum
    return base_momentums, max_momentums


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
            _init_cycle_momentum(self, base_momentum, max_momentum, last_epoch)

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
                _set_momentum(group, computed_momentum, self.use_beta1)
        return lrs


class CyclicLR(LRScheduler):
    """Cycles the lr between ``base_lr`` and ``max_lr`` (cyclical learning rates), stepped per batch.

    A cycle rises for ``step_size_up`` steps and falls for ``step_size_down`` (default the same).
    ``mode``: ``"triangular"`` (constant amplitude), ``"triangular2"`` (halved each cycle),
    ``"exp_range"`` (scaled by ``gamma**step``), or a custom ``scale_fn`` applied per
    ``scale_mode`` (``"cycle"`` or ``"iterations"``). With ``cycle_momentum`` the momentum (or
    Adam's ``beta1``) cycles inversely between ``max_momentum`` and ``base_momentum``.

    >>> import yaten
    >>> opt = yaten.optim.SGD([yaten.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)
    >>> sched = yaten.optim.lr_scheduler.CyclicLR(opt, base_lr=0.1, max_lr=0.5, step_size_up=2)
    >>> lrs = sched.get_last_lr()
    >>> for _ in range(4):
    ...     opt.step()
    ...     sched.step()
    ...     lrs += sched.get_last_lr()
    >>> [round(lr, 6) for lr in lrs]
    [0.1, 0.3, 0.5, 0.3, 0.1]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        base_lr,
        max_lr,
        step_size_up: int = 2000,
        step_size_down: int | None = None,
        mode: str = "triangular",
        gamma: float = 1.0,
        scale_fn=None,
        scale_mode: str = "cycle",
        cycle_momentum: bool = True,
        base_momentum=0.8,
        max_momentum=0.9,
        last_epoch: int = -1,
    ) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer

        base_lrs = _format_param("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                _update_param_group_val(group, "lr", lr)
        self.max_lrs = _format_param("max_lr", optimizer, max_lr)

        step_size_up = float(step_size_up)
        step_size_down = float(step_size_down) if step_size_down is not None else step_size_up
        self.total_size = step_size_up + step_size_down
        self.step_ratio = step_size_up / self.total_size

        if mode not in ["triangular", "triangular2", "exp_range"] and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()

        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self.base_momentums, self.max_momentums = _init_cycle_momentum(
                self, base_momentum, max_momentum, last_epoch
            )
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self) -> None:
        if self._scale_fn_custom is not None:
            return
        if self.mode == "triangular":
            self._scale_fn_ref = self._triangular_scale_fn
            self.scale_mode = "cycle"
        elif self.mode == "triangular2":
            self._scale_fn_ref = self._triangular2_scale_fn
            self.scale_mode = "cycle"
        elif self.mode == "exp_range":
            self._scale_fn_ref = partial(self._exp_range_scale_fn, self.gamma)
            self.scale_mode = "iterations"

    def scale_fn(self, x) -> float:
        """The amplitude scale at cycle (or iteration) ``x``: the custom ``scale_fn`` or the mode's."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        return self._scale_fn_ref(x)

    @staticmethod
    def _triangular_scale_fn(x: float) -> float:
        return 1.0

    @staticmethod
    def _triangular2_scale_fn(x: float) -> float:
        return 1 / (2.0 ** (x - 1))

    @staticmethod
    def _exp_range_scale_fn(gamma: float, x: float) -> float:
        return gamma**x

    def get_lr(self) -> list:
        """The lr of step ``last_epoch`` (and, with ``cycle_momentum``, set the groups' momentum)."""
        _warn_get_lr_called_within_step(self)
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        scale_factor = x / self.step_ratio if x <= self.step_ratio else (x - 1) / (self.step_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        lrs = [
            base_lr + (max_lr - base_lr) * scale_factor * scale
            for base_lr, max_lr in zip(self.base_lrs, self.max_lrs)
        ]
        if self.cycle_momentum:
            for group, base_momentum, max_momentum in zip(
                self.optimizer.param_groups, self.base_momentums, self.max_momentums
            ):
                momentum = max_momentum - (max_momentum - base_momentum) * scale_factor * scale
                _set_momentum(group, momentum, self.use_beta1)
        return lrs

    def state_dict(self) -> dict:
        """As the base, without the mode's scale function; a custom ``scale_fn`` is kept as its
        ``__dict__`` when it is a callable object."""
        state = super().state_dict()
        state.pop("_scale_fn_ref", None)
        state["_scale_fn_custom"] = (
            None if self._scale_fn_custom is None else _callable_state(state["_scale_fn_custom"])
        )
        return state

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore the attributes and the scale function."""
        fn = state_dict.pop("_scale_fn_custom")
        super().load_state_dict(state_dict)
        if fn is not None:
            self._scale_fn_custom.__dict__.update(fn)
        self._init_scale_fn()
