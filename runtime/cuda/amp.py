"""torch.cuda.amp: the deprecated CUDA forms of ``yaten.amp``'s autocast, GradScaler and custom-Function
decorators, each warning as torch's."""

import functools

from .. import _dtype as D
from ..amp import _deprecated, autocast_mode
from ..amp import grad_scaler as _grad_scaler

__all__ = ["GradScaler", "amp_definitely_not_available", "autocast", "custom_bwd", "custom_fwd"]


def amp_definitely_not_available() -> bool:
    """True where CUDA is not available (torch also checks for torch_xla, which yaten never has).

    >>> import yaten
    >>> yaten.cuda.amp.amp_definitely_not_available() == (not yaten.cuda.is_available())
    True
    """
    from . import is_available

    return not is_available()


class autocast(autocast_mode.autocast):
    """Deprecated: ``yaten.amp.autocast("cuda", ...)``."""

    def __init__(self, enabled: bool = True, dtype=D.float16, cache_enabled: bool = True):
        _deprecated.warn("cuda.amp.autocast", "torch.amp.autocast('cuda', args...)")
        super().__init__("cuda", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)


def custom_fwd(fwd=None, *, cast_inputs=None):
    """Deprecated: ``yaten.amp.custom_fwd(..., device_type="cuda")``."""
    _deprecated.warn("cuda.amp.custom_fwd", "torch.amp.custom_fwd(args..., device_type='cuda')")
    return functools.partial(autocast_mode.custom_fwd, device_type="cuda")(fwd=fwd, cast_inputs=cast_inputs)


def custom_bwd(bwd):
    """Deprecated: ``yaten.amp.custom_bwd(..., device_type="cuda")``."""
    _deprecated.warn("cuda.amp.custom_bwd", "torch.amp.custom_bwd(args..., device_type='cuda')")
    return functools.partial(autocast_mode.custom_bwd, device_type="cuda")(bwd)


class GradScaler(_grad_scaler.GradScaler):
    """Deprecated: ``yaten.amp.GradScaler("cuda", ...)``."""

    def __init__(self, init_scale: float = 2.0**16, growth_factor: float = 2.0, backoff_factor: float = 0.5,
                 growth_interval: int = 2000, enabled: bool = True) -> None:  # fmt: skip
        _deprecated.warn("cuda.amp.GradScaler", "torch.amp.GradScaler('cuda', args...)")
        super().__init__("cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled)
