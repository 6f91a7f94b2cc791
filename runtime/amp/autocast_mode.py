"""``autocast`` (torch.amp.autocast, torch.autocast) and the custom-Function helpers ``custom_fwd`` /
``custom_bwd``.

The region sets this thread's autocast state (``yaten._autocast``); the ops on torch's autocast lists
(``autocast:`` in spec/native_functions.yaml) read it and cast their inputs.
"""

import collections.abc
import functools
import warnings

import numpy as np

from .. import _autocast as state
from .. import _dtype as D
from .._autocast import is_autocast_available
from .._tensor import Tensor

__all__ = ["autocast", "autocast_decorator", "custom_bwd", "custom_fwd", "is_autocast_available"]


def autocast_decorator(autocast_instance, func):
    """``func`` run inside ``autocast_instance`` (what ``@autocast(...)`` makes of a function)."""

    @functools.wraps(func)
    def decorate_autocast(*args, **kwargs):
        with autocast_instance:
            return func(*args, **kwargs)

    return decorate_autocast


def _cuda_available() -> bool:
    from .. import cuda

    return cuda.is_available()


def _cuda_bf16_supported() -> bool:
    from .. import cuda

    return cuda.is_bf16_supported()


class autocast:
    """A region (context manager or decorator) where ops on torch's autocast lists run in mixed
    precision: matrix products and convolutions in ``dtype`` (CPU: bfloat16, CUDA: float16 by default),
    losses, reductions and other precision-sensitive ops in float32. Backward runs in the dtypes the
    forward recorded. The state is per thread; regions nest, and ``enabled=False`` turns it off inside.

    >>> import yaten
    >>> a = yaten.ones(2, 2)
    >>> with yaten.autocast("cpu"):
    ...     (a @ a).dtype
    yaten.bfloat16
    >>> with yaten.autocast("cpu", dtype=yaten.float16):
    ...     with yaten.autocast("cpu", enabled=False):
    ...         (a @ a).dtype
    yaten.float32
    """

    def __init__(self, device_type: str, dtype=None, enabled: bool = True, cache_enabled: bool | None = None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.fast_dtype = state.get_autocast_dtype(device_type) if dtype is None else dtype
        self.device = device_type
        if not is_autocast_available(self.device):
            raise RuntimeError(f"User specified an unsupported autocast device_type '{self.device}'")
        self._cache_enabled = state.is_autocast_cache_enabled() if cache_enabled is None else cache_enabled
        supported = (D.bfloat16, D.float16)
        if enabled:
            if self.device == "cuda":
                if not _cuda_available():
                    warnings.warn(
                        "CUDA is not available or torch_xla is imported. Disabling autocast.", stacklevel=2
                    )
                    enabled = False
                elif self.fast_dtype is D.bfloat16 and not _cuda_bf16_supported():
                    raise RuntimeError(
                        "Current CUDA Device does not support bfloat16. Please switch dtype to float16."
                    )
            elif self.fast_dtype not in supported:
                name = self.device.upper()
                warnings.warn(
                    f"In {name} autocast, but the target dtype is not supported. Disabling autocast.\n"
                    f"{name} Autocast only supports dtypes of torch.bfloat16, torch.float16 currently.",
                    stacklevel=2,
                )
                enabled = False
        self._enabled = enabled

    def __enter__(self):
        self.prev_cache_enabled = state.is_autocast_cache_enabled()
        self.prev = state.is_autocast_enabled(self.device)
        self.prev_fastdtype = state.get_autocast_dtype(self.device)
        state.set_autocast_enabled(self.device, self._enabled)
        state.set_autocast_dtype(self.device, self.fast_dtype)
        state.autocast_increment_nesting()
        state.set_autocast_cache_enabled(self._cache_enabled)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        if state.autocast_decrement_nesting() == 0:
            state.clear_autocast_cache()
        state.set_autocast_enabled(self.device, self.prev)
        state.set_autocast_dtype(self.device, self.prev_fastdtype)
        state.set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        if not callable(func):
            raise TypeError(
                f"autocast()(func) requires a callable, but got {type(func).__name__}. "
                f"Did you mean to use autocast as a context manager? For example:\n"
                f"    with torch.autocast(device_type=...):\n"
                f"        output = model(input)"
            )
        return autocast_decorator(self, func)


def _enter_autocast(*vals):
    mode = autocast(*vals)
    mode.__enter__()
    return mode


def _exit_autocast(mode):
    mode.__exit__(None, None, None)


def _cast(value, device_type: str, dtype):
    """``value`` with its floating tensors (not float64) on ``device_type`` cast to ``dtype``, through
    lists, tuples and mappings, as torch's ``custom_fwd(cast_inputs=...)`` casts."""
    if isinstance(value, Tensor):
        eligible = (
            value.is_floating_point() and value.device.type == device_type and value.dtype is not D.float64
        )
        return value.to(dtype) if eligible else value
    if isinstance(value, (str, bytes, np.ndarray)):
        return value
    if isinstance(value, collections.abc.Mapping):
        return {_cast(k, device_type, dtype): _cast(v, device_type, dtype) for k, v in value.items()}
    if isinstance(value, collections.abc.Iterable):
        iterable = (_cast(v, device_type, dtype) for v in value)
        return type(value)(iterable) if isinstance(value, (list, tuple)) else iterable
    return value


def custom_fwd(fwd=None, *, device_type: str, cast_inputs=None):
    """Decorator for a custom ``autograd.Function``'s ``forward``: with ``cast_inputs``, an autocast
    region's floating inputs are cast to it and ``forward`` runs with autocast off; ``custom_bwd``
    then runs ``backward`` in the autocast state ``forward`` saw.

    >>> import yaten
    >>> class Double(yaten.autograd.Function):
    ...     @staticmethod
    ...     @yaten.amp.custom_fwd(device_type="cpu", cast_inputs=yaten.float32)
    ...     def forward(ctx, x):
    ...         return x * 2
    ...     @staticmethod
    ...     @yaten.amp.custom_bwd(device_type="cpu")
    ...     def backward(ctx, g):
    ...         return g * 2
    >>> with yaten.autocast("cpu"):
    ...     Double.apply(yaten.ones(2, dtype=yaten.bfloat16)).dtype
    yaten.float32
    """
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        args[0]._dtype = state.get_autocast_dtype(device_type)
        if cast_inputs is None:
            args[0]._fwd_used_autocast = state.is_autocast_enabled(device_type)
            return fwd(*args, **kwargs)
        autocast_context = state.is_autocast_enabled(device_type)
        args[0]._fwd_used_autocast = False
        if autocast_context:
            with autocast(device_type=device_type, enabled=False):
                return fwd(*_cast(args, device_type, cast_inputs), **_cast(kwargs, device_type, cast_inputs))
        return fwd(*args, **kwargs)

    return decorate_fwd


def custom_bwd(bwd=None, *, device_type: str):
    """Decorator for a custom ``autograd.Function``'s ``backward``: runs it in the autocast state its
    ``custom_fwd`` forward ran in (see ``custom_fwd``)."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        with autocast(device_type=device_type, enabled=args[0]._fwd_used_autocast, dtype=args[0]._dtype):
            return bwd(*args, **kwargs)

    return decorate_bwd
