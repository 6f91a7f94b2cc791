"""Transforms onto structured sets of vectors and matrices: the simplex (softmax, stick-breaking),
lower Cholesky factors, positive-definite matrices and Cholesky factors of correlation matrices."""

import math

import yaten
import yaten.nn.functional as F

from . import constraints
from .elementwise_transforms import _clipped_sigmoid
from .transform import _Parameterless
from .utils import tril_matrix_to_vec, vec_to_tril_matrix


def _at_least(shape, ndim):
    if len(shape) < ndim:
        raise ValueError("Too few dimensions on input")


class SoftmaxTransform(_Parameterless):
    """``y = softmax(x)`` over the last dimension: onto the simplex, not injective (its inverse is
    ``log y``).

    >>> SoftmaxTransform()(yaten.tensor([0.0, 0.0])).tolist()
    [0.5, 0.5]
    """

    domain = constraints.real_vector
    codomain = constraints.simplex

    def _call(self, x):
        probs = (x - x.max(-1, True)[0]).exp()
        return probs / probs.sum(-1, True)

    def _inverse(self, y):
        return y.log()

    def forward_shape(self, shape):
        _at_least(shape, 1)
        return shape

    inverse_shape = forward_shape


def _stick_offset(x):
    """log of K, K-1, ..., 1 for an input of K entries: it centres each break at the uniform point."""
    k = x.shape[-1]
    return (k + 1 - x.new_ones(k).cumsum(-1)).log()


class StickBreakingTransform(_Parameterless):
    """A bijection from K reals onto the simplex of K + 1 entries: each entry breaks off a sigmoid
    fraction of what remains of the stick.

    >>> [round(p, 6) for p in StickBreakingTransform()(yaten.tensor([0.0, 0.0])).tolist()]
    [0.333333, 0.333333, 0.333333]
    """

    domain = constraints.real_vector
    codomain = constraints.simplex
    bijective = True

    def _call(self, x):
        z = _clipped_sigmoid(x - _stick_offset(x))
        remaining = (1 - z).cumprod(-1)
        return F.pad(z, [0, 1], value=1) * F.pad(remaining, [1, 0], value=1)

    def _inverse(self, y):
        head = y[..., :-1]
        remaining = (1 - head.cumsum(-1)).clamp(min=yaten.finfo(y.dtype).tiny)
        return head.log() - remaining.log() + _stick_offset(head)

    def log_abs_det_jacobian(self, x, y):
        x = x - _stick_offset(x)
        return (-x + F.logsigmoid(x) + y[..., :-1].log()).sum(-1)

    def forward_shape(self, shape):
        _at_least(shape, 1)
        return tuple(shape[:-1]) + (shape[-1] + 1,)

    def inverse_shape(self, shape):
        _at_least(shape, 1)
        return tuple(shape[:-1]) + (shape[-1] - 1,)


def _with_diagonal(m, fn):
    """``m``'s strict lower triangle with ``fn`` applied to its diagonal."""
    return m.tril(-1) + fn(m.diagonal(dim1=-2, dim2=-1)).diag_embed()


class LowerCholeskyTransform(_Parameterless):
    """An unconstrained square matrix to a lower Cholesky factor: its strict lower triangle, with the
    exponential of its diagonal.

    >>> LowerCholeskyTransform()(yaten.tensor([[0.0, 5.0], [2.0, 0.0]])).tolist()
    [[1.0, 0.0], [2.0, 1.0]]
    """

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.lower_cholesky

    def _call(self, x):
        return _with_diagonal(x, yaten.exp)

    def _inverse(self, y):
        return _with_diagonal(y, yaten.log)


class PositiveDefiniteTransform(_Parameterless):
    """An unconstrained square matrix to a positive-definite one: ``L @ L.T`` of its lower Cholesky
    transform.

    >>> PositiveDefiniteTransform()(yaten.tensor([[0.0, 0.0], [1.0, 0.0]])).tolist()
    [[1.0, 1.0], [1.0, 2.0]]
    """

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.positive_definite

    def _call(self, x):
        factor = _with_diagonal(x, yaten.exp)
        return factor @ factor.mT

    def _inverse(self, y):
        return _with_diagonal(yaten.linalg.cholesky(y), yaten.log)


class CorrCholeskyTransform(_Parameterless):
    """A vector of D (D - 1) / 2 reals to the Cholesky factor of a D x D correlation matrix: tanh maps
    each to a partial correlation in (-1, 1), and each row is built by stick-breaking its unit norm.

    >>> CorrCholeskyTransform()(yaten.tensor([0.0])).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """

    domain = constraints.real_vector
    codomain = constraints.corr_cholesky
    bijective = True

    def _call(self, x):
        eps = yaten.finfo(x.dtype).eps
        r = vec_to_tril_matrix(x.tanh().clamp(min=-1 + eps, max=1 - eps), diag=-1)
        # row i: r_ij * sqrt(1 - sum of the squares before j), and the rest of the norm on the diagonal
        left = (1 - r**2).sqrt().cumprod(-1)
        eye = yaten.eye(r.shape[-1], dtype=x.dtype, device=x.device)
        return (r + eye) * F.pad(left[..., :-1], [1, 0], value=1)

    def _inverse(self, y):
        left = F.pad((1 - (y * y).cumsum(-1))[..., :-1], [1, 0], value=1)
        t = tril_matrix_to_vec(y, diag=-1) / tril_matrix_to_vec(left, diag=-1).sqrt()
        return ((1 + t) / (1 - t)).log() / 2

    def log_abs_det_jacobian(self, x, y, intermediates=None):
        stick = 0.5 * tril_matrix_to_vec(1 - (y * y).cumsum(-1), diag=-2).log().sum(-1)
        tanh = -2 * (x + F.softplus(-2 * x) - math.log(2.0)).sum(-1)
        return stick + tanh

    def forward_shape(self, shape):
        _at_least(shape, 1)
        n = shape[-1]
        d = round((0.25 + 2 * n) ** 0.5 + 0.5)
        if d * (d - 1) // 2 != n:
            raise ValueError("Input is not a flattened lower-diagonal number")
        return tuple(shape[:-1]) + (d, d)

    def inverse_shape(self, shape):
        _at_least(shape, 2)
        if shape[-2] != shape[-1]:
            raise ValueError("Input is not square")
        d = shape[-1]
        return tuple(shape[:-2]) + (d * (d - 1) // 2,)
