"""yaten.jit: ``torch.jit``'s names, so that programs written for TorchScript run eagerly.

yaten has no TorchScript compiler, and runs TorchScript programs eagerly. ``script(module)`` returns a
``ScriptModule``: a copy of the module tree around the same parameters and buffers (same outputs,
parameter names and ``state_dict``; its own ``training`` flags, as torch's); ``script(fn)`` a
``ScriptFunction`` calling ``fn``; a class stays itself. ``trace`` runs the function once on its
example inputs (as torch's trace does, so a call that cannot work fails there) and returns the same.
The decorators (``ignore``, ``unused``, ``export``, ...) mark what they decorate and return it. A
TorchScript archive is something yaten can neither write nor read: ``save`` (``jit.save`` and
``ScriptModule.save``) and ``load`` raise ``NotImplementedError`` saying so (use
``yaten.save(model.state_dict())``).

>>> import yaten
>>> m = yaten.nn.Linear(2, 2)
>>> s = yaten.jit.script(m)
>>> isinstance(s, yaten.jit.ScriptModule), s.weight is m.weight, s(yaten.ones(1, 2)).shape
(True, True, yaten.Size([1, 2]))
>>> yaten.jit.is_scripting()
False
"""

from ._annotations import (
    Attribute,
    Final,
    annotate,
    export,
    ignore,
    interface,
    isinstance,
    script_method,
    unused,
)  # fmt: skip
from ._fork import Future, fork, wait
from ._script import (
    Error,
    ScriptFunction,
    ScriptModule,
    ScriptWarning,
    TracerWarning,
    TracingCheckError,
    enable_onednn_fusion,
    freeze,
    fuser,
    is_scripting,
    is_tracing,
    onednn_fusion_enabled,
    optimize_for_inference,
    optimized_execution,
    script,
    script_if_tracing,
    set_fusion_strategy,
    trace,
    trace_module,
)  # fmt: skip
from ._serialization import load, save

__all__ = [
    "Attribute",
    "Error",
    "Final",
    "Future",
    "ScriptFunction",
    "ScriptModule",
    "ScriptWarning",
    "TracerWarning",
    "TracingCheckError",
    "annotate",
    "enable_onednn_fusion",
    "export",
    "fork",
    "freeze",
    "fuser",
    "ignore",
    "interface",
    "is_scripting",
    "is_tracing",
    "isinstance",
    "load",
    "onednn_fusion_enabled",
    "optimize_for_inference",
    "optimized_execution",
    "save",
    "script",
    "script_if_tracing",
    "script_method",
    "set_fusion_strategy",
    "trace",
    "trace_module",
    "unused",
    "wait",
]
