"""The safetensors format: bytes checked by an independent parser, round trips, malformed files."""

import itertools
import json
import socket
import struct
import subprocess
import sys

import numpy as np
import pytest

import yaten
from yaten import safetensors
from yaten.serialization import load_file, save_file

CODES = {"bool": "BOOL", "uint8": "U8", "int8": "I8", "int16": "I16", "int32": "I32", "int64": "I64",
         "float16": "F16", "float32": "F32", "float64": "F64"}  # fmt: skip
NP = {"BOOL": "?", "U8": "u1", "I8": "i1", "I16": "<i2", "I32": "<i4", "I64": "<i8", "F16": "<f2", "F32": "<f4",
      "F64": "<f8"}  # fmt: skip


def _tensors():
    out = {}
    for name in CODES:
        dt = getattr(yaten, name)
        out[f"t_{name}"] = (yaten.arange(6) % 3).to(dt).reshape(2, 3)
    out["noncontig"] = yaten.arange(12.0).reshape(3, 4).t()
    out["scalar"] = yaten.tensor(3.5, dtype=yaten.float64)
    out["empty"] = yaten.zeros(0, 2)
    return out


def _parse(blob: bytes):
    """An independent reader of the format, from its specification."""
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8 : 8 + n])
    data = blob[8 + n :]
    meta = header.pop("__metadata__", None)
    arrays = {}
    for name, info in header.items():
        b, e = info["data_offsets"]
        arrays[name] = (info["dtype"], np.frombuffer(data[b:e], NP[info["dtype"]]).reshape(info["shape"]))
    return arrays, meta, n, len(data)


def test_bytes_follow_the_format():
    tensors = _tensors()
    blob = safetensors.save(tensors, metadata={"format": "pt", "step": "10"})
    arrays, meta, n, nbytes = _parse(blob)
    assert meta == {"format": "pt", "step": "10"}
    assert n % 8 == 0  # the header is padded to 8 bytes
    assert set(arrays) == set(tensors)
    for name, t in tensors.items():
        code, arr = arrays[name]
        assert code == CODES[t.dtype.name] and arr.shape == tuple(t.shape)
        assert np.array_equal(arr, np.asarray(t))
    header = json.loads(blob[8 : 8 + n])
    spans = sorted(v["data_offsets"] for k, v in header.items() if k != "__metadata__")
    assert spans[0][0] == 0 and spans[-1][1] == nbytes
    assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))  # contiguous, no gaps


@pytest.mark.parametrize("metadata", [None, {"a": "b"}])
def test_file_round_trip(tmp_path, metadata):
    tensors = _tensors()
    save_file(tensors, tmp_path / "m.safetensors", metadata=metadata)
    back = load_file(tmp_path / "m.safetensors")
    assert list(back) == sorted(back, key=lambda k: (-back[k].dtype.itemsize, k))
    for name, t in tensors.items():
        b = back[name]
        assert b.dtype is t.dtype and b.shape == t.shape and b.is_contiguous()
        assert np.array_equal(np.asarray(b), np.asarray(t))
    meta = safetensors.load_metadata((tmp_path / "m.safetensors").read_bytes())
    assert meta == metadata
    assert [p.name for p in tmp_path.iterdir()] == ["m.safetensors"]


def test_bytes_round_trip_and_independent_writer():
    # A file written by hand, as another safetensors writer would (no header padding).
    a = np.array([[1.5, -2.0]], np.float32)
    b = np.array([7, 8, 9], np.int64)
    header = {"b": {"dtype": "I64", "shape": [3], "data_offsets": [0, 24]},
              "a": {"dtype": "F32", "shape": [1, 2], "data_offsets": [24, 32]}}  # fmt: skip
    text = json.dumps(header).encode()
    blob = struct.pack("<Q", len(text)) + text + b.tobytes() + a.tobytes()
    out = safetensors.load(blob)
    assert out["a"].tolist() == [[1.5, -2.0]] and out["b"].tolist() == [7, 8, 9]
    assert out["a"].dtype is yaten.float32 and out["b"].dtype is yaten.int64


def _blob(header: dict, data: bytes = b"", raw_header: bytes | None = None) -> bytes:
    text = raw_header if raw_header is not None else json.dumps(header).encode()
    return struct.pack("<Q", len(text)) + text + data


MALFORMED = {
    "too short": (b"\x01\x00", "too short for the 8-byte header length"),
    "header past the end": (struct.pack("<Q", 1000) + b"{}", "runs past the end of the data"),
    "huge header": (struct.pack("<Q", 2**40) + b"{}", "over the limit"),
    "not json": (_blob({}, raw_header=b"{not json"), "not valid JSON"),
    "not an object": (_blob({}, raw_header=b"[1, 2]"), "not a JSON object"),
    "unknown dtype": (_blob({"x": {"dtype": "F99", "shape": [1], "data_offsets": [0, 4]}}, b"\0" * 4), "unknown dtype"),
    "missing key": (_blob({"x": {"dtype": "F32", "shape": [1]}}, b"\0" * 4), "must have exactly the keys"),
    "bad shape": (_blob({"x": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}}, b"\0" * 4), "shape"),
    "size mismatch": (_blob({"x": {"dtype": "F32", "shape": [2], "data_offsets": [0, 4]}}, b"\0" * 4),
                      "for 2 elements of F32"),
    "overlap": (_blob({"x": {"dtype": "U8", "shape": [2], "data_offsets": [0, 2]},
                       "y": {"dtype": "U8", "shape": [2], "data_offsets": [1, 3]}}, b"\0" * 3), "overlaps"),
    "gap": (_blob({"x": {"dtype": "U8", "shape": [1], "data_offsets": [1, 2]}}, b"\0" * 2), "gap"),
    "truncated data": (_blob({"x": {"dtype": "F64", "shape": [2], "data_offsets": [0, 16]}}, b"\0" * 8),
                       "truncated"),
    "bad metadata": (_blob({"__metadata__": {"a": 1}}), "'__metadata__' must map strings to strings"),
    "duplicate name": (_blob({}, b"\0" * 4, b'{"x": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}, '
                             b'"x": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}'), "names 'x' twice"),
    "offsets past the end": (
        _blob({"x": {"dtype": "U8", "shape": [4], "data_offsets": [2**64 - 4, 2**64]}}, b"\0" * 4), "gap of"),
    "offsets reversed": (_blob({"x": {"dtype": "U8", "shape": [0], "data_offsets": [4, 0]}}, b"\0" * 4),
                         "data_offsets \\[4, 0\\]"),
    "offsets not integers": (_blob({"x": {"dtype": "U8", "shape": [1], "data_offsets": [0.0, 1.0]}}, b"\0"),
                             "expected \\[begin, end\\]"),
    "huge shape": (_blob({"x": {"dtype": "F64", "shape": [2**40, 2**40], "data_offsets": [0, 8]}}, b"\0" * 8),
                   "for 1208925819614629174706176 elements"),
    "bool shape": (_blob({"x": {"dtype": "U8", "shape": [True], "data_offsets": [0, 1]}}, b"\0"), "shape"),
    "shared bytes": (_blob({"x": {"dtype": "U8", "shape": [2], "data_offsets": [0, 2]},
                            "y": {"dtype": "U8", "shape": [2], "data_offsets": [0, 2]}}, b"\0" * 2), "overlaps"),
    "not utf-8": (_blob({}, raw_header=b'{"\xff": 1}'), "not valid JSON"),
}  # fmt: skip


@pytest.mark.parametrize("name", MALFORMED)
def test_malformed_data_is_rejected_with_a_clear_error(name):
    blob, message = MALFORMED[name]
    with pytest.raises(RuntimeError, match="invalid safetensors data: .*" + message):
        safetensors.load(blob)


def test_truncated_file_is_rejected(tmp_path):
    save_file({"w": yaten.ones(10)}, tmp_path / "m.safetensors")
    data = (tmp_path / "m.safetensors").read_bytes()
    for cut in (4, 20, len(data) - 1):
        with pytest.raises(RuntimeError, match="invalid safetensors data"):
            safetensors.load(data[:cut])


def test_unsupported_dtype_and_bad_arguments():
    blob = _blob({"x": {"dtype": "U16", "shape": [1], "data_offsets": [0, 2]}}, b"\0\0")
    with pytest.raises(RuntimeError, match="safetensors dtype U16 of tensor 'x' is not supported by yaten"):
        safetensors.load(blob)
    with pytest.raises(TypeError, match="must be a Tensor"):
        safetensors.save({"x": [1, 2]})
    with pytest.raises(TypeError, match="tensor names must be str"):
        safetensors.save({1: yaten.ones(1)})
    with pytest.raises(TypeError, match="metadata must be a dict of str to str"):
        safetensors.save({}, metadata={"a": 1})


def test_atomic_save_file(tmp_path, monkeypatch):
    path = tmp_path / "m.safetensors"
    save_file({"old": yaten.zeros(1)}, path)
    before = path.read_bytes()

    def boom(*args, **kwargs):
        raise OSError("no space left")

    monkeypatch.setattr("os.fsync", boom)
    with pytest.raises(OSError, match="no space left"):
        save_file({"new": yaten.ones(1000)}, path)
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["m.safetensors"]


def test_save_file_removes_a_killed_writers_temporary(tmp_path):
    # save_file writes through the same atomic_write as yaten.save: a dead pid's temporary goes.
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    stale = tmp_path / f".m.safetensors.yaten-tmp.{socket.gethostname()}.{int(dead.stdout)}.0123abcd"
    stale.write_bytes(b"half a file")
    save_file({"w": yaten.ones(1)}, tmp_path / "m.safetensors")
    assert [p.name for p in tmp_path.iterdir()] == ["m.safetensors"]
