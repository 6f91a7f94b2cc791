"""Samples: yaten's RNG is not torch's, so draws are compared statistically (seeded, so each run draws
the same numbers): the empirical cdf against torch's cdf where torch has one, else the mean and
variance against torch's, within six standard errors. The reparameterized gradients are compared
exactly given the same noise (patched in both libraries) or the same sample."""

import numpy as np
import pytest
import torch
from _cases import CASES, build

import yaten
from tests.tolerances import as_array, assert_close

N = 20000
# No variance check: tails too heavy (an infinite or huge fourth moment), or a circular variance (VonMises).
NO_VARIANCE = {"StudentT", "FisherSnedecor", "Pareto", "InverseGamma", "GeneralizedPareto", "LogNormal", "Wishart",
               "VonMises"}  # fmt: skip


def _outcome(fn):
    try:
        return as_array(fn())
    except (NotImplementedError, ValueError, RuntimeError):
        return None


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_samples_follow_the_distribution(case):
    yaten.manual_seed(1234)
    y, _ = build(yaten, case)
    t, _ = build(torch, case)
    x = as_array(y.sample((N,))).astype(np.float64)
    value = torch.tensor(case.value)
    cdf = _outcome(lambda: t.cdf(value))
    if cdf is not None:
        hits = (x <= case.value).mean(axis=0)
        se = np.sqrt(cdf * (1 - cdf) / N) + 1 / N
        assert np.all(np.abs(hits - cdf) <= 6 * se), (hits, cdf)
    mean, var = _outcome(lambda: t.mean), _outcome(lambda: t.variance)
    if mean is None or not np.all(np.isfinite(mean)) or var is None or not np.all(np.isfinite(var)):
        if cdf is None:
            assert bool(y.support.check(yaten.tensor(x)).all())  # neither moments nor a cdf: the support
        return
    assert np.all(np.abs(x.mean(axis=0) - mean) <= 6 * np.sqrt(var / N) + 1e-12), (x.mean(axis=0), mean)
    if case.name not in NO_VARIANCE:
        fourth = ((x - x.mean(axis=0)) ** 4).mean(axis=0)
        assert np.all(np.abs(x.var(axis=0) - var) <= 6 * np.sqrt(np.abs(fourth - var**2) / N) + 1e-12)


def test_samplers_moments_and_checks():
    yaten.manual_seed(7)
    alpha = yaten.tensor([0.3, 1.0, 4.0, 50.0], dtype=yaten.float64)
    g = yaten._standard_gamma(alpha.expand(N, 4))
    assert_close(as_array(g.mean(0)), as_array(alpha), rtol=0.05, atol=0.02)
    p = yaten.poisson(yaten.tensor([0.5, 3.0, 40.0]).expand(N, 3))
    assert p.dtype is yaten.float32 and bool((p == p.round()).all())
    assert_close(as_array(p.mean(0)), [0.5, 3.0, 40.0], rtol=0.03, atol=0.02)
    b = yaten.binomial(yaten.tensor([5.0, 20.0]).expand(N, 2), yaten.tensor([0.3, 0.9]).expand(N, 2))
    assert_close(as_array(b.mean(0)), [1.5, 18.0], rtol=0.03)
    d = yaten._sample_dirichlet(yaten.tensor([1.0, 2.0, 7.0]).expand(N, 3))
    assert_close(as_array(d.sum(-1)), np.ones(N), rtol=1e-6)
    assert_close(as_array(d.mean(0)), [0.1, 0.2, 0.7], rtol=0.03)
    for fn, args in (
        (torch._standard_gamma, (np.array([1, 2]),)),
        (torch._standard_gamma, (np.array([1.0, 2.0], np.float16),)),
        (torch._sample_dirichlet, (np.array([1, 2]),)),
        (torch.poisson, (np.array([-1.0, 2.0]),)),
        (torch.poisson, (np.array([1, 2]),)),
        (torch.binomial, (np.array([1, 2]), np.array([0.5, 0.5]))),
        (torch.binomial, (np.array([1.0, 2.0], np.float32), np.array([0.5, 0.5]))),
    ):
        with pytest.raises(Exception) as want:
            fn(*[torch.from_numpy(a) for a in args])
        with pytest.raises(type(want.value)) as got:
            getattr(yaten, fn.__name__)(*[yaten.from_numpy(a) for a in args])
        assert str(got.value) == str(want.value)


def test_sampler_edges_match_torch():
    tiny = yaten.finfo(yaten.float32).tiny
    assert yaten._standard_gamma(yaten.tensor([0.0, -1.0, float("nan")])).tolist() == [tiny] * 3
    assert yaten._sample_dirichlet(yaten.tensor([1e-30, 1e-30])).tolist() == [0.5, 0.5]
    assert yaten._sample_dirichlet(yaten.tensor(2.0)).shape == ()
    assert yaten.binomial(yaten.tensor([3.0, 3.0, 2.0]), yaten.tensor([1.5, -0.5, 1.0])).tolist() == [
        3.0,
        0.0,
        2.0,
    ]
    assert yaten.poisson(yaten.tensor([0.0])).tolist() == [0.0]


def test_standard_gamma_gradient_is_the_reparameterized_one():
    alpha = yaten.tensor([0.4, 1.5, 3.0, 12.0], dtype=yaten.float64, requires_grad=True)
    x = yaten._standard_gamma(alpha)
    assert type(x.grad_fn).__name__ == "StandardGammaBackward0"
    (got,) = yaten.autograd.grad(x.sum(), alpha)
    want = torch._standard_gamma_grad(torch.tensor(as_array(alpha)), torch.tensor(as_array(x)))
    assert_close(as_array(got), as_array(want))
    rate = yaten.tensor([1.0, 2.0], dtype=yaten.float64, requires_grad=True)
    conc = yaten.tensor([2.0, 0.5], dtype=yaten.float64, requires_grad=True)
    yaten.manual_seed(3)
    sample = yaten.distributions.Gamma(conc, rate).rsample()
    yaten.manual_seed(3)
    std = yaten._standard_gamma(conc.detach())
    g_conc, g_rate = yaten.autograd.grad(sample.sum(), (conc, rate))
    t_std, t_rate = torch.tensor(as_array(std)), torch.tensor(as_array(rate))
    assert_close(
        as_array(g_conc), as_array(torch._standard_gamma_grad(torch.tensor(as_array(conc)), t_std) / t_rate)
    )
    assert_close(as_array(g_rate), as_array(-t_std / t_rate**2))


def test_binomial_and_dirichlet_have_no_derivative():
    p = yaten.tensor([0.5], requires_grad=True)
    out = yaten.binomial(yaten.tensor([3.0]), p)
    assert out.grad_fn.name() == "NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::binomial is not implemented"):
        out.sum().backward()
    grad = yaten.poisson(yaten.tensor([2.0], requires_grad=True))
    assert type(grad.grad_fn).__name__ == "PoissonBackward0"


@pytest.mark.parametrize("name", ["Dirichlet", "Beta"])
def test_dirichlet_rsample_gradient_matches_torch_given_the_same_sample(name, monkeypatch):
    case = next(c for c in CASES if c.name == name)
    draws = {}

    def fixed(lib):
        def sample(concentration, generator=None):
            key = tuple(concentration.shape)
            if key not in draws:
                draws[key] = np.random.default_rng(0).dirichlet(np.ones(key[-1]), size=key[:-1])
            return lib.tensor(draws[key], dtype=concentration.dtype)

        return sample

    monkeypatch.setattr(torch, "_sample_dirichlet", fixed(torch))
    monkeypatch.setattr(yaten, "_sample_dirichlet", fixed(yaten))
    t, t_leaves = build(torch, case, grad=True)
    y, y_leaves = build(yaten, case, grad=True)
    want, got = t.rsample(), y.rsample()
    assert_close(as_array(got), as_array(want))
    names = list(case.grad)
    want_g = torch.autograd.grad(
        (want * torch.arange(1.0, want.shape[-1] + 1)).sum(), [t_leaves[k] for k in names]
    )
    got_g = yaten.autograd.grad(
        (got * yaten.arange(1.0, got.shape[-1] + 1)).sum(), [y_leaves[k] for k in names]
    )
    for k, g, w in zip(names, got_g, want_g):
        assert_close(as_array(g), as_array(w), f"d sample / d {k}", rtol=1e-8)


NORMAL_FAMILY = [c for c in CASES if c.name in ("Normal", "LogNormal", "HalfNormal", "MultivariateNormal",
                                                "LowRankMultivariateNormal", "LogisticNormal", "Independent")]  # fmt: skip


@pytest.mark.parametrize("case", NORMAL_FAMILY, ids=[c.id for c in NORMAL_FAMILY])
def test_rsample_gradients_match_torch_given_the_same_noise(case, monkeypatch):
    for lib in (torch, yaten):
        rng = np.random.default_rng(5)

        def noise(shape, dtype, device, lib=lib, rng=rng):
            return lib.tensor(rng.standard_normal(tuple(shape)), dtype=dtype)

        for module in ("normal", "multivariate_normal", "lowrank_multivariate_normal"):
            monkeypatch.setattr(getattr(lib.distributions, module), "_standard_normal", noise)
    t, t_leaves = build(torch, case, grad=True)
    y, y_leaves = build(yaten, case, grad=True)
    want, got = t.rsample((3,)), y.rsample((3,))
    assert_close(as_array(got), as_array(want), rtol=1e-10)
    names = [k for k, v in t_leaves.items() if v.requires_grad]
    want_g = torch.autograd.grad(want.sum(), [t_leaves[k] for k in names])
    got_g = yaten.autograd.grad(got.sum(), [y_leaves[k] for k in names])
    for k, g, w in zip(names, got_g, want_g):
        assert_close(as_array(g), as_array(w), f"d rsample / d {k}", rtol=1e-8)
