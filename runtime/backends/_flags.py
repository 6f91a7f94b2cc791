"""The pattern of ``torch.backends``' settable flags: a module whose class holds each flag as a
descriptor, so ``backends.cudnn.benchmark = True`` is checked as torch checks it, and a ``flags``
context manager that sets a group of them for a block and puts them back."""

import contextlib
import sys
import types

__all__ = ["BoolFlag", "FlagModule", "flag_context", "install"]


class BoolFlag:
    """A module-level bool; setting anything else is torch's ``set_<name>_<library> expects a bool``."""

    def __init__(self, default: bool, library: str):
        self.value = default
        self.library = library

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, owner=None):
        return self if obj is None else self.value

    def __set__(self, obj, value):
        if not isinstance(value, bool):
            raise RuntimeError(
                f"set_{self.name}_{self.library} expects a bool, but got {type(value).__name__}"
            )
        self.value = value


class FlagModule(types.ModuleType):
    """The class a flag-holding submodule becomes: its flags are class-level ``BoolFlag``s."""


def install(module_name: str, cls: type) -> None:
    """Make the module ``module_name`` an instance of ``cls`` (a FlagModule with its flags)."""
    sys.modules[module_name].__class__ = cls


@contextlib.contextmanager
def flag_context(module, **values):
    """Set the given flags of ``module`` in a block (``None``: leave that one) and restore them after."""
    saved = {name: getattr(module, name) for name in values}
    try:
        for name, value in values.items():
            if value is not None:
                setattr(module, name, value)
        yield
    finally:
        for name, value in saved.items():
            setattr(module, name, value)
