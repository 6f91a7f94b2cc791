"""The distributions' samplers and a few distributions on cuda tensors (under NUMBA_ENABLE_CUDASIM=1
without a GPU): drawn from the cuda generator's stream, results on the device, the CPU's values for
everything deterministic and the reparameterized gradient through ``_standard_gamma_grad``'s kernel."""

import numpy as np
import pytest

import yaten

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")


def test_samplers_draw_on_cuda_from_the_cuda_generator():
    g = yaten.Generator("cuda").manual_seed(3)
    before = g.get_state().tolist()
    alpha = yaten.tensor([0.5, 2.0, 5.0], device="cuda")
    draws = {
        "_standard_gamma": yaten._standard_gamma(alpha.expand(2000, 3), generator=g),
        "poisson": yaten.poisson(alpha.expand(2000, 3), generator=g),
        "binomial": yaten.binomial(yaten.full((2000, 3), 6.0, device="cuda"), alpha / 10, generator=g),
        "_sample_dirichlet": yaten._sample_dirichlet(alpha.expand(2000, 3), generator=g),
    }
    assert g.get_state().tolist() != before
    for name, x in draws.items():
        assert x.device.type == "cuda" and x.dtype is yaten.float32 and x.shape == (2000, 3), name
    assert np.allclose(draws["_standard_gamma"].mean(0).cpu().numpy(), [0.5, 2.0, 5.0], rtol=0.15)
    assert np.allclose(draws["_sample_dirichlet"].sum(-1).cpu().numpy(), 1.0, rtol=1e-5)


def test_distributions_on_cuda_match_the_cpu():
    conc = np.array([0.7, 2.0, 9.0], np.float32)
    for device in ("cpu", "cuda"):
        c = yaten.tensor(conc, device=device, requires_grad=True)
        d = yaten.distributions.Gamma(c, yaten.ones(3, device=device))
        value = yaten.tensor([0.5, 1.5, 8.0], device=device)
        lp, cdf = d.log_prob(value), d.cdf(value)
        (grad,) = yaten.autograd.grad(lp.sum(), c)
        x = yaten._standard_gamma_grad(c.detach(), value)
        if device == "cpu":
            want = (lp, cdf, grad, x)
        else:
            for got, w in zip((lp, cdf, grad, x), want):
                assert got.device.type == "cuda"
                assert np.allclose(got.detach().cpu().numpy(), w.detach().numpy(), rtol=1e-5, atol=1e-6)
    rs = yaten.distributions.Dirichlet(yaten.tensor([1.0, 2.0], device="cuda", requires_grad=True)).rsample()
    rs.sum().backward()


STANDALONE = {
    "Normal": lambda D, t: D.Normal(t([0.3, -1.0]), t([1.5, 0.5])),
    "Laplace": lambda D, t: D.Laplace(t([0.3, -1.0]), t([1.5, 0.5])),
    "Cauchy": lambda D, t: D.Cauchy(t([0.3, -1.0]), t([1.5, 0.5])),
    "Uniform": lambda D, t: D.Uniform(t([-1.0, 0.0]), t([2.0, 1.0])),
    "Exponential": lambda D, t: D.Exponential(t([0.5, 2.0])),
    "StudentT": lambda D, t: D.StudentT(t([3.0, 5.0]), t([0.3, -1.0]), t([1.5, 0.5])),
    "Bernoulli": lambda D, t: D.Bernoulli(logits=t([0.3, -1.0])),
    "Geometric": lambda D, t: D.Geometric(probs=t([0.3, 0.6])),
    "Poisson": lambda D, t: D.Poisson(t([0.5, 4.0])),
    "Binomial": lambda D, t: D.Binomial(t([5.0, 5.0]), probs=t([0.3, 0.6])),
    "Categorical": lambda D, t: D.Categorical(logits=t([[0.3, -1.0, 2.0], [0.0, 0.5, -0.5]])),
    "ContinuousBernoulli": lambda D, t: D.ContinuousBernoulli(probs=t([0.2, 0.7])),
    "VonMises": lambda D, t: D.VonMises(t([0.3, -1.0]), t([1.5, 4.0])),
    # the transformed and gamma families (DIST-B's part)
    "LogNormal": lambda D, t: D.LogNormal(t([0.3, -1.0]), t([1.5, 0.5])),
    "HalfNormal": lambda D, t: D.HalfNormal(t([1.5, 0.5])),
    "Gumbel": lambda D, t: D.Gumbel(t([0.3, -1.0]), t([1.5, 0.5])),
    "Pareto": lambda D, t: D.Pareto(t([1.0, 2.0]), t([3.0, 5.0])),
    "Weibull": lambda D, t: D.Weibull(t([1.0, 2.0]), t([1.5, 3.0])),
    "Kumaraswamy": lambda D, t: D.Kumaraswamy(t([1.5, 3.0]), t([2.0, 1.5])),
    "InverseGamma": lambda D, t: D.InverseGamma(t([3.0, 5.0]), t([1.0, 2.0])),
    "Gamma": lambda D, t: D.Gamma(t([3.0, 0.5]), t([1.0, 2.0])),
    "Chi2": lambda D, t: D.Chi2(t([1.5, 4.0])),
    "Beta": lambda D, t: D.Beta(t([1.5, 2.0]), t([1.0, 3.0])),
    "Dirichlet": lambda D, t: D.Dirichlet(t([[1.5, 2.0, 3.0], [0.5, 1.0, 4.0]])),
}


@pytest.mark.parametrize("name", STANDALONE)
def test_standalone_families_on_cuda_match_the_cpu(name):
    """Sampling stays on the device; log_prob (of a CPU sample), entropy and KL to itself give the CPU's
    values, on cuda tensors."""
    results = {}
    for device in ("cpu", "cuda"):
        d = STANDALONE[name](yaten.distributions, lambda v, device=device: yaten.tensor(v, device=device))
        assert d.sample((4,)).device.type == device
        value = results["value"].to(device) if device == "cuda" else d.sample((3,))
        results["value"] = value
        quantities = [d.log_prob(value)]
        if name not in ("StudentT", "VonMises"):  # torch registers no KL for these two
            quantities.append(yaten.distributions.kl_divergence(d, d))
        if name not in ("Poisson", "VonMises"):  # nor an entropy
            quantities.append(d.entropy())
        for i, q in enumerate(quantities):
            assert q.device.type == device
            if device == "cpu":
                results[i] = q.numpy()
            else:
                assert np.allclose(q.cpu().numpy(), results[i], rtol=1e-5, atol=1e-6), (name, i)
