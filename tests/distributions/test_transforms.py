"""Transforms, constraints, biject_to/transform_to and argument validation against torch: values,
inverses, log-det-Jacobians and their gradients, shapes, reprs, and torch's error messages."""

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import as_array, assert_close

X = np.array([[0.3, -1.2, 0.7], [1.5, 0.1, -0.4]])
X4 = np.array([[0.3, -1.2, 0.7, 0.2], [1.5, 0.1, -0.4, -0.9]])

TRANSFORMS = {
    "Exp": (lambda D, L: D.ExpTransform(), X),
    "Affine": (lambda D, L: D.AffineTransform(L.tensor(1.0, dtype=L.float64), L.tensor([2.0, -0.5, 3.0], dtype=L.float64)), X),
    "Affine-event": (lambda D, L: D.AffineTransform(0.5, 2.0, event_dim=1), X),
    "Sigmoid": (lambda D, L: D.SigmoidTransform(), X),
    "Tanh": (lambda D, L: D.TanhTransform(), X),
    "Softplus": (lambda D, L: D.SoftplusTransform(), X),
    "Power": (lambda D, L: D.PowerTransform(L.tensor(2.5, dtype=L.float64)), np.abs(X) + 0.1),
    "Abs": (lambda D, L: D.AbsTransform(), X),
    "Softmax": (lambda D, L: D.SoftmaxTransform(), X),
    "StickBreaking": (lambda D, L: D.StickBreakingTransform(), X),
    "LowerCholesky": (lambda D, L: D.LowerCholeskyTransform(), X4.reshape(2, 2, 2)),
    "CorrCholesky": (lambda D, L: D.CorrCholeskyTransform(), X),
    "PositiveDefinite": (lambda D, L: D.PositiveDefiniteTransform(), np.array([[[1.0, 0.0], [0.5, 2.0]]])),
    "Compose": (lambda D, L: D.ComposeTransform([D.AffineTransform(1.0, 2.0), D.ExpTransform()]), X),
    "Compose-inv": (lambda D, L: D.ComposeTransform([D.SigmoidTransform(), D.SigmoidTransform().inv]), X),
    "Independent": (lambda D, L: D.IndependentTransform(D.ExpTransform(), 1), X),
    "Reshape": (lambda D, L: D.ReshapeTransform((3,), (3, 1)), X),
    "Cat": (lambda D, L: D.CatTransform([D.ExpTransform(), D.AffineTransform(0.0, 2.0)], dim=1, lengths=[1, 2]), X),
    "Stack": (lambda D, L: D.StackTransform([D.ExpTransform(), D.SigmoidTransform()], dim=0), X),
    "CumulativeDistribution": (
        lambda D, L: D.CumulativeDistributionTransform(D.Normal(L.tensor(0.0, dtype=L.float64), L.tensor(1.0, dtype=L.float64))),
        X,
    ),
}  # fmt: skip


def _out(fn):
    try:
        return fn()
    except (NotImplementedError, ValueError, RuntimeError) as e:
        return type(e)


def _same(got, want, what):
    if isinstance(want, type):
        assert got is want, what
        return
    assert not isinstance(got, type), f"{what}: yaten raises {got.__name__}"
    assert_close(as_array(got), as_array(want), what, rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("name", TRANSFORMS)
def test_transform_matches_torch(name):
    make, x = TRANSFORMS[name]
    ty, tt = make(yaten.distributions, yaten), make(torch.distributions, torch)
    xy = yaten.tensor(x, dtype=yaten.float64, requires_grad=True)
    xt = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    yy, yt = ty(xy), tt(xt)
    _same(yy, yt, "forward")
    _same(_out(lambda: ty.inv(yy.detach())), _out(lambda: tt.inv(yt.detach())), "inverse")
    want = _out(lambda: tt.log_abs_det_jacobian(xt, yt))
    got = _out(lambda: ty.log_abs_det_jacobian(xy, yy))
    _same(got, want, "log_abs_det_jacobian")
    if not isinstance(want, type) and want.requires_grad:
        (gw,) = torch.autograd.grad(want.sum() + yt.sum(), xt)
        (gy,) = yaten.autograd.grad(got.sum() + yy.sum(), xy)
        _same(gy, gw, "gradient")
    assert repr(ty).replace("yaten", "torch") == repr(tt)
    assert (ty.domain.event_dim, ty.codomain.event_dim, ty.bijective) == (
        tt.domain.event_dim,
        tt.codomain.event_dim,
        tt.bijective,
    )
    assert repr(ty.domain) == repr(tt.domain) and repr(ty.codomain) == repr(tt.codomain)
    assert _out(lambda: tuple(ty.forward_shape(x.shape))) == _out(lambda: tuple(tt.forward_shape(x.shape)))
    sy, st = _out(lambda: ty.sign), _out(lambda: tt.sign)
    assert (sy is st) if isinstance(st, type) else as_array(sy).tolist() == as_array(st).tolist()


CONSTRAINTS = {
    "real": (lambda C, L: C.real, X),
    "positive": (lambda C, L: C.positive, X),
    "greater_than": (lambda C, L: C.greater_than(1.5), X),
    "less_than": (lambda C, L: C.less_than(-2.0), X),
    "interval": (lambda C, L: C.interval(-1.0, 3.0), X),
    "half_open_interval": (lambda C, L: C.half_open_interval(0.0, 1.0), X),
    "unit_interval": (lambda C, L: C.unit_interval, X),
    "simplex": (lambda C, L: C.simplex, X),
    "lower_cholesky": (lambda C, L: C.lower_cholesky, X4.reshape(2, 2, 2)),
    "positive_definite": (lambda C, L: C.positive_definite, X4.reshape(2, 2, 2)),
    "corr_cholesky": (lambda C, L: C.corr_cholesky, X),
    "independent": (lambda C, L: C.independent(C.positive, 1), X),
    "cat": (lambda C, L: C.cat([C.positive, C.real], dim=1, lengths=[1, 2]), X),
    "stack": (lambda C, L: C.stack([C.positive, C.unit_interval], dim=0), X),
}  # fmt: skip


@pytest.mark.parametrize("which", ["biject_to", "transform_to"])
@pytest.mark.parametrize("name", CONSTRAINTS)
def test_biject_to_and_transform_to_match_torch(name, which):
    make, x = CONSTRAINTS[name]
    cy = make(yaten.distributions.constraints, yaten)
    ct = make(torch.distributions.constraints, torch)
    assert repr(cy) == repr(ct) and cy.event_dim == ct.event_dim and cy.is_discrete == ct.is_discrete
    want = _out(lambda: getattr(torch.distributions, which)(ct))
    got = _out(lambda: getattr(yaten.distributions, which)(cy))
    if isinstance(want, type):
        assert got is want
        return
    xy, xt = yaten.tensor(x, dtype=yaten.float64), torch.tensor(x, dtype=torch.float64)
    yy, yt = got(xy), want(xt)
    _same(yy, yt, "constrained value")
    assert bool(cy.check(yy).all()) and as_array(cy.check(yy)).tolist() == as_array(ct.check(yt)).tolist()
    _same(
        _out(lambda: got.log_abs_det_jacobian(xy, yy)),
        _out(lambda: want.log_abs_det_jacobian(xt, yt)),
        "ladj",
    )


BAD = [
    ("Normal", (0.0, -1.0), {}),
    ("Normal", ([0.0, 1.0], [1.0, float("nan")]), {}),
    ("Categorical", (), {"probs": [0.5, -0.5]}),
    ("Categorical", (), {}),
    ("Categorical", (), {"probs": [0.5, 0.5], "logits": [0.0, 0.0]}),
    ("Bernoulli", (), {"probs": [1.5]}),
    ("Beta", (-1.0, 1.0), {}),
    ("Uniform", (1.0, 0.0), {}),
    ("Dirichlet", ([1.0, -2.0],), {}),
    ("Gamma", (1.0, 0.0), {}),
    ("MultivariateNormal", ([0.0, 0.0],), {}),
    ("MultivariateNormal", ([0.0, 0.0],), {"scale_tril": [[1.0, 0.0], [0.0, 1.0]], "precision_matrix": [[1.0, 0.0], [0.0, 1.0]]}),
    ("MultivariateNormal", ([0.0, 0.0],), {"covariance_matrix": [[1.0, 2.0], [2.0, 1.0]]}),
    ("Exponential", (-1.0,), {}),
    ("HalfNormal", (-1.0,), {}),
    ("LogNormal", (0.0, -1.0), {}),
    ("Gumbel", (0.0, -1.0), {}),
    ("Pareto", (1.0, -1.0), {}),
    ("Weibull", (-1.0, 1.0), {}),
    ("Kumaraswamy", (1.0, -1.0), {}),
    ("InverseGamma", (-1.0, 1.0), {}),
    ("Chi2", (-1.0,), {}),
    ("FisherSnedecor", (1.0, -1.0), {}),
    ("LKJCholesky", (1, 2.0), {}),
    ("LKJCholesky", (3, -1.0), {}),
    ("Beta", ([1.0, 2.0], [1.0, 2.0, 3.0]), {}),
    ("RelaxedBernoulli", ([0.5],), {}),
    ("LowRankMultivariateNormal", ([0.0, 0.0, 0.0], [[1.0, 1.0]] * 4, [1.0, 1.0, 1.0]), {}),
    ("LowRankMultivariateNormal", ([0.0, 0.0, 0.0], [[1.0, 1.0]] * 3, [1.0, 1.0]), {}),
    ("Wishart", ([1.0],), {"covariance_matrix": [[1.0, 0.0], [0.0, 1.0]]}),
    ("Wishart", ([5.0],), {"covariance_matrix": [1.0, 2.0]}),
]  # fmt: skip


def _tensors(lib, v):
    return lib.tensor(v, dtype=lib.float64) if isinstance(v, list) else v


@pytest.mark.parametrize("name, args, kwargs", BAD, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(BAD)])
def test_invalid_arguments_raise_torchs_errors(name, args, kwargs):
    results = []
    for lib in (torch, yaten):
        with pytest.raises((ValueError, TypeError, RuntimeError)) as info:
            getattr(lib.distributions, name)(
                *[_tensors(lib, a) for a in args], **{k: _tensors(lib, v) for k, v in kwargs.items()}
            )
        results.append((type(info.value), str(info.value).replace("yaten", "torch")))
    assert results[1] == results[0]


def test_sample_validation_and_default_validate_args():
    messages = []
    for lib in (torch, yaten):
        e = lib.distributions.Exponential(lib.tensor([1.0]))
        with pytest.raises(ValueError) as outside:
            e.log_prob(lib.tensor([-1.0]))
        with pytest.raises(ValueError) as shape:
            lib.distributions.Categorical(probs=lib.ones(2, 3) / 3).log_prob(lib.zeros(2, 4))
        with pytest.raises(ValueError) as not_tensor:
            e.log_prob([1.0])
        messages.append([str(i.value).replace("yaten", "torch") for i in (outside, shape, not_tensor)])
        lib.distributions.Distribution.set_default_validate_args(False)
        try:
            assert lib.distributions.Normal(0.0, -1.0).scale.item() == -1.0
        finally:
            lib.distributions.Distribution.set_default_validate_args(True)
    assert messages[1] == messages[0]


def _constraint_table(C):
    return [C.real, C.positive, C.nonnegative, C.boolean, C.one_hot, C.nonnegative_integer, C.positive_integer,
            C.simplex, C.real_vector, C.unit_interval, C.lower_triangular, C.lower_cholesky, C.corr_cholesky,
            C.square, C.symmetric, C.positive_definite, C.positive_semidefinite, C.multinomial(3),
            C.integer_interval(0, 2), C.interval(-1.0, 1.0), C.half_open_interval(0.0, 1.0), C.greater_than(0.5),
            C.greater_than_eq(1.0), C.less_than(1.0), C.independent(C.positive, 1), C.independent(C.simplex, 1),
            C.cat([C.positive, C.real], dim=-1, lengths=[1, 2]), C.stack([C.positive, C.unit_interval, C.real], dim=-1),
            C.MixtureSameFamilyConstraint(C.positive)]  # fmt: skip


def _values():
    rng = np.random.default_rng(0)
    tril = np.tril(rng.standard_normal((2, 3, 3)))
    tril[..., [0, 1, 2], [0, 1, 2]] = np.abs(tril[..., [0, 1, 2], [0, 1, 2]])
    return [rng.standard_normal((2, 3)), np.array([[0.2, 0.8, 0.0], [1.0, 0.0, 0.0]]),
            np.array([[0.0, 1.0, 0.0], [1.0, 1.0, 0.0]]), np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]]),
            tril, tril / np.linalg.norm(tril, axis=-1, keepdims=True), tril @ tril.transpose(0, 2, 1),
            rng.standard_normal((2, 3, 3)), np.array([[np.nan, np.inf, 0.5]])]  # fmt: skip


def test_every_constraint_checks_and_prints_as_torch():
    for cy, ct in zip(
        _constraint_table(yaten.distributions.constraints), _constraint_table(torch.distributions.constraints)
    ):
        assert (repr(cy), cy.event_dim, cy.is_discrete) == (repr(ct), ct.event_dim, ct.is_discrete)
        for v in _values():
            want = _out(lambda c=ct, v=v: c.check(torch.tensor(v)))
            got = _out(lambda c=cy, v=v: c.check(yaten.tensor(v)))
            if isinstance(want, type):
                assert got is want, repr(ct)
            else:
                assert as_array(got).tolist() == as_array(want).tolist(), (repr(ct), v)


@pytest.mark.parametrize("lib", [torch, yaten], ids=["torch", "yaten"])
def test_dependent_constraints_as_torch(lib):
    C = lib.distributions.constraints
    assert C.is_dependent(C.dependent) and not C.is_dependent(C.real)
    with pytest.raises(NotImplementedError, match="cannot be determined statically"):
        _ = C.dependent.event_dim
    with pytest.raises(ValueError, match="Cannot determine validity of dependent constraint"):
        C.dependent.check(lib.zeros(1))
    sized = C.dependent(is_discrete=True, event_dim=2)
    assert (sized.is_discrete, sized.event_dim, repr(sized)) == (True, 2, "Dependent()")

    class Box:
        @C.dependent_property(is_discrete=False, event_dim=1)
        def support(self):
            return C.simplex

    assert repr(Box.support) == "DependentProperty()" and Box.support.event_dim == 1
    assert Box().support is C.simplex and C.is_dependent(Box.support)


def test_transform_caching_inverse_identity_and_equality():
    D = yaten.distributions
    x = yaten.tensor([0.3, -1.2], dtype=yaten.float64)
    for t in (
        D.ExpTransform(cache_size=1),
        D.ComposeTransform([D.AffineTransform(1.0, 2.0), D.TanhTransform()], cache_size=1),
    ):
        y = t(x)
        assert t(x) is y and t.inv(y) is x
    plain = D.ExpTransform()
    assert plain.inv(plain(x)) is not x and plain.inv.inv is plain and plain.inv is plain.inv
    assert plain.with_cache(1)._cache_size == 1 and plain.with_cache(0) is plain
    with pytest.raises(ValueError, match="cache_size must be 0 or 1"):
        D.ExpTransform(cache_size=2)
    assert D.ExpTransform() == D.ExpTransform() and D.ExpTransform() != D.SigmoidTransform()
    assert D.AffineTransform(1.0, 2.0) == D.AffineTransform(1.0, 2.0) != D.AffineTransform(1.0, 3.0)
    assert D.ExpTransform().inv == D.ExpTransform().inv
    with pytest.raises(TypeError, match="unhashable"):
        hash(D.ExpTransform())
    for bad in (lambda T: T.Transform()(yaten.zeros(1)), lambda T: T.AbsTransform().sign):
        with pytest.raises(NotImplementedError):
            bad(D)
    assert type(D.ExpTransform().inv).__module__ == "yaten.distributions.transforms"
    assert D.StickBreakingTransform.__module__ == "yaten.distributions.transforms"


@pytest.mark.parametrize(
    "make, shape",
    [
        (lambda D: D.CorrCholeskyTransform(), (2, 6)),
        (lambda D: D.CorrCholeskyTransform(), (2, 4)),
        (lambda D: D.CorrCholeskyTransform().inv, (2, 3, 3)),
        (lambda D: D.CorrCholeskyTransform().inv, (2, 3, 4)),
        (lambda D: D.StickBreakingTransform().inv, (2, 4)),
        (lambda D: D.ReshapeTransform((3,), (3, 1)), (2, 4)),
        (lambda D: D.ComposeTransform([D.StickBreakingTransform(), D.AffineTransform(0.0, 2.0)]), (5, 2)),
    ],
)
def test_shapes_and_their_errors_match_torch(make, shape):
    want = _out(lambda: tuple(make(torch.distributions).forward_shape(shape)))
    got = _out(lambda: tuple(make(yaten.distributions).forward_shape(shape)))
    assert got == want


def test_constraint_registry_register_and_errors():
    D = yaten.distributions
    with pytest.raises(NotImplementedError, match="Cannot transform _Boolean constraints"):
        D.biject_to(D.constraints.boolean)
    with pytest.raises(NotImplementedError, match="Cannot transform _LowerCholesky constraints"):
        D.biject_to(D.constraints.lower_cholesky)
    registry = D.constraint_registry.ConstraintRegistry()
    registry.register(D.constraints.boolean, lambda c: D.SigmoidTransform())
    assert registry(D.constraints.boolean) == D.SigmoidTransform()
    with pytest.raises(TypeError, match="Expected constraint to be either a Constraint subclass or instance"):
        registry.register(3, lambda c: None)


def test_transformed_distribution_shapes_and_errors_match_torch():
    for lib in (torch, yaten):
        D = lib.distributions
        base = D.Normal(lib.zeros(2, 3, dtype=lib.float64), lib.ones(2, 3, dtype=lib.float64))
        d = D.TransformedDistribution(base, [D.ReshapeTransform((3,), (3, 1)), D.ExpTransform()])
        assert (tuple(d.batch_shape), tuple(d.event_shape), repr(d.support).replace("yaten", "torch")) == (
            (2,),
            (3, 1),
            "IndependentConstraint(GreaterThan(lower_bound=0.0), 2)",
        )
        assert tuple(d.expand((4, 2)).sample().shape) == (4, 2, 3, 1)
        for transforms, message in ((3, "transforms must be a Transform or list, but was 3"),
                                    ([D.ExpTransform(), 3], "transforms must be a Transform or a list of Transforms")):  # fmt: skip
            with pytest.raises(ValueError, match=message):
                D.TransformedDistribution(base, transforms)
        with pytest.raises(ValueError, match="base_distribution needs to have shape with size at least 1"):
            D.TransformedDistribution(D.Normal(0.0, 1.0), D.StickBreakingTransform())
        mix_errors = []
        for mix, comp in ((D.Normal(0.0, 1.0), base), (D.Categorical(probs=lib.ones(4)), base),
                          (D.Categorical(probs=lib.ones(5, 3)), base)):  # fmt: skip
            with pytest.raises(ValueError) as info:
                D.MixtureSameFamily(mix, comp)
            mix_errors.append(str(info.value).replace("yaten", "torch"))
        assert (
            mix_errors[0]
            == " The Mixture distribution needs to be an  instance of torch.distributions.Categorical"
        )
        assert mix_errors[1].startswith("`mixture_distribution component` (4) does not equal")
        assert mix_errors[2].startswith(
            "`mixture_distribution.batch_shape` (torch.Size([5])) is not compatible"
        )
        with pytest.raises(ValueError, match="`concentration` parameter must be at least one-dimensional."):
            D.Dirichlet(lib.tensor(1.0))


def test_transforms_and_distributions_load_in_torch(tmp_path):
    D = yaten.distributions
    objects = {
        "lognormal": D.LogNormal(yaten.tensor([0.0, 1.0]), yaten.tensor([1.0, 2.0])),
        "compose": D.ComposeTransform([D.ExpTransform(), D.AffineTransform(0.0, 2.0)]),
        "inverse": D.StickBreakingTransform().inv,
        "mvn": D.MultivariateNormal(yaten.zeros(2), scale_tril=yaten.tensor([[1.0, 0.0], [0.5, 2.0]])),
    }
    yaten.save(objects, tmp_path / "d.pt")
    back = torch.load(tmp_path / "d.pt", weights_only=False)
    assert type(back["compose"].parts[0]) is torch.distributions.ExpTransform
    assert type(back["inverse"]).__module__ == "torch.distributions.transforms"
    x = np.array([0.3, 1.2])
    assert_close(as_array(back["compose"](torch.tensor(x))), as_array(objects["compose"](yaten.tensor(x))))
    assert_close(as_array(back["lognormal"].mean), as_array(objects["lognormal"].mean))
    assert_close(
        as_array(back["mvn"].log_prob(torch.tensor(x, dtype=torch.float32))),
        as_array(objects["mvn"].log_prob(yaten.tensor(x, dtype=yaten.float32))),
    )
