"""``OptimizedModule``: what ``compile(module)`` returns, at torch's class path
(``torch._dynamo.eval_frame.OptimizedModule``), so pickles and allowlists naming it work.

It wraps the module as torch's does: the module is its child ``_orig_mod`` (so ``state_dict`` keys
carry the ``_orig_mod.`` prefix), calling it calls the module (its hooks included), and attribute reads
and writes go through to the module. yaten has no compiler, so the module runs as it is.
"""

from collections.abc import Sized

from ..nn import Module

__all__ = ["OptimizedModule"]


class OptimizedModule(Module):
    """A module as ``compile`` returns it.

    >>> import yaten
    >>> m = yaten.nn.Linear(2, 3)
    >>> c = yaten.compile(m)
    >>> list(c.state_dict()), c.in_features, c._orig_mod is m
    (['_orig_mod.weight', '_orig_mod.bias'], 2, True)
    """

    _opt_mod_attributes = frozenset(
        {
            "_orig_mod",
            "dynamo_ctx",
            "_torchdynamo_orig_callable",
            "get_compiler_config",
            "forward",
            "__dict__",
            "_super_module_initialized",
        }
    )

    def __init__(self, mod: Module, dynamo_ctx=None) -> None:
        # First, because attribute reads and writes on self go to _orig_mod, even during __init__.
        object.__setattr__(self, "_orig_mod", mod)
        self._super_module_initialized = False
        super().__init__()
        self._super_module_initialized = True
        self._orig_mod = mod  # registers it as the child module
        self.dynamo_ctx = dynamo_ctx
        self._initialize()

    def _initialize(self) -> None:
        self.forward = self._orig_mod.__call__
        self._torchdynamo_orig_callable = self._orig_mod.forward

    def __len__(self) -> int:
        if isinstance(self._orig_mod, Sized):
            return len(self._orig_mod)
        raise TypeError(f"{type(self._orig_mod).__name__} does not support len()")

    def __reduce__(self):
        return (self.__class__, (self._orig_mod, self.dynamo_ctx))

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("forward", None)
        return state

    def __setstate__(self, state) -> None:
        self.__dict__ = state
        self._initialize()

    @property
    def training(self) -> bool:
        return self._orig_mod.training

    @training.setter
    def training(self, value: bool) -> None:
        # Module.__init__ sets the default; the flag is the wrapped module's.
        if self._super_module_initialized:
            self._orig_mod.training = value

    def __getattr__(self, name: str):
        if name == "_orig_mod":
            return self._modules["_orig_mod"]
        return getattr(self._orig_mod, name)

    def __setattr__(self, name: str, value) -> None:
        if hasattr(type(self), name) or name in OptimizedModule._opt_mod_attributes:
            return super().__setattr__(name, value)
        return setattr(self._orig_mod, name, value)

    def __delattr__(self, name: str) -> None:
        if hasattr(type(self), name) or name in OptimizedModule._opt_mod_attributes:
            return super().__delattr__(name)
        return delattr(self._orig_mod, name)

    def __dir__(self) -> list:
        orig = self._orig_mod.__dir__()
        return orig + [attr for attr in super().__dir__() if attr not in orig]
