"""``KL(p || q)`` for the pairs of the standalone families (Normal, Laplace, Uniform, Exponential,
Bernoulli, Categorical, ...), registered in ``kl.py``'s registry. A pair where ``p`` puts mass outside
``q``'s support is infinite."""

import math

import yaten

from .bernoulli import Bernoulli
from .binomial import Binomial
from .categorical import Categorical
from .cauchy import Cauchy
from .continuous_bernoulli import ContinuousBernoulli
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .geometric import Geometric
from .independent import Independent
from .kl import kl_divergence, register_kl
from .laplace import Laplace
from .normal import Normal
from .one_hot_categorical import OneHotCategorical
from .poisson import Poisson
from .uniform import Uniform
from .utils import _sum_rightmost

_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def _infinite_like(t):
    return yaten.full_like(t, float("inf"))


def _cross_entropy_normal(second_moment, q):
    """``-E_p[log q]`` for a normal ``q``, given ``E_p[(X - q.loc)**2]``."""
    return q.scale.log() + _HALF_LOG_2PI + second_moment / (2 * q.scale.pow(2))


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_exponential_family(p, q):
    # the Bregman divergence of the log-normalizer between the natural parameters
    if type(p) is not type(q):
        raise NotImplementedError(
            "The cross KL-divergence between different exponential families cannot"
            + " " * 29
            + "be computed using Bregman divergences"
        )
    p_thetas = [t.detach().requires_grad_() for t in p._natural_params]
    p_normalizer = p._log_normalizer(*p_thetas)
    grads = yaten.autograd.grad(p_normalizer.sum(), p_thetas, create_graph=True)
    result = q._log_normalizer(*q._natural_params) - p_normalizer
    for p_theta, q_theta, grad in zip(p_thetas, q._natural_params, grads):
        result = result - _sum_rightmost((q_theta - p_theta) * grad, len(q.event_shape))
    return result


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    # log p = -softplus(-logit), log(1 - p) = -softplus(logit); p log(p/q) is 0 at p = 0, inf at q = 0
    softplus = yaten.nn.functional.softplus
    ones = p.probs * (softplus(-q.logits) - softplus(-p.logits))
    ones = ones.masked_fill(q.probs == 0, float("inf")).masked_fill(p.probs == 0, 0)
    zeros = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
    zeros = zeros.masked_fill(q.probs == 1, float("inf")).masked_fill(p.probs == 1, 0)
    return ones + zeros


@register_kl(Bernoulli, Poisson)
def _kl_bernoulli_poisson(p, q):
    return -p.entropy() - p.probs * q.rate.log() + q.rate


@register_kl(Binomial, Binomial)
def _kl_binomial_binomial(p, q):
    if bool((p.total_count < q.total_count).any()):
        raise NotImplementedError(
            "KL between Binomials where q.total_count > p.total_count is not implemented"
        )
    kl = p.total_count * (p.probs * (p.logits - q.logits) + yaten.log1p(-p.probs) - yaten.log1p(-q.probs))
    return kl.masked_fill(p.total_count > q.total_count, float("inf"))


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p, q):
    terms = p.probs * (p.logits - q.logits)
    terms = terms.masked_fill((q.probs == 0).expand_as(terms), float("inf"))
    return terms.masked_fill((p.probs == 0).expand_as(terms), 0).sum(-1)


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehotcategorical_onehotcategorical(p, q):
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(Geometric, Geometric)
def _kl_geometric_geometric(p, q):
    return -p.entropy() - yaten.log1p(-q.probs) / p.probs - q.logits


@register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p, q):
    return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)


@register_kl(Cauchy, Cauchy)
def _kl_cauchy_cauchy(p, q):
    spread = (p.scale + q.scale).pow(2) + (p.loc - q.loc).pow(2)
    return (spread / (4 * p.scale * q.scale)).log()


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p, q):
    ratio = q.rate / p.rate
    return ratio - ratio.log() - 1


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p, q):
    scale_ratio = p.scale / q.scale
    distance = (p.loc - q.loc).abs()
    return -scale_ratio.log() + distance / q.scale + scale_ratio * yaten.exp(-distance / p.scale) - 1


@register_kl(Normal, Normal)
def _kl_normal_normal(p, q):
    var_ratio = (p.scale / q.scale).pow(2)
    shift = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + shift - 1 - var_ratio.log())


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p, q):
    result = ((q.high - q.low) / (p.high - p.low)).log()
    return result.masked_fill((q.low > p.low) | (q.high < p.high), float("inf"))


@register_kl(Exponential, Normal)
def _kl_exponential_normal(p, q):
    mean = p.rate.reciprocal()
    second_moment = 2 * mean.pow(2) - 2 * q.loc * mean + q.loc.pow(2)
    return p.rate.log() - 1 + _cross_entropy_normal(second_moment, q)


@register_kl(Laplace, Normal)
def _kl_laplace_normal(p, q):
    second_moment = 2 * p.scale.pow(2) + (p.loc - q.loc).pow(2)
    return -p.entropy() + _cross_entropy_normal(second_moment, q)


@register_kl(Uniform, Normal)
def _kl_uniform_normal(p, q):
    second_moment = (p.high - p.low).pow(2) / 12 + ((p.high + p.low) / 2 - q.loc).pow(2)
    return -p.entropy() + _cross_entropy_normal(second_moment, q)


@register_kl(Normal, Laplace)
def _kl_normal_laplace(p, q):
    # E|X - m| for X ~ N(loc, scale): the mean of a folded normal
    shift = p.loc - q.loc
    mean_abs = p.scale * math.sqrt(2 / math.pi) * yaten.exp(
        -0.5 * (shift / p.scale).pow(2)
    ) + shift * yaten.erf(shift / (p.scale * math.sqrt(2)))
    return -p.entropy() + (2 * q.scale).log() + mean_abs / q.scale


@register_kl(Uniform, Exponential)
def _kl_uniform_exponential(p, q):
    result = -p.entropy() - q.rate.log() + q.rate * (p.high + p.low) / 2
    return result.masked_fill(p.low < 0, float("inf"))


@register_kl(ContinuousBernoulli, ContinuousBernoulli)
def _kl_continuous_bernoulli_continuous_bernoulli(p, q):
    mean = p.mean
    return (
        mean * (p.logits - q.logits)
        + p._log_norm()
        + yaten.log1p(-p.probs)
        - q._log_norm()
        - yaten.log1p(-q.probs)
    )


@register_kl(ContinuousBernoulli, Exponential)
def _kl_continuous_bernoulli_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * p.mean


@register_kl(ContinuousBernoulli, Normal)
def _kl_continuous_bernoulli_normal(p, q):
    return -p.entropy() + _cross_entropy_normal(p.variance + (p.mean - q.loc).pow(2), q)


@register_kl(ContinuousBernoulli, Uniform)
def _kl_continuous_bernoulli_uniform(p, q):
    # torch counts a uniform that merely touches [0, 1] at an end as not covering it
    result = -p.entropy() + (q.high - q.low).log()
    return result.masked_fill((q.low >= 0) | (q.high <= 1), float("inf"))


@register_kl(Uniform, ContinuousBernoulli)
def _kl_uniform_continuous_bernoulli(p, q):
    # E_p[log q(X)] = log C + E[X] log(probs) + (1 - E[X]) log(1 - probs), E[X] the midpoint
    midpoint = (p.high + p.low) / 2
    expected_log_q = q._log_norm() + midpoint * q.probs.log() + (1 - midpoint) * yaten.log1p(-q.probs)
    result = -p.entropy() - expected_log_q
    return result.masked_fill((p.low <= 0) | (p.high >= 1), float("inf"))


def _infinite(param):
    """A pair where ``p``'s support reaches outside ``q``'s: infinite, shaped as ``p``'s ``param``."""
    return lambda p, q: _infinite_like(getattr(p, param))


for _p, _q, _param in (
    (Exponential, ContinuousBernoulli, "rate"),
    (Exponential, Uniform, "rate"),
    (Laplace, ContinuousBernoulli, "loc"),
    (Laplace, Exponential, "loc"),
    (Laplace, Uniform, "loc"),
    (Normal, ContinuousBernoulli, "loc"),
    (Normal, Exponential, "loc"),
    (Normal, Uniform, "loc"),
    (Poisson, Bernoulli, "rate"),
    (Poisson, Binomial, "rate"),
):
    register_kl(_p, _q)(_infinite(_param))


@register_kl(Independent, Independent)
def _kl_independent_independent(p, q):
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    return _sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.reinterpreted_batch_ndims)
