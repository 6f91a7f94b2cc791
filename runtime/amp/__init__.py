"""yaten.amp: automatic mixed precision, as torch.amp: ``autocast`` regions and ``GradScaler``.

>>> import yaten
>>> with yaten.amp.autocast("cpu"):
...     yaten.nn.functional.linear(yaten.ones(1, 2), yaten.ones(3, 2)).dtype
yaten.bfloat16
"""

# torch.amp's submodules and its private _enter_autocast/_exit_autocast are reachable here too.
from . import autocast_mode, grad_scaler  # noqa: F401
from .autocast_mode import (  # noqa: F401
    _enter_autocast,
    _exit_autocast,
    autocast,
    custom_bwd,
    custom_fwd,
    is_autocast_available,
)
from .grad_scaler import GradScaler

__all__ = ["GradScaler", "autocast", "custom_bwd", "custom_fwd", "is_autocast_available"]
