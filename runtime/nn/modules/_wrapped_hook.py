"""A hook called with its module first, the module held weakly (module hooks registered ``with_module``)."""

import functools
import weakref


class _WrappedHook:
    """A hook called with its module first (held weakly, so the hook does not keep it alive)."""

    __module__ = "yaten.nn.modules.module"  # where torch keeps it: whole-module pickles name it there

    def __init__(self, hook, module=None):
        self.hook = hook
        functools.update_wrapper(self, hook)
        self.with_module = module is not None
        if module is not None:
            self.module = weakref.ref(module)

    def __call__(self, *args, **kwargs):
        if self.with_module:
            module = self.module()
            if module is None:
                raise RuntimeError("You are trying to call the hook of a dead Module!")
            return self.hook(module, *args, **kwargs)
        return self.hook(*args, **kwargs)
