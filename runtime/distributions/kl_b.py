"""``KL(p || q)`` for the pairs torch registers that involve the gamma, beta, Dirichlet, Gumbel, Pareto,
half-normal, transformed and multivariate normal families.

Most are ``-H(p) + CE(p, q)``: the cross entropy ``-E_p[log q(X)]`` needs only a few expectations under
``p`` (``E[X]``, ``E[log X]``, ...), so each ``q`` family has one cross-entropy helper taking them, and
each pair supplies ``p``'s. A ``p`` with mass outside ``q``'s support gives infinity.
"""

import yaten

from .beta import Beta
from .continuous_bernoulli import ContinuousBernoulli
from .dirichlet import Dirichlet
from .exponential import Exponential
from .gamma import Gamma
from .gumbel import Gumbel
from .half_normal import HalfNormal
from .kl import kl_divergence, register_kl
from .kl_pairs import _cross_entropy_normal, _infinite
from .laplace import Laplace
from .lowrank_multivariate_normal import LowRankMultivariateNormal, _log_det
from .multivariate_normal import MultivariateNormal, _batch_mahalanobis, _half_log_det
from .normal import Normal
from .pareto import Pareto
from .transformed_distribution import TransformedDistribution
from .uniform import Uniform
from .utils import euler_constant

_INF = float("inf")


# --- expectations under p ------------------------------------------------------------------------


def _uniform_mean_log(low, high):
    """``E[log X]`` for ``X`` uniform on (low, high): ``[x log x - x]`` over the interval, by its length."""
    width = high - low
    return (yaten.xlogy(high, high) - yaten.xlogy(low, low) - width) / width


def _second_moment(p, loc):
    """``E_p[(X - loc)^2]``."""
    return p.variance + (p.mean - loc).pow(2)


# --- cross entropies against q -------------------------------------------------------------------


def _cross_entropy_gamma(mean, mean_log, q):
    c, r = q.concentration, q.rate
    return -(c * r.log() + (c - 1) * mean_log - r * mean - yaten.lgamma(c))


def _cross_entropy_exponential(mean, q):
    return -q.rate.log() + q.rate * mean


def _cross_entropy_gumbel(mean, mean_exp, q):
    """With ``z = (loc - X) / scale``, ``-log q = log scale - z + exp(z)``; ``mean_exp`` is
    ``E[exp(-X / scale)]``."""
    return q.scale.log() - (q.loc - mean) / q.scale + (q.loc / q.scale).exp() * mean_exp


def _cross_entropy_beta(mean_log, mean_log1m, q):
    a, b = q.concentration1, q.concentration0
    log_beta = yaten.lgamma(a) + yaten.lgamma(b) - yaten.lgamma(a + b)
    return log_beta - (a - 1) * mean_log - (b - 1) * mean_log1m


def _cross_entropy_pareto(mean_log, q):
    return -(q.alpha.log() + q.alpha * q.scale.log() - (q.alpha + 1) * mean_log)


def _cross_entropy_continuous_bernoulli(mean, q):
    return -(q._log_norm() + mean * q.probs.log() + (1 - mean) * yaten.log1p(-q.probs))


# --- beta ----------------------------------------------------------------------------------------


def _beta_mean_logs(p):
    """``E[log X]`` and ``E[log(1 - X)]`` under a Beta."""
    total = yaten.digamma(p.concentration1 + p.concentration0)
    return yaten.digamma(p.concentration1) - total, yaten.digamma(p.concentration0) - total


@register_kl(Beta, Beta)
def _kl_beta_beta(p, q):
    return -p.entropy() + _cross_entropy_beta(*_beta_mean_logs(p), q)


@register_kl(Beta, ContinuousBernoulli)
def _kl_beta_continuous_bernoulli(p, q):
    return -p.entropy() + _cross_entropy_continuous_bernoulli(p.mean, q)


@register_kl(Beta, Exponential)
def _kl_beta_exponential(p, q):
    return -p.entropy() + _cross_entropy_exponential(p.mean, q)


@register_kl(Beta, Gamma)
def _kl_beta_gamma(p, q):
    return -p.entropy() + _cross_entropy_gamma(p.mean, _beta_mean_logs(p)[0], q)


@register_kl(Beta, Normal)
def _kl_beta_normal(p, q):
    return -p.entropy() + _cross_entropy_normal(_second_moment(p, q.loc), q)


@register_kl(Beta, Uniform)
def _kl_beta_uniform(p, q):
    result = -p.entropy() + (q.high - q.low).log()
    return result.masked_fill((q.low > 0) | (q.high < 1), _INF)


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p, q):
    total_p, total_q = p.concentration.sum(-1), q.concentration.sum(-1)
    log_norms = yaten.lgamma(total_p) - yaten.lgamma(total_q)
    log_norms = log_norms - (yaten.lgamma(p.concentration) - yaten.lgamma(q.concentration)).sum(-1)
    mean_logs = yaten.digamma(p.concentration) - yaten.digamma(total_p).unsqueeze(-1)
    return log_norms + ((p.concentration - q.concentration) * mean_logs).sum(-1)


# --- exponential, gamma --------------------------------------------------------------------------


@register_kl(Exponential, Gamma)
def _kl_exponential_gamma(p, q):
    return -p.entropy() + _cross_entropy_gamma(p.mean, -p.rate.log() - euler_constant, q)


@register_kl(Exponential, Gumbel)
def _kl_exponential_gumbel(p, q):
    return -p.entropy() + _cross_entropy_gumbel(p.mean, p.rate / (p.rate + q.scale.reciprocal()), q)


@register_kl(Gamma, Exponential)
def _kl_gamma_exponential(p, q):
    return -p.entropy() + _cross_entropy_exponential(p.mean, q)


@register_kl(Gamma, Gamma)
def _kl_gamma_gamma(p, q):
    mean_log = yaten.digamma(p.concentration) - p.rate.log()
    return -p.entropy() + _cross_entropy_gamma(p.mean, mean_log, q)


@register_kl(Gamma, Gumbel)
def _kl_gamma_gumbel(p, q):
    mean_exp = (p.rate / (p.rate + q.scale.reciprocal())).pow(p.concentration)
    return -p.entropy() + _cross_entropy_gumbel(p.mean, mean_exp, q)


@register_kl(Gamma, Normal)
def _kl_gamma_normal(p, q):
    return -p.entropy() + _cross_entropy_normal(_second_moment(p, q.loc), q)


# --- gumbel, normal, half-normal -----------------------------------------------------------------


@register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(p, q):
    mean_exp = (-p.loc / q.scale).exp() * yaten.lgamma(1 + p.scale / q.scale).exp()
    return -p.entropy() + _cross_entropy_gumbel(p.mean, mean_exp, q)


@register_kl(Gumbel, Normal)
def _kl_gumbel_normal(p, q):
    return -p.entropy() + _cross_entropy_normal(_second_moment(p, q.loc), q)


@register_kl(Normal, Gumbel)
def _kl_normal_gumbel(p, q):
    mean_exp = (-p.loc / q.scale + p.scale.pow(2) / (2 * q.scale.pow(2))).exp()
    return -p.entropy() + _cross_entropy_gumbel(p.mean, mean_exp, q)


@register_kl(HalfNormal, HalfNormal)
def _kl_halfnormal_halfnormal(p, q):
    ratio = (p.scale / q.scale).pow(2)
    return 0.5 * (ratio - 1 - ratio.log())


# --- pareto --------------------------------------------------------------------------------------


def _pareto_mean_log(p):
    return p.scale.log() + p.alpha.reciprocal()


@register_kl(Pareto, Exponential)
def _kl_pareto_exponential(p, q):
    result = -p.entropy() + _cross_entropy_exponential(p.mean, q)
    return result.masked_fill(p.alpha <= 1, _INF)


@register_kl(Pareto, Gamma)
def _kl_pareto_gamma(p, q):
    result = -p.entropy() + _cross_entropy_gamma(p.mean, _pareto_mean_log(p), q)
    return result.masked_fill(p.alpha <= 1, _INF)


@register_kl(Pareto, Normal)
def _kl_pareto_normal(p, q):
    result = -p.entropy() + _cross_entropy_normal(_second_moment(p, q.loc), q)
    return result.masked_fill(p.alpha <= 2, _INF)


@register_kl(Pareto, Pareto)
def _kl_pareto_pareto(p, q):
    result = -p.entropy() + _cross_entropy_pareto(_pareto_mean_log(p), q)
    return result.masked_fill(p.scale < q.scale, _INF)


# --- uniform -------------------------------------------------------------------------------------


@register_kl(Uniform, Beta)
def _kl_uniform_beta(p, q):
    mean_log1m = _uniform_mean_log(1 - p.high, 1 - p.low)
    result = -p.entropy() + _cross_entropy_beta(_uniform_mean_log(p.low, p.high), mean_log1m, q)
    return result.masked_fill((p.low < 0) | (p.high > 1), _INF)


@register_kl(Uniform, Gamma)
def _kl_uniform_gamma(p, q):
    result = -p.entropy() + _cross_entropy_gamma(p.mean, _uniform_mean_log(p.low, p.high), q)
    return result.masked_fill(p.low < 0, _INF)


@register_kl(Uniform, Gumbel)
def _kl_uniform_gumbel(p, q):
    mean_exp = q.scale * ((-p.low / q.scale).exp() - (-p.high / q.scale).exp()) / (p.high - p.low)
    return -p.entropy() + _cross_entropy_gumbel(p.mean, mean_exp, q)


@register_kl(Uniform, Pareto)
def _kl_uniform_pareto(p, q):
    result = -p.entropy() + _cross_entropy_pareto(_uniform_mean_log(p.low, p.high), q)
    return result.masked_fill(q.scale > p.low, _INF)


# --- pairs that are always infinite: p reaches outside q's support -------------------------------

for _p, _q, _param in (
    (Beta, Pareto, "concentration1"),
    (ContinuousBernoulli, Pareto, "probs"),
    (Exponential, Beta, "rate"),
    (Exponential, Pareto, "rate"),
    (Gamma, Beta, "concentration"),
    (Gamma, ContinuousBernoulli, "concentration"),
    (Gamma, Pareto, "concentration"),
    (Gamma, Uniform, "concentration"),
    (Gumbel, Beta, "loc"),
    (Gumbel, ContinuousBernoulli, "loc"),
    (Gumbel, Exponential, "loc"),
    (Gumbel, Gamma, "loc"),
    (Gumbel, Pareto, "loc"),
    (Gumbel, Uniform, "loc"),
    (Laplace, Beta, "loc"),
    (Laplace, Gamma, "loc"),
    (Laplace, Pareto, "loc"),
    (Normal, Beta, "loc"),
    (Normal, Gamma, "loc"),
    (Normal, Pareto, "loc"),
    (Pareto, Beta, "scale"),
    (Pareto, ContinuousBernoulli, "scale"),
    (Pareto, Uniform, "scale"),
):
    register_kl(_p, _q)(_infinite(_param))


# --- transformed and multivariate normal ---------------------------------------------------------


@register_kl(TransformedDistribution, TransformedDistribution)
def _kl_transformed_transformed(p, q):
    # the same bijection on both sides leaves the divergence of the bases unchanged
    if p.transforms != q.transforms or p.event_shape != q.event_shape:
        raise NotImplementedError
    return kl_divergence(p.base_dist, q.base_dist)


def _gaussian_parts(d):
    """A multivariate normal's covariance factor ``F`` (``cov = F F^T``, not necessarily square), its
    ``log det cov``, and a lower Cholesky factor of ``cov``."""
    if isinstance(d, LowRankMultivariateNormal):
        w, diag = d._unbroadcasted_cov_factor, d._unbroadcasted_cov_diag
        w, diag_root = yaten.broadcast_tensors(w, diag.sqrt().unsqueeze(-1))
        factor = yaten.cat([w, yaten.diag_embed(diag_root[..., 0])], -1)
        return factor, _log_det(w, diag, d._capacitance_tril), d.scale_tril
    tril = d._unbroadcasted_scale_tril
    return tril, 2 * _half_log_det(tril), tril


@register_kl(MultivariateNormal, MultivariateNormal)
@register_kl(MultivariateNormal, LowRankMultivariateNormal)
@register_kl(LowRankMultivariateNormal, MultivariateNormal)
@register_kl(LowRankMultivariateNormal, LowRankMultivariateNormal)
def _kl_gaussian_gaussian(p, q):
    """``(tr(S_q^-1 S_p) + |L_q^-1 (mu_q - mu_p)|^2 - n + log det S_q - log det S_p) / 2``."""
    if p.event_shape != q.event_shape:
        low_rank = [isinstance(d, LowRankMultivariateNormal) for d in (p, q)]
        which = "Low Rank " if all(low_rank) else "(Low Rank) " if any(low_rank) else ""
        raise ValueError(  # torch's text, with the run of spaces of its line continuation
            f"KL-divergence between two {which}Multivariate Normals with{' ' * 26}different event shapes "
            "cannot be computed"
        )
    p_factor, p_log_det, _ = _gaussian_parts(p)
    _, q_log_det, q_tril = _gaussian_parts(q)
    n = p.event_shape[0]
    shape = yaten.broadcast_shapes(p_factor.shape[:-2], q_tril.shape[:-2])
    solved = yaten.linalg.solve_triangular(
        q_tril.expand(shape + (n, n)), p_factor.expand(shape + tuple(p_factor.shape[-2:])), upper=False
    )
    trace = solved.pow(2).sum((-2, -1))
    mahalanobis = _batch_mahalanobis(q_tril, q.loc - p.loc)
    return 0.5 * (trace + mahalanobis - n + q_log_det - p_log_det)
