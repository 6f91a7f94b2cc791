"""The shared frame of the optimizers whose per-parameter state is made at a parameter's first step.

Adadelta, Adamax, NAdam, RAdam, ASGD and Rprop step alike: gather the parameters that have a
gradient, create their state the first time (``_new_state``), then run the optimizer's functional
update on the group (``_update``). Loading an older state dict fills in the options and the tensor
scalars it lacks, as PyTorch's ``__setstate__`` does.
"""

import yaten
from yaten._tensor import Tensor

from .optimizer import (
    Optimizer,
    _check_not_complex,
    _closure_loss,
    _scalar_state,
    _use_grad_for_differentiable,
)

# the flags of these optimizers, with the values an older state dict lacking them means
_FLAG_DEFAULTS = {"foreach": None, "maximize": False, "differentiable": False, "capturable": False}


def _flags(group: dict) -> dict:
    """The flags every functional update takes (foreach, maximize, differentiable, capturable)."""
    return {name: group[name] for name in _FLAG_DEFAULTS}


def _zeros(p: Tensor) -> Tensor:
    return yaten.zeros_like(p, memory_format=yaten.preserve_format)


def _columns(states: list, *keys: str) -> list:
    """One list per key: ``[state[key] for state in states]``, as the functional updates take them."""
    return [[state[key] for state in states] for key in keys]


class _LazyStateOptimizer(Optimizer):
    # the scalar state kept as 0-dim tensors (an older state dict may hold numbers), the options
    # an older state dict may lack beyond _FLAG_DEFAULTS, and whether the scalars live on the
    # parameter's device even without capturable (ASGD)
    _scalar_keys: tuple = ("step",)
    _extra_defaults: tuple = ()
    _scalars_on_param_device: bool = False

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            for name, default in {**_FLAG_DEFAULTS, **dict(self._extra_defaults)}.items():
                group.setdefault(name, default)
            on_device = self._scalars_on_param_device or group["capturable"]
            for p in group["params"]:
                p_state = self.state.get(p, {})
                for key in self._scalar_keys:
                    if key in p_state and not isinstance(p_state[key], Tensor):
                        p_state[key] = _scalar_state(p, on_device, float(p_state[key]))

    def _new_state(self, p: Tensor, group: dict) -> dict:
        """The state of ``p`` at its first step."""
        raise NotImplementedError

    def _update(self, group: dict, params: list, grads: list, states: list) -> None:
        """Update ``params`` (those of ``group`` with a gradient) and their ``states`` in place."""
        raise NotImplementedError

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Perform one step; ``closure`` re-evaluates the model and returns the loss."""
        loss = _closure_loss(closure)
        for group in self.param_groups:
            params, grads, states = [], [], []
            for p in group["params"]:
                if p.grad is None:
                    continue
                _check_not_complex(type(self).__name__, p)
                params.append(p)
                grads.append(p.grad)
                state = self.state[p]
                if len(state) == 0:
                    state.update(self._new_state(p, group))
                states.append(state)
            self._update(group, params, grads, states)
        return loss
