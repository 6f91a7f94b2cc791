"""Gradient clipping, as ``torch.nn.utils.clip_grad``: scale gradients so that their joint norm is at
most ``max_norm`` (``clip_grad_norm_``), or clamp each element (``clip_grad_value_``).

yaten has no ``_foreach`` kernels: ``foreach`` is accepted and every gradient is handled in a loop,
with the same result.
"""

import functools
import types
import warnings

from ..._factories import tensor
from ..._generated.ops import stack
from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_", "get_total_norm"]


def _no_grad(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with no_grad():
            return fn(*args, **kwargs)

    return wrapper


@_no_grad
def get_total_norm(tensors, norm_type: float = 2.0, error_if_nonfinite: bool = False, foreach=None) -> Tensor:
    """The ``norm_type`` norm of all ``tensors`` together, as if concatenated into one vector.

    >>> import yaten
    >>> yaten.nn.utils.get_total_norm([yaten.tensor([3.0]), yaten.tensor([4.0])])
    tensor(5.)
    """
    tensors = [tensors] if isinstance(tensors, Tensor) else list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return tensor(0.0)
    first_device = tensors[0].device
    norms = [t.norm(norm_type) for t in tensors]
    total_norm = stack([n.to(first_device) for n in norms]).norm(norm_type)
    if error_if_nonfinite and (total_norm.isnan() | total_norm.isinf()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot be "
            "clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
            "`error_if_nonfinite=False`"
        )
    return total_norm


@_no_grad
def clip_grads_with_norm_(parameters, max_norm: float, total_norm: Tensor, foreach=None) -> None:
    """Scale the gradients of ``parameters`` in place by ``min(1, max_norm / (total_norm + 1e-6))``."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm = float(max_norm)
    if not grads:
        return
    clip_coef_clamped = (max_norm / (total_norm + 1e-6)).clamp(max=1.0)
    for g in grads:
        g.mul_(clip_coef_clamped.to(g.device))


@_no_grad
def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                    foreach=None) -> Tensor:  # fmt: skip
    """Scale the gradients of ``parameters`` in place so that their joint ``norm_type`` norm is at most
    ``max_norm``; returns the norm they had.

    >>> import yaten
    >>> p = yaten.nn.Parameter(yaten.zeros(2))
    >>> p.grad = yaten.tensor([3.0, 4.0])
    >>> yaten.nn.utils.clip_grad_norm_([p], max_norm=1.0)
    tensor(5.)
    >>> p.grad
    tensor([0.6000, 0.8000])
    """
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)
        if is_generator and not parameters:
            warnings.warn(
                "`parameters` is an empty generator, no gradient clipping will occur.", stacklevel=3
            )
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                   foreach=None) -> Tensor:  # fmt: skip
    """Deprecated: ``clip_grad_norm_``."""
    warnings.warn(
        "`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
        FutureWarning,
        stacklevel=2,
    )
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


@_no_grad
def clip_grad_value_(parameters, clip_value: float, foreach=None) -> None:
    """Clamp every gradient element of ``parameters`` into ``[-clip_value, clip_value]``, in place.

    >>> import yaten
    >>> p = yaten.nn.Parameter(yaten.zeros(3))
    >>> p.grad = yaten.tensor([-2.0, 0.5, 3.0])
    >>> yaten.nn.utils.clip_grad_value_(p, 1.0)
    >>> p.grad
    tensor([-1.0000,  0.5000,  1.0000])
    """
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    for p in parameters:
        g = p.grad
        if g is not None:
            g.copy_(g.clamp(min=-clip_value, max=clip_value))
