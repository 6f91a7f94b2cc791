"""Schedulers that multiply the lr by a factor per epoch: LambdaLR, MultiplicativeLR, StepLR,
MultiStepLR, ConstantLR, LinearLR, ExponentialLR, PolynomialLR."""

from bisect import bisect_right
from collections import Counter

from ..optimizer import Optimizer
from .base import LRScheduler, _callable_state, _param_groups_val_list, _warn_get_lr_called_within_step


class _LambdaScheduler(LRScheduler):
    # LambdaLR and MultiplicativeLR: one lambda (or one per group), saved as its __dict__ when
    # it is a callable object (a plain function is not picklable in general, so it is skipped)

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
        state_dict["lr_lambdas"] = [_callable_state(fn) for fn in self.lr_lambdas]
        return state_dict

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore the attributes; callable objects get their saved ``__dict__`` back."""
        lr_lambdas = state_dict.pop("lr_lambdas")
        self.__dict__.update(state_dict)
        state_dict["lr_lambdas"] = lr_lambdas
        for idx, fn in enumerate(lr_lambdas):
            if fn is not None:
                self.lr_lambdas[idx].__dict__.update(fn)


class LambdaLR(_LambdaScheduler):
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

    def get_lr(self) -> list:
        """``base_lr * lr_lambda(last_epoch)`` per group."""
        _warn_get_lr_called_within_step(self)
        return [base_lr * lmbda(self.last_epoch) for lmbda, base_lr in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(_LambdaScheduler):
    """Multiplies each group's lr by ``lr_lambda(epoch)`` every epoch (one lambda, or one per group).

    >>> import yaten
    >>> opt = yaten.optim.SGD([yaten.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = yaten.optim.lr_scheduler.MultiplicativeLR(opt, lambda epoch: 0.5)
    >>> for _ in range(3):
    ...     opt.step()
    ...     sched.step()
    >>> sched.get_last_lr()
    [0.125]
    """

    def __init__(self, optimizer: Optimizer, lr_lambda, last_epoch: int = -1) -> None:
        lambdas = lr_lambda if isinstance(lr_lambda, (list, tuple)) else [lr_lambda]
        for fn in lambdas:
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, lr_lambda, last_epoch)

    def get_lr(self) -> list:
        """The current lr times ``lr_lambda(last_epoch)`` (unchanged at construction)."""
        _warn_get_lr_called_within_step(self)
        if self._is_initial:
            return _param_groups_val_list(self.optimizer, "lr")
        return [
            group["lr"] * lmbda(self.last_epoch)
            for lmbda, group in zip(self.lr_lambdas, self.optimizer.param_groups)
        ]


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


class ConstantLR(LRScheduler):
    """Multiplies the lr by ``factor`` until epoch ``total_iters``, then restores it.

    >>> import yaten
    >>> opt = yaten.optim.SGD([yaten.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = yaten.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2)
    >>> lrs = sched.get_last_lr()
    >>> for _ in range(3):
    ...     opt.step()
    ...     sched.step()
    ...     lrs += sched.get_last_lr()
    >>> lrs
    [0.5, 0.5, 1.0, 1.0]
    """

    def __init__(
        self, optimizer: Optimizer, factor: float = 1.0 / 3, total_iters: int = 5, last_epoch: int = -1
    ) -> None:
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        """The lr times ``factor`` at epoch 0, divided by it at ``total_iters``, else unchanged."""
        _warn_get_lr_called_within_step(self)
        if self.last_epoch == 0:
            return [group["lr"] * self.factor for group in self.optimizer.param_groups]
        if self.last_epoch != self.total_iters:
            return _param_groups_val_list(self.optimizer, "lr")
        return [group["lr"] * (1.0 / self.factor) for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [
            base_lr * (self.factor + (self.last_epoch >= self.total_iters) * (1 - self.factor))
            for base_lr in self.base_lrs
        ]


class LinearLR(LRScheduler):
    """Scales the lr linearly from ``start_factor`` to ``end_factor`` over ``total_iters`` epochs.

    >>> import yaten
    >>> opt = yaten.optim.SGD([yaten.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = yaten.optim.lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=3)
    >>> lrs = sched.get_last_lr()
    >>> for _ in range(4):
    ...     opt.step()
    ...     sched.step()
    ...     lrs += sched.get_last_lr()
    >>> lrs
    [0.25, 0.5, 0.75, 1.0, 1.0]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        start_factor: float = 1.0 / 3,
        end_factor: float = 1.0,
        total_iters: int = 5,
        last_epoch: int = -1,
    ) -> None:
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError(
                "Starting multiplicative factor expected to be greater than 0 and less or equal to 1."
            )
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        """The next lr of the recursive linear rule."""
        _warn_get_lr_called_within_step(self)
        if self.last_epoch == 0:
            return [group["lr"] * self.start_factor for group in self.optimizer.param_groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return _param_groups_val_list(self.optimizer, "lr")
        change = self.end_factor - self.start_factor
        ratio = 1.0 + change / (self.total_iters * self.start_factor + (self.last_epoch - 1) * change)
        return [group["lr"] * ratio for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [
            base_lr
            * (
                self.start_factor
                + (self.end_factor - self.start_factor)
                * min(self.total_iters, self.last_epoch)
                / self.total_iters
            )
            for base_lr in self.base_lrs
        ]


class PolynomialLR(LRScheduler):
    """Decays the lr to 0 over ``total_iters`` epochs as ``(1 - epoch / total_iters) ** power``.

    >>> import yaten
    >>> opt = yaten.optim.SGD([yaten.zeros(1, requires_grad=True)], lr=1.0)
    >>> sched = yaten.optim.lr_scheduler.PolynomialLR(opt, total_iters=4, power=2.0)
    >>> lrs = []
    >>> for _ in range(5):
    ...     opt.step()
    ...     sched.step()
    ...     lrs += sched.get_last_lr()
    >>> lrs
    [0.5625, 0.25, 0.0625, 0.0, 0.0]
    """

    def __init__(
        self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0, last_epoch: int = -1
    ) -> None:
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        """The current lr times the ratio of consecutive polynomial factors."""
        _warn_get_lr_called_within_step(self)
        if self._is_initial or self.last_epoch > self.total_iters:
            return _param_groups_val_list(self.optimizer, "lr")
        decay_factor = (
            (1.0 - self.last_epoch / self.total_iters) / (1.0 - (self.last_epoch - 1) / self.total_iters)
        ) ** self.power
        return [group["lr"] * decay_factor for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list:
        return [
            base_lr * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters) ** self.power
            for base_lr in self.base_lrs
        ]
