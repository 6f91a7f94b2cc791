"""yaten's globals under torch's names in a pickle, and torch's names back to yaten's globals.

A whole-object checkpoint names classes and functions (``torch.nn.modules.linear.Linear``,
``torch.nn.functional.relu``). ``yaten.save`` writes yaten's under the torch name, so that torch
loads a yaten file, and ``yaten.load`` maps a torch name onto yaten's object, so that yaten loads a
torch file; without the ``yaten.run`` aliases in either case.

- A class keeps its module (yaten's classes live at torch's class paths); a function defined in a
  family module (``yaten.nn.functional.activation.relu``) is named where its package re-exports it
  (``torch.nn.functional.relu``), as torch has one module where yaten has a family of them; an object
  of a private module (``yaten._tensor.Tensor``, a generated ``yaten.relu``) is named by the first
  public module that binds it (``torch.Tensor``, ``torch.relu``).
- torch's builtins live in ``torch._C``: ``torch._C._nn.gelu`` is ``yaten.nn.functional.gelu``,
  ``getattr(torch._C._VariableFunctionsClass, "relu")`` is ``yaten.relu``.
"""

import importlib
import pickle
import sys

# torch's C++ namespaces that its builtins name as their module -> the yaten module holding them.
_C_MODULES = {
    "torch._C._nn": "yaten.nn.functional",
    "torch._C._VariableFunctions": "yaten",
    "torch._C._VariableFunctionsClass": "yaten",
    "torch._C._linalg": "yaten.linalg",
    "torch._C._fft": "yaten.fft",
    "torch._C._special": "yaten.special",
}


def torch_module(module: str) -> str:
    """``yaten.nn.modules.linear`` -> ``torch.nn.modules.linear``; other modules are unchanged."""
    if module == "yaten" or module.startswith("yaten."):
        return "torch" + module[len("yaten") :]
    return module


def _private(module: str) -> bool:
    return any(part.startswith("_") for part in module.split("."))


def _binds(module: str, name: str, obj) -> bool:
    m = sys.modules.get(module)
    return m is not None and getattr(m, name, None) is obj


def pickle_name(obj, name: str) -> tuple[str, str] | None:
    """The ``(module, qualname)`` under which a pickle names yaten's ``obj``; None for anything not yaten's."""
    module = getattr(obj, "__module__", None)
    if not isinstance(module, str) or not (module == "yaten" or module.startswith("yaten.")):
        return None
    if "." in name:  # a nested name (``Class.method``) stays where its outer class is
        return torch_module(module), name
    if _private(module):
        parts = module.split(".")
        homes = (".".join(parts[:i]) for i in range(1, len(parts) + 1))
        home = next((h for h in homes if not _private(h) and _binds(h, name, obj)), None)
        if home is None:
            raise pickle.PicklingError(
                f"yaten.save: can't pickle {module}.{name}: no public yaten module holds it, so torch would "
                "not find it"
            )
        return torch_module(home), name
    if not isinstance(obj, type):
        parent = module.rpartition(".")[0]
        while parent != "yaten" and _binds(parent, name, obj):
            module, parent = parent, parent.rpartition(".")[0]
    return torch_module(module), name


def yaten_global(module: str, name: str):
    """The yaten object a pickle's ``module.name`` from torch stands for (``module`` is a ``torch`` name)."""
    target = _C_MODULES.get(module) or "yaten" + module[len("torch") :]
    try:
        obj = importlib.import_module(target)
        for part in name.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        raise AttributeError(
            f"yaten.load: the checkpoint names {module}.{name}, which yaten has no counterpart for yet"
        ) from None
    return obj
