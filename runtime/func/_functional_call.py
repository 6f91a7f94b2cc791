"""``functional_call`` (a module run with other parameters and buffers) and ``stack_module_state``."""

from collections.abc import Sequence

from .. import stack
from ..nn.utils.stateless import _functional_call


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights: bool = True,
                    strict: bool = False):  # fmt: skip
    """``module(*args, **kwargs)`` with the tensors of ``parameter_and_buffer_dicts`` (a dict by dotted name,
    or a sequence of dicts with distinct keys) in place of the module's own, which are restored afterwards.

    A value given for one of several tied names stands for all of them (``tie_weights``); ``strict``
    requires exactly the module's names.

    >>> import yaten
    >>> from yaten import nn
    >>> from yaten.func import functional_call
    >>> m = nn.Linear(2, 1)
    >>> functional_call(m, ({"weight": yaten.ones(1, 2)}, {"bias": yaten.zeros(1)}), (yaten.tensor([1.0, 2.0]),))
    tensor([3.])
    """
    if isinstance(parameter_and_buffer_dicts, dict):
        parameters_and_buffers = parameter_and_buffer_dicts
    elif isinstance(parameter_and_buffer_dicts, Sequence):
        if not all(isinstance(d, dict) for d in parameter_and_buffer_dicts):
            raise ValueError("Expected all elements of parameter_and_buffer_dicts to be dictionaries")
        counts: dict = {}
        for d in parameter_and_buffer_dicts:
            for k in d:
                counts[k] = counts.get(k, 0) + 1
        repeated = [k for k, n in counts.items() if n > 1]
        if repeated:
            raise ValueError(
                f"{repeated} appeared in multiple dictionaries; behavior of functional call is ambiguous"
            )
        parameters_and_buffers = {k: v for d in parameter_and_buffer_dicts for k, v in d.items()}
    else:
        raise ValueError(
            "Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, "
            f"but got {type(parameter_and_buffer_dicts)}"
        )
    return _functional_call(
        module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights, strict=strict
    )


def _stacked_leaf(tensors, name: str):
    all_rg = all(t.requires_grad for t in tensors)
    if not all_rg and any(t.requires_grad for t in tensors):
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    result = stack(tensors)
    return result.detach().requires_grad_() if all_rg else result


def stack_module_state(models):
    """The parameters and buffers of same-class ``models`` stacked along a new first dimension:
    ``(params, buffers)``, dicts by name, for ``vmap`` over ``functional_call`` (model ensembling).

    >>> from yaten import nn
    >>> from yaten.func import stack_module_state
    >>> params, buffers = stack_module_state([nn.Linear(3, 2) for _ in range(4)])
    >>> params["weight"].shape, params["weight"].is_leaf
    (yaten.Size([4, 2, 3]), True)
    """
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    if not all(type(m) is type(models[0]) for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    all_params = [dict(m.named_parameters()) for m in models]
    all_buffers = [dict(m.named_buffers()) for m in models]
    params = {k: _stacked_leaf(tuple(p[k] for p in all_params), k) for k in all_params[0]}
    buffers = {k: _stacked_leaf(tuple(b[k] for b in all_buffers), k) for k in all_buffers[0]}
    return params, buffers


def replace_all_batch_norm_modules_(root):
    """Make every batch norm in ``root`` use batch statistics only (no running stats), in place, for
    ``vmap`` over a model; returns ``root``.

    >>> from yaten import nn
    >>> from yaten.func import replace_all_batch_norm_modules_
    >>> bn = replace_all_batch_norm_modules_(nn.Sequential(nn.BatchNorm1d(3)))[0]
    >>> bn.running_mean is None, bn.track_running_stats
    (True, False)
    """
    from ..nn.modules.batchnorm import _BatchNorm

    for module in root.modules():
        if isinstance(module, _BatchNorm) and module.track_running_stats:
            module.running_mean = None
            module.running_var = None
            module.num_batches_tracked = None
            module.track_running_stats = False
    return root
