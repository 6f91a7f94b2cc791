"""A CUDA tensor's ``__cuda_array_interface__`` and DLPack exchange of device memory, and PyTorch's errors
for both (under NUMBA_ENABLE_CUDASIM=1 on machines without a GPU)."""

import gc
import weakref

import numpy as np
import pytest

import yaten
from yaten.kernels.cuda import memory

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")


def test_cuda_array_interface_describes_the_device_memory():
    x = yaten.arange(6.0, device="cuda").view(2, 3)
    iface = x.__cuda_array_interface__
    assert iface["shape"] == (2, 3) and iface["strides"] is None and iface["typestr"] == "<f4"
    assert iface["version"] == 3 and iface["data"] == (memory.data_ptr(x._data), False)
    t = x.t()  # a view: its own shape, byte strides and first element
    assert t.__cuda_array_interface__["strides"] == (4, 12)
    assert x[1].__cuda_array_interface__["data"][0] == iface["data"][0] + 12


def test_cuda_exports_refuse_as_torch_does():
    x = yaten.ones(2, device="cuda", requires_grad=True)
    with pytest.raises(
        RuntimeError, match="Can't get __cuda_array_interface__ on Variable that requires grad"
    ):
        _ = x.__cuda_array_interface__
    assert tuple(int(v) for v in x.__dlpack_device__()) == (2, 0)
    with pytest.raises(BufferError, match="Can't export tensors that require gradient"):
        x.__dlpack__()
    with pytest.raises(BufferError, match="cannot export a tensor on cuda:0 to DLPack device"):
        x.detach().__dlpack__(dl_device=(1, 0))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "uint8", "int64", "bool"])
def test_dlpack_round_trip_shares_device_memory(dtype):
    x = (yaten.arange(12, device="cuda") % 3).to(getattr(yaten, dtype)).view(3, 4)
    y = yaten.from_dlpack(x)
    assert y.device == x.device and y.dtype == x.dtype and y.shape == x.shape and y.stride() == x.stride()
    assert y.data_ptr() == x.data_ptr()
    x[0, 0] = 0 if dtype == "bool" else 2
    assert y.tolist() == x.tolist()


def test_dlpack_keeps_views_and_offsets():
    base = yaten.arange(24.0, device="cuda").view(4, 6)
    for view in (base.t(), base[1:, 2:5], base[:, 3], base[2, 4]):
        y = yaten.from_dlpack(view)
        assert y.stride() == view.stride() and y.data_ptr() == view.data_ptr()
        assert y.tolist() == view.tolist()
    empty = yaten.from_dlpack(yaten.ones(0, 3, device="cuda"))
    assert empty.device.type == "cuda" and empty.shape == (0, 3)


def test_dlpack_capsule_owns_its_tensor_until_consumed_or_dropped():
    x = yaten.arange(4.0, device="cuda")
    alive = weakref.ref(x)
    capsule = x.__dlpack__()
    del x
    gc.collect()
    assert alive() is not None  # the capsule holds the exported tensor
    y = yaten.from_dlpack(capsule)
    assert y.tolist() == [0.0, 1.0, 2.0, 3.0]
    with pytest.raises(RuntimeError, match="DLTensor capsules can be consumed only once"):
        yaten.from_dlpack(capsule)
    del capsule
    gc.collect()
    assert alive() is not None  # now the importer holds it
    del y
    gc.collect()
    assert alive() is None  # the importer's last array called the deleter
    z = yaten.ones(2, device="cuda")
    dropped = weakref.ref(z)
    unused = z.__dlpack__()
    del z, unused
    gc.collect()
    assert dropped() is None  # a capsule dropped unconsumed released its tensor


def test_from_dlpack_of_a_cuda_producer_passes_a_stream():
    class Producer:  # stands for a CuPy array or a torch.cuda tensor
        def __init__(self, t):
            self.t, self.streams = t, []

        def __dlpack__(self, stream=None):
            self.streams.append(stream)
            return self.t.__dlpack__(stream=stream)

        def __dlpack_device__(self):
            return self.t.__dlpack_device__()

    p = Producer(yaten.tensor([[1, 2], [3, 4]], dtype=yaten.int32, device="cuda"))
    y = yaten.from_dlpack(p)
    assert p.streams == [1]  # the legacy default stream, Numba's
    assert y.device.type == "cuda" and y.tolist() == [[1, 2], [3, 4]]
    np.testing.assert_array_equal(y.cpu().numpy(), np.array([[1, 2], [3, 4]], np.int32))
