"""The shape and indexing surface beyond the op table: torch.functional's varargs forms, tuples from
split/chunk/unbind/where, view(dtype) sharing memory, gradients through overlapping windows and
through cat with a constant first piece, meshgrid's warning, logspace and frombuffer."""

import array
import re
import warnings

import numpy as np
import pytest
import torch
from parity import same

import yaten


def _pair(shape, seed=0):
    a = np.random.default_rng(seed).standard_normal(shape)
    return torch.tensor(a, requires_grad=True), yaten.tensor(a, requires_grad=True)


@pytest.mark.parametrize(
    "case",
    [
        lambda m: m.arange(6.0).reshape(2, 3).split(1),
        lambda m: m.arange(6.0).reshape(2, 3).chunk(2, 1),
        lambda m: m.arange(6.0).reshape(2, 3).unbind(1),
        lambda m: m.split(m.arange(5.0), [2, 3]),
        lambda m: m.arange(6.0).tensor_split(3),
        lambda m: m.where(m.tensor([[0, 1], [2, 0]]) > 0),
        lambda m: m.meshgrid(m.arange(3), m.arange(2), indexing="xy"),
        lambda m: m.meshgrid([m.arange(3), m.arange(2)], indexing="ij"),
        lambda m: m.broadcast_tensors(m.ones(3, 1), m.ones(2)),
        lambda m: m.atleast_2d(m.tensor(1.0), m.ones(3)),
        lambda m: m.atleast_3d([m.tensor(1.0)]),
        lambda m: m.einsum("ij,jk", [m.ones(2, 3), m.ones(3, 2)]),
        lambda m: m.einsum("...,...->...", m.ones(2, 1), m.ones(3)),
        lambda m: m.einsum("i,i", m.ones(2), m.ones(3)),
        lambda m: m.tensordot(m.ones(2, 3), m.ones(3, 4), dims=1),
        lambda m: m.tensordot(m.ones(2, 3), m.ones(3, 2), dims=m.tensor(1)),
        lambda m: m.block_diag(),
        lambda m: m.cartesian_prod(m.tensor([1, 2]), m.tensor([3])),
        lambda m: m.chain_matmul(m.ones(2, 2)),
        lambda m: m.ones(2, 3).swapaxes(0, 1).shape,
        lambda m: m.moveaxis(m.ones(2, 3, 4), 0, -1).shape,
        lambda m: m.row_stack([m.ones(2), m.zeros(2)]),
        lambda m: m.clip(m.arange(5.0), m.tensor(1.0), m.tensor(3.0)),
        lambda m: m.arange(5.0).clamp_(max=m.full((5,), 2.0)),
        lambda m: m.logspace(0, 3, 4),
        lambda m: m.logspace(-2, 2, 5, base=2, dtype=m.float64),
        lambda m: m.logspace(0, 2, 3, dtype=m.int64),
        lambda m: m.logspace(0, 1, -1),
        lambda m: m.logspace(0, 1, 3, dtype=m.bool),
        lambda m: m.repeat_interleave(m.tensor([2, 0, 1])),
        lambda m: m.tensor([[1, 2], [3, 4]]).repeat_interleave(m.tensor([1, 2]), dim=0),
        lambda m: m.arange(8).unfold(0, 3, 2).stride(),
        lambda m: m.ones(2, 4).view(m.float16).shape,
    ],
)
def test_matches_torch(case):
    same(case)


def test_view_dtype_shares_memory():
    x = yaten.zeros(2, dtype=yaten.float32)
    v = x.view(yaten.int32)
    v[0] = 1065353216  # the bits of 1.0f
    assert x.tolist() == [1.0, 0.0]
    assert v._base is x


def test_unfold_gradient_adds_overlapping_windows():
    t, y = _pair((7,))
    t.unfold(0, 3, 2).pow(2).sum().backward()
    y.unfold(0, 3, 2).pow(2).sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), t.grad.numpy(), rtol=1e-12)


def test_cat_gradient_reaches_a_tensor_after_a_constant_one():
    t, y = _pair((2, 3))
    torch.cat([torch.zeros(2, 1), t], 1).sum().backward()
    yaten.cat([yaten.zeros(2, 1), y], 1).sum().backward()
    assert y.grad is not None
    np.testing.assert_array_equal(y.grad.numpy(), t.grad.numpy())


def test_einsum_runs_through_bmm():
    _, y = _pair((2, 3, 4))
    out = yaten.einsum("bij,bjk->bik", y, y.transpose(1, 2))
    names = set()
    stack = [out.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None:
            names.add(type(node).__name__)
            stack.extend(f for f, _ in node.next_functions)
    assert "BmmBackward0" in names


def test_meshgrid_warns_without_indexing_as_torch():
    # torch warns once a process (the op table's call may have used it up), so yaten alone is checked
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yaten.meshgrid(yaten.arange(2), yaten.arange(3))
    assert any("indexing argument" in str(w.message) for w in caught)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yaten.meshgrid(yaten.arange(2), yaten.arange(3), indexing="ij")


def test_frombuffer_shares_memory_and_checks_sizes():
    buf = array.array("f", [1.0, 2.0, 3.0])
    t = yaten.frombuffer(buf, dtype=yaten.float32, count=2, offset=4)
    buf[1] = 7.0
    assert t.tolist() == [7.0, 3.0]
    for kwargs in ({"count": 4}, {"offset": 12}, {"count": 0}):
        with pytest.raises(ValueError) as want:
            torch.frombuffer(bytearray(12), dtype=torch.float32, **kwargs)
        with pytest.raises(ValueError, match=re.escape(str(want.value))):
            yaten.frombuffer(bytearray(12), dtype=yaten.float32, **kwargs)


def test_logspace_float_steps_is_a_type_error():
    for m in (torch, yaten):
        with pytest.raises(TypeError):
            m.logspace(0, 1, 2.5)


def test_in_place_view_ops_change_shape_and_keep_history():
    grads = []
    for m, x in zip((torch, yaten), _pair((2, 3))):
        y = x * 2
        y.t_().unsqueeze_(0).squeeze_(0).transpose_(0, 1).swapdims_(0, 1)
        assert tuple(y.shape) == (3, 2) and y._version == 5
        (y * m.arange(6.0, dtype=m.float64).reshape(3, 2)).sum().backward()
        grads.append(x.grad.numpy())
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
            x.t_()
    np.testing.assert_array_equal(grads[1], grads[0])
