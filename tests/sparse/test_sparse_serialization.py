"""Sparse COO tensors in torch's checkpoint format: yaten reads torch's files and torch reads yaten's."""

import warnings

import pytest
import torch

import yaten
from tests.tolerances import assert_close

warnings.filterwarnings("ignore", message="Sparse invariant checks are implicitly disabled")


def _check(y, t):
    assert y.is_sparse and t.is_sparse and tuple(y.shape) == tuple(t.shape)
    assert y.is_coalesced() == t.is_coalesced() and y.dtype.name == str(t.dtype).split(".")[1]
    assert y._indices().tolist() == t._indices().tolist()
    assert_close(y._values(), t._values())


def test_torch_reads_yatens_sparse_tensors(tmp_path):
    s = yaten.sparse_coo_tensor([[0, 1, 1], [2, 0, 0]], [1.0, 2.0, 3.0], (2, 3))
    yaten.save({"s": s, "c": s.coalesce(), "dense": yaten.ones(2)}, tmp_path / "y.pt")
    loaded = torch.load(tmp_path / "y.pt", weights_only=True)
    _check(s, loaded["s"])
    _check(s.coalesce(), loaded["c"])
    assert loaded["dense"].tolist() == [1.0, 1.0]


def test_yaten_reads_torchs_sparse_tensors(tmp_path):
    t = torch.sparse_coo_tensor([[0, 2]], [[1.0, 2.0], [3.0, 4.0]], (3, 2), dtype=torch.float64)
    torch.save([t, t.coalesce(), torch.zeros(2, 2).to_sparse()], tmp_path / "t.pt")
    y = yaten.load(tmp_path / "t.pt")
    for a, b in zip(y, [t, t.coalesce(), torch.zeros(2, 2).to_sparse()]):
        _check(a, b)


def test_an_out_of_bounds_sparse_record_is_refused(tmp_path):
    t = torch.sparse_coo_tensor([[0, 5]], [1.0, 2.0], (3,))  # torch saves it unchecked
    torch.save(t, tmp_path / "bad.pt")
    with pytest.raises(RuntimeError, match="size is inconsistent with indices"):
        yaten.load(tmp_path / "bad.pt")
