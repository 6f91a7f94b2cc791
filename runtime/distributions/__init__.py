"""``yaten.distributions``, torch.distributions on yaten tensors: the ``Distribution`` base, the
constraints and transforms, the distributions at torch's module paths, and ``kl_divergence``.

>>> import yaten
>>> import yaten.distributions as D
>>> D.Categorical(logits=yaten.zeros(4)).entropy().item() == D.Categorical(probs=yaten.ones(4)).entropy().item()
True
"""

from . import constraints, transforms
from .bernoulli import Bernoulli
from .beta import Beta
from .binomial import Binomial
from .categorical import Categorical
from .cauchy import Cauchy
from .chi2 import Chi2
from .constraint_registry import biject_to, transform_to
from .continuous_bernoulli import ContinuousBernoulli
from .dirichlet import Dirichlet
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential
from .fishersnedecor import FisherSnedecor
from .gamma import Gamma
from .generalized_pareto import GeneralizedPareto
from .geometric import Geometric
from .gumbel import Gumbel
from .half_cauchy import HalfCauchy
from .half_normal import HalfNormal
from .independent import Independent
from .inverse_gamma import InverseGamma
from .kl import kl_divergence, register_kl
from .kumaraswamy import Kumaraswamy
from .laplace import Laplace
from .lkj_cholesky import LKJCholesky
from .log_normal import LogNormal
from .logistic_normal import LogisticNormal
from .lowrank_multivariate_normal import LowRankMultivariateNormal
from .mixture_same_family import MixtureSameFamily
from .multinomial import Multinomial
from .multivariate_normal import MultivariateNormal
from .negative_binomial import NegativeBinomial
from .normal import Normal
from .one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from .pareto import Pareto
from .poisson import Poisson
from .relaxed_bernoulli import RelaxedBernoulli
from .relaxed_categorical import RelaxedOneHotCategorical
from .studentT import StudentT
from .transformed_distribution import TransformedDistribution
from .transforms import *  # noqa: F403 (torch.distributions exports every transform)
from .uniform import Uniform
from .von_mises import VonMises
from .weibull import Weibull
from .wishart import Wishart

__all__ = [
    "Beta",
    "Chi2",
    "Dirichlet",
    "FisherSnedecor",
    "Gamma",
    "Gumbel",
    "HalfCauchy",
    "HalfNormal",
    "InverseGamma",
    "Kumaraswamy",
    "LogNormal",
    "LowRankMultivariateNormal",
    "LogisticNormal",
    "Pareto",
    "RelaxedBernoulli",
    "RelaxedOneHotCategorical",
    "TransformedDistribution",
    "Weibull",
    "Wishart",
    "Bernoulli",
    "Binomial",
    "Categorical",
    "Cauchy",
    "ContinuousBernoulli",
    "Distribution",
    "Exponential",
    "ExponentialFamily",
    "GeneralizedPareto",
    "Geometric",
    "Independent",
    "LKJCholesky",
    "Laplace",
    "MixtureSameFamily",
    "Multinomial",
    "MultivariateNormal",
    "NegativeBinomial",
    "Normal",
    "OneHotCategorical",
    "OneHotCategoricalStraightThrough",
    "Poisson",
    "StudentT",
    "Uniform",
    "VonMises",
    "biject_to",
    "constraints",
    "transform_to",
    "transforms",
    *transforms.__all__,
    "kl_divergence",
    "register_kl",
]

from . import kl_b, kl_pairs  # noqa: F401 (register the formulas of kl_divergence)
