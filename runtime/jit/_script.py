"""``script`` and ``trace`` without a compiler: what they return runs the original Python eagerly
(``_scripted.py``); ``trace`` first runs the example inputs under ``is_tracing()``, which is what
makes torch's ``trace`` fail on inputs the function cannot take.
"""

import contextlib
import threading
import warnings

from ..nn import Module
from ._deprecation import warn_deprecated
from ._scripted import ScriptFunction, ScriptModule, script_function, script_module

__all__ = ["Error", "ScriptFunction", "ScriptModule", "ScriptWarning", "TracerWarning", "TracingCheckError",
           "enable_onednn_fusion", "freeze", "fuser", "is_scripting", "is_tracing", "onednn_fusion_enabled",
           "optimize_for_inference", "optimized_execution", "script", "script_if_tracing",
           "set_fusion_strategy", "trace", "trace_module"]  # fmt: skip

_STATE = threading.local()  # .tracing: depth of trace calls running on this thread
_FUSION = {"strategy": [("STATIC", 2), ("DYNAMIC", 10)], "onednn": False}
_FUSERS = ("fuser0", "fuser1", "fuser2", "fuser3", "none")


class Error(Exception):
    """torch.jit.Error: what a TorchScript program's ``raise`` becomes."""


class ScriptWarning(Warning):
    """A warning about scripting."""


class TracingCheckError(Exception):
    """A traced function's re-run disagreed with its trace."""


class TracerWarning(Warning):
    """A warning about tracing (a Python value the trace would freeze)."""

    @staticmethod
    def ignore_lib_warnings():
        """Silence TracerWarnings raised from inside torch itself, as torch's does."""
        warnings.filterwarnings("ignore", category=TracerWarning, module="torch.(?!jit)")
        warnings.filterwarnings("ignore", "torch::jit::fuser::cuda")


def is_scripting() -> bool:
    """Whether the code runs as TorchScript: never, in yaten.

    >>> import yaten
    >>> yaten.jit.is_scripting()
    False
    """
    return False


def is_tracing() -> bool:
    """Whether the code runs inside ``trace`` (True while ``trace`` runs its example inputs).

    >>> import yaten
    >>> yaten.jit.is_tracing()
    False
    """
    return getattr(_STATE, "tracing", 0) > 0


def _scripted(obj):
    if isinstance(obj, Module):
        return script_module(obj)
    if isinstance(obj, type) or not callable(obj):
        return obj  # a class runs as itself; torch's script of a non-callable raises its own errors later
    return script_function(obj)


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """A module as a ``ScriptModule`` (a copy around the same parameters: same outputs, names and
    ``state_dict``), a function as a ``ScriptFunction`` that calls it, a class as itself; all run eagerly.

    >>> import yaten
    >>> @yaten.jit.script
    ... def f(x):
    ...     return x + 1
    >>> f(yaten.ones(1)).tolist()
    [2.0]
    >>> m = yaten.nn.Linear(2, 2)
    >>> s = yaten.jit.script(m)
    >>> isinstance(s, yaten.jit.ScriptModule), s.weight is m.weight
    (True, True)
    """
    warn_deprecated("script")
    if optimize is not None:
        warnings.warn(
            "`optimize` is deprecated and has no effect. Use `with torch.jit.optimized_execution()` instead",
            FutureWarning,
            stacklevel=2,
        )
    return _scripted(obj)


def script_if_tracing(fn):
    """Compile ``fn`` only when called under tracing: here, ``fn`` itself.

    >>> import yaten
    >>> yaten.jit.script_if_tracing(abs)(-1)
    1
    """
    return fn


@contextlib.contextmanager
def _tracing():
    _STATE.tracing = getattr(_STATE, "tracing", 0) + 1
    try:
        yield
    finally:
        _STATE.tracing -= 1


def _run_example(func, example_inputs, example_kwarg_inputs) -> None:
    if example_kwarg_inputs is not None:
        if not isinstance(example_kwarg_inputs, dict):
            raise AssertionError("example_kwarg_inputs should be a dict")
        args, kwargs = (), example_kwarg_inputs
    else:
        args = example_inputs if isinstance(example_inputs, tuple) else (example_inputs,)
        kwargs = {}
    with _tracing():
        func(*args, **kwargs)


def trace(func, example_inputs=None, optimize=None, check_trace=True, check_inputs=None, check_tolerance=1e-5,
          strict=True, _force_outplace=False, _module_class=None, _compilation_unit=None,
          example_kwarg_inputs=None, _store_inputs=True):  # fmt: skip
    """Run ``func`` on the example inputs (a tuple is unpacked into arguments, a dict given as
    ``example_kwarg_inputs`` into keywords) and return it as ``script`` does: a module as a
    ``ScriptModule``, a function as a ``ScriptFunction``; their calls then run eagerly.

    >>> import yaten
    >>> m = yaten.nn.Linear(3, 1)
    >>> traced = yaten.jit.trace(m, yaten.ones(2, 3))
    >>> isinstance(traced, yaten.jit.ScriptModule), list(traced.state_dict())
    (True, ['weight', 'bias'])
    """
    warn_deprecated("trace")
    if isinstance(func, Module):
        warn_deprecated("trace_method")  # torch traces a module through trace_module
    _run_example(func, example_inputs, example_kwarg_inputs)
    return _scripted(func)


def trace_module(mod, inputs, optimize=None, check_trace=True, check_inputs=None, check_tolerance=1e-5,
                 strict=True, _force_outplace=False, _module_class=None, _compilation_unit=None,
                 example_inputs_is_kwarg=False, _store_inputs=True):  # fmt: skip
    """Trace the module's methods named in ``inputs`` (``{"forward": example}``); returns the module as a
    ``ScriptModule``.

    >>> import yaten
    >>> m = yaten.nn.ReLU()
    >>> isinstance(yaten.jit.trace_module(m, {"forward": yaten.ones(2)}), yaten.jit.ScriptModule)
    True
    """
    warn_deprecated("trace_method")
    if not isinstance(inputs, dict):
        raise AttributeError("expected a dictionary of (method_name, input) pairs")
    for name, example in inputs.items():
        if example_inputs_is_kwarg:
            _run_example(getattr(mod, name), None, example)
        else:
            _run_example(getattr(mod, name), example, None)
    return script_module(mod)


def freeze(mod, preserved_attrs=None, optimize_numerics=True):
    """Inline a module's parameters for inference: the module, which must be in eval mode, as torch's.

    >>> import yaten
    >>> m = yaten.nn.Linear(2, 2).eval()
    >>> yaten.jit.freeze(m) is m
    True
    """
    warn_deprecated("freeze")
    if mod.training:
        raise RuntimeError(
            "Freezing is currently only implemented for modules in eval mode. "
            "Please call .eval() on your module before freezing."
        )
    return mod


def optimize_for_inference(mod, other_methods=None):
    """torch's freeze-and-fuse pass for inference: ``freeze(mod.eval())`` here.

    >>> import yaten
    >>> yaten.jit.optimize_for_inference(yaten.nn.Linear(2, 2)).training
    False
    """
    warn_deprecated("optimize_for_inference")
    return freeze(mod.eval())


@contextlib.contextmanager
def optimized_execution(should_optimize):
    """Turn TorchScript's graph optimizations on or off in a block: there are none to turn.

    >>> import yaten
    >>> with yaten.jit.optimized_execution(False):
    ...     pass
    """
    yield


@contextlib.contextmanager
def fuser(name):
    """Choose TorchScript's fuser in a block (``"fuser0"`` .. ``"fuser3"``, ``"none"``); torch's error
    for another name.

    >>> import yaten
    >>> with yaten.jit.fuser("fuser1"):
    ...     pass
    """
    if name not in _FUSERS:
        raise Exception(f"unrecognized fuser option (name: {name})")  # torch raises a bare Exception
    yield


def set_fusion_strategy(strategy):
    """Set TorchScript's fusion strategy (a list of ``("STATIC" | "DYNAMIC", depth)``); returns the old.

    >>> import yaten
    >>> old = yaten.jit.set_fusion_strategy([("DYNAMIC", 5)])
    >>> yaten.jit.set_fusion_strategy(old)
    [('DYNAMIC', 5)]
    """
    warn_deprecated("set_fusion_strategy")
    for kind, depth in strategy:
        if kind not in ("STATIC", "DYNAMIC"):
            raise RuntimeError(f"Expected STATIC or DYNAMIC, got {kind}")
        if not isinstance(depth, int):
            raise TypeError(f"fusion depth must be an int, got {type(depth).__name__}")
    old, _FUSION["strategy"] = _FUSION["strategy"], list(strategy)
    return old


def enable_onednn_fusion(enabled: bool) -> None:
    """Record whether oneDNN fusion would be used (yaten has no oneDNN graph).

    >>> import yaten
    >>> yaten.jit.enable_onednn_fusion(False)
    >>> yaten.jit.onednn_fusion_enabled()
    False
    """
    _FUSION["onednn"] = bool(enabled)


def onednn_fusion_enabled() -> bool:
    """What ``enable_onednn_fusion`` last set (False at start)."""
    return _FUSION["onednn"]
