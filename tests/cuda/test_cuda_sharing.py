"""CUDA tensors and yaten.multiprocessing: shared already (share_memory_ is a no-op, as torch's), and not
sendable to another process (no CUDA IPC): a clear error rather than a silent copy."""

from multiprocessing.reduction import ForkingPickler

import pytest

import yaten
import yaten.multiprocessing  # (registers the reductions)

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")


def test_a_cuda_tensor_counts_as_shared_and_share_memory_is_a_no_op():
    x = yaten.ones(3, device="cuda")
    ptr = x.data_ptr()
    assert x.is_shared() and x.untyped_storage().is_shared()
    assert x.share_memory_() is x and x.data_ptr() == ptr
    m = yaten.nn.Linear(2, 1).cuda().share_memory()
    assert m.weight.is_shared() and m.weight.device.type == "cuda"


def test_sending_a_cuda_tensor_to_another_process_is_refused():
    with pytest.raises(RuntimeError, match="can't send a cuda tensor or storage to another process"):
        ForkingPickler.dumps(yaten.ones(2, device="cuda"))
    with pytest.raises(RuntimeError, match="CUDA IPC is not available"):
        ForkingPickler.dumps(yaten.ones(2, device="cuda").untyped_storage())
