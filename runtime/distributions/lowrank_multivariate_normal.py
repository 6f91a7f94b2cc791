"""``LowRankMultivariateNormal``: a Gaussian whose covariance is low-rank plus diagonal,
``W W^T + diag(D)``. Its log density and entropy come from the m x m "capacitance" matrix
``I + W^T D^-1 W`` (Woodbury's identity and the matrix determinant lemma), never the n x n one."""

import math

import yaten

from . import constraints
from .distribution import Distribution
from .multivariate_normal import _batch_mahalanobis, _batch_mv, _check_loc, _entropy, _GaussianVector, _loc
from .utils import _standard_normal, lazy_property


def _capacitance_tril(factor, diag):
    """The Cholesky factor of ``I + W^T D^-1 W``."""
    m = factor.size(-1)
    k = (factor.mT / diag.unsqueeze(-2)) @ factor
    return yaten.linalg.cholesky(k + yaten.eye(m, dtype=k.dtype, device=k.device))


def _log_det(factor, diag, capacitance_tril):
    """``log det(W W^T + D) = log det(capacitance) + log det(D)``."""
    return 2 * capacitance_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1) + diag.log().sum(-1)


def _mahalanobis(factor, diag, x, capacitance_tril):
    """``x^T (W W^T + D)^-1 x`` by Woodbury: ``x^T D^-1 x - |C^-1 W^T D^-1 x|^2``."""
    wt_dinv_x = _batch_mv(factor.mT / diag.unsqueeze(-2), x)
    return (x.pow(2) / diag).sum(-1) - _batch_mahalanobis(capacitance_tril, wt_dinv_x)


class LowRankMultivariateNormal(Distribution, _GaussianVector):
    """``N(loc, cov_factor @ cov_factor.T + diag(cov_diag))``.

    >>> d = LowRankMultivariateNormal(yaten.zeros(2), yaten.zeros(2, 1), yaten.ones(2))
    >>> round(d.log_prob(yaten.zeros(2)).item(), 4)
    -1.8379
    """

    arg_constraints = {
        "loc": constraints.real_vector,
        "cov_factor": constraints.independent(constraints.real, 2),
        "cov_diag": constraints.independent(constraints.positive, 1),
    }
    support = constraints.real_vector
    has_rsample = True
    _shared_over_batch = ("_unbroadcasted_cov_factor", "_unbroadcasted_cov_diag", "_capacitance_tril")
    mean = mode = property(_loc)

    def __init__(self, loc, cov_factor, cov_diag, validate_args=None):
        _check_loc(loc)
        event_shape = loc.shape[-1:]
        if cov_factor.dim() < 2:
            raise ValueError(
                "cov_factor must be at least two-dimensional, with optional leading batch dimensions"
            )
        if cov_factor.shape[-2:-1] != event_shape:
            raise ValueError(f"cov_factor must be a batch of matrices with shape {event_shape[0]} x m")
        if cov_diag.shape[-1:] != event_shape:
            raise ValueError(f"cov_diag must be a batch of vectors with shape {event_shape}")
        try:
            loc_, self.cov_factor, diag_ = yaten.broadcast_tensors(
                loc.unsqueeze(-1), cov_factor, cov_diag.unsqueeze(-1)
            )
        except RuntimeError as e:
            raise ValueError(
                f"Incompatible batch shapes: loc {loc.shape}, cov_factor {cov_factor.shape}, cov_diag {cov_diag.shape}"
            ) from e
        self.loc = loc_[..., 0]
        self.cov_diag = diag_[..., 0]
        super().__init__(self.loc.shape[:-1], event_shape, validate_args=validate_args)
        self._unbroadcasted_cov_factor = cov_factor
        self._unbroadcasted_cov_diag = cov_diag
        self._capacitance_tril = _capacitance_tril(cov_factor, cov_diag)

    @lazy_property
    def variance(self):
        w, d = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        return (w.pow(2).sum(-1) + d).expand(self._batch_shape + self._event_shape)

    @lazy_property
    def scale_tril(self):
        # L = D^1/2 chol(I + D^-1/2 W W^T D^-1/2): stable, unlike chol(W W^T + D) when D is small
        root = self._unbroadcasted_cov_diag.sqrt().unsqueeze(-1)
        scaled = self._unbroadcasted_cov_factor / root
        n = self._event_shape[0]
        k = scaled @ scaled.mT + yaten.eye(n, dtype=scaled.dtype, device=scaled.device)
        return (root * yaten.linalg.cholesky(k)).expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self):
        w = self._unbroadcasted_cov_factor
        return (w @ w.mT + yaten.diag_embed(self._unbroadcasted_cov_diag)).expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self):
        # Woodbury: D^-1 - A^T A with A = C^-1 W^T D^-1
        w, d = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        a = yaten.linalg.solve_triangular(self._capacitance_tril, w.mT / d.unsqueeze(-2), upper=False)
        return (yaten.diag_embed(d.reciprocal()) - a.mT @ a).expand(self._matrix_shape())

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        w = self._unbroadcasted_cov_factor
        eps_w = _standard_normal(shape[:-1] + w.shape[-1:], dtype=self.loc.dtype, device=self.loc.device)
        eps_d = _standard_normal(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + _batch_mv(w, eps_w) + self._unbroadcasted_cov_diag.sqrt() * eps_d

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        w, d, c = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag, self._capacitance_tril
        m = _mahalanobis(w, d, value - self.loc, c)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + _log_det(w, d, c) + m)

    def entropy(self):
        w, d, c = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag, self._capacitance_tril
        return _entropy(self, 0.5 * _log_det(w, d, c))
