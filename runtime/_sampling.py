"""The samplers of torch's distributions with one parameter per element: ``_standard_gamma``,
``_sample_dirichlet``, ``poisson`` and ``binomial`` (what ``yaten.distributions`` draws with).

As ``multinomial``, the draws run on the host (``kernels/cpu/sample.py``) from the input device's
generator, and the result goes to the input's device. ``_standard_gamma`` is reparameterized: its
gradient is ``grad * _standard_gamma_grad(alpha, sample)`` (``StandardGammaBackward0``, the spec's
pointwise op with ATen's approximation); ``poisson``'s is zero (``PoissonBackward0``); torch has no
derivative for ``binomial`` and ``_sample_dirichlet`` (their results carry a ``NotImplemented``
grad_fn). torch's dtype checks and messages come first. The values are not torch's bits (the
streams differ); their distributions are.
"""

import numpy as np

from . import _dtype as D
from . import _factories as F
from ._generated.functions import _standard_gamma_grad
from ._promotion import broadcast_shapes
from ._random import _generator, _host_engine
from ._tensor import Tensor
from .autograd import grad_mode
from .autograd.node import Node, NotImplementedBackward
from .autograd.record import connect, set_history
from .autograd.saved import SavedVariable
from .kernels.cpu import sample

__all__ = ["_sample_dirichlet", "_standard_gamma", "binomial", "poisson"]

_FLOAT_DOUBLE = (D.float32, D.float64)


class StandardGammaBackward0(Node):
    """_standard_gamma(Tensor self, Generator? generator=None) -> Tensor"""

    __slots__ = ("_saved_result_", "_saved_self_")
    _saved_fields = ("_saved_result_", "_saved_self_")

    def apply(node, grads):
        alpha = node._saved_self_.unpack(node)
        result = node._saved_result_.unpack(node)
        return (grads[0] * _standard_gamma_grad(alpha, result) if node._needs()[0] else None,)


class PoissonBackward0(Node):
    """poisson(Tensor self, Generator? generator=None) -> Tensor"""

    __slots__ = ()

    def apply(node, grads):
        return (grads[0].new_zeros(grads[0].shape) if node._needs()[0] else None,)


def _host_draw(fn: str, kernel, generator, params: tuple, dtype) -> Tensor:
    """``kernel(engine, *float64 host params)`` computed from the device's generator, as a tensor of
    ``dtype`` on the first parameter's device."""
    device = params[0].device
    g = _generator(fn, generator, device)
    host = [p.detach()._host().astype(np.float64) for p in params]
    with _host_engine(g) as engine:
        drawn = kernel(engine, *host)
    return F.make(np.ascontiguousarray(drawn).astype(dtype.np).reshape(tuple(params[0].shape)), device)


def _record(result: Tensor, node, inputs: tuple) -> None:
    if grad_mode.is_grad_enabled() and any(t.requires_grad for t in inputs):
        connect(node, inputs)
        set_history(result, node)


def _check_dtype(kernel: str, t: Tensor, dtypes) -> None:
    if t.dtype not in dtypes:
        raise F.not_implemented(kernel, t.dtype)


def _standard_gamma(input, generator=None) -> Tensor:
    """Samples of the standard Gamma distribution, one per element of the concentrations ``input``
    (shape 1), differentiable with respect to them; non-positive concentrations give the smallest normal
    float, as torch's.

    >>> import yaten
    >>> _ = yaten.manual_seed(0)
    >>> x = yaten._standard_gamma(yaten.full((20000,), 3.0))
    >>> abs(x.mean().item() - 3.0) < 0.1, abs(x.var().item() - 3.0) < 0.3
    (True, True)
    """
    F.tensor_arg("_standard_gamma", "input", 1, input)
    _check_dtype("gamma_cpu", input, _FLOAT_DOUBLE)
    tiny = np.finfo(input.dtype.np).tiny
    result = _host_draw(
        "_standard_gamma", lambda e, a: sample.standard_gamma(e, a, tiny), generator, (input,), input.dtype
    )
    if grad_mode.is_grad_enabled() and input.requires_grad:
        node = StandardGammaBackward0()
        _record(result, node, (input,))
        node._saved_self_ = SavedVariable(input, False)
        node._saved_result_ = SavedVariable(result, True)
    return result


def _sample_dirichlet(input, generator=None) -> Tensor:
    """Samples of Dirichlet distributions: each row (last dimension) of the concentrations ``input``
    gives one point of the simplex, clamped inside (0, 1) as torch's.

    >>> import yaten
    >>> x = yaten._sample_dirichlet(yaten.tensor([[1.0, 2.0, 3.0]]).expand(5, 3))
    >>> x.shape, bool(((x.sum(-1) - 1).abs() < 1e-6).all())
    (yaten.Size([5, 3]), True)
    """
    F.tensor_arg("_sample_dirichlet", "input", 1, input)
    _check_dtype("dirichlet", input, _FLOAT_DOUBLE)
    tiny = np.finfo(input.dtype.np).tiny
    below_one = np.nextafter(input.dtype.np.type(1), 0)
    result = _host_draw(
        "_sample_dirichlet",
        lambda e, a: sample.dirichlet(e, a, tiny, below_one),
        generator,
        (input,),
        input.dtype,
    )
    _record(result, NotImplementedBackward("aten::_sample_dirichlet"), (input,))
    return result


def poisson(input, generator=None) -> Tensor:
    """Samples of Poisson distributions of rates ``input``, as floats of its dtype.

    >>> import yaten
    >>> x = yaten.poisson(yaten.full((20000,), 4.0))
    >>> x.dtype, abs(x.mean().item() - 4.0) < 0.1
    (yaten.float32, True)
    >>> yaten.poisson(yaten.tensor([-1.0]))
    Traceback (most recent call last):
    RuntimeError: invalid Poisson rate, expected rate to be non-negative
    """
    F.tensor_arg("poisson", "input", 1, input)
    _check_dtype("poisson_cpu", input, (D.float16, D.bfloat16) + _FLOAT_DOUBLE)
    rates = input.detach()
    if not bool((rates >= 0).all()):
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    result = _host_draw("poisson", sample.poisson, generator, (input,), input.dtype)
    _record(result, PoissonBackward0(), (input,))
    return result


def binomial(count, prob, generator=None) -> Tensor:
    """Samples of binomial distributions: successes in ``count`` trials of probability ``prob``
    (broadcast together, floats of one dtype); a NaN probability gives NaN.

    >>> import yaten
    >>> x = yaten.binomial(yaten.full((20000,), 10.0), yaten.tensor(0.3))
    >>> abs(x.mean().item() - 3.0) < 0.1, bool((x >= 0).all() and (x <= 10).all())
    (True, True)
    """
    F.tensor_arg("binomial", "count", 1, count)
    F.tensor_arg("binomial", "prob", 2, prob)
    for name, t in (("count", count), ("prob", prob)):
        if not t.dtype.is_floating_point:
            raise ValueError(
                f"binomial only supports floating-point dtypes for {name}, got: {D.LEGACY_NAME[t.dtype]}"
            )
    if prob.dtype != count.dtype:
        raise RuntimeError(
            f"Found dtype {D.LEGACY_NAME[prob.dtype]} but expected {D.LEGACY_NAME[count.dtype]}"
        )
    _check_dtype("binomial_cpu", count, _FLOAT_DOUBLE)
    shape = broadcast_shapes(count.shape, prob.shape)
    count, prob = count.expand(shape), prob.expand(shape)
    result = _host_draw("binomial", sample.binomial, generator, (count, prob), count.dtype)
    _record(result, NotImplementedBackward("aten::binomial"), (count, prob))
    return result
