"""``yaten.nn.utils.init``: ``skip_init``, as ``torch.nn.utils.init``."""

import inspect

from ..modules.module import Module


def skip_init(module_cls, *args, **kwargs):
    """An instance of ``module_cls(*args, **kwargs)`` whose parameters and buffers are left uninitialized
    (on ``device``, default cpu). ``module_cls`` must take a ``device`` argument, as torch requires.

    torch builds the module on its ``meta`` device (no memory, no initialization) and then allocates it
    empty; yaten has no meta device, so it builds the module on the CPU and then allocates it empty on the
    requested device (``to_empty``): the result is torch's, the initialization is computed and dropped.

    >>> from yaten import nn
    >>> m = nn.utils.skip_init(nn.Linear, 5, 1)
    >>> m.weight.shape
    yaten.Size([1, 5])
    """
    if not (isinstance(module_cls, type) and issubclass(module_cls, Module)):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    final_device = kwargs.pop("device", "cpu")
    kwargs["device"] = "cpu"
    return module_cls(*args, **kwargs).to_empty(device=final_device)
