"""``LKJCholesky``: the LKJ distribution over correlation matrices, on their lower Cholesky factors.
Its density is proportional to ``det(C)^(concentration - 1)`` for the correlation matrix ``C = L L^T``."""

import math

import yaten

from . import constraints
from .beta import Beta
from .distribution import Distribution
from .utils import broadcast_all


class LKJCholesky(Distribution):
    """LKJ over ``dim x dim`` correlation Cholesky factors, sampled by the onion method: each row is a
    direction on the sphere scaled by the square root of a Beta draw.

    >>> d = LKJCholesky(3, yaten.tensor(2.0))
    >>> d.event_shape, round(d.log_prob(yaten.eye(3)).item(), 4)
    (yaten.Size([3, 3]), -0.6155)
    """

    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim, concentration=1.0, validate_args=None):
        if dim < 2:
            raise ValueError(f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}.")
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        batch_shape = self.concentration.size()
        # row i's squared off-diagonal norm is Beta(i / 2, concentration + (dim - 2 - i) / 2)
        marginal = self.concentration + 0.5 * (self.dim - 2)
        offset = yaten.arange(self.dim - 1, dtype=self.concentration.dtype, device=self.concentration.device)
        offset = yaten.cat([offset.new_zeros((1,)), offset])
        self._beta = Beta(offset + 0.5, marginal.unsqueeze(-1) - 0.5 * offset, validate_args=validate_args)
        super().__init__(batch_shape, (dim, dim), validate_args=validate_args)

    def sample(self, sample_shape=()):
        with yaten.no_grad():
            y = self._beta.sample(sample_shape).unsqueeze(-1)
            u = yaten.randn(self._extended_shape(sample_shape), dtype=y.dtype, device=y.device).tril(-1)
            u = u / u.norm(dim=-1, keepdim=True)
            u[..., 0, :] = 0.0  # the first row is (1, 0, ..., 0)
            w = y.sqrt() * u
            diag = (1 - w.pow(2).sum(-1)).clamp(min=yaten.finfo(w.dtype).tiny).sqrt()
            return w + yaten.diag_embed(diag)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diag = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = yaten.arange(
            2, self.dim + 1, dtype=self.concentration.dtype, device=self.concentration.device
        )
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized = (order * diag.log()).sum(-1)
        n = self.dim - 1
        alpha = self.concentration + 0.5 * n
        log_normalizer = (
            0.5 * n * math.log(math.pi) + yaten.mvlgamma(alpha - 0.5, n) - yaten.lgamma(alpha) * n
        )
        return unnormalized - log_normalizer
