"""A CUDA tensor's ``__cuda_array_interface__`` and DLPack device, and PyTorch's errors for both
(under NUMBA_ENABLE_CUDASIM=1 on machines without a GPU)."""

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
    with pytest.raises(BufferError, match="through __cuda_array_interface__"):
        x.detach().__dlpack__()
