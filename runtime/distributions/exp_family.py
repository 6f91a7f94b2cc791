"""``ExponentialFamily``: distributions of density ``h(x) exp(<t(x), theta> - A(theta))``, whose entropy
follows from the log-normalizer ``A`` (the Bregman divergence of ``A``, through autograd)."""

import yaten

from .distribution import Distribution


class ExponentialFamily(Distribution):
    """A distribution given by its natural parameters ``_natural_params``, its log-normalizer
    ``_log_normalizer(*natural_params)`` and ``_mean_carrier_measure`` (``E[log h(X)]``).

    >>> issubclass(yaten.distributions.Normal, ExponentialFamily)
    True
    """

    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        """``A(theta) - <theta, grad A(theta)> - E[log h(X)]``, differentiable in the parameters."""
        thetas = [p.detach().requires_grad_() for p in self._natural_params]
        normalizer = self._log_normalizer(*thetas)
        grads = yaten.autograd.grad(normalizer.sum(), thetas, create_graph=True)
        result = normalizer - self._mean_carrier_measure
        for theta, grad in zip(thetas, grads):
            result = result - (theta * grad).reshape(self._batch_shape + (-1,)).sum(-1)
        return result
