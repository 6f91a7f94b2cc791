"""Hooks on tensors and nodes, side by side with PyTorch: order, return values, removal."""

import pytest
import torch

import yaten
from tests.runtime.parity import same

LIBS = pytest.mark.parametrize("m", [torch, yaten], ids=["torch", "yaten"])


def _leaf(m):
    return m.tensor([1.0, 2.0], requires_grad=True)


def test_post_accumulate_grad_hook_runs_after_the_grad_is_stored():
    def case(m):
        x = _leaf(m)
        log = []
        x.register_hook(lambda g: log.append(("tensor hook", g.tolist())))
        x.register_post_accumulate_grad_hook(lambda t: log.append(("post", t is x, t.grad.tolist())))
        (x * 3).sum().backward()
        (x * 3).sum().backward()
        return log

    same(case)


POST_ACC_ERRORS = {
    "non_leaf": lambda m: (_leaf(m) * 2).register_post_accumulate_grad_hook(lambda t: None),
    "no_grad": lambda m: m.ones(2).register_post_accumulate_grad_hook(lambda t: None),
    "returns_value": lambda m: (
        lambda x: (x.register_post_accumulate_grad_hook(lambda t: 5), (x * 2).sum().backward())
    )(_leaf(m)),
}


@pytest.mark.parametrize("case", POST_ACC_ERRORS.values(), ids=POST_ACC_ERRORS.keys())
def test_post_accumulate_grad_hook_errors_as_torch(case):
    same(case)


def test_node_prehook_and_hook_as_torch():
    def case(m):
        x = _leaf(m)
        w = x * x
        log = []
        w.grad_fn.register_prehook(lambda go: log.append(("pre", [g.tolist() for g in go])) or (go[0] * 10,))
        w.grad_fn.register_hook(
            lambda gi, go: log.append(
                ("post", [None if g is None else g.tolist() for g in gi], [g.tolist() for g in go])
            )
        )
        w.sum().backward()
        return log, x.grad

    same(case)


def test_node_hook_may_replace_grad_inputs_as_torch():
    def case(m):
        x = _leaf(m)
        w = x.exp()
        w.grad_fn.register_hook(lambda gi, go: (gi[0] * 0 + 7,))
        w.sum().backward()
        return x.grad

    same(case)


def test_non_leaf_hook_replaces_the_gradient_that_flows_on_as_torch():
    def case(m):
        x = _leaf(m)
        y = x * 2
        y.register_hook(lambda g: g * 100)
        y.retain_grad()
        (y * y).sum().backward()
        return x.grad, y.grad

    same(case)


def test_hooks_run_in_registration_order_and_chain_as_torch():
    def case(m):
        x = _leaf(m)
        log = []
        x.register_hook(lambda g: log.append(("a", g.tolist())) or g + 1)
        x.register_hook(lambda g: log.append(("b", g.tolist())) or g * 2)
        (x * 1).sum().backward()
        return log, x.grad

    same(case)


@LIBS
def test_every_registration_returns_one_removable_handle_type(m):
    x = _leaf(m)
    y = x * 2
    handles = [
        x.register_hook(lambda g: g),
        y.register_hook(lambda g: g),
        x.register_post_accumulate_grad_hook(lambda t: None),
        y.grad_fn.register_hook(lambda gi, go: None),
        y.grad_fn.register_prehook(lambda go: None),
    ]
    assert len({type(h) for h in handles}) == 1
    assert type(handles[0]).__name__ == "RemovableHandle"


@LIBS
def test_removed_and_exited_hooks_do_not_run(m):
    x = _leaf(m)
    calls = []
    h = x.register_hook(lambda g: calls.append("removed"))
    h.remove()
    h.remove()  # removing twice is fine
    with x.register_hook(lambda g: calls.append("in block")):
        (x * 1).sum().backward()
    (x * 1).sum().backward()
    y = x * 2
    with y.grad_fn.register_prehook(lambda go: calls.append("node pre")):
        pass
    y.sum().backward()
    assert calls == ["in block"]


def test_hook_returning_a_wrong_tensor_as_torch():
    def wrong_shape(m):
        x = _leaf(m)
        x.register_hook(lambda g: g.sum())
        (x * 1).sum().backward()

    def wrong_type(m):
        x = _leaf(m)
        x.register_hook(lambda g: 3)
        (x * 1).sum().backward()

    same(wrong_shape)
    same(wrong_type)


NODE_HOOK_RESULTS = {
    "int": lambda gi, go: 5,
    "list": lambda gi, go: [gi[0]],
    "too_many": lambda gi, go: (gi[0], gi[0]),
}


@pytest.mark.parametrize("hook", NODE_HOOK_RESULTS.values(), ids=NODE_HOOK_RESULTS.keys())
def test_node_hook_result_checks_as_torch(hook):
    def case(m):
        x = _leaf(m)
        y = x.exp()
        y.grad_fn.register_hook(hook)
        y.sum().backward()
        return x.grad

    same(case)
