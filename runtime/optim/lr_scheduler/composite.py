"""Schedulers made of schedulers: SequentialLR (one after another) and ChainedScheduler (all at once)."""

from bisect import bisect_right

from ..optimizer import Optimizer
from .base import LRScheduler, _param_groups_val_list, _update_param_group_val
from .plateau import ReduceLROnPlateau


def _check_schedulers(composite, optimizer: Optimizer, schedulers) -> None:
    # every scheduler drives the same optimizer and steps without arguments
    name = type(composite).__name__
    for scheduler_idx, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(f"{name} at index {scheduler_idx} should have `optimizer` as its attribute.")
        if isinstance(scheduler, ReduceLROnPlateau):
            raise ValueError(
                f"{name} does not support `ReduceLROnPlateau` scheduler as it "
                "requires additional kwargs to be specified when calling `step`, "
                f"but got one at index {scheduler_idx} in the given schedulers sequence."
            )
        if optimizer != scheduler.optimizer:
            raise ValueError(
                f"{name} expects all schedulers to belong to the same optimizer, but "
                f"got scheduler {scheduler.__class__.__name__} at index {scheduler_idx} has "
                f"{scheduler.optimizer}, which is different from {optimizer.__class__.__name__}."
            )


class _CompositeScheduler(LRScheduler):
    # the state dict of a composite holds each scheduler's own state dict

    def state_dict(self) -> dict:
        """The attributes, with ``_schedulers`` replaced by their state dicts."""
        state_dict = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "_schedulers")}
        state_dict["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state_dict

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore the attributes and each scheduler's state."""
        _schedulers = state_dict.pop("_schedulers")
        self.__dict__.update(state_dict)
        state_dict["_schedulers"] = _schedulers
        for scheduler, s in zip(self._schedulers, _schedulers):
            scheduler.load_state_dict(s)


class SequentialLR(_CompositeScheduler):
    """Runs ``schedulers`` one after another, switching at each epoch of ``milestones``.

    At a milestone the next scheduler starts from its own beginning (its closed form at epoch 0).

    >>> import yaten
    >>> from yaten.optim import lr_scheduler
    >>> opt = yaten.optim.SGD([yaten.zeros(1, requires_grad=True)], lr=1.0)
    >>> warmup = lr_scheduler.LinearLR(opt, start_factor=0.5, total_iters=2)
    >>> decay = lr_scheduler.ExponentialLR(opt, gamma=0.5)
    >>> sched = lr_scheduler.SequentialLR(opt, [warmup, decay], milestones=[2])
    >>> lrs = sched.get_last_lr()
    >>> for _ in range(4):
    ...     opt.step()
    ...     sched.step()
    ...     lrs += sched.get_last_lr()
    >>> lrs
    [0.5, 0.75, 1.0, 0.5, 0.25]
    """

    def __init__(self, optimizer: Optimizer, schedulers, milestones, last_epoch: int = -1) -> None:
        if len(schedulers) < 1:
            raise ValueError(
                f"{self.__class__.__name__} expects at least one scheduler, but got no scheduler."
            )
        _check_schedulers(self, optimizer, schedulers)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more "
                "than the number of milestone points, but got number of schedulers "
                f"{len(schedulers)} and the "
                f"number of milestones to be equal to {len(milestones)}"
            )
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer

        # back to the initial lrs, and undo the initial step every scheduler took when built
        for group in self.optimizer.param_groups:
            _update_param_group_val(group, "lr", group["initial_lr"])
        self.recursive_undo()
        # only the scheduler of epoch 0 takes its initial step
        idx = bisect_right(self._milestones, 0)
        self._schedulers[idx]._initial_step()
        self._last_lr = schedulers[idx].get_last_lr()

    def recursive_undo(self, sched=None) -> None:
        """Step back ``last_epoch`` of every (nested) scheduler by one."""
        scheds = self if sched is None else sched
        if hasattr(scheds, "_schedulers"):
            for s in scheds._schedulers:
                self.recursive_undo(s)
        elif hasattr(scheds, "last_epoch"):
            scheds.last_epoch -= 1

    def step(self) -> None:
        """Advance one epoch: step the current scheduler, or start the next at a milestone."""
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


class ChainedScheduler(_CompositeScheduler):
    """Steps every scheduler of ``schedulers`` at each ``step()``, so their factors multiply.

    >>> import yaten
    >>> from yaten.optim import lr_scheduler
    >>> opt = yaten.optim.SGD([yaten.zeros(1, requires_grad=True)], lr=1.0)
    >>> constant = lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2)
    >>> decay = lr_scheduler.ExponentialLR(opt, gamma=0.5)
    >>> sched = lr_scheduler.ChainedScheduler([constant, decay])
    >>> lrs = sched.get_last_lr()
    >>> for _ in range(3):
    ...     opt.step()
    ...     sched.step()
    ...     lrs += sched.get_last_lr()
    >>> lrs
    [0.5, 0.25, 0.25, 0.125]
    """

    def __init__(self, schedulers, optimizer: Optimizer | None = None) -> None:
        if len(schedulers) < 1:
            raise ValueError(
                f"{self.__class__.__name__} expects at least one scheduler to be chained, "
                "but got no scheduler."
            )
        optimizer = optimizer or schedulers[0].optimizer
        _check_schedulers(self, optimizer, schedulers)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = _param_groups_val_list(self._schedulers[-1].optimizer, "lr")

    def step(self) -> None:
        """Step every scheduler in order."""
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = _param_groups_val_list(self._schedulers[-1].optimizer, "lr")
