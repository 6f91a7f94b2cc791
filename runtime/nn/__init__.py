"""yaten.nn: modules, parameters, ``functional`` and ``init``, as ``torch.nn``."""

# ruff: noqa: F401 (this file only re-exports)

from . import functional, init, modules, parallel, utils
from ._factory_kwargs import factory_kwargs
from .modules import *  # noqa: F403 (every layer class: modules/__init__.py lists them)
from .parallel import DataParallel
from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter
