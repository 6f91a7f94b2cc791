"""kl_divergence against torch for every pair of the case table that torch's registry answers (values,
infinities, the NotImplementedError of an unregistered pair) and its gradients; register_kl's dispatch."""

import dataclasses

import numpy as np
import pytest
import torch
from _cases import CASES, build

import yaten
from tests.tolerances import as_array, assert_close

# One case per class: the pairs below are every (p, q) of them.
_FIRST = {}
for _c in CASES:
    _FIRST.setdefault(_c.name, _c)


def _flipped(case):
    """``case`` with every parameter reversed along all its axes (the batch elements swapped), so that
    ``KL(p || q)`` of a class with itself is not 0; ``case`` itself where torch refuses the result."""
    flip = {k: np.flip(v).copy() for k, v in case.params.items()}
    base = _flipped(case.base) if case.base else None
    other = dataclasses.replace(case, params=flip, base=base)
    try:
        build(torch, other)
    except ValueError:
        return case
    return other


PAIRS = [
    (p, _flipped(q) if p.name == q.name else q)
    for p in _FIRST.values()
    for q in _FIRST.values()
    if (type(build(torch, p)[0]), type(build(torch, q)[0])) in torch.distributions.kl._KL_REGISTRY
    or p.name == q.name
]


def _kl(lib, p, q, grad=False):
    dp, leaves = build(lib, p, grad=grad)
    dq, _ = build(lib, q)
    try:
        return lib.distributions.kl_divergence(dp, dq), leaves
    except (NotImplementedError, ValueError, RuntimeError) as e:
        return type(e), leaves


@pytest.mark.parametrize("p, q", PAIRS, ids=[f"{p.name}-{q.name}" for p, q in PAIRS])
def test_kl_divergence_matches_torch(p, q):
    want, t_leaves = _kl(torch, p, q, grad=True)
    got, y_leaves = _kl(yaten, p, q, grad=True)
    if isinstance(want, type):
        assert got is want
        return
    assert not isinstance(got, type), f"yaten raises {got.__name__}"
    assert tuple(got.shape) == tuple(want.shape)
    assert_close(as_array(got), as_array(want), "kl", rtol=1e-8, atol=1e-10)
    names = [k for k, v in t_leaves.items() if v.requires_grad]
    if not names or not want.requires_grad or not bool(torch.isfinite(want).all()):
        return
    want_g = torch.autograd.grad(want.sum(), [t_leaves[k] for k in names], allow_unused=True)
    got_g = yaten.autograd.grad(got.sum(), [y_leaves[k] for k in names], allow_unused=True)
    for name, g, w in zip(names, got_g, want_g):
        if w is not None:
            assert_close(as_array(g), as_array(w), f"d kl / d {name}", rtol=1e-7, atol=1e-9)


def test_every_registered_pair_of_torch_is_registered():
    """Every pair torch registers among the classes yaten.distributions has."""
    want = {
        (p.__name__, q.__name__)
        for p, q in torch.distributions.kl._KL_REGISTRY
        if hasattr(yaten.distributions, p.__name__) and hasattr(yaten.distributions, q.__name__)
    }
    got = {
        (p.__name__, q.__name__)
        for p, q in yaten.distributions.kl._KL_REGISTRY
        if getattr(yaten.distributions, p.__name__, None) is p
        and getattr(yaten.distributions, q.__name__, None) is q
    }
    assert got == want


def test_register_kl_dispatches_to_the_most_specific_pair():
    D = yaten.distributions

    class MyNormal(D.Normal):
        pass

    @D.register_kl(MyNormal, D.Normal)
    def _kl_mine(p, q):
        return yaten.zeros(p.batch_shape)

    p = MyNormal(yaten.tensor([0.0]), yaten.tensor([1.0]))
    q = D.Normal(yaten.tensor([1.0]), yaten.tensor([1.0]))
    assert D.kl_divergence(p, q).tolist() == [0.0]
    assert D.kl_divergence(q, q).tolist() == [0.0]
    with pytest.raises(NotImplementedError):
        D.kl_divergence(D.Categorical(probs=yaten.tensor([0.5, 0.5])), q)


@pytest.mark.parametrize("p_low_rank", [False, True])
@pytest.mark.parametrize("q_low_rank", [False, True])
def test_gaussian_kl_of_different_event_shapes_raises_torchs_error(p_low_rank, q_low_rank):
    messages = []
    for lib in (torch, yaten):
        D = lib.distributions

        def make(n, low_rank, D=D, lib=lib):
            if low_rank:
                return D.LowRankMultivariateNormal(lib.zeros(n), lib.ones(n, 1), lib.ones(n))
            return D.MultivariateNormal(lib.zeros(n), scale_tril=lib.eye(n))

        with pytest.raises(ValueError) as info:
            D.kl_divergence(make(2, p_low_rank), make(3, q_low_rank))
        messages.append(str(info.value))
    assert messages[1] == messages[0]
