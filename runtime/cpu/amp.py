"""torch.cpu.amp: the deprecated CPU forms of ``yaten.amp``'s autocast and GradScaler."""

from .. import _dtype as D
from ..amp import _deprecated, autocast_mode
from ..amp import grad_scaler as _grad_scaler

__all__ = ["GradScaler", "autocast"]


class autocast(autocast_mode.autocast):
    """Deprecated: ``yaten.amp.autocast("cpu", ...)``, with a FutureWarning as torch's.

    >>> import warnings, yaten
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     with yaten.cpu.amp.autocast():
    ...         pass
    >>> w[0].category.__name__
    'FutureWarning'
    """

    def __init__(self, enabled: bool = True, dtype=D.bfloat16, cache_enabled: bool = True):
        _deprecated.warn("cpu.amp.autocast", "torch.amp.autocast('cpu', args...)")
        super().__init__("cpu", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)


class GradScaler(_grad_scaler.GradScaler):
    """Deprecated: ``yaten.amp.GradScaler("cpu", ...)``, with a FutureWarning as torch's."""

    def __init__(self, init_scale: float = 2.0**16, growth_factor: float = 2.0, backoff_factor: float = 0.5,
                 growth_interval: int = 2000, enabled: bool = True) -> None:  # fmt: skip
        _deprecated.warn("cpu.amp.GradScaler", "torch.amp.GradScaler('cpu', args...)")
        super().__init__("cpu", init_scale, growth_factor, backoff_factor, growth_interval, enabled)
