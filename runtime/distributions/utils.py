"""Helpers shared by the distributions: broadcasting parameters, the probs/logits conversions, and a
property computed once per instance."""

import math
from numbers import Number

import yaten

euler_constant = 0.57721566490153286060  # the Euler-Mascheroni constant


def broadcast_all(*values):
    """``values`` (tensors or numbers) as tensors broadcast to one shape. Numbers take the dtype and device
    of the first tensor, or the default dtype when there is none.

    >>> [tuple(t.shape) for t in broadcast_all(1.0, yaten.zeros(2, 3))]
    [(2, 3), (2, 3)]
    """
    if not all(isinstance(v, Number) or yaten.is_tensor(v) for v in values):
        raise ValueError(
            "Input arguments must all be instances of Number, torch.Tensor or objects implementing "
            "__torch_function__."
        )
    like = next((v for v in values if yaten.is_tensor(v)), None)
    if like is None:
        like = yaten.tensor(0.0)
    tensors = [
        v if yaten.is_tensor(v) else yaten.tensor(v, dtype=like.dtype, device=like.device) for v in values
    ]
    return yaten.broadcast_tensors(*tensors)


def _standard_normal(shape, dtype, device):
    """Standard normal noise of ``shape`` (the one place the reparameterized samplers draw from)."""
    return yaten.normal(
        yaten.zeros(shape, dtype=dtype, device=device), yaten.ones(shape, dtype=dtype, device=device)
    )


def _sum_rightmost(value, dim):
    """``value`` summed over its ``dim`` right-most dimensions."""
    return value.reshape(value.shape[: value.dim() - dim] + (-1,)).sum(-1) if dim > 0 else value


def probs_or_logits(probs, logits):
    """The name and value of the one parameter given, probs or logits (torch's ValueError when both or
    neither are).

    >>> probs_or_logits(None, 0.5)
    ('logits', 0.5)
    """
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")
    return ("probs", probs) if probs is not None else ("logits", logits)


def parameter_property(name):
    """A read-only property that is the parameter ``name`` (a mean or mode equal to the location).

    >>> class D:
    ...     loc = 3.0
    ...     mean = parameter_property("loc")
    >>> D().mean
    3.0
    """
    return property(lambda self: getattr(self, name), doc=f"``{name}``")


def icdf_sample(distribution, sample_shape, like):
    """Reparameterized draws of ``distribution``: its ``icdf`` at uniform noise of ``like``'s dtype and
    device.

    >>> d = yaten.distributions.Cauchy(0.0, 1.0)
    >>> tuple(icdf_sample(d, (3,), d.loc).shape)
    (3,)
    """
    u = yaten.rand(distribution._extended_shape(sample_shape), dtype=like.dtype, device=like.device)
    return distribution.icdf(u)


def clamp_probs(probs):
    """``probs`` clamped into the open interval (eps, 1 - eps) of its dtype.

    >>> clamp_probs(yaten.tensor([0.0, 1.0])).tolist() == [2**-23, 1 - 2**-23]
    True
    """
    eps = yaten.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def logits_to_probs(logits, is_binary=False):
    """Probabilities from logits: the sigmoid of each when ``is_binary``, else the softmax of the last
    dimension.

    >>> logits_to_probs(yaten.tensor([0.0, 0.0])).tolist()
    [0.5, 0.5]
    """
    return yaten.sigmoid(logits) if is_binary else yaten.softmax(logits, dim=-1)


def probs_to_logits(probs, is_binary=False):
    """Logits from (clamped) probabilities: ``log(p) - log1p(-p)`` when ``is_binary``, else ``log(p)``.

    >>> probs_to_logits(yaten.tensor([0.5]), is_binary=True).tolist()
    [0.0]
    """
    clamped = clamp_probs(probs)
    return yaten.log(clamped) - yaten.log1p(-clamped) if is_binary else yaten.log(clamped)


class lazy_property:
    """A property computed on first access and then stored on the instance (so ``probs`` and ``logits``
    each derive from the other only when asked for).

    >>> class C:
    ...     @lazy_property
    ...     def x(self):
    ...         return [1]
    >>> c = C(); c.x is c.x
    True
    """

    def __init__(self, fn):
        self.wrapped = fn
        self.__doc__ = fn.__doc__
        self.__name__ = fn.__name__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        with yaten.enable_grad():
            value = self.wrapped(instance)
        instance.__dict__[self.wrapped.__name__] = value
        return value


class BinaryProbsOrLogits:
    """A mixin for the distributions of binary trials (Bernoulli, Binomial, Geometric, ...): the success
    probability is given as ``probs`` or as ``logits`` (log-odds), and the other form is derived on first
    use."""

    def _set_probs_or_logits(self, probs, logits, *others):
        """Stores the one of ``probs``/``logits`` given (also as ``_param``) broadcast with ``others``,
        which it returns broadcast and of its dtype."""
        name, param = probs_or_logits(probs, logits)
        *others, param = broadcast_all(*others, param)
        self.__dict__[name] = self._param = param
        return [other.type_as(param) for other in others]

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)


def tril_matrix_to_vec(mat, diag=0):
    """The entries of ``mat``'s lower triangle (down to diagonal ``diag``) as a vector, row by row.

    >>> tril_matrix_to_vec(yaten.tensor([[1.0, 2.0], [3.0, 4.0]])).tolist()
    [1.0, 3.0, 4.0]
    """
    n = mat.shape[-1]
    if not -n <= diag < n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    rows, cols = yaten.tril_indices(n, n, offset=diag, device=mat.device)
    return mat[..., rows, cols]


def vec_to_tril_matrix(vec, diag=0):
    """The lower-triangular matrix (from diagonal ``diag`` down) whose rows hold ``vec``'s entries, the
    inverse of ``tril_matrix_to_vec``.

    >>> vec_to_tril_matrix(yaten.tensor([1.0, 3.0, 4.0])).tolist()
    [[1.0, 0.0], [3.0, 4.0]]
    """
    # the side n solves n (n + 1) / 2 + (diagonals dropped or added) = len(vec)
    b = 1 + 2 * diag
    n = round((-b + math.sqrt(b * b + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1))) / 2)
    rows, cols = yaten.tril_indices(n, n, offset=diag, device=vec.device)
    if len(rows) != vec.shape[-1]:
        raise ValueError(f"The size of last dimension is {vec.shape[-1]} which cannot be expressed as the "
                         "lower triangular part of a square D x D matrix.")  # fmt: skip
    mat = vec.new_zeros(tuple(vec.shape[:-1]) + (n, n))
    mat[..., rows, cols] = vec
    return mat
