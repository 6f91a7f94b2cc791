"""Where gradients land in memory, as in PyTorch: the gradient layout contract of ``.grad``, products
whose gradients come back in their operand's layout, and the nodes these record."""

import warnings

import pytest
import torch
from parity import run

import yaten


def _grad_strides(m, make_leaf, make_loss, create_graph=False):
    leaf = make_leaf(m)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns that backward(create_graph=True) leaks a cycle
        make_loss(m, leaf).pow(2).sum().backward(create_graph=create_graph)  # squared: the grad has history
    g = leaf.grad
    return leaf.stride(), g.stride(), g.is_contiguous(), None if g.grad_fn is None else g.grad_fn.name()


def _row_major(m):
    return m.randn(3, 4, dtype=m.float64).requires_grad_()


def _column_major(m):
    return m.randn(4, 3, dtype=m.float64).t().requires_grad_()


def _overlapping(m):
    return m.zeros(1, 4, dtype=m.float64).expand(3, 4).requires_grad_()


CASES = {
    # the formula's gradient is a transposed view: .grad is laid out as the leaf, row-major
    "transposed gradient": (_row_major, lambda m, x: x.t() * m.arange(12.0, dtype=m.float64).view(4, 3)),
    # mm's gradient for a column-major operand is made column-major
    "mm, column-major self": (_column_major, lambda m, x: x.mm(m.ones(4, 2, dtype=m.float64))),
    "mm, column-major mat2": (_column_major, lambda m, x: m.ones(2, 3, dtype=m.float64).mm(x)),
    "addmm, column-major mat2": (
        _column_major,
        lambda m, x: m.addmm(m.zeros(2, 4, dtype=m.float64), m.ones(2, 3, dtype=m.float64), x),
    ),
    # a leaf that is not dense gets a contiguous gradient
    "overlapping leaf": (_overlapping, lambda m, x: x * 2),
}


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("case", CASES)
def test_grad_layout_matches_torch(case, create_graph):
    make_leaf, make_loss = CASES[case]
    got = run(lambda m: _grad_strides(m, make_leaf, make_loss, create_graph), yaten)
    want = run(lambda m: _grad_strides(m, make_leaf, make_loss, create_graph), torch)
    if (
        create_graph
    ):  # torch names its hand-written nodes with their namespace, torch:: where yaten has yaten::
        want = tuple(w.replace("torch::", "yaten::") if isinstance(w, str) else w for w in want)
    assert got == want


def test_linear_weight_grad_is_row_major_like_the_weight():
    layer = yaten.nn.Linear(4, 3)
    layer(yaten.randn(5, 4)).sum().backward()
    assert layer.weight.grad.stride() == layer.weight.stride() == (4, 1)


def test_copy_records_torchs_hand_named_node():
    got = run(lambda m: m.zeros(3).copy_(m.ones(3, requires_grad=True)).grad_fn.name(), yaten)
    want = run(lambda m: m.zeros(3).copy_(m.ones(3, requires_grad=True)).grad_fn.name(), torch)
    assert got == want.replace("torch::", "yaten::") == "yaten::autograd::CopyBackwards"
