"""The CUDA path end to end through yaten (run under NUMBA_ENABLE_CUDASIM=1 on machines without a GPU).

Every pointwise op of the spec runs on ``cuda`` on the op table's samples and must give the CPU
result; reductions sum/mean, device moves, and a backward pass run on the device too.
"""

import sys
from pathlib import Path

import numpy as np
import pytest

import yaten

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ops"))
from op_samples import function_of, functional_ops, pointwise_samples

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")


def _on(device, v):
    return yaten.from_numpy(v.copy(order="K")).to(device) if isinstance(v, np.ndarray) else v


def _run(fn, sample, device):
    args = [_on(device, a) for a in sample.args]
    kwargs = {k: _on(device, v) for k, v in sample.kwargs.items()}
    name = fn.schema.name.name
    if "function" in fn.variants:
        return function_of(yaten, fn)(*args, **kwargs)
    return getattr(args[0], name)(*args[1:], **kwargs)


POINTWISE = [
    pytest.param(fn, s, id=f"{fn.name}-{np.dtype(dt).name}-{s.label}")
    for fn in functional_ops()
    if fn.pointwise is not None
    for dt in (np.float32, np.int64)
    for s in pointwise_samples(fn, dt)
    if s.label in ("broadcast", "non-contiguous", "0-dim")
]


# ATen's rational approximation of the Dirichlet sample's gradient: its terms cancel, and a float32
# evaluation rounds them otherwise than the cpu kernel's (1e-5 apart, relatively).
LOOSER = {"_dirichlet_grad": 1e-4}


@pytest.mark.parametrize("fn, sample", POINTWISE)
def test_pointwise_on_cuda_matches_cpu(fn, sample):
    try:
        expected = _run(fn, sample, "cpu")
    except (RuntimeError, NotImplementedError, TypeError) as e:
        with pytest.raises(type(e)):
            _run(fn, sample, "cuda")
        return
    got = _run(fn, sample, "cuda")
    assert got.device == yaten.device("cuda", 0)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    rtol = LOOSER.get(fn.name, 1e-5)
    np.testing.assert_allclose(got.cpu().numpy(), expected.numpy(), rtol=rtol, atol=1e-6, equal_nan=True)


def test_inplace_pointwise_on_cuda():
    x = yaten.tensor([[1.0, 2.0], [3.0, 4.0]], device="cuda")
    view = x.t()
    view.mul_(2).add_(yaten.tensor([1.0, 0.0], device="cuda"))
    assert x._version == 2
    assert x.cpu().tolist() == [[3.0, 5.0], [6.0, 8.0]]  # the view [[3, 6], [5, 8]], transposed


def test_inplace_overlap_is_refused_on_cuda_as_on_cpu():
    # The check reads shapes, strides and device addresses: the same rule on every device.
    x = yaten.arange(9.0, device="cuda").reshape(3, 3)
    with pytest.raises(RuntimeError, match="some elements of the input tensor and the written-to tensor"):
        x.add_(x.t())
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        yaten.zeros(3, device="cuda").expand(3, 3).add_(1)
    x.add_(x)  # full overlap is fine
    assert x.cpu().tolist() == [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0], [12.0, 14.0, 16.0]]


@pytest.mark.parametrize("dims, keepdim", [(None, False), ((0,), False), ((1,), True), ((0, 1), False)])
def test_sum_and_mean_on_cuda(dims, keepdim):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = yaten.from_numpy(a).cuda()
    for op in ("sum", "mean"):
        got = getattr(x, op)() if dims is None else getattr(x, op)(dims, keepdim=keepdim)
        want = getattr(a, op)(axis=dims, keepdims=keepdim)
        assert got.device.type == "cuda"
        np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-6)
    assert yaten.ones(3, 2, dtype=yaten.int32, device="cuda").sum().dtype is yaten.int64


def test_device_moves_round_trip():
    a = yaten.arange(6, dtype=yaten.float64).reshape(2, 3)
    c = a.to("cuda")
    assert c.device == yaten.device("cuda:0") and c.dtype is yaten.float64
    assert c.cuda() is c and c.to("cuda:0") is c
    back = c.t().cpu()
    assert back.device == yaten.device("cpu") and back.tolist() == a.t().tolist()
    assert a.to("cuda", yaten.float32).cpu().dtype is yaten.float32


def test_backward_on_cuda():
    x = yaten.tensor([0.5, -1.0, 2.0], device="cuda", requires_grad=True)
    w = yaten.tensor([1.0, 2.0, 3.0], device="cuda")
    (x.exp() * w).sum().backward()
    assert x.grad.device.type == "cuda"
    np.testing.assert_allclose(x.grad.cpu().numpy(), np.exp([0.5, -1.0, 2.0]) * [1, 2, 3], rtol=1e-6)


def test_mixing_devices_raises():
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        yaten.ones(2, device="cuda") + yaten.ones(2)
    with pytest.raises(RuntimeError, match="found at least two devices, cuda:0 and cpu"):
        yaten.ones(2, device="cuda").mm(yaten.ones(2, 2))
    with pytest.raises(RuntimeError, match="found at least two devices, cuda:0 and cpu"):
        yaten.ones((), device="cuda") + yaten.ones(2)  # only a CPU 0-d tensor joins another device


def test_a_cpu_scalar_joins_elementwise_ops_on_cuda():
    """As PyTorch's TensorIterator: a CPU 0-d tensor is an input of an elementwise cuda op (promoting
    as a 0-d tensor), its gradient comes back to the CPU, and an in-place op's self may not be one."""
    x = yaten.tensor([1.0, -2.0], device="cuda", requires_grad=True)
    w = yaten.tensor(3.0, dtype=yaten.float64, requires_grad=True)
    y = (x * w + yaten.tensor(1)).where(x > 0, yaten.tensor(0.5))
    assert y.device == x.device and y.dtype is yaten.float32 and y.tolist() == [4.0, 0.5]
    y.sum().backward()
    assert x.grad.device == x.device and x.grad.tolist() == [3.0, 0.0]
    assert w.grad.device.type == "cpu" and w.grad.dtype is yaten.float64 and w.grad.item() == 1.0
    z = yaten.ones(2, device="cuda")
    assert z.mul_(yaten.tensor(2.0)).tolist() == [2.0, 2.0] and z.device.type == "cuda"
    with pytest.raises(RuntimeError, match="found at least two devices, cpu and cuda:0"):
        yaten.tensor(1.0).add_(z)


def test_a_cpu_scalar_value_for_masked_fill_and_index_put_on_cuda():
    """The ops whose spec lists ``cpu_scalars`` take a CPU 0-d value with a cuda self, as torch's;
    their other tensors must still be on self's device."""
    x = yaten.zeros(4, device="cuda")
    mask = yaten.tensor([True, False, True, False], device="cuda")
    assert x.masked_fill_(mask, yaten.tensor(7)).tolist() == [7.0, 0.0, 7.0, 0.0]
    idx = (yaten.tensor([1, 3, 3], device="cuda"),)
    assert x.index_put_(idx, yaten.tensor(2.0), accumulate=True).tolist() == [7.0, 2.0, 7.0, 4.0]
    w = yaten.tensor(3.0, requires_grad=True)
    yaten.zeros(4, device="cuda").masked_fill(mask, w).sum().backward()
    assert w.grad.device.type == "cpu" and w.grad.item() == 2.0
    with pytest.raises(RuntimeError, match="found at least two devices, cuda:0 and cpu"):
        x.masked_fill_(yaten.tensor([True, False, True, False]), 1.0)
    with pytest.raises(RuntimeError, match="found at least two devices, cuda:0 and cpu"):
        x.index_put_(idx, yaten.tensor([1.0]))
    with pytest.raises(RuntimeError, match="value cannot be converted to type uint8_t without overflow"):
        yaten.zeros(2, dtype=yaten.uint8, device="cuda").masked_fill_(mask[:2], yaten.tensor(300))
