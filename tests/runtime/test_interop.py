"""Zero-copy exchange on the CPU through DLPack, both ways, with torch and NumPy; PyTorch's errors."""

import numpy as np
import pytest
import torch
from parity import run

import yaten


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "uint8", "bool"])
def test_torch_reads_yaten_without_a_copy(dtype):
    y = yaten.ones(2, 3, dtype=getattr(yaten, dtype))
    t = torch.from_dlpack(y)
    assert t.dtype == getattr(torch, dtype) and tuple(t.shape) == (2, 3)
    assert t.data_ptr() == y.data_ptr()
    t[0, 1] = 0
    assert y[0, 1].item() == 0


def test_yaten_reads_torch_numpy_and_capsules_without_a_copy():
    t = torch.arange(6.0).view(2, 3).t()  # a transposed view keeps its strides
    y = yaten.from_dlpack(t)
    assert y.stride() == t.stride() and y.data_ptr() == t.data_ptr()
    t[0, 0] = 7
    assert y[0, 0].item() == 7
    a = np.arange(3, dtype=np.int64)
    assert yaten.from_dlpack(a).data_ptr() == a.ctypes.data
    capsule = torch.utils.dlpack.to_dlpack(torch.ones(2, dtype=torch.float16))
    assert yaten.from_dlpack(capsule).tolist() == [1.0, 1.0]


def test_exports_match_torchs_errors_and_device():
    def export_requires_grad(m):
        return m.ones(2, requires_grad=True).__dlpack__()

    def cuda_interface_of_cpu(m):
        return m.ones(2).__cuda_array_interface__

    for case in (export_requires_grad, cuda_interface_of_cpu):
        assert run(case, yaten) == run(case, torch)
    assert tuple(int(v) for v in yaten.ones(1).__dlpack_device__()) == (1, 0)
    assert not hasattr(yaten.ones(1), "__cuda_array_interface__")  # as CuPy and Numba probe for it


def test_from_dlpack_refuses_what_is_not_dlpack():
    with pytest.raises(TypeError, match="expects an object with __dlpack__"):
        yaten.from_dlpack([1, 2])


def test_a_capsule_is_consumed_once_with_torchs_error():
    for make, take in ((yaten, torch), (torch, yaten), (yaten, yaten)):
        capsule = make.arange(3).__dlpack__()
        assert take.from_dlpack(capsule).tolist() == [0, 1, 2]
        with pytest.raises(RuntimeError, match="DLTensor capsules can be consumed only once"):
            take.from_dlpack(capsule)


def test_yaten_keeps_torchs_memory_alive():
    t = torch.arange(4.0)
    y = yaten.from_dlpack(t.view(2, 2))
    del t
    assert y.tolist() == [[0.0, 1.0], [2.0, 3.0]]
    capsule = torch.utils.dlpack.to_dlpack(torch.ones(3, dtype=torch.int8))
    z = yaten.from_dlpack(capsule)
    assert z.dtype == yaten.int8 and z.tolist() == [1, 1, 1]
