"""Whose memory ``.grad`` is: AccumulateGrad takes a gradient no one else can reach as it is (as
PyTorch does, by use count) and copies any other, so ``.grad`` never shares memory with a tensor the
user, a hook, another leaf or the graph can still see."""

import torch
from parity import run

import yaten


def _shares(a, b) -> bool:
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def _root_gradient_of_a_leaf(m):
    x, g = m.zeros(3, requires_grad=True), m.ones(3)
    x.backward(g)
    return _shares(x.grad, g)


def _root_gradient_through_clone(m):
    x, g = m.zeros(3, requires_grad=True), m.ones(3)
    x.clone().backward(g)
    g.add_(1)  # the caller's tensor changes; x.grad must not
    return _shares(x.grad, g), x.grad.tolist()


def _root_gradient_through_transpose(m):
    x, g = m.zeros(2, 3, requires_grad=True), m.ones(3, 2)
    x.t().backward(g)  # TBackward hands on a view of the caller's tensor
    g.add_(1)
    return _shares(x.grad, g), x.grad.tolist()


def _same_gradient_to_two_leaves(m):
    a, b = m.zeros(3, requires_grad=True), m.zeros(3, requires_grad=True)
    (a + b).backward(m.ones(3))
    a.grad.add_(1)
    return _shares(a.grad, b.grad), b.grad.tolist()


def _gradient_a_hook_keeps(m):
    x, kept = m.zeros(3, requires_grad=True), []
    x.register_hook(lambda g: kept.append(g))
    (x * 2).sum().backward()
    kept[0].add_(1)
    return _shares(x.grad, kept[0]), x.grad.tolist()


def _second_backward_adds_in_place(m):
    x = m.zeros(2, 3, requires_grad=True)
    (x * m.arange(6.0).view(2, 3)).sum().backward()
    first = x.grad
    (x * 1.0).sum().backward()
    return first is x.grad, x.grad.tolist()


def _linear_weight(m):
    layer = m.nn.Linear(3, 2)
    out = layer(m.ones(4, 3))
    out.backward(m.ones(4, 2))
    return layer.weight.grad.stride(), layer.weight.grad.tolist(), _shares(layer.weight.grad, out)


CASES = [_root_gradient_of_a_leaf, _root_gradient_through_clone, _root_gradient_through_transpose,
         _same_gradient_to_two_leaves,
         _gradient_a_hook_keeps, _second_backward_adds_in_place, _linear_weight]  # fmt: skip


def test_grad_memory_is_its_own_as_in_torch():
    for case in CASES:
        assert run(case, yaten) == run(case, torch), case.__name__
