"""The Tensor's in-place samplers of the distributions beyond uniform and normal (``_random.py``):
``exponential_``, ``geometric_``, ``cauchy_`` and ``log_normal_``, and ``Tensor.bernoulli``.

Each draws uniform (or normal) samples from the tensor's generator, on its device, with ``_random``'s
samplers and turns them into the distribution's by its inverse CDF (``exp`` of a normal for the
log-normal) with yaten ops, then writes them into the tensor once: one version bump and torch's
in-place checks, as torch's kernels. torch's checks of the parameters and dtypes come first, with its
messages. The values are not torch's bits (the streams differ); their distributions are.
"""

import math

from . import _dtype as D
from ._factories import not_implemented
from ._random import bernoulli, fill_normal_, fill_uniform_
from ._tensor import Tensor
from .autograd import grad_mode
from .autograd.record import check_inplace


def _samples(tensor: Tensor, draw, *args):
    """Standard draws of ``draw`` (fill_uniform_ or fill_normal_) shaped as ``tensor``, computed in its
    dtype (in float32 for half types and in float64 for integer ones)."""
    dt = tensor.dtype
    work = dt if dt in (D.float32, D.float64) else D.float32 if dt.is_floating_point else D.float64
    return draw(tensor.new_empty(tensor.shape, dtype=work), *args)


def _write(tensor: Tensor, values: Tensor) -> Tensor:
    if grad_mode.is_grad_enabled():
        check_inplace(tensor)
    with grad_mode.no_grad():
        return tensor.copy_(values)


def _continuous(tensor: Tensor, name: str) -> None:
    if not tensor.dtype.is_floating_point:
        raise RuntimeError(
            f"{name} distribution is a continuous probability distribution. dtype must be a floating point "
            f"but you specified {_SPECIFIED[name](tensor.dtype)}"
        )


_SPECIFIED = {"Exponential": lambda dt: D.LEGACY_NAME[dt], "Cauchy": lambda dt: D.TYPEID_NAME[dt]}


def exponential_(self, lambd=1.0, *, generator=None):
    """Fill in place with samples of the exponential distribution of rate ``lambd``.

    >>> import yaten
    >>> x = yaten.empty(10000).exponential_(2.0)
    >>> bool(x.min() >= 0), abs(x.mean().item() - 0.5) < 0.05
    (True, True)
    """
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd:g}")
    _continuous(self, "Exponential")
    u = _samples(self, fill_uniform_, 0.0, 1.0, generator)
    return _write(self, (-u).log1p() / -lambd)


def geometric_(self, p, *, generator=None):
    """Fill in place with samples of the geometric distribution: the number of Bernoulli(``p``) trials up to
    the first success (1, 2, ...); any dtype but bool.

    >>> import yaten
    >>> x = yaten.empty(10000, dtype=yaten.int64).geometric_(0.5)
    >>> bool(x.min() >= 1), abs(x.float().mean().item() - 2) < 0.2
    (True, True)
    """
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    if self.dtype is D.bool:
        raise not_implemented("geometric_cpu", self.dtype)
    u = _samples(self, fill_uniform_, 0.0, 1.0, generator)
    return _write(self, ((-u).log1p() / math.log1p(-p)).ceil().clamp_min(1))


def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    """Fill in place with samples of the Cauchy distribution of location ``median`` and scale ``sigma``.

    >>> import yaten
    >>> x = yaten.empty(10000).cauchy_(1.0, 2.0)
    >>> abs(x.median().item() - 1.0) < 0.2
    True
    """
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma:g}")
    _continuous(self, "Cauchy")
    u = _samples(self, fill_uniform_, 0.0, 1.0, generator)
    return _write(self, ((u - 0.5) * math.pi).tan() * sigma + median)


def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    """Fill in place with samples whose log is normal with ``mean`` and ``std``.

    >>> import yaten
    >>> x = yaten.empty(10000).log_normal_(0.0, 0.5)
    >>> bool(x.min() > 0), abs(x.log().mean().item()) < 0.05, abs(x.log().std().item() - 0.5) < 0.05
    (True, True, True)
    """
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std:g}")
    if not self.dtype.is_floating_point:
        raise not_implemented("log_normal_cpu", self.dtype)
    return _write(self, _samples(self, fill_normal_, mean, std, generator).exp())


for _fn in (exponential_, geometric_, cauchy_, log_normal_):
    setattr(Tensor, _fn.__name__, _fn)
Tensor.bernoulli = bernoulli  # yaten.bernoulli(self, p=None, *, generator=None)
