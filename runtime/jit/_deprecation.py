"""torch 2.13 deprecates TorchScript: its entry points warn ``DeprecationWarning`` with these words."""

import warnings

_COMPILE = "Please use `torch.compile` instead."
_SWITCH = "Please switch to `torch.compile` or `torch.export`."
_EXPORT = "Please switch to `torch.export`."
_ADVICE = {
    "script": _SWITCH,
    "trace": _SWITCH,
    "trace_method": _SWITCH,
    "script_method": _SWITCH,
    "fork": _COMPILE,
    "wait": _COMPILE,
    "freeze": _COMPILE,
    "optimize_for_inference": _COMPILE,
    "set_fusion_strategy": _COMPILE,
    "interface": _COMPILE,
    "save": _EXPORT,
    "load": _EXPORT,
}


def warn_deprecated(name: str) -> None:
    """Warn as torch's ``torch.jit.<name>`` does."""
    warnings.warn(f"`torch.jit.{name}` is deprecated. {_ADVICE[name]}", DeprecationWarning, stacklevel=3)
