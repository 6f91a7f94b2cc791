"""What ``script`` and ``trace`` return: ``ScriptModule`` and ``ScriptFunction`` objects that run the
original Python code eagerly.

A scripted module is a new module object, as torch's: each module of the tree is copied (its own
attributes, ``training`` flag and hook tables) around the same parameter and buffer tensors, and its
class becomes a subclass of both the original class and ``ScriptModule``. So it computes, names its
parameters and lays out its ``state_dict`` exactly as the original, ``isinstance(m, ScriptModule)``
holds, and ``m.eval()`` leaves the original alone. What needs a TorchScript archive refuses clearly:
``save`` raises NotImplementedError, and pickling raises torch's error for a scripted module.
"""

import copy
import functools

from .._torch_alias import torch_name
from ..nn import Module

__all__ = ["ScriptFunction", "ScriptModule", "script_function", "script_module"]

_HOOK_TABLES = ("_forward_pre_hooks", "_forward_pre_hooks_with_kwargs", "_forward_hooks", "_forward_hooks_with_kwargs",
                "_forward_hooks_always_called", "_backward_pre_hooks", "_backward_hooks", "_state_dict_hooks",
                "_state_dict_pre_hooks", "_load_state_dict_pre_hooks", "_load_state_dict_post_hooks")  # fmt: skip


class ScriptModule(Module):
    """The base class of TorchScript modules. Subclassed directly, it makes an ordinary module (its
    ``script_method``s are ordinary methods); ``script(module)`` returns one of these.

    >>> import yaten
    >>> class Twice(yaten.jit.ScriptModule):
    ...     @yaten.jit.script_method
    ...     def forward(self, x):
    ...         return 2 * x
    >>> Twice()(yaten.ones(2)).tolist()
    [2.0, 2.0]
    """

    def save(self, f, _extra_files=None) -> None:
        """Refuse to write a TorchScript archive, naming the alternative (as ``yaten.jit.save``)."""
        from ._serialization import refuse_save

        refuse_save()

    def __reduce_ex__(self, protocol):
        cls = getattr(type(self), "_original_class", type(self))
        raise RuntimeError(
            f"Tried to serialize object __torch__.{torch_name(cls.__module__)}.{cls.__qualname__} which does not "
            "have a __getstate__ method defined!"
        )

    def __deepcopy__(self, memo):
        # Pickling refuses (above), so deepcopy copies the attributes itself, as torch's deepcopy works.
        clone = type(self).__new__(type(self))
        memo[id(self)] = clone
        for name, value in self.__dict__.items():
            clone.__dict__[name] = copy.deepcopy(value, memo)
        return clone


@functools.cache
def _scripted_class(cls: type) -> type:
    """``cls`` as a ScriptModule: a subclass of both, under the original name and module."""
    if issubclass(cls, ScriptModule):
        return cls
    attrs = {"__module__": cls.__module__, "__qualname__": cls.__qualname__, "_original_class": cls}
    return type(cls.__name__, (cls, ScriptModule), attrs)


def script_module(module: Module) -> Module:
    """A scripted copy of ``module``: new module objects sharing the parameter and buffer tensors."""
    scripted = copy.copy(module)
    d = scripted.__dict__
    d["_parameters"] = dict(module._parameters)
    d["_buffers"] = dict(module._buffers)
    d["_non_persistent_buffers_set"] = set(module._non_persistent_buffers_set)
    for table in _HOOK_TABLES:
        if table in d:
            d[table] = copy.copy(d[table])
    d["_modules"] = {
        name: None if child is None else script_module(child) for name, child in module._modules.items()
    }
    scripted.__class__ = _scripted_class(type(module))
    return scripted


class ScriptFunction:
    """A scripted (or traced) function: calls the original, which it wraps (``__wrapped__``).

    >>> import yaten
    >>> f = yaten.jit.script(abs)
    >>> isinstance(f, yaten.jit.ScriptFunction), f(-2), f.name
    (True, 2, 'abs')
    """

    def __init__(self, fn):
        functools.update_wrapper(self, fn)
        self.name = getattr(fn, "__name__", type(fn).__name__)

    def __call__(self, *args, **kwargs):
        return self.__wrapped__(*args, **kwargs)

    def save(self, f, _extra_files=None) -> None:
        """Refuse to write a TorchScript archive, naming the alternative (as ``yaten.jit.save``)."""
        from ._serialization import refuse_save

        refuse_save()

    def __repr__(self) -> str:
        return f"<yaten.jit.ScriptFunction {self.name} (runs {self.__wrapped__!r} eagerly)>"


def script_function(fn) -> ScriptFunction:
    """``fn`` as a ScriptFunction (itself if it is one already)."""
    return fn if isinstance(fn, ScriptFunction) else ScriptFunction(fn)
