"""torch._dynamo.config: the settings programs write before compiling (``cache_size_limit``,
``suppress_errors``, ...), with torch's defaults. yaten compiles nothing, so they are only kept; a name
torch does not have is torch's AttributeError, on reading and on writing.

>>> import yaten._dynamo
>>> yaten._dynamo.config.cache_size_limit
8
>>> yaten._dynamo.config.cache_sizelimit = 16
Traceback (most recent call last):
AttributeError: torch._dynamo.config.cache_sizelimit does not exist
"""

import sys
import types

_DEFAULTS = {
    "suppress_errors": False,
    "cache_size_limit": 8,
    "recompile_limit": 8,
    "accumulated_cache_size_limit": 256,
    "accumulated_recompile_limit": 256,
    "verbose": False,
    "capture_scalar_outputs": False,
    "capture_dynamic_output_shape_ops": False,
    "optimize_ddp": True,
    "automatic_dynamic_shapes": True,
    "assume_static_by_default": True,
    "force_parameter_static_shapes": True,
    "guard_nn_modules": True,
    "error_on_recompile": False,
    "specialize_int": False,
    "dynamic_shapes": True,
    "allow_rnn": False,
}


class _Config(types.ModuleType):
    def __getattr__(self, name):
        raise AttributeError(f"torch._dynamo.config.{name} does not exist")

    def __setattr__(self, name, value):
        if name not in _DEFAULTS and not name.startswith("__"):
            raise AttributeError(f"torch._dynamo.config.{name} does not exist")
        super().__setattr__(name, value)


globals().update(_DEFAULTS)
sys.modules[__name__].__class__ = _Config
