"""Checkpoints cross between yaten and PyTorch: torch.load reads yaten.save, yaten.load reads torch.save."""

import collections

import numpy as np
import pytest
import torch

import yaten

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


def _values(lib, name, shape=(2, 3)):
    dtype = getattr(lib, name)
    return (lib.arange(6) % 4 - 1).reshape(shape).to(dtype)


def _state_dict(lib):
    sd = collections.OrderedDict((f"t_{n}", _values(lib, n)) for n in DTYPES)
    w = lib.arange(12.0).reshape(3, 4)
    sd["weight"] = w
    sd["weight_t"] = w.t()
    sd["row"] = w[1]
    sd["col"] = w[:, 2]
    sd["scalar"] = lib.tensor(2.5, dtype=lib.float64)
    sd["empty"] = lib.zeros(0, 3)
    return sd


def _optimizer_state(lib):
    return {
        "state": {0: {"step": lib.tensor(10.0), "exp_avg": lib.ones(3, 4) * 0.5, "exp_avg_sq": lib.zeros(3, 4)},
                  1: {"step": lib.tensor(10.0), "momentum_buffer": None}},
        "param_groups": [{"lr": 1e-3, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 0, "amsgrad": False,
                          "maximize": False, "foreach": None, "params": [0, 1], "name": "group0"}],
    }  # fmt: skip


def _assert_same(y, t):
    """A yaten value equals a torch value: tensors by dtype, shape, strides, offset and values."""
    if isinstance(y, yaten.Tensor):
        assert isinstance(t, torch.Tensor)
        assert str(t.dtype) == f"torch.{y.dtype.name}"
        assert tuple(t.shape) == tuple(y.shape) and t.stride() == y.stride()
        assert t.storage_offset() == y.storage_offset() and t.requires_grad == y.requires_grad
        assert np.array_equal(t.detach().numpy(), np.asarray(y.detach()))
    elif isinstance(y, dict):
        assert type(y) is type(t) and list(y) == list(t)
        for k in y:
            _assert_same(y[k], t[k])
    elif isinstance(y, (list, tuple)):
        assert type(y) is type(t) and len(y) == len(t)
        for a, b in zip(y, t):
            _assert_same(a, b)
    else:
        assert y == t


def test_torch_loads_a_yaten_state_dict(tmp_path):
    sd = _state_dict(yaten)
    yaten.save(sd, tmp_path / "y.pt")
    loaded = torch.load(tmp_path / "y.pt", weights_only=True)
    _assert_same(sd, loaded)
    # the views still share one storage in torch
    assert loaded["row"].untyped_storage().data_ptr() == loaded["weight"].untyped_storage().data_ptr()
    loaded["weight"][1, 2] = 99
    assert loaded["col"][1].item() == 99


def test_torch_mmap_loads_a_yaten_file(tmp_path):
    # mmap needs each storage record aligned in the file, as PyTorch's writer aligns them.
    yaten.save(_state_dict(yaten), tmp_path / "y.pt")
    _assert_same(_state_dict(yaten), torch.load(tmp_path / "y.pt", weights_only=True, mmap=True))


def test_yaten_loads_a_torch_state_dict(tmp_path):
    torch.save(_state_dict(torch), tmp_path / "t.pt")
    loaded = yaten.load(tmp_path / "t.pt")
    _assert_same(loaded, _state_dict(torch))
    assert loaded["row"].untyped_storage().data_ptr() == loaded["weight"].untyped_storage().data_ptr()


def test_optimizer_like_state_both_ways(tmp_path):
    yaten.save(_optimizer_state(yaten), tmp_path / "y.pt")
    _assert_same(_optimizer_state(yaten), torch.load(tmp_path / "y.pt", weights_only=True))
    torch.save(_optimizer_state(torch), tmp_path / "t.pt")
    _assert_same(yaten.load(tmp_path / "t.pt"), _optimizer_state(torch))


def test_parameters_and_requires_grad_both_ways(tmp_path):
    torch.save({"p": torch.nn.Parameter(torch.ones(2)), "f": torch.nn.Parameter(torch.zeros(1), False),
                "g": torch.ones(3, requires_grad=True)}, tmp_path / "t.pt")  # fmt: skip
    y = yaten.load(tmp_path / "t.pt")
    assert type(y["p"]) is yaten.nn.Parameter and y["p"].requires_grad and y["p"].tolist() == [1.0, 1.0]
    assert type(y["f"]) is yaten.nn.Parameter and not y["f"].requires_grad
    assert type(y["g"]) is yaten.Tensor and y["g"].requires_grad
    yaten.save(y, tmp_path / "y.pt")
    t = torch.load(tmp_path / "y.pt", weights_only=True)
    assert type(t["p"]) is torch.nn.Parameter and t["p"].requires_grad
    assert type(t["f"]) is torch.nn.Parameter and not t["f"].requires_grad
    assert type(t["g"]) is torch.Tensor and t["g"].requires_grad


def test_a_torch_module_state_dict_loads_into_yaten(tmp_path):
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.BatchNorm1d(3))
    torch.save(net.state_dict(), tmp_path / "net.pt")
    sd = yaten.load(tmp_path / "net.pt")
    assert list(sd) == list(net.state_dict())
    _assert_same(sd, net.state_dict())
    assert sd["1.num_batches_tracked"].dtype is yaten.int64


def test_torch_extras_load(tmp_path):
    t = torch.ones(2)
    t.note = "kept"  # a tensor with Python attributes: torch pickles it with _rebuild_from_type_v2
    p = torch.nn.Parameter(torch.zeros(1))
    p.tag = 3  # ... and a Parameter with them, with _rebuild_parameter_with_state
    torch.save({"t": t, "p": p, "dtype": torch.float16, "device": torch.device("cpu"), "size": torch.Size([1, 2]),
                "bytes": b"xy", "set": {3}, "c": 1j}, tmp_path / "t.pt")  # fmt: skip
    y = yaten.load(tmp_path / "t.pt")
    assert y["t"].tolist() == [1.0, 1.0] and y["t"].note == "kept"
    assert type(y["p"]) is yaten.nn.Parameter and y["p"].tag == 3 and y["p"].requires_grad
    assert (
        y["dtype"] is yaten.float16 and y["device"] == yaten.device("cpu") and y["size"] == yaten.Size([1, 2])
    )
    assert (y["bytes"], y["set"], y["c"]) == (b"xy", {3}, 1j)


def test_yaten_types_arrive_as_torch_types(tmp_path):
    yaten.save([yaten.float64, yaten.device("cpu"), yaten.Size([3]), b"b"], tmp_path / "y.pt")
    assert torch.load(tmp_path / "y.pt", weights_only=True) == [
        torch.float64,
        torch.device("cpu"),
        torch.Size([3]),
        b"b",
    ]


def test_unsupported_torch_dtypes_say_so(tmp_path):
    torch.save({"d": torch.complex32}, tmp_path / "t.pt")
    with pytest.raises(RuntimeError, match=r"torch.complex32, a dtype yaten does not have"):
        yaten.load(tmp_path / "t.pt")


def test_pytorch_legacy_format_is_named(tmp_path):
    torch.save({"a": torch.ones(2)}, tmp_path / "old.pt", _use_new_zipfile_serialization=False)
    with pytest.raises(RuntimeError, match="is in PyTorch's legacy format"):
        yaten.load(tmp_path / "old.pt")


def test_torch_pickle_protocol_4_loads(tmp_path):
    torch.save({"a": torch.ones(2), "b": b"xy"}, tmp_path / "p4.pt", pickle_protocol=4)
    y = yaten.load(tmp_path / "p4.pt")
    assert y["a"].tolist() == [1.0, 1.0] and y["b"] == b"xy"


def test_a_yaten_training_checkpoint_resumes_in_torch_and_back(tmp_path):
    net = yaten.nn.Linear(3, 2)
    opt = yaten.optim.Adam(net.parameters(), lr=1e-3)
    net(yaten.randn(4, 3)).sum().backward()
    opt.step()
    yaten.save({"model": net.state_dict(), "opt": opt.state_dict(), "epoch": 1}, tmp_path / "ckpt.pt")
    ck = torch.load(tmp_path / "ckpt.pt", weights_only=True)
    tnet = torch.nn.Linear(3, 2)
    tnet.load_state_dict(ck["model"])
    topt = torch.optim.Adam(tnet.parameters(), lr=1e-3)
    topt.load_state_dict(ck["opt"])
    assert np.array_equal(tnet.weight.detach().numpy(), np.asarray(net.weight.detach()))
    torch.save({"model": tnet.state_dict(), "opt": topt.state_dict()}, tmp_path / "back.pt")
    back = yaten.load(tmp_path / "back.pt")
    net2 = yaten.nn.Linear(3, 2)
    net2.load_state_dict(back["model"])
    yaten.optim.Adam(net2.parameters(), lr=1e-3).load_state_dict(back["opt"])
    assert net2.weight.tolist() == net.weight.tolist()
