"""The questions programs ask about a tensor's kind and place (runtime/_tensor_kind.py), beside torch."""

import pickle

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_matches

FLAGS = [
    "is_sparse",
    "is_sparse_csr",
    "is_quantized",
    "is_mkldnn",
    "is_meta",
    "is_xpu",
    "is_mps",
    "is_nested",
    "is_vulkan",
    "is_xla",
    "is_ipu",
    "is_maia",
    "is_mtia",
    "is_cpu",
    "is_cuda",
]


@pytest.mark.parametrize("name", FLAGS)
def test_flags_are_torchs(name):
    assert getattr(yaten.ones(2), name) is getattr(torch.ones(2), name)
    assert isinstance(vars(yaten.Tensor).get(name), property)


def test_layouts():
    assert repr(yaten.ones(2).layout) == "yaten.strided"
    assert yaten.ones(2).layout is yaten.strided and yaten.strided != yaten.sparse_coo
    assert pickle.loads(pickle.dumps(yaten.strided)) is yaten.strided
    for name in ("strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc", "jagged"):
        assert isinstance(getattr(yaten, name), yaten.layout), name
        assert isinstance(getattr(torch, name), torch.layout), name


def _both(fn):
    """``fn(lib)`` in both libraries: equal results, or the same exception type and message."""
    results = []
    for lib in (torch, yaten):
        try:
            results.append(fn(lib))
        except (RuntimeError, TypeError) as e:
            results.append((type(e), str(e)))
    assert results[0] == results[1], results


@pytest.mark.parametrize(
    "fn",
    [
        lambda m: m.ones(2).get_device(),
        lambda m: m.get_device(m.ones(2)),
        lambda m: m.ones(2).is_pinned(),
        lambda m: m.tensor([0.0]).is_nonzero(),
        lambda m: m.is_nonzero(m.tensor([[3]])),
        lambda m: m.ones(2).is_nonzero(),
        lambda m: m.ones(0).is_nonzero(),
        lambda m: m.ones(2, 3).is_same_size(m.zeros(2, 3)),
        lambda m: m.is_same_size(m.ones(2, 3), m.zeros(3, 2)),
        lambda m: [m.ones(1, dtype=d).is_signed() for d in (m.float32, m.int8, m.uint8, m.bool)],
        lambda m: m.is_signed(m.ones(1)),
        lambda m: (m.is_neg(m.ones(1)), m.ones(1).is_neg()),
        lambda m: m.numel(m.ones(2, 3)),
        lambda m: (m.is_storage(m.ones(2).untyped_storage()), m.is_storage(m.ones(2)), m.is_storage([1])),
        lambda m: str(m.get_default_device()),
    ],
)
def test_queries_match_torch(fn):
    _both(fn)


def test_pin_memory():
    x = yaten.ones(2)
    if not yaten.cuda.is_available():  # torch here has no accelerator either
        _both(lambda m: m.ones(2).pin_memory())
        return
    pinned = x.pin_memory()
    assert pinned is not x and pinned.tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match="only dense CPU tensors can be pinned"):
        x.cuda().pin_memory()


@pytest.mark.parametrize(
    "args, kwargs",
    [((2, 3), {}), (([1, 2.5],), {}), ((), {}), ((yaten.Size([2]),), {}), ((2,), {"device": "cpu"})],
)
def test_new_matches_torch(args, kwargs):
    t = torch.ones(2, dtype=torch.float64).new(
        *[torch.Size(a) if isinstance(a, yaten.Size) else a for a in args], **kwargs
    )
    y = yaten.ones(2, dtype=yaten.float64).new(*args, **kwargs)
    assert (y.dtype, tuple(y.shape), y.device.type) == (yaten.float64, tuple(t.shape), "cpu")
    if args and isinstance(args[0], list):
        assert_matches(y, t)


def test_new_of_a_tensor_aliases_it_and_refuses_another_dtype():
    x = yaten.ones(3, dtype=yaten.float64)
    alias = x.new(x)
    alias[0] = 5.0
    assert x[0].item() == 5.0
    with pytest.raises(TypeError):
        x.new(yaten.ones(2, dtype=yaten.int64))
    with pytest.raises(TypeError):
        torch.ones(3, dtype=torch.float64).new(torch.ones(2, dtype=torch.int64))


def test_new_keeps_a_cuda_tensors_device():
    if not yaten.cuda.is_available():
        pytest.skip("needs a GPU or NUMBA_ENABLE_CUDASIM=1")
    x = yaten.ones(2, device="cuda")
    assert x.new(2).device == x.device and x.get_device() == 0
    np.testing.assert_array_equal(x.new([1, 2]).cpu().numpy(), [1.0, 2.0])
