"""``yaten.nn.utils.stateless``: call a module with other tensors in place of its parameters and buffers,
as ``torch.nn.utils.stateless`` (``functional_call``; ``yaten.func.functional_call`` is the current name).
"""

import contextlib
import warnings

from ..._tensor import Tensor
from ..modules.module import Module

__all__ = ["functional_call"]

_MISSING = object()


def _submodule(module: Module, path: str) -> Module:
    for attr in path.split(".") if path else ():
        try:
            child = getattr(module, attr)
        except AttributeError as ex:
            raise AttributeError(f"{module._get_name()} has no attribute `{attr}`") from ex
        if not isinstance(child, Module):
            raise TypeError(f"submodule `{path}`: {child} is not an instance of torch.nn.Module")
        module = child
    return module


def _swap_tensor(root: Module, name: str, tensor):
    """Put ``tensor`` (or, for ``_MISSING``, nothing) at ``name``; return what was there."""
    prefix, _, attr = name.rpartition(".")
    module = _submodule(root, prefix)
    if tensor is not _MISSING and tensor is not None and not isinstance(tensor, Tensor):
        raise TypeError(f"{tensor} is not an instance of torch.Tensor")
    for table in (module._parameters, module._buffers):
        if attr in table:
            orig = table[attr]
            if tensor is _MISSING:
                del table[attr]
            else:
                table[attr] = tensor  # a plain tensor may stand in for a Parameter, as in torch
            return orig
    orig = getattr(module, attr) if hasattr(module, attr) else _MISSING
    if orig is not _MISSING and orig is not None and not isinstance(orig, Tensor):
        raise TypeError(f"attribute `{attr}`: {orig} is not an instance of torch.Tensor")
    if tensor is not _MISSING:
        setattr(module, attr, tensor)
    elif hasattr(module, attr):
        delattr(module, attr)
    return orig


def _untie(module: Module, given: dict) -> dict:
    # A value given for one name of a tied tensor goes to all its names.
    by_tensor: dict = {}
    for name, t in [
        *module.named_parameters(remove_duplicate=False),
        *module.named_buffers(remove_duplicate=False),
    ]:
        by_tensor.setdefault(id(t), set()).add(name)
    tied = {name: names for names in by_tensor.values() if len(names) > 1 for name in names}
    given_tied = [name for name in given if name in tied]
    for name in given_tied:
        names = tied[name]
        if len(names.intersection(given_tied)) > 1 and len({id(given[n]) for n in names if n in given}) != 1:
            raise ValueError(
                f"functional_call got multiple values for keys {sorted(names)}, "
                "which are tied. Consider using tie_weights=False"
            )
    untied = dict(given)
    for name in given_tied:
        for other in tied[name]:
            untied[other] = given[name]
    return untied


@contextlib.contextmanager
def _reparametrize_module(module: Module, parameters_and_buffers: dict, tie_weights: bool = False,
                          strict: bool = False):  # fmt: skip
    values = _untie(module, parameters_and_buffers) if tie_weights else parameters_and_buffers
    if strict:
        valid = {n for n, _ in module.named_parameters(remove_duplicate=False)}
        valid |= {n for n, _ in module.named_buffers(remove_duplicate=False)}
        missing, unexpected = sorted(valid - set(values)), sorted(set(values) - valid)
        msgs = []
        if unexpected:
            msgs.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
        if missing:
            msgs.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
        if msgs:
            raise RuntimeError(
                "Error(s) in reparametrizing for {}:\n\t{}".format(module._get_name(), "\n\t".join(msgs))
            )
    originals: dict = {}
    try:
        for name, tensor in values.items():
            originals[name] = _swap_tensor(module, name, tensor)
        yield
    finally:
        for name, orig in originals.items():
            _swap_tensor(module, name, orig)


def _functional_call(module: Module, parameters_and_buffers: dict, args=None, kwargs=None, *,
                     tie_weights: bool = True, strict: bool = False):  # fmt: skip
    if kwargs is None:
        kwargs = {}
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _reparametrize_module(module, parameters_and_buffers, tie_weights=tie_weights, strict=strict):
        return module(*args, **kwargs)


def functional_call(module: Module, parameters_and_buffers: dict, args=None, kwargs=None, *,
                    tie_weights: bool = True, strict: bool = False):  # fmt: skip
    """Call ``module(*args, **kwargs)`` with the tensors of ``parameters_and_buffers`` (by dotted name)
    in place of its own, restoring them afterwards. Deprecated as in torch: use
    ``yaten.func.functional_call``.

    >>> import warnings
    >>> import yaten
    >>> from yaten import nn
    >>> m = nn.Linear(2, 1)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     out = nn.utils.stateless.functional_call(
    ...         m, {"weight": yaten.ones(1, 2), "bias": yaten.zeros(1)}, (yaten.tensor([1.0, 2.0]),))
    >>> out
    tensor([3.])
    """
    warnings.warn(
        "`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be removed in a "
        "future version of PyTorch. Please use `torch.func.functional_call` instead which is a drop-in "
        "replacement.",
        FutureWarning,
        stacklevel=2,
    )
    return _functional_call(
        module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights, strict=strict
    )
