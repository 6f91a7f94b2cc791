"""The Distribution base and the argument checks against torch: exception types and messages (with
``torch`` for ``yaten`` in the reprs they quote), the warnings, validation switches, and register_kl's
ambiguity warning."""

import warnings
from typing import ClassVar

import pytest
import torch

import yaten


def _error(lib, fn):
    with pytest.raises((ValueError, NotImplementedError, RuntimeError, TypeError)) as info:
        fn(lib, lib.distributions)
    return type(info.value), str(info.value).replace("yaten", "torch")


ERRORS = {
    "parameter": lambda L, D: D.Normal(L.tensor([0.0, 1.0]), L.tensor([-1.0, 2.0])),
    "scalar parameter": lambda L, D: D.Uniform(1.0, 0.0),
    "value outside the support": lambda L, D: D.Normal(L.zeros(2), L.ones(2)).log_prob(L.tensor([float("nan"), 1.0])),
    "value not broadcastable": lambda L, D: D.Normal(L.zeros(2), L.ones(2)).log_prob(L.ones(3)),
    "value not a tensor": lambda L, D: D.Normal(L.zeros(2), L.ones(2)).log_prob([1.0, 2.0]),
    "event shape": lambda L, D: D.OneHotCategorical(probs=L.ones(2, 3)).log_prob(L.ones(2, 4)),
    "boolean support": lambda L, D: D.Bernoulli(probs=L.tensor([0.5])).log_prob(L.tensor([0.3])),
    "probs and logits": lambda L, D: D.Categorical(probs=L.ones(3), logits=L.ones(3)),
    "neither": lambda L, D: D.Bernoulli(),
    "0-d probs": lambda L, D: D.Categorical(probs=L.tensor(1.0)),
    "0-d logits": lambda L, D: D.Categorical(logits=L.tensor(1.0)),
    "reinterpreted": lambda L, D: D.Independent(D.Normal(0.0, 1.0), 1),
    "cartesian": lambda L, D: D.Independent(D.Bernoulli(probs=L.tensor([0.3, 0.5])), 1).enumerate_support(),
    "inhomogeneous entropy": lambda L, D: D.Binomial(L.tensor([5.0, 3.0]), probs=L.tensor([0.3, 0.5])).entropy(),
    "inhomogeneous multinomial": lambda L, D: D.Multinomial(L.tensor(2), probs=L.tensor([0.2, 0.8])),
    "geometric zero": lambda L, D: D.Geometric(probs=L.tensor([0.0, 0.5])),
    "no mode": lambda L, D: D.Multinomial(2, probs=L.tensor([0.2, 0.8])).mode,
    "no kl": lambda L, D: D.kl_divergence(D.Categorical(probs=L.ones(2)), D.Normal(0.0, 1.0)),
    "binomial kl": lambda L, D: D.kl_divergence(D.Binomial(3, probs=L.tensor(0.3)), D.Binomial(5, probs=L.tensor(0.3))),
    "exponential family kl": lambda L, D: D.kl.kl_divergence(D.Poisson(1.0), D.Exponential(1.0)),
    "expand": lambda L, D: D.Normal(0.0, 1.0).expand((2,)).expand((3,)),
    "default validate": lambda L, D: D.Distribution.set_default_validate_args(3),
    "no entropy": lambda L, D: D.Poisson(L.tensor([1.0])).entropy(),
}  # fmt: skip


@pytest.mark.parametrize("name", ERRORS)
def test_errors_match_torch(name):
    assert _error(yaten, ERRORS[name]) == _error(torch, ERRORS[name])


@pytest.mark.parametrize(
    "make",
    [
        lambda L, D: D.Normal(0.0, 1.0),
        lambda L, D: D.Bernoulli(probs=L.tensor([0.5])),
        lambda L, D: D.Categorical(logits=L.ones(2, 3)),
        lambda L, D: D.OneHotCategorical(probs=L.ones(3)),
        lambda L, D: D.Multinomial(3, probs=L.ones(3)),
        lambda L, D: D.Independent(D.Normal(L.zeros(2, 3), L.ones(2, 3)), 2),
        lambda L, D: D.Binomial(L.tensor([5.0, 3.0]), probs=L.tensor([0.3, 0.5])),
    ],
)
def test_repr_matches_torch(make):
    assert repr(make(yaten, yaten.distributions)).replace("yaten", "torch") == repr(
        make(torch, torch.distributions)
    )


def test_validation_switches_and_warnings_match_torch():
    for lib in (torch, yaten):
        D = lib.distributions
        assert D.Normal(0.0, 1.0, validate_args=False).log_prob(lib.tensor(float("nan"))).isnan()
        D.Distribution.set_default_validate_args(False)
        try:
            assert D.Normal(0.0, -1.0).scale.item() == -1.0
        finally:
            D.Distribution.set_default_validate_args(True)

        class Bare(D.Distribution):
            pass

        with pytest.warns(UserWarning, match="does not define `arg_constraints`"):
            Bare()

        class NoSupport(D.Distribution):
            arg_constraints: ClassVar[dict] = {}

        with pytest.warns(UserWarning, match="does not define `support` to enable sample validation"):
            NoSupport((2,))._validate_sample(lib.ones(2))
        with pytest.warns(FutureWarning, match=r"`sample_n\(n\)` will be deprecated"):
            assert tuple(D.Normal(lib.zeros(2), lib.ones(2)).sample_n(3).shape) == (3, 2)


def test_ambiguous_kl_warns_as_torch():
    messages = []
    for lib in (torch, yaten):
        D = lib.distributions

        class A(D.Normal):
            pass

        class B(D.Normal):
            pass

        D.register_kl(A, D.Normal)(lambda p, q: 1)
        D.register_kl(D.Normal, B)(lambda p, q: 2)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert D.kl_divergence(A(0.0, 1.0), B(0.0, 1.0)) == 1
        messages.append([str(w.message) for w in caught if w.category is RuntimeWarning])
        for key in [(A, D.Normal), (D.Normal, B)]:  # leave the registries as they were
            del D.kl._KL_REGISTRY[key]
    assert messages[0] == messages[1] == ["Ambiguous kl_divergence(A, B). Please register_kl(A, B)"]


def test_expand_shares_parameters_and_keeps_validation():
    d = yaten.distributions.Independent(yaten.distributions.Normal(yaten.zeros(2, 3), yaten.ones(2, 3)), 1)
    e = d.expand((4, 2))
    assert tuple(e.batch_shape) == (4, 2) and tuple(e.event_shape) == (3,)
    assert tuple(e.base_dist.batch_shape) == (4, 2, 3) and e._validate_args
    assert e.base_dist.loc.data_ptr() == d.base_dist.loc.data_ptr()  # a view, not a copy


def test_a_subclass_expands_through_get_checked_instance_as_in_torch():
    """A user distribution written against torch's API: its own ``expand`` fills the instance that
    ``_get_checked_instance`` gives, and torch's error names a subclass that should have defined one."""
    for lib in (torch, yaten):
        D = lib.distributions

        class Shifted(D.Distribution):
            arg_constraints: ClassVar[dict] = {}

            def __init__(self, shift, validate_args=None):
                self.shift = shift
                super().__init__(shift.shape, validate_args=validate_args)

            def expand(self, batch_shape, _instance=None):
                new = self._get_checked_instance(Shifted, _instance)
                new.shift = self.shift.expand(batch_shape)
                super(Shifted, new).__init__(batch_shape, validate_args=False)
                return new

        e = Shifted(lib.zeros(1)).expand((3,))
        assert type(e) is Shifted and tuple(e.batch_shape) == (3,) and tuple(e.shift.shape) == (3,)

        class Sub(D.Distribution):
            arg_constraints: ClassVar[dict] = {}

            def __init__(self):
                super().__init__()

        with pytest.raises(NotImplementedError) as info:
            Sub()._get_checked_instance(D.Distribution)
        assert str(info.value) == (
            "Subclass Sub of Distribution that defines a custom __init__ method must also define a custom "
            ".expand() method."
        )
