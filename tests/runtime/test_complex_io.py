"""Complex tensors in files: yaten.save / torch.load and back (ComplexFloatStorage /
ComplexDoubleStorage), state_dict round trips, and safetensors' "C64" (complex64; the format has
no complex128).
"""

import json

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_matches
from yaten import safetensors


def _tensors(m):
    z = m.tensor([[1 + 2j, 3 - 1j, 0.5j]])
    return {
        "c64": z,
        "c128_t": m.tensor([[1j, 2.0], [3 - 4j, 5]], dtype=m.complex128).t(),  # strides kept
        "view": z[:, 1:],
        "dtype": m.complex128,
    }


def _check(got: dict, want: dict):
    assert set(got) == set(want)
    for key, w in want.items():
        g = got[key]
        if isinstance(w, (torch.Tensor, yaten.Tensor)):
            assert_matches(g, w) if isinstance(g, yaten.Tensor) else assert_matches(w, g)
            assert g.stride() == w.stride() and g.storage_offset() == w.storage_offset()
        else:
            assert str(g).rpartition(".")[2] == str(w).rpartition(".")[2]


def test_yaten_save_torch_load(tmp_path):
    yaten.save(_tensors(yaten), tmp_path / "y.pt")
    _check(_tensors(yaten), torch.load(tmp_path / "y.pt", weights_only=True))


def test_torch_save_yaten_load(tmp_path):
    torch.save(_tensors(torch), tmp_path / "t.pt")
    _check(yaten.load(tmp_path / "t.pt"), _tensors(torch))


def test_views_of_one_complex_storage_stay_one_storage(tmp_path):
    z = yaten.tensor([1 + 2j, 3 - 1j])
    yaten.save({"z": z, "tail": z[1:]}, tmp_path / "v.pt")
    loaded = yaten.load(tmp_path / "v.pt")
    loaded["z"][1] = 7j
    assert loaded["tail"].tolist() == [7j]


@pytest.mark.parametrize("m", [torch, yaten])
def test_a_real_view_of_a_complex_storage_is_refused_as_torch(m, tmp_path):
    z = m.tensor([1 + 2j, 3 - 1j])
    with pytest.raises(
        RuntimeError, match="Cannot save multiple tensors or storages that view the same data as"
    ):
        m.save({"z": z, "re": z.real}, tmp_path / "v.pt")


def test_complex_state_dict_round_trips(tmp_path):
    model = yaten.nn.Linear(3, 2)
    state = {k: v.to(yaten.cfloat) * (1 + 1j) for k, v in model.state_dict().items()}
    yaten.save(state, tmp_path / "sd.pt")
    loaded = yaten.load(tmp_path / "sd.pt")
    for k, v in state.items():
        assert loaded[k].dtype is yaten.complex64
        assert loaded[k].tolist() == v.tolist()
    t_loaded = torch.load(tmp_path / "sd.pt", weights_only=True)
    assert all(t_loaded[k].dtype == torch.complex64 for k in state)


def test_safetensors_names_complex64_c64_and_round_trips():
    z = yaten.tensor([[1 + 2j, -0.5j]])
    blob = safetensors.save({"z": z})
    n = int.from_bytes(blob[:8], "little")
    header = json.loads(blob[8 : 8 + n])
    assert header["z"] == {"dtype": "C64", "shape": [1, 2], "data_offsets": [0, 16]}
    # The data: little-endian float32 pairs, real then imaginary, as torch's memory holds them.
    assert blob[8 + n :] == torch.tensor([[1 + 2j, -0.5j]]).numpy().astype("<c8").tobytes()
    loaded = safetensors.load(blob)["z"]
    assert loaded.dtype is yaten.complex64 and loaded.tolist() == z.tolist()


def test_safetensors_has_no_complex128():
    with pytest.raises(TypeError, match=r"safetensors has no dtype for yaten.complex128"):
        safetensors.save({"z": yaten.zeros(2, dtype=yaten.complex128)})


def test_torch_complex32_is_refused_by_name(tmp_path):
    torch.save({"d": torch.complex32}, tmp_path / "h.pt")
    with pytest.raises(RuntimeError, match="torch.complex32, a dtype yaten does not have"):
        yaten.load(tmp_path / "h.pt")


def test_numpy_round_trip_keeps_complex_values():
    a = np.array([1 + 2j, 3 - 4j], dtype=np.complex128)
    assert np.array_equal(yaten.from_numpy(a).numpy(), a)


def test_dlpack_exchanges_complex_tensors_with_torch_and_numpy():
    z = yaten.tensor([1 + 2j, 3j])
    t = torch.from_dlpack(z)
    assert t.dtype == torch.complex64
    t[0] = 7  # shared memory
    assert z.tolist() == [7 + 0j, 3j]
    back = yaten.from_dlpack(torch.tensor([1 - 1j], dtype=torch.complex128))
    assert back.dtype is yaten.complex128 and back.tolist() == [1 - 1j]
    assert np.from_dlpack(z).dtype == np.complex64


def test_frombuffer_reads_complex64():
    raw = bytearray(np.array([1 + 2j, -3j], np.complex64).tobytes())
    assert yaten.frombuffer(raw, dtype=yaten.complex64).tolist() == [1 + 2j, -3j]
