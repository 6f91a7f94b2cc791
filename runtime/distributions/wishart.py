"""``Wishart``: the distribution of ``sum_i x_i x_i^T`` for ``df`` draws ``x_i ~ N(0, covariance)``, on
positive-definite matrices (``df`` may be any real above ``n - 1``)."""

import math
import warnings
from numbers import Number

import yaten

from . import constraints
from .chi2 import Chi2
from .exp_family import ExponentialFamily
from .multivariate_normal import _CovarianceFromScaleTril, _one_matrix, _scale_tril_of


class Wishart(ExponentialFamily, _CovarianceFromScaleTril):
    """``Wishart(df, covariance_matrix | precision_matrix | scale_tril)``, sampled by Bartlett's
    decomposition.

    >>> d = Wishart(yaten.tensor(4.0), covariance_matrix=yaten.eye(2))
    >>> d.mean.tolist(), round(d.log_prob(yaten.eye(2)).item(), 4)
    ([[4.0, 0.0], [0.0, 4.0]], -4.2242)
    """

    arg_constraints = {
        "covariance_matrix": constraints.positive_definite,
        "precision_matrix": constraints.positive_definite,
        "scale_tril": constraints.lower_cholesky,
        "df": constraints.greater_than(0),
    }
    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0
    _shared_over_batch = ("_unbroadcasted_scale_tril",)

    def __init__(
        self, df, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None
    ):
        name, matrix = _one_matrix(AssertionError, covariance_matrix, precision_matrix, scale_tril)
        if matrix.dim() < 2:
            raise ValueError(
                "scale_tril must be at least two-dimensional, with optional leading batch dimensions"
            )
        if isinstance(df, Number):
            batch_shape = matrix.shape[:-2]
            self.df = yaten.tensor(df, dtype=matrix.dtype, device=matrix.device)
        else:
            batch_shape = yaten.broadcast_shapes(matrix.shape[:-2], df.shape)
            self.df = df.expand(batch_shape)
        event_shape = matrix.shape[-2:]
        n = event_shape[-1]
        if bool((self.df <= n - 1).any()):
            raise ValueError(f"Value of df={df} expected to be greater than ndim - 1 = {n - 1}.")
        setattr(self, name, matrix.expand(batch_shape + (-1, -1)))
        # the lower bound of df depends on the dimension: an instance's own table
        self.arg_constraints = {**type(self).arg_constraints, "df": constraints.greater_than(n - 1)}
        if bool(self.df.lt(n).any()):
            warnings.warn(
                "Low df values detected. Singular samples are highly likely to occur for ndim - 1 < df < ndim.",
                stacklevel=2,
            )
        super().__init__(batch_shape, event_shape, validate_args=validate_args)
        self._unbroadcasted_scale_tril = _scale_tril_of(name, matrix)
        # Bartlett: the squared diagonal of the random factor is chi2 with df - i degrees of freedom
        steps = yaten.arange(n, dtype=self.df.dtype, device=self.df.device).expand(batch_shape + (-1,))
        self._dist_chi2 = Chi2(self.df.unsqueeze(-1) - steps)

    def _matrix_shape(self):
        return self._batch_shape + self._event_shape

    def _df_matrix(self):
        return self.df.view(self._batch_shape + (1, 1))

    @property
    def mean(self):
        return self._df_matrix() * self.covariance_matrix

    @property
    def mode(self):
        factor = self.df - self._event_shape[-1] - 1
        factor = yaten.where(factor <= 0, math.nan, factor)
        return factor.view(self._batch_shape + (1, 1)) * self.covariance_matrix

    @property
    def variance(self):
        cov = self.covariance_matrix
        diag = cov.diagonal(dim1=-2, dim2=-1)
        return self._df_matrix() * (cov.pow(2) + diag.unsqueeze(-1) * diag.unsqueeze(-2))

    def _bartlett_sample(self, sample_shape):
        n = self._event_shape[-1]
        eps = yaten.finfo(self.df.dtype).eps
        noise = self._dist_chi2.rsample(sample_shape).sqrt().clamp(min=eps).diag_embed(dim1=-2, dim2=-1)
        rows, cols = yaten.tril_indices(n, n, offset=-1)
        below = yaten.randn(
            tuple(sample_shape) + tuple(self._batch_shape) + (len(rows),),
            dtype=noise.dtype,
            device=noise.device,
        )
        noise = _set_below(noise, rows, cols, below)
        factor = self._unbroadcasted_scale_tril @ noise
        return factor @ factor.mT

    def rsample(self, sample_shape=(), max_try_correction=None):
        """Draws by Bartlett's decomposition; singular draws (possible for df < n) are redrawn up to
        ``max_try_correction`` times (3 by default), with a warning."""
        max_try_correction = 3 if max_try_correction is None else max_try_correction
        sample_shape = yaten.Size(sample_shape)
        sample = self._bartlett_sample(sample_shape)
        singular = ~constraints.positive_definite.check(sample)
        if bool(singular.any()):
            warnings.warn("Singular sample detected.", stacklevel=2)
            for _ in range(max_try_correction):
                sample = yaten.where(singular[..., None, None], self._bartlett_sample(sample_shape), sample)
                singular = ~constraints.positive_definite.check(sample)
                if not bool(singular.any()):
                    break
        return sample

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        nu, n = self.df, self._event_shape[-1]
        tril = self._unbroadcasted_scale_tril
        log_det_tril = tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        return (
            -nu * (n * math.log(2) / 2 + log_det_tril)
            - yaten.mvlgamma(nu / 2, p=n)
            + (nu - n - 1) / 2 * yaten.linalg.slogdet(value).logabsdet
            - yaten.cholesky_solve(value, tril).diagonal(dim1=-2, dim2=-1).sum(dim=-1) / 2
        )

    def entropy(self):
        nu, n = self.df, self._event_shape[-1]
        log_det_tril = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        # the multivariate digamma psi_n(nu / 2) = sum_i digamma(nu / 2 - i / 2)
        halves = yaten.arange(n, dtype=nu.dtype, device=nu.device) / 2
        multi_digamma = yaten.digamma(nu.unsqueeze(-1) / 2 - halves).sum(-1)
        return (
            (n + 1) * (n * math.log(2) / 2 + log_det_tril)
            + yaten.mvlgamma(nu / 2, p=n)
            - (nu - n - 1) / 2 * multi_digamma
            + nu * n / 2
        )

    @property
    def _natural_params(self):
        return -0.5 * self.precision_matrix, 0.5 * self.df

    def _log_normalizer(self, x, y):
        n = self._event_shape[-1]
        return y * (-yaten.linalg.slogdet(-2 * x).logabsdet + n * math.log(2)) + yaten.mvlgamma(y, p=n)


def _set_below(matrix, rows, cols, values):
    """``matrix`` with its entries ``(rows, cols)`` (of the last two dimensions) set to ``values``."""
    matrix = matrix.clone()
    matrix[..., rows, cols] = values
    return matrix
