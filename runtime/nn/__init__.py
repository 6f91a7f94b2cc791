"""yaten.nn: modules, parameters, ``functional`` and ``init``, as ``torch.nn``."""

# ruff: noqa: F401 (this file only re-exports)

from . import functional, init, modules, utils
from .modules import *  # noqa: F403 (every layer class: modules/__init__.py lists them)
from .parameter import Buffer, Parameter
