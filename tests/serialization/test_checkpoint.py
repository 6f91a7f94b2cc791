"""yaten.save / yaten.load: round trips, the archive layout, map_location, atomic writes."""

import collections
import io
import os
import pickle
import pickletools
import socket
import subprocess
import sys
import threading
import zipfile

import numpy as np
import pytest
import torch

import yaten
from yaten import serialization

DTYPES = [yaten.bool, yaten.uint8, yaten.int8, yaten.int16, yaten.int32, yaten.int64, yaten.float16,
          yaten.float32, yaten.float64]  # fmt: skip


def _roundtrip(obj, **load_kwargs):
    buf = io.BytesIO()
    yaten.save(obj, buf)
    buf.seek(0)
    return yaten.load(buf, **load_kwargs)


def _same(a, b):
    assert type(a) is type(b)
    assert a.dtype is b.dtype and a.shape == b.shape and a.stride() == b.stride()
    assert a.requires_grad == b.requires_grad
    assert np.array_equal(np.asarray(a.detach()), np.asarray(b.detach()))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
def test_every_dtype_round_trips(dtype):
    x = (yaten.arange(12) % 3).to(dtype).reshape(3, 4)
    y = _roundtrip(x)
    _same(x, y)
    assert y.storage_offset() == 0 and y.grad_fn is None and y._version == 0


def test_plain_values_round_trip():
    obj = {
        "none": None, "bools": [True, False], "int": -(2**70), "float": 1.5, "complex": 1 - 2j, "str": "ü",
        "bytes": b"\x00\xff", "bytearray": bytearray(b"ab"), "tuple": (1, (2, 3)), "set": {1, 2},
        "ordered": collections.OrderedDict(b=1, a=2), "counter": collections.Counter("aab"),
        "dtype": yaten.float16, "device": yaten.device("cpu"), "size": yaten.Size([2, 3]), 7: "int key",
    }  # fmt: skip
    back = _roundtrip(obj)
    assert back == obj
    assert type(back["ordered"]) is collections.OrderedDict and list(back["ordered"]) == ["b", "a"]
    assert type(back["size"]) is yaten.Size and back["dtype"] is yaten.float16


def test_tensors_in_containers_and_shared_references():
    w = yaten.randn(3, 2)
    state = {"state": {0: {"step": yaten.tensor(3.0), "exp_avg": yaten.zeros(3, 2)}}, "param_groups": [
        {"lr": 0.01, "betas": (0.9, 0.999), "params": [0], "amsgrad": False, "foreach": None}]}  # fmt: skip
    back = _roundtrip({"model": collections.OrderedDict(w=w, w_again=w), "optim": state})
    assert back["model"]["w"] is back["model"]["w_again"]
    _same(back["model"]["w"], w)
    _same(back["optim"]["state"][0]["exp_avg"], state["state"][0]["exp_avg"])
    assert back["optim"]["param_groups"] == state["param_groups"]


def test_views_share_storage_after_load():
    base = yaten.arange(12.0).reshape(3, 4)
    views = [base, base[1], base[:, 2], base.t(), base[1:, 1:3]]
    back = _roundtrip(views)
    ptr = back[0].untyped_storage().data_ptr()
    for v, b in zip(views, back):
        _same(v, b)
        assert b.storage_offset() == v.storage_offset()
        assert b.untyped_storage().data_ptr() == ptr
    back[0][1, 2] = 100.0  # one storage: a write shows through every view
    assert back[1][2].item() == 100.0 and back[2][1].item() == 100.0
    z = zipfile.ZipFile(_bytes(views))
    assert [n for n in z.namelist() if "/data/" in n] == ["archive/data/0"]


def test_requires_grad_and_parameters_round_trip():
    p = yaten.nn.Parameter(yaten.ones(2, 2))
    frozen = yaten.nn.Parameter(yaten.zeros(3), requires_grad=False)
    t = yaten.ones(2, requires_grad=True)
    bp, bf, bt = _roundtrip([p, frozen, t])
    assert type(bp) is yaten.nn.Parameter and bp.requires_grad and bp.is_leaf
    assert type(bf) is yaten.nn.Parameter and not bf.requires_grad
    assert type(bt) is yaten.Tensor and bt.requires_grad and bt.is_leaf
    _same(bp, p)


def test_empty_and_zero_dim_and_noncontiguous_tensors():
    x = yaten.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1)
    for t in (yaten.zeros(0), yaten.zeros(2, 0, 3), yaten.tensor(5), x, x[::2]):
        _same(t, _roundtrip(t))


def test_unpicklable_objects_are_refused_on_save_as_torch():
    for lib in (torch, yaten):
        with pytest.raises(TypeError, match="cannot pickle '_thread.lock' object"):
            lib.save({"lock": threading.Lock()}, io.BytesIO())
        with pytest.raises(
            AttributeError, match="Can't pickle local object 'test_unpicklable_objects_are_re"
        ):
            lib.save([lambda x: x], io.BytesIO())


def test_storage_viewed_as_two_dtypes_is_refused_as_torch():
    x = yaten.zeros(4)
    y = yaten.empty(0, dtype=yaten.int32).set_(x.untyped_storage(), 0, (4,), (1,))
    with pytest.raises(RuntimeError, match="view the same data as different types"):
        yaten.save([x, y], io.BytesIO())


def _bytes(obj) -> io.BytesIO:
    buf = io.BytesIO()
    yaten.save(obj, buf)
    buf.seek(0)
    return buf


def test_archive_layout_is_pytorchs(tmp_path):
    path = tmp_path / "model.pt"
    yaten.save({"a": yaten.ones(3), "b": yaten.zeros(2, dtype=yaten.int64)}, path)
    z = zipfile.ZipFile(path)
    assert z.namelist() == [
        "model/data.pkl", "model/.format_version", "model/.storage_alignment", "model/byteorder",
        "model/data/0", "model/data/1", "model/version", "model/.data/serialization_id",
    ]  # fmt: skip
    assert z.read("model/byteorder") == sys.byteorder.encode() and z.read("model/version") == b"3\n"
    assert z.read("model/.format_version") == b"1" and z.read("model/.storage_alignment") == b"64"
    assert z.read("model/data/0") == np.ones(3, np.float32).tobytes()
    assert all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist())
    raw = path.read_bytes()
    for info in z.infolist():  # each record's data starts on a 64-byte boundary, as PyTorch writes
        at = info.header_offset
        name_len, extra_len = (int.from_bytes(raw[at + i : at + i + 2], "little") for i in (26, 28))
        assert (at + 30 + name_len + extra_len) % 64 == 0
    ops = pickletools.genops(z.read("model/data.pkl"))
    globals_used = {arg for op, arg, _ in ops if op.name == "GLOBAL"}
    assert globals_used == {"collections OrderedDict", "torch._utils _rebuild_tensor_v2", "torch FloatStorage",
                            "torch LongStorage"}  # fmt: skip


def test_archive_name_follows_the_file_name(tmp_path):
    for name, archive in (("ckpt.pth.tar", "ckpt.pth"), ("weights", "weights")):
        yaten.save([1], tmp_path / name)
        assert zipfile.ZipFile(tmp_path / name).namelist()[0] == f"{archive}/data.pkl"


def test_map_location_forms():
    x = yaten.arange(4.0)
    for ml in ("cpu", yaten.device("cpu"), {"cpu": "cpu"}, lambda s, loc: s, lambda s, loc: None):
        _same(_roundtrip(x, map_location=ml), x)
    seen = []
    _roundtrip(x, map_location=lambda storage, loc: seen.append((type(storage), loc)))
    assert seen == [(yaten.UntypedStorage, "cpu")]
    with pytest.raises(RuntimeError, match="map_location should return a yaten.UntypedStorage or None"):
        _roundtrip(x, map_location=lambda s, loc: 3)


def _cuda_checkpoint() -> io.BytesIO:
    # A checkpoint whose storage was saved from cuda:0 (written with the internal pickler, as it
    # would be on a machine with a GPU).
    pid = ("storage", serialization._Global("torch", "FloatStorage"), "0", "cuda:0", 2)
    args = (serialization._StorageRef(pid), 0, (2,), (1,), False, collections.OrderedDict())
    pkl = io.BytesIO()
    serialization._Pickler(pkl, 2).dump({"w": serialization._TensorArgs(args)})
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("archive/data.pkl", pkl.getvalue())
        z.writestr("archive/byteorder", "little")
        z.writestr("archive/data/0", np.array([1.0, 2.0], np.float32).tobytes())
        z.writestr("archive/version", "3\n")
    buf.seek(0)
    return buf


def test_map_location_from_cuda():
    for ml in ("cpu", {"cuda:0": "cpu"}, lambda s, loc: s):
        w = yaten.load(_cuda_checkpoint(), map_location=ml)["w"]
        assert w.device == yaten.device("cpu") and w.tolist() == [1.0, 2.0]
    seen = []
    yaten.load(_cuda_checkpoint(), map_location=lambda s, loc: seen.append(loc) or s)
    assert seen == ["cuda:0"]
    if not yaten.cuda.is_available():
        with pytest.raises(RuntimeError, match="Attempting to deserialize object on a CUDA device"):
            yaten.load(_cuda_checkpoint())
    else:
        assert yaten.load(_cuda_checkpoint())["w"].device == yaten.device("cuda", 0)


@pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a CUDA device")
def test_cuda_tensors_round_trip():
    x = yaten.arange(6.0, device="cuda").reshape(2, 3)
    back = _roundtrip({"x": x, "v": x[1]})
    assert (
        back["x"].device == x.device
        and back["x"].tolist() == x.tolist()
        and back["v"].tolist() == [3.0, 4.0, 5.0]
    )
    assert _roundtrip(x, map_location="cpu").device == yaten.device("cpu")


def test_path_and_file_objects_and_pathlike(tmp_path):
    path = tmp_path / "a.pt"
    yaten.save([yaten.ones(1)], str(path))
    assert yaten.load(path)[0].tolist() == [1.0]
    with open(path, "rb") as f:
        assert yaten.load(f)[0].tolist() == [1.0]
    with pytest.raises(FileNotFoundError):
        yaten.load(tmp_path / "missing.pt")
    with pytest.raises(RuntimeError, match="Parent directory .* does not exist."):
        yaten.save([1], tmp_path / "no" / "a.pt")


def test_load_arguments():
    assert _roundtrip([1], weights_only=False) == [1]
    assert _roundtrip([1], mmap=False, encoding="utf-8") == [1]
    with (
        pytest.warns(UserWarning, match="pickle_load_args only works if `weights_only=False`"),
        pytest.raises(TypeError, match="unexpected keyword argument 'fix_imports'"),  # as torch's
    ):
        _roundtrip([1], fix_imports=True)
    assert _roundtrip([1], weights_only=False, fix_imports=True) == [1]
    assert _roundtrip([2], pickle_module=pickle) == [2]  # a pickle_module means a full load, as torch
    with pytest.raises(
        RuntimeError, match="Can not safely load weights when explicit pickle_module is specified"
    ):
        _roundtrip([2], pickle_module=pickle, weights_only=True)
    buf = io.BytesIO()
    yaten.save({"p": 1}, buf, pickle_protocol=4)
    buf.seek(0)
    assert yaten.load(buf) == {"p": 1}


# --- atomic writes ---------------------------------------------------------------------------------
def test_failing_save_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "ckpt.pt"
    yaten.save({"old": yaten.zeros(2)}, path)
    before = path.read_bytes()
    real, calls = serialization._write_record, []

    def fail_midway(zf, name, data):
        calls.append(name)
        if "/data/1" in name:
            raise OSError("disk full")
        real(zf, name, data)

    monkeypatch.setattr(serialization, "_write_record", fail_midway)
    with pytest.raises(OSError, match="disk full"):
        yaten.save({"a": yaten.ones(1000), "b": yaten.ones(1000, dtype=yaten.int64)}, path)
    assert "ckpt/data/0" in calls  # it did fail midway, after writing part of the archive
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["ckpt.pt"]
    monkeypatch.undo()
    with pytest.raises(TypeError):  # an unpicklable object: nothing is written at all
        yaten.save({"a": yaten.ones(1), "f": threading.Lock()}, path)
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["ckpt.pt"]


def test_a_crash_mid_save_never_leaves_a_partial_file_under_the_name(tmp_path):
    path = tmp_path / "ckpt.pt"
    yaten.save({"old": 1}, path)
    script = f"""
import os, yaten
from yaten import serialization
real = serialization._write_record
def crash(zf, name, data):
    if name.endswith("/data/0"):
        zf.fp.flush()
        os._exit(3)  # the process dies here, with half an archive written
    real(zf, name, data)
serialization._write_record = crash
yaten.save({{"new": yaten.ones(100000)}}, {str(path)!r})
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120)
    assert proc.returncode == 3, proc.stderr.decode()
    assert yaten.load(path) == {"old": 1}
    leftovers = [n for n in os.listdir(tmp_path) if n != "ckpt.pt"]
    assert len(leftovers) == 1 and leftovers[0].startswith(".ckpt.pt.yaten-tmp.")  # the crashed write's
    assert (tmp_path / leftovers[0]).stat().st_size > 0
    # The next save to the same path removes it (its writer is gone); atomicity is unchanged.
    (tmp_path / ".other.pt.yaten-tmp.1.ab").write_bytes(b"x")  # another target's: not ours to remove
    yaten.save({"newer": 2}, path)
    assert yaten.load(path) == {"newer": 2}
    assert sorted(os.listdir(tmp_path)) == [".other.pt.yaten-tmp.1.ab", "ckpt.pt"]


def test_a_live_writers_temporary_is_left_alone(tmp_path):
    # A concurrent writer (this process: its pid is running) keeps its file, as does another host's (on a
    # shared file system); a dead pid's of this host goes.
    live = tmp_path / f".c.pt.yaten-tmp.{socket.gethostname()}.{os.getpid()}.0123abcd"
    live.write_bytes(b"being written")
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    stale = tmp_path / f".c.pt.yaten-tmp.{socket.gethostname()}.{int(dead.stdout)}.89abcdef"
    stale.write_bytes(b"left by a killed save")
    elsewhere = tmp_path / f".c.pt.yaten-tmp.another-host.{int(dead.stdout)}.01234567"  # its pids aren't ours
    elsewhere.write_bytes(b"being written on another machine")
    yaten.save([1], tmp_path / "c.pt")
    assert live.exists() and elsewhere.exists() and not stale.exists()


def test_saved_file_gets_umask_permissions(tmp_path):
    path = tmp_path / "p.pt"
    yaten.save([1], path)
    open(tmp_path / "plain", "wb").close()
    assert path.stat().st_mode & 0o777 == (tmp_path / "plain").stat().st_mode & 0o777


def test_save_through_a_symlink_replaces_its_target(tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "ckpt.pt"
    yaten.save([1], target)
    link = tmp_path / "link.pt"
    link.symlink_to(target)
    yaten.save([2], link)
    assert link.is_symlink() and yaten.load(target) == [2]
