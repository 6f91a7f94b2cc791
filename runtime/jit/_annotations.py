"""The TorchScript annotations and decorators: they mark what they decorate, as torch's do, and change
nothing about how it runs eagerly."""

import builtins
import collections.abc
import types
import typing
import warnings
from typing import Final, NamedTuple

from ._deprecation import warn_deprecated

__all__ = ["Attribute", "Final", "annotate", "export", "ignore", "interface", "isinstance", "script_method",
           "unused"]  # fmt: skip

# torch's ``FunctionModifiers``: the value a decorator leaves in ``fn._torchscript_modifier``.
_EXPORT = "export (compile this function even if nothing calls it)"
_UNUSED = "unused (ignored and replaced with raising of an exception)"
_IGNORE = "ignore (leave as a call to Python, cannot be torch.jit.save'd)"


def _mark(fn, modifier):
    fn._torchscript_modifier = modifier
    return fn


def ignore(drop=False, **kwargs):
    """Leave a function as Python for the TorchScript compiler: ``@ignore``, or ``@ignore(drop=True)``
    (deprecated in torch for ``unused``; it warns as torch's does). It returns the function itself.

    >>> import yaten
    >>> @yaten.jit.ignore
    ... def debug(x):
    ...     return x + 1
    >>> debug(1)
    2
    """
    if callable(drop):  # used bare: @ignore
        return _mark(drop, _IGNORE)
    if not builtins.isinstance(drop, bool):
        raise RuntimeError(f"Argument to @torch.jit.ignore must be a bool or a function but got {drop}")
    drop_on_export = kwargs.pop("drop_on_export", None)
    if drop_on_export:
        warnings.warn(
            "ignore(drop_on_export=True) has been deprecated. TorchScript will now drop the function "
            "call on compilation. Use torch.jit.unused now. {}",
            category=FutureWarning,
            stacklevel=2,
        )
        drop = drop_on_export
    elif drop:
        warnings.warn(
            "ignore(True) has been deprecated. TorchScript will now drop the function "
            "call on compilation. Use torch.jit.unused now. {}",
            category=FutureWarning,
            stacklevel=2,
        )
    modifier = _UNUSED if drop else _IGNORE

    def decorator(fn):
        return _mark(fn, modifier)

    return decorator


def unused(fn):
    """Mark a function or method the compiler would replace by a raise; it runs normally here.

    >>> import yaten
    >>> @yaten.jit.unused
    ... def memory_efficient(x):
    ...     return x - 1
    >>> memory_efficient(3)
    2
    """
    if builtins.isinstance(fn, property):
        _mark(fn.fget, _UNUSED)
        if fn.fset is not None:
            _mark(fn.fset, _UNUSED)
        return fn
    return _mark(fn, _UNUSED)


def export(fn):
    """Mark a module method to compile even when ``forward`` does not call it; returns the method.

    >>> import yaten
    >>> def helper(self):
    ...     return 1
    >>> yaten.jit.export(helper) is helper
    True
    """
    return _mark(fn, _EXPORT)


def script_method(fn):
    """The legacy ``ScriptModule`` method decorator: the method itself.

    >>> import yaten
    >>> yaten.jit.script_method(len)([1, 2])
    2
    """
    warn_deprecated("script_method")
    return fn


def interface(obj):
    """Declare a TorchScript interface class (or module interface): the class itself.

    >>> import yaten
    >>> @yaten.jit.interface
    ... class Shape:
    ...     def area(self) -> float:
    ...         pass
    >>> Shape.__name__
    'Shape'
    """
    warn_deprecated("interface")
    if not builtins.isinstance(obj, type):
        raise RuntimeError("interface must be applied to a class")
    obj.__torch_script_interface__ = True
    return obj


def annotate(the_type, the_value):
    """Give a value its TorchScript type (``annotate(List[int], [])``): the value.

    >>> import typing, yaten
    >>> yaten.jit.annotate(typing.List[int], [])
    []
    """
    return the_value


class Attribute(NamedTuple):
    """A module attribute with its TorchScript type, as torch's ``Attribute(value, type)``.

    >>> import yaten
    >>> yaten.jit.Attribute(3, int)
    Attribute(value=3, type=<class 'int'>)
    """

    value: typing.Any
    type: typing.Any


def _matches(obj, target) -> bool:
    origin = typing.get_origin(target)
    args = typing.get_args(target)
    if target is typing.Any:
        return True
    if origin is None:
        return builtins.isinstance(obj, target)
    if origin in (typing.Union, types.UnionType):
        return any(_matches(obj, arg) for arg in args)
    if origin is list:
        return builtins.isinstance(obj, list) and all(_matches(x, args[0]) for x in obj)
    if origin is dict:
        return builtins.isinstance(obj, dict) and all(
            _matches(k, args[0]) and _matches(v, args[1]) for k, v in obj.items()
        )
    if origin is tuple:
        return (
            builtins.isinstance(obj, tuple)
            and len(obj) == len(args)
            and all(_matches(x, arg) for x, arg in zip(obj, args))
        )
    if origin in (collections.abc.Sequence, collections.abc.Mapping):
        return builtins.isinstance(obj, origin)
    raise RuntimeError(
        f"Unsupported type: {target}. torch.jit.isinstance checks List, Dict, Tuple, Optional and Union "
        "of refinable types"
    )


def isinstance(obj, target_type) -> bool:
    """``isinstance`` that also checks container element types (``List[int]``, ``Dict[str, Tensor]``,
    ``Tuple[int, str]``, ``Optional[...]``), as TorchScript's refinement does.

    >>> import typing, yaten
    >>> yaten.jit.isinstance([1, 2], typing.List[int]), yaten.jit.isinstance([1, "a"], typing.List[int])
    (True, False)
    """
    return _matches(obj, target_type)
