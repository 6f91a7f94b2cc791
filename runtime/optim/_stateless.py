"""``swap_in_optimizer_params_and_state``, as ``torch.optim.swap_in_optimizer_params_and_state``:
run an optimizer on other parameters and another state for the length of a ``with`` block."""

import contextlib
from collections import defaultdict
from typing import NamedTuple

from yaten._tensor import Tensor

__all__ = ["swap_in_optimizer_params_and_state"]

_REQUIRES = "swap_in_optimizer_params_and_state requires "


class _GroupSwapinInfo(NamedTuple):
    # a live param group (changed in place), the swap-in group of the state dict, and the tensors
    # that replace the live group's params (in the order of the swap-in group's packed ids)
    live_group: dict
    swapin_group: dict
    swapin_params: list


def _validate_state_field(state) -> dict:
    if not isinstance(state, dict):
        raise RuntimeError(
            _REQUIRES + "swapin_optim_state['state'] to be a dict mapping packed parameter ids to "
            f"per-param state dicts, got {type(state).__name__}."
        )
    if any(isinstance(k, Tensor) for k in state):
        raise RuntimeError(_REQUIRES + "optimizer.state_dict()-style state keyed by packed parameter ids.")
    if any(isinstance(k, int) and not isinstance(v, dict) for k, v in state.items()):
        raise RuntimeError(_REQUIRES + "per-parameter optimizer state entries to be dictionaries.")
    return state


def _validate_param_groups_field(optimizer, param_groups) -> list:
    if not isinstance(param_groups, list):
        raise RuntimeError(
            _REQUIRES + "swapin_optim_state['param_groups'] to be a list of param-group dicts, "
            f"got {type(param_groups).__name__}."
        )
    if len(optimizer.param_groups) != len(param_groups):
        raise RuntimeError(
            "swapin_optim_state has a different number of parameter groups than the live optimizer."
        )
    return param_groups


def _validate_group_against_live(idx: int, group: dict, swapin_group) -> list:
    """The packed parameter ids of a swap-in group that matches its live group (same size, same keys)."""
    if not isinstance(swapin_group, dict):
        raise RuntimeError(_REQUIRES + "each optimizer param group to be a dictionary.")
    swapin_param_ids = swapin_group.get("params")
    if not isinstance(swapin_param_ids, list) or not all(isinstance(pid, int) for pid in swapin_param_ids):
        raise RuntimeError(
            _REQUIRES
            + "optimizer.state_dict()-style param_groups[*]['params'] entries keyed by packed parameter ids."
        )
    if len(group["params"]) != len(swapin_param_ids):
        raise RuntimeError(
            f"swapin_optim_state param group {idx} has a different number of params than the live optimizer "
            "param group."
        )
    swapin_only = [k for k in swapin_group if k not in group]
    live_only = [k for k in group if k not in swapin_group]
    if swapin_only or live_only:
        raise RuntimeError(
            _REQUIRES + "optimizer.state_dict()-style param group keys to exactly match the live optimizer "
            f"group keys for group {idx}. Keys only in swap-in: {swapin_only}. "
            f"Keys only in live: {live_only}."
        )
    return swapin_param_ids


def _prepare_swap_in(optimizer, swapin_parameters: dict, swapin_optim_state) -> tuple:
    """Check a state dict and parameters against the live optimizer; pair the groups with them.

    The parameters are taken in order, group after group: with param groups ``[[0, 1], [2]]``
    the first group runs on the first two tensors of ``swapin_parameters`` and the second on the third.
    """
    if not optimizer.state:
        raise RuntimeError(_REQUIRES + "initialized optimizer state.")
    if not isinstance(swapin_optim_state, dict):
        raise RuntimeError(_REQUIRES + "a DCP-style optimizer state_dict.")
    swapin_state = _validate_state_field(swapin_optim_state.get("state"))
    swapin_param_groups = _validate_param_groups_field(optimizer, swapin_optim_state.get("param_groups"))

    flat_parameters = list(swapin_parameters.values())
    offset = 0
    seen_param_ids: set = set()
    infos = []
    for idx, (group, swapin_group) in enumerate(zip(optimizer.param_groups, swapin_param_groups)):
        swapin_param_ids = _validate_group_against_live(idx, group, swapin_group)
        seen_param_ids.update(swapin_param_ids)
        next_offset = offset + len(swapin_param_ids)
        if next_offset > len(flat_parameters):
            raise RuntimeError(
                _REQUIRES + "the explicit parameter state to match optimizer.param_groups ordering."
            )
        infos.append(_GroupSwapinInfo(group, swapin_group, flat_parameters[offset:next_offset]))
        offset = next_offset

    extra_keys = [k for k in swapin_state if k not in seen_param_ids]
    if extra_keys:
        raise RuntimeError(
            _REQUIRES + "swapin_optim_state['state'] to be keyed only by packed parameter ids from "
            f"param_groups[*]['params']; got extra keys {extra_keys!r}."
        )
    return swapin_state, infos


@contextlib.contextmanager
def swap_in_optimizer_params_and_state(optimizer, swapin_parameters: dict, swapin_optim_state: dict):
    """Within the block, ``optimizer`` works on ``swapin_parameters`` (in the order of its params)
    with the state and hyperparameters of ``swapin_optim_state`` (an ``optimizer.state_dict()``);
    its own parameters, groups and state come back on exit. In-place updates of the swap-in state's
    tensors are kept; other changes to it are not. The optimizer's state must be initialized.

    >>> import yaten
    >>> p = yaten.zeros(2, requires_grad=True)
    >>> opt = yaten.optim.SGD([p], lr=1.0, momentum=0.5)
    >>> p.grad = yaten.ones(2)
    >>> opt.step()
    >>> other = yaten.zeros(2, requires_grad=True)
    >>> other.grad = yaten.ones(2)
    >>> sd = opt.state_dict()
    >>> with yaten.optim.swap_in_optimizer_params_and_state(opt, {"w": other}, sd):
    ...     opt.step()
    >>> other, p
    (tensor([-1.5000, -1.5000], requires_grad=True), tensor([-1., -1.], requires_grad=True))
    """
    state, infos = _prepare_swap_in(optimizer, swapin_parameters, swapin_optim_state)
    original_state = optimizer.state
    # shallow copies: the params lists keep their identity when restored
    original_group_snapshots = [dict(g) for g in optimizer.param_groups]
    try:
        swapin_state: defaultdict = defaultdict(dict)
        for info in infos:
            info.live_group["params"] = info.swapin_params
            for key, value in info.swapin_group.items():
                if key != "params":
                    info.live_group[key] = value
            for swapin_param, param_id in zip(info.swapin_params, info.swapin_group["params"]):
                # a shallow copy: in-place tensor updates reach the caller's dict, new entries do not
                swapin_state[swapin_param] = dict(state.get(param_id, {}))
        optimizer.state = swapin_state
        yield
    finally:
        for group, snapshot in zip(optimizer.param_groups, original_group_snapshots):
            group.clear()
            group.update(snapshot)
        optimizer.state = original_state
