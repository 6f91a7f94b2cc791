"""The distributions table shared by the parity tests: each case builds the same distribution in yaten
and in torch from NumPy parameters, with a value inside its support to score."""

from dataclasses import dataclass, field

import numpy as np


def _tril(n, seed):
    a = np.random.default_rng(seed).standard_normal((n, n))
    return np.tril(a, -1) + np.diag(np.abs(np.diag(a)) + 0.5)


_L = _tril(3, 1)
_COV = _L @ _L.T


@dataclass
class Case:
    name: str  # the class in torch.distributions
    params: dict  # tensor parameters (float64 arrays; the ones in ``grad`` get requires_grad)
    value: np.ndarray  # a point of the support, shaped batch + event
    extra: dict = field(default_factory=dict)  # non-tensor arguments
    grad: tuple = ()  # parameters differentiated through log_prob/entropy/mean/variance
    label: str = ""
    base: "Case | None" = None  # Independent / MixtureSameFamily: the wrapped distribution

    @property
    def id(self):
        return self.name + (f"-{self.label}" if self.label else "")


def _a(*x):
    return np.array(x, dtype=np.float64)


CASES = [
    Case("Categorical", {"probs": _a([0.2, 0.3, 0.5], [0.6, 0.1, 0.3])}, _a(2, 0), grad=("probs",), label="probs"),
    Case("Categorical", {"logits": _a([0.5, -1.0, 2.0], [0.0, 0.3, -0.4])}, _a(1, 2), grad=("logits",), label="logits"),
    # batch 2, as the other one-parameter-pair families, so that test_kl pairs them with values
    Case("Normal", {"loc": _a(0.3, -2.0), "scale": _a(1.5, 0.5)}, _a(0.5, -2.2), grad=("loc", "scale")),
    Case("Beta", {"concentration1": _a(1.5, 2.0, 0.7), "concentration0": _a(1.0, 3.0, 0.9)}, _a(0.5, 0.25, 0.1),
         grad=("concentration1", "concentration0")),
    Case("Bernoulli", {"probs": _a(0.3, 0.6, 0.9)}, _a(0.0, 1.0, 1.0), grad=("probs",), label="probs"),
    Case("Bernoulli", {"logits": _a(-0.3, 0.6, 2.0)}, _a(0.0, 1.0, 1.0), grad=("logits",), label="logits"),
    Case("Uniform", {"low": _a(0.0, -1.0), "high": _a(1.0, 2.0)}, _a(0.5, 1.5), grad=("low", "high")),
    Case("MultivariateNormal", {"loc": _a(0.0, 1.0, -1.0), "covariance_matrix": _COV}, _a(0.5, -1.0, 0.2),
         grad=("loc", "covariance_matrix"), label="covariance"),
    Case("MultivariateNormal", {"loc": _a(0.0, 1.0, -1.0), "scale_tril": _L}, _a(0.5, -1.0, 0.2),
         grad=("loc", "scale_tril"), label="scale_tril"),
    Case("MultivariateNormal", {"loc": _a(0.0, 1.0, -1.0), "precision_matrix": np.linalg.inv(_COV)},
         _a(0.5, -1.0, 0.2), grad=("loc", "precision_matrix"), label="precision"),
    Case("Gamma", {"concentration": _a(1.5, 2.0, 0.5), "rate": _a(1.0, 3.0, 2.0)}, _a(0.5, 1.5, 0.2),
         grad=("concentration", "rate")),
    Case("Dirichlet", {"concentration": _a([1.5, 2.0, 3.0], [0.5, 1.0, 4.0])}, _a([0.2, 0.3, 0.5], [0.1, 0.6, 0.3]),
         grad=("concentration",)),
    Case("Exponential", {"rate": _a(1.0, 2.5)}, _a(0.5, 1.5), grad=("rate",)),
    Case("Laplace", {"loc": _a(0.0, 1.0), "scale": _a(1.0, 2.0)}, _a(0.5, -1.0), grad=("loc", "scale")),
    Case("OneHotCategorical", {"probs": _a([0.2, 0.3, 0.5])}, _a(0.0, 0.0, 1.0), grad=("probs",)),
    Case("OneHotCategoricalStraightThrough", {"logits": _a([0.2, -0.3, 0.5])}, _a(0.0, 1.0, 0.0), grad=("logits",)),
    Case("LogNormal", {"loc": _a(0.0, 1.0), "scale": _a(1.0, 0.5)}, _a(0.5, 2.0), grad=("loc", "scale")),
    Case("Poisson", {"rate": _a(0.3, 4.6, 12.0)}, _a(0.0, 3.0, 10.0), grad=("rate",)),
    Case("Binomial", {"probs": _a(0.3, 0.6)}, _a(2.0, 5.0), extra={"total_count": 7}, grad=("probs",)),
    Case("Multinomial", {"probs": _a(0.2, 0.3, 0.5)}, _a(1.0, 2.0, 3.0), extra={"total_count": 6}, grad=("probs",)),
    Case("Geometric", {"probs": _a(0.3, 0.6)}, _a(0.0, 3.0), grad=("probs",)),
    Case("StudentT", {"df": _a(3.0, 5.0), "loc": _a(0.0, 1.0), "scale": _a(1.0, 2.0)}, _a(0.5, 0.25),
         grad=("df", "loc", "scale")),
    Case("Cauchy", {"loc": _a(0.0, 1.0), "scale": _a(1.0, 2.0)}, _a(0.5, -1.0), grad=("loc", "scale")),
    Case("HalfNormal", {"scale": _a(1.0, 2.0)}, _a(0.5, 1.5), grad=("scale",)),
    Case("HalfCauchy", {"scale": _a(1.0, 2.0)}, _a(0.5, 1.5), grad=("scale",)),
    Case("Gumbel", {"loc": _a(0.0, 1.0), "scale": _a(1.0, 2.0)}, _a(0.5, -1.0), grad=("loc", "scale")),
    Case("Chi2", {"df": _a(1.5, 4.0)}, _a(0.5, 1.5), grad=("df",)),
    Case("LowRankMultivariateNormal",
         {"loc": _a(0.0, 1.0, -1.0), "cov_factor": _a([1.0, 0.5], [0.2, -0.3], [0.4, 0.1]),
          "cov_diag": _a(0.5, 1.0, 2.0)}, _a(0.5, -1.0, 0.2), grad=("loc", "cov_factor", "cov_diag")),
    Case("RelaxedBernoulli", {"temperature": _a(0.5), "probs": _a(0.3, 0.8)}, _a(0.2, 0.7), grad=("probs",)),
    Case("RelaxedOneHotCategorical", {"temperature": _a(0.7), "probs": _a(0.2, 0.3, 0.5)}, _a(0.1, 0.3, 0.6),
         grad=("probs",)),
    Case("FisherSnedecor", {"df1": _a(3.0, 6.0), "df2": _a(5.0, 9.0)}, _a(0.5, 1.5), grad=("df1", "df2")),
    Case("Pareto", {"scale": _a(1.0, 2.0), "alpha": _a(3.0, 5.0)}, _a(1.5, 2.5), grad=("scale", "alpha")),
    Case("Weibull", {"scale": _a(1.0, 2.0), "concentration": _a(1.5, 3.0)}, _a(0.5, 1.5),
         grad=("scale", "concentration")),
    Case("Kumaraswamy", {"concentration1": _a(1.5, 3.0), "concentration0": _a(2.0, 1.5)}, _a(0.3, 0.6),
         grad=("concentration1", "concentration0")),
    Case("InverseGamma", {"concentration": _a(3.0, 5.0), "rate": _a(1.0, 2.0)}, _a(0.5, 1.5),
         grad=("concentration", "rate")),
    Case("ContinuousBernoulli", {"probs": _a(0.2, 0.7)}, _a(0.3, 0.6), grad=("probs",)),
    Case("NegativeBinomial", {"total_count": _a(3.0, 5.0), "probs": _a(0.3, 0.6)}, _a(2.0, 4.0),
         grad=("probs",)),
    Case("VonMises", {"loc": _a(0.0, 1.0), "concentration": _a(1.0, 4.0)}, _a(0.5, -1.0),
         grad=("loc", "concentration")),
    Case("LogisticNormal", {"loc": _a(0.0, 1.0), "scale": _a(1.0, 0.5)}, _a(0.3, 0.5, 0.2), grad=("loc", "scale")),
    Case("Wishart", {"df": _a(5.0), "covariance_matrix": _COV}, _COV + np.eye(3), grad=("covariance_matrix",)),
    Case("LKJCholesky", {"concentration": _a(2.0)}, np.linalg.cholesky(np.array(
        [[1.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 1.0]])), extra={"dim": 3}, grad=("concentration",)),
    Case("Independent", {}, _a([0.5, -1.0, 0.3]), extra={"reinterpreted_batch_ndims": 1},
         base=Case("Normal", {"loc": _a([0.0, 1.0, -1.0]), "scale": _a([1.0, 2.0, 0.5])}, None, grad=("loc", "scale"))),
    Case("MixtureSameFamily", {"probs": _a(0.3, 0.7)}, _a(0.5), grad=("probs",),
         base=Case("Normal", {"loc": _a(0.0, 2.0), "scale": _a(1.0, 0.5)}, None, grad=("loc", "scale"))),
]  # fmt: skip


def build(lib, case: Case, grad: bool = False, only: str | None = None):
    """``case``'s distribution in ``lib`` (yaten or torch) and its tensor parameters by name (leaves that
    require grad when ``grad``, or only the one named ``only``; a wrapped distribution's are prefixed
    ``base.``)."""
    dists = lib.distributions
    leaves = {}

    def tensors(c, prefix=""):
        out = {}
        for k, v in c.params.items():
            wanted = prefix + k == only if only is not None else grad and k in c.grad
            t = lib.tensor(v, dtype=lib.float64, requires_grad=wanted)
            leaves[prefix + k] = t
            out[k] = t
        return out

    if case.name == "Independent":
        inner = getattr(dists, case.base.name)(**tensors(case.base, "base."))
        return dists.Independent(inner, **case.extra), leaves
    if case.name == "MixtureSameFamily":
        mix = dists.Categorical(**tensors(case))
        comp = getattr(dists, case.base.name)(**tensors(case.base, "base."))
        return dists.MixtureSameFamily(mix, comp), leaves
    return getattr(dists, case.name)(**tensors(case), **case.extra), leaves
