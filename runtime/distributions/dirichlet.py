"""``Dirichlet``: the distribution on the simplex of density proportional to ``prod x_i^(c_i - 1)``."""

import yaten

from . import constraints
from .exp_family import ExponentialFamily


class _Dirichlet(yaten.autograd.Function):
    """A Dirichlet draw whose gradient is the implicit reparameterization one (``_dirichlet_grad``)."""

    @staticmethod
    def forward(ctx, concentration):
        x = yaten._sample_dirichlet(concentration)
        ctx.save_for_backward(x, concentration)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        x, concentration = ctx.saved_tensors
        total = concentration.sum(-1, True).expand_as(concentration)
        grad = yaten._dirichlet_grad(x, concentration, total)
        return grad * (grad_output - (x * grad_output).sum(-1, True))


class Dirichlet(ExponentialFamily):
    """``Dirichlet(concentration)`` over the last dimension of ``concentration``.

    >>> d = Dirichlet(yaten.tensor([1.0, 2.0, 3.0]))
    >>> [round(v, 4) for v in d.mean.tolist()]
    [0.1667, 0.3333, 0.5]
    """

    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        shape = concentration.shape
        super().__init__(shape[:-1], shape[-1:], validate_args=validate_args)

    def rsample(self, sample_shape=()):
        return _Dirichlet.apply(self.concentration.expand(self._extended_shape(sample_shape)))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        c = self.concentration
        return yaten.xlogy(c - 1.0, value).sum(-1) + yaten.lgamma(c.sum(-1)) - yaten.lgamma(c).sum(-1)

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        above = (self.concentration - 1).clamp(min=0)
        mode = above / above.sum(-1, True)
        # every concentration below 1: the density peaks at the vertex of the largest one
        vertex = yaten.nn.functional.one_hot(above.argmax(-1), above.shape[-1]).to(mode)
        return yaten.where((self.concentration < 1).all(-1, keepdim=True), vertex, mode)

    @property
    def variance(self):
        c = self.concentration
        total = c.sum(-1, True)
        return c * (total - c) / (total.pow(2) * (total + 1))

    def entropy(self):
        c = self.concentration
        k = c.size(-1)
        total = c.sum(-1)
        return (
            yaten.lgamma(c).sum(-1)
            - yaten.lgamma(total)
            - (k - total) * yaten.digamma(total)
            - ((c - 1.0) * yaten.digamma(c)).sum(-1)
        )

    @property
    def _natural_params(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - yaten.lgamma(x.sum(-1))
