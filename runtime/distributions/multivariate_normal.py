"""``MultivariateNormal``: the Gaussian of mean vector ``loc`` and a covariance given as the matrix, its
inverse (``precision_matrix``) or its lower Cholesky factor (``scale_tril``). Everything is computed
from the Cholesky factor ``L`` (``covariance = L @ L.T``)."""

import math

import yaten

from . import constraints
from .distribution import Distribution
from .utils import _standard_normal, lazy_property


def _batch_mv(matrix, vector):
    """Matrix-vector products over broadcast batch dimensions."""
    return (matrix @ vector.unsqueeze(-1)).squeeze(-1)


def _batch_mahalanobis(tril, x):
    """``x^T (L L^T)^-1 x`` for a lower-triangular ``L``: the squared norm of ``L^-1 x``."""
    shape = yaten.broadcast_shapes(tril.shape[:-2], x.shape[:-1])
    n = x.shape[-1]
    solved = yaten.linalg.solve_triangular(
        tril.expand(shape + (n, n)), x.expand(shape + (n,)).unsqueeze(-1), upper=False
    )
    return solved.squeeze(-1).pow(2).sum(-1)


def _precision_to_scale_tril(precision):
    """The lower Cholesky factor of ``precision^-1`` without inverting ``precision``: with the
    reversal ``J``, ``chol(J P J) = J U J`` for ``P = U^T U``, so ``L = (J chol(JPJ) J)^-T``."""
    flipped = yaten.linalg.cholesky(yaten.flip(precision, (-2, -1)))
    inverse_factor = yaten.flip(flipped, (-2, -1)).mT
    eye = yaten.eye(precision.shape[-1], dtype=precision.dtype, device=precision.device)
    return yaten.linalg.solve_triangular(inverse_factor, eye, upper=False)


def _half_log_det(tril):
    return tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)


def _entropy(self, half_log_det):
    """The Gaussian entropy ``n/2 (1 + log 2 pi) + log sqrt(det cov)``, broadcast over the batch."""
    h = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + half_log_det
    return h if len(self._batch_shape) == 0 else h.expand(self._batch_shape)


def _check_loc(loc):
    if loc.dim() < 1:
        raise ValueError("loc must be at least one-dimensional.")


def _one_matrix(error, covariance_matrix, precision_matrix, scale_tril):
    """The name and value of the one covariance parameter given (``error``, with torch's message, when
    there are none or several)."""
    given = [
        (name, m)
        for name, m in (
            ("covariance_matrix", covariance_matrix),
            ("precision_matrix", precision_matrix),
            ("scale_tril", scale_tril),
        )
        if m is not None
    ]
    if len(given) != 1:
        raise error("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
    return given[0]


def _scale_tril_of(name, matrix):
    """The lower Cholesky factor of the covariance given as ``name``."""
    if name == "scale_tril":
        return matrix
    if name == "covariance_matrix":
        return yaten.linalg.cholesky(matrix)
    return _precision_to_scale_tril(matrix)


class _CovarianceFromScaleTril:
    """``scale_tril``, ``covariance_matrix`` and ``precision_matrix`` computed on demand from the
    (unbroadcast) Cholesky factor ``_unbroadcasted_scale_tril``, broadcast to ``_matrix_shape()``."""

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self):
        tril = self._unbroadcasted_scale_tril
        return (tril @ tril.mT).expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self):
        return yaten.cholesky_inverse(self._unbroadcasted_scale_tril).expand(self._matrix_shape())


def _loc(self):
    """The mean and the mode of a multivariate normal."""
    return self.loc


class _GaussianVector:
    """Multivariate normals hold one n x n matrix per batch element (their ``mean`` and ``mode`` are
    ``_loc``, set in each class: ``Distribution``'s would win over a mixin's)."""

    def _matrix_shape(self):
        return self._batch_shape + self._event_shape + self._event_shape


class MultivariateNormal(Distribution, _GaussianVector, _CovarianceFromScaleTril):
    """``N(loc, covariance_matrix)``; give exactly one of ``covariance_matrix``, ``precision_matrix``,
    ``scale_tril``.

    >>> d = MultivariateNormal(yaten.zeros(2), scale_tril=yaten.eye(2))
    >>> round(d.log_prob(yaten.zeros(2)).item(), 4), d.covariance_matrix.tolist()
    (-1.8379, [[1.0, 0.0], [0.0, 1.0]])
    """

    arg_constraints = {
        "loc": constraints.real_vector,
        "covariance_matrix": constraints.positive_definite,
        "precision_matrix": constraints.positive_definite,
        "scale_tril": constraints.lower_cholesky,
    }
    support = constraints.real_vector
    has_rsample = True
    _shared_over_batch = ("_unbroadcasted_scale_tril",)
    mean = mode = property(_loc)

    def __init__(
        self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None
    ):
        _check_loc(loc)
        name, matrix = _one_matrix(ValueError, covariance_matrix, precision_matrix, scale_tril)
        if matrix.dim() < 2:
            raise ValueError(f"{name} matrix must be at least two-dimensional, with optional leading batch dimensions"
                             if name == "scale_tril" else
                             f"{name} must be at least two-dimensional, with optional leading batch dimensions")  # fmt: skip
        batch_shape = yaten.broadcast_shapes(matrix.shape[:-2], loc.shape[:-1])
        setattr(self, name, matrix.expand(batch_shape + (-1, -1)))
        self.loc = loc.expand(batch_shape + (-1,))
        super().__init__(batch_shape, loc.shape[-1:], validate_args=validate_args)
        self._unbroadcasted_scale_tril = _scale_tril_of(name, matrix)

    @property
    def variance(self):
        return self._unbroadcasted_scale_tril.pow(2).sum(-1).expand(self._batch_shape + self._event_shape)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        eps = _standard_normal(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + _batch_mv(self._unbroadcasted_scale_tril, eps)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        m = _batch_mahalanobis(self._unbroadcasted_scale_tril, value - self.loc)
        half_log_det = _half_log_det(self._unbroadcasted_scale_tril)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + m) - half_log_det

    def entropy(self):
        return _entropy(self, _half_log_det(self._unbroadcasted_scale_tril))
