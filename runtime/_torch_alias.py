"""``torch`` as a second name for yaten, for running unchanged PyTorch programs (``yaten.run``).

``install()`` puts a finder first on ``sys.meta_path``: ``import torch`` gives the module ``yaten``
and ``import torch.nn.functional`` the module ``yaten.nn.functional`` (the same objects, so
``torch.nn is yaten.nn`` and isinstance checks, pickling and ``yaten.save`` see yaten's classes).
A piece yaten lacks fails with an error that names it as the program wrote it:

- a missing attribute is an ``AttributeError`` (``hasattr(torch, "compile")`` is False), and
  ``from torch import compile`` an ``ImportError`` (a ``try``/``except ImportError`` probe takes
  its fallback), both saying ``yaten has no torch.compile yet``;
- ``import torch.onnx`` of a module yaten lacks gives a placeholder module, so a program that only
  uses it on a path it doesn't take still runs; using it raises ``yaten has no torch.onnx.export yet``.
"""

import dis
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types

_IMPORT_FROM = dis.opmap["IMPORT_FROM"]
_BOOTSTRAP = importlib._bootstrap._find_and_load.__code__.co_filename  # "<frozen importlib._bootstrap>"


def torch_name(yaten_name: str) -> str:
    """The name a program uses for a yaten module: ``yaten.nn`` -> ``torch.nn``."""
    return "torch" + yaten_name.removeprefix("yaten")


def _lacks(path: str, caller: types.FrameType) -> AttributeError | ImportError:
    # The caller is the code whose attribute lookup failed: ``from M import name`` looks it up with
    # IMPORT_FROM and would turn an AttributeError into "cannot import name", losing what is missing.
    message = f"yaten has no {path} yet"
    if caller.f_code.co_code[caller.f_lasti] == _IMPORT_FROM:
        return ImportError(message, name=path.rpartition(".")[0])
    return AttributeError(message)


def _name_missing_attributes(module: types.ModuleType) -> None:
    """Make a yaten module's missing attributes raise errors naming them as ``torch.<path>``."""
    inner = module.__dict__.get("__getattr__")  # a lazy loader, as yaten's own
    if getattr(inner, "names_torch", False):
        return
    prefix = torch_name(module.__name__)

    def __getattr__(name):
        if inner is not None:
            try:
                return inner(name)
            except AttributeError:
                pass
        raise _lacks(f"{prefix}.{name}", sys._getframe(1))

    __getattr__.names_torch = True
    module.__getattr__ = __getattr__


class MissingModule(types.ModuleType):
    """A torch module yaten lacks: importing it works, using anything in it names what is missing."""

    def __getattr__(self, name):
        raise _lacks(f"{self.__name__}.{name}", sys._getframe(1))


def _from_import() -> bool:
    # Whether ``from <package> import <name>`` is trying <name> as a submodule (its
    # ``_handle_fromlist`` is on the stack above the finder). <name> is then more often a function or
    # class yaten lacks (``from torch import einsum``) than a module, and must not become a module.
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename == _BOOTSTRAP:
        if frame.f_code.co_name == "_handle_fromlist":
            return True
        frame = frame.f_back
    return False


class _Alias(importlib.abc.Loader):
    """Loads ``torch.X`` as the module ``yaten.X`` itself."""

    def __init__(self, yaten_name: str):
        self.yaten_name = yaten_name

    def create_module(self, spec):
        module = importlib.import_module(self.yaten_name)
        self.own_spec = module.__spec__
        return module

    def exec_module(self, module):
        module.__spec__ = self.own_spec  # the import system set it to torch.X's; the module is yaten.X


class _Missing(importlib.abc.Loader):
    def create_module(self, spec):
        return MissingModule(spec.name)

    def exec_module(self, module):
        pass


class _NamingLoader:
    """A yaten module's own loader, which afterwards makes its missing attributes name torch's."""

    def __init__(self, loader):
        self.loader = loader

    def __getattr__(self, name):  # get_source, get_filename, is_package, ...: the wrapped loader's
        return getattr(self.loader, name)

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        self.loader.exec_module(module)
        _name_missing_attributes(module)


class TorchFinder(importlib.abc.MetaPathFinder):
    """Finds ``torch`` and ``torch.*`` as yaten's modules or placeholders, and marks yaten's own."""

    def find_spec(self, fullname, path, target=None):
        if fullname.startswith("yaten."):
            return self._yaten_spec(fullname, path, target)
        if fullname != "torch" and not fullname.startswith("torch."):
            return None
        if isinstance(sys.modules.get(fullname.rpartition(".")[0]), MissingModule):
            spec = None
        else:
            spec = importlib.util.find_spec("yaten" + fullname.removeprefix("torch"))
        if spec is not None:
            is_package = spec.submodule_search_locations is not None
            return importlib.machinery.ModuleSpec(fullname, _Alias(spec.name), is_package=is_package)
        if _from_import():
            return None
        return importlib.machinery.ModuleSpec(fullname, _Missing(), is_package=True)

    def _yaten_spec(self, fullname, path, target):
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _NamingLoader(spec.loader)
                return spec
        return None


class PathEntry(str):
    """A ``sys.path`` entry that carries the mapping into processes started by spawn.

    Such a process (multiprocessing's ``spawn``) unpickles its parent's ``sys.path`` before it
    re-imports the parent's ``__main__``: unpickling this entry installs the mapping there first, so
    the program's ``import torch`` gets yaten in its workers too. Forked processes inherit it anyway.
    """

    def __reduce__(self):
        return _installed_entry, (str(self),)


def _installed_entry(path: str) -> PathEntry:
    install()
    return PathEntry(path)


def install() -> None:
    """Serve ``torch`` and its submodules from yaten in this process (and in processes forked from it)."""
    if any(isinstance(finder, TorchFinder) for finder in sys.meta_path):
        return
    import yaten

    sys.meta_path.insert(0, TorchFinder())
    for name, module in list(sys.modules.items()):
        if name == "yaten" or name.startswith("yaten."):
            _name_missing_attributes(module)
    sys.modules["torch"] = yaten
