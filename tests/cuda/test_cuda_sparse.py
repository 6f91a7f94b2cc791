"""Sparse COO tensors on the CUDA device (under NUMBA_ENABLE_CUDASIM=1 without a GPU): their kernels are
composites over indices and values, so each op must give the CPU's result, and gradients too."""

import numpy as np
import pytest

import yaten

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")

I = [[0, 1, 1, 2], [1, 0, 0, 2]]  # noqa: E741 - torch's name for the indices
V = [1.0, 2.0, 3.0, -4.0]
D = (np.arange(6.0).reshape(3, 2) / 5).astype(np.float32)


def _dense(t):
    return (t.to_dense() if t.is_sparse else t).cpu().numpy()


@pytest.mark.parametrize(
    "op",
    [
        lambda dev: yaten.sparse_coo_tensor(I, V, (3, 3), device=dev).coalesce(),
        lambda dev: yaten.tensor(D, device=dev).to_sparse(),
        lambda dev: yaten.sparse_coo_tensor(I, V, (3, 3), device=dev) * 2 - yaten.sparse_coo_tensor(I, V, (3, 3), device=dev),
        lambda dev: yaten.ones(3, 3, device=dev) + yaten.sparse_coo_tensor(I, V, (3, 3), device=dev),
        lambda dev: yaten.mm(yaten.sparse_coo_tensor(I, V, (3, 3), device=dev), yaten.tensor(D, device=dev)),
        lambda dev: yaten.sparse.sum(yaten.sparse_coo_tensor(I, V, (3, 3), device=dev), 0),
        lambda dev: yaten.sparse.softmax(yaten.sparse_coo_tensor(I, V, (3, 3), device=dev), 1),
    ],
    ids=["coalesce", "to_sparse", "arithmetic", "dense+sparse", "mm", "sparse.sum", "softmax"],
)  # fmt: skip
def test_sparse_ops_on_cuda_match_the_cpu(op):
    on_cuda, on_cpu = op("cuda"), op("cpu")
    assert on_cuda.device.type == "cuda" and on_cuda.is_sparse == on_cpu.is_sparse
    np.testing.assert_allclose(_dense(on_cuda), _dense(on_cpu), rtol=1e-6, atol=1e-6)


def test_sparse_gradients_on_cuda():
    grads = []
    for dev in ("cpu", "cuda"):
        v = yaten.tensor(V, device=dev, requires_grad=True)
        s = yaten.sparse_coo_tensor(I, v, (3, 3))
        (yaten.sparse.mm(s, yaten.tensor(D, device=dev)) ** 2).sum().backward()
        grads.append(v.grad.cpu().numpy())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-6)
    s = yaten.sparse_coo_tensor(I, V, (3, 3), device="cuda")
    with pytest.raises(
        NotImplementedError, match="Could not run 'aten::sigmoid' with arguments from the 'SparseCUDA'"
    ):
        s.sigmoid()
