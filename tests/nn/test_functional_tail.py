"""The nn.functional names added with the surface tail beside torch: lp_pool1d/2d/3d, max_unpool1d/2d/3d,
pdist, channel_shuffle, softmin (values and gradients), and their errors."""

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_matches

RNG = np.random.default_rng(0)


def _compare(call, data):
    outs, grads = [], []
    for lib in (torch, yaten):
        x = lib.from_numpy(data.copy()).requires_grad_()
        out = call(lib.nn.functional, x)
        (out * lib.from_numpy(np.linspace(-1, 1, out.numel()).reshape(tuple(out.shape)))).sum().backward()
        outs.append(out.detach())
        grads.append(x.grad)
    assert_matches(outs[1], outs[0])
    assert_matches(grads[1], grads[0])


@pytest.mark.parametrize(
    "call, shape",
    [
        (lambda F, x: F.lp_pool1d(x, 2, 2), (2, 3, 6)),
        (lambda F, x: F.lp_pool1d(x.abs(), 3, 3, stride=2, ceil_mode=True), (2, 3, 8)),
        (lambda F, x: F.lp_pool2d(x, 2, 2), (2, 3, 4, 4)),
        (lambda F, x: F.lp_pool2d(x.abs() + 0.1, 1.5, (2, 3), stride=(1, 2)), (1, 2, 5, 6)),
        (lambda F, x: F.lp_pool3d(x, 2, 2), (1, 2, 4, 4, 4)),
        (lambda F, x: F.max_unpool1d(*F.max_pool1d(x, 2, return_indices=True), 2), (2, 3, 6)),
        (lambda F, x: F.max_unpool2d(*F.max_pool2d(x, 2, return_indices=True), 2), (2, 3, 4, 4)),
        (
            lambda F, x: F.max_unpool2d(*F.max_pool2d(x, 3, 2, 1, return_indices=True), 3, 2, 1, (5, 5)),
            (1, 2, 5, 5),
        ),
        (lambda F, x: F.max_unpool2d(*F.max_pool2d(x, 2, return_indices=True), 2), (3, 4, 4)),
        (lambda F, x: F.max_unpool3d(*F.max_pool3d(x, 2, return_indices=True), 2), (1, 2, 4, 4, 4)),
        (lambda F, x: F.pdist(x), (5, 3)),
        (lambda F, x: F.pdist(x, 1), (4, 2)),
        (lambda F, x: F.channel_shuffle(x, 3), (2, 6, 2)),
        (lambda F, x: F.softmin(x, dim=1), (3, 4)),
    ],
)
def test_matches_torch(call, shape):
    _compare(call, RNG.standard_normal(shape))


@pytest.mark.parametrize(
    "call",
    [
        lambda F, m: F.max_unpool2d(
            *F.max_pool2d(m.ones(1, 1, 4, 4), 2, return_indices=True), 2, output_size=(9, 9)
        ),
        lambda F, m: F.max_unpool2d(m.ones(1, 1, 2, 2), m.zeros(1, 1, 2, 2), 2),
        lambda F, m: F.max_unpool2d(
            *F.max_pool2d(m.ones(1, 1, 4, 4), 2, return_indices=True), 2, output_size=(1, 2, 3)
        ),
        lambda F, m: F.pdist(m.ones(3)),
        lambda F, m: F.channel_shuffle(m.ones(2, 4, 1), 3),
    ],
)
def test_errors_match_torch(call):
    with pytest.raises(Exception) as want:
        call(torch.nn.functional, torch)
    with pytest.raises(want.type) as got:
        call(yaten.nn.functional, yaten)
    assert str(got.value) == str(want.value)


def test_rrelu():
    x = np.array([-3.0, -1.0, 0.0, 2.0])
    assert_matches(
        yaten.nn.functional.rrelu(yaten.from_numpy(x), 0.2, 0.4),
        torch.nn.functional.rrelu(torch.from_numpy(x), 0.2, 0.4),
    )
    for lib in (torch, yaten):
        a = lib.full((20000,), -1.0, dtype=lib.float64, requires_grad=True)
        y = lib.nn.functional.rrelu(a, 0.1, 0.3, training=True)
        y.sum().backward()
        slopes = -y.detach().numpy()
        assert slopes.min() >= 0.1 and slopes.max() <= 0.3 and abs(slopes.mean() - 0.2) < 0.005
        np.testing.assert_allclose(a.grad.numpy(), slopes)
        b = lib.tensor([-2.0, 3.0])
        assert lib.nn.functional.rrelu_(b, 0.5, 0.5) is b and b.tolist() == [-1.0, 3.0]
