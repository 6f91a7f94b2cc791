"""yaten.load never runs code from a file: malicious pickles are refused; damaged files are RuntimeErrors."""

import io
import os
import pickle
import zipfile

import pytest
import torch

import yaten
from tests.serialization._crafted import checkpoint


class _System:
    def __init__(self, cmd):
        self.cmd = cmd

    def __reduce__(self):
        return (os.system, (self.cmd,))


class _Eval:
    def __init__(self, code):
        self.code = code

    def __reduce__(self):
        return (eval, (self.code,))


def _payloads(marker):
    cmd = f"touch {marker}"
    code = f"open({str(marker)!r}, 'w').close()"
    return {
        "os.system via __reduce__": pickle.dumps({"w": _System(cmd)}, protocol=2),
        "builtins.eval": pickle.dumps([_Eval(code)], protocol=2),
        "eval, protocol 4 (STACK_GLOBAL)": pickle.dumps(_Eval(code), protocol=4),
        "exec via INST": f"(S{code!r}\nibuiltins\nexec\n.".encode(),  # hand-written opcodes
        "subprocess": pickle.dumps(
            _Call(__import__("subprocess").call, (["touch", str(marker)],)), protocol=2
        ),
    }


class _Call:
    def __init__(self, fn, args):
        self.fn, self.args = fn, args

    def __reduce__(self):
        return (self.fn, self.args)


def test_the_payloads_are_live(tmp_path):
    # The control: plain pickle runs each payload. Without this the refusal tests could not fail.
    marker = tmp_path / "ran"
    for name, payload in _payloads(marker).items():
        pickle.loads(payload)
        assert marker.exists(), name
        marker.unlink()


@pytest.mark.parametrize("name", list(_payloads("m")))
def test_malicious_pickles_are_refused_without_running(name, tmp_path):
    marker = tmp_path / "ran"
    payload = _payloads(marker)[name]
    expected = {
        "os.system via __reduce__": "posix.system",
        "builtins.eval": "eval",
        "eval, protocol 4 (STACK_GLOBAL)": "eval",
        "exec via INST": "exec",
        "subprocess": "subprocess.call",
    }[name]  # fmt: skip (torch names a builtin without its module)
    with pytest.raises(pickle.UnpicklingError, match=rf"Unsupported global: GLOBAL {expected} "):
        yaten.load(checkpoint(payload))  # weights_only=True is the default
    with pytest.raises(pickle.UnpicklingError, match=rf"Unsupported global: GLOBAL {expected} "):
        yaten.load(checkpoint(payload), weights_only=True)
    assert not marker.exists()


@pytest.mark.parametrize("lib", ["TORCH", "YATEN"])
def test_force_weights_only_load_overrides_weights_only_false(lib, tmp_path, monkeypatch):
    marker = tmp_path / "ran"
    monkeypatch.setenv(f"{lib}_FORCE_WEIGHTS_ONLY_LOAD", "1")
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL posix.system"):
        yaten.load(checkpoint(_payloads(marker)["os.system via __reduce__"]), weights_only=False)
    assert not marker.exists()
    monkeypatch.setenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "1")
    with pytest.raises(RuntimeError, match="Only one of `TORCH_FORCE_WEIGHTS_ONLY_LOAD`"):
        yaten.load(checkpoint(_payloads(marker)["builtins.eval"]))


def test_weights_only_false_is_a_full_unpickle_that_runs_the_file(tmp_path, monkeypatch):
    # As torch documents it: weights_only=False trusts the file, code in it runs.
    marker = tmp_path / "ran"
    yaten.load(checkpoint(_payloads(marker)["builtins.eval"]), weights_only=False)
    assert marker.exists()
    marker.unlink()
    for lib in ("TORCH", "YATEN"):
        with monkeypatch.context() as m:
            m.setenv(f"{lib}_FORCE_NO_WEIGHTS_ONLY_LOAD", "1")
            with pytest.raises(pickle.UnpicklingError, match="GLOBAL eval"):  # the call said True: it stays
                yaten.load(checkpoint(_payloads(marker)["builtins.eval"]), weights_only=True)
            with pytest.warns(UserWarning, match="forcing weights_only=False"):
                yaten.load(checkpoint(_payloads(marker)["builtins.eval"]))
            assert marker.exists()
            marker.unlink()


def test_a_torch_saved_malicious_object_is_refused(tmp_path):
    marker = tmp_path / "ran"
    torch.save({"w": torch.ones(2), "x": _System(f"touch {marker}")}, tmp_path / "bad.pt")
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL posix.system"):
        yaten.load(tmp_path / "bad.pt")
    assert not marker.exists()


def test_a_torch_saved_custom_class_is_refused_with_torchs_message(tmp_path):
    torch.save({"opt": _Call(print, ())}, tmp_path / "c.pt")
    with pytest.raises(pickle.UnpicklingError) as theirs:
        torch.load(tmp_path / "c.pt")
    with pytest.raises(pickle.UnpicklingError) as ours:
        yaten.load(tmp_path / "c.pt")
    assert str(ours.value) == str(theirs.value)


def _good_bytes():
    buf = io.BytesIO()
    yaten.save({"w": yaten.arange(100.0), "n": 3}, buf)
    return buf.getvalue()


@pytest.mark.parametrize("cut", [0, 1, 10, 100, 500, -100, -22, -1])
def test_truncated_files_raise_runtime_error(cut, tmp_path):
    data = _good_bytes()
    path = tmp_path / "t.pt"
    path.write_bytes(data[:cut])
    with pytest.raises(RuntimeError, match="is not a readable checkpoint"):
        yaten.load(path)


def test_corrupted_bytes_raise_runtime_error(tmp_path):
    data = _good_bytes()
    z = zipfile.ZipFile(io.BytesIO(data))
    spots = {}
    for info in z.infolist():  # one byte inside each record's data, and inside its local header
        at = info.header_offset
        name_len, extra_len = (int.from_bytes(data[at + i : at + i + 2], "little") for i in (26, 28))
        start = at + 30 + name_len + extra_len
        if info.file_size:
            spots[f"{info.filename} data"] = start + info.file_size // 2
        spots[f"{info.filename} header"] = at + 2
    for what, i in spots.items():
        bad = bytearray(data)
        bad[i] ^= 0xFF
        with pytest.raises(RuntimeError, match="is not a readable checkpoint"):
            yaten.load(io.BytesIO(bytes(bad)))
            pytest.fail(f"no error for a flipped byte in {what}")


@pytest.mark.parametrize("payload", [b"", b"\x80\x02}q", b"garbage"])
def test_a_broken_pickle_raises_runtime_error(payload):
    with pytest.raises(RuntimeError, match="is not a readable checkpoint"):
        yaten.load(checkpoint(payload))


def test_reduce_of_a_non_function_is_refused_as_torch():
    with pytest.raises(pickle.UnpicklingError, match="REDUCE of builtins.int is not allowed"):
        yaten.load(checkpoint(b"\x80\x02(K\x01K\x02R."))


def test_a_record_missing_or_wrong_size_raises_runtime_error():
    buf = io.BytesIO()
    yaten.save([yaten.ones(4)], buf)
    z = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    for drop, resize in (("archive/data/0", False), (None, True)):
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as w:
            for n in z.namelist():
                if n == drop:
                    continue
                w.writestr(n, z.read(n)[:8] if resize and n == "archive/data/0" else z.read(n))
        out.seek(0)
        with pytest.raises(RuntimeError):
            yaten.load(out)


def test_a_plain_pickle_file_is_not_unpickled(tmp_path):
    marker = tmp_path / "ran"
    path = tmp_path / "p.pkl"
    path.write_bytes(pickle.dumps(_System(f"touch {marker}")))
    with pytest.raises(RuntimeError, match="is not a readable checkpoint"):
        yaten.load(path)
    assert not marker.exists()


def test_allowed_rebuild_functions_cannot_be_turned_into_other_calls():
    # _rebuild_from_type_v2 is allowed (torch uses it for tensors with attributes), but it may only
    # wrap a tensor rebuild, not call another allowed global such as OrderedDict or _codecs.encode.
    payload = (
        b"\x80\x02ctorch._tensor\n_rebuild_from_type_v2\n(ccollections\nOrderedDict\nctorch\nTensor\n)}tR."
    )
    with pytest.raises(RuntimeError, match="_rebuild_from_type_v2 can't call"):
        yaten.load(checkpoint(payload))
    # a tensor's state may not reach its properties or private slots
    payload = (
        b"\x80\x02ctorch._tensor\n_rebuild_from_type_v2\n(ctorch._utils\n_rebuild_parameter\nctorch\nTensor\n"
        b"ctorch\nTensor\n)R\x88)\x87}X\x04\x00\x00\x00gradNstR."
    )
    with pytest.raises(RuntimeError, match="refuses to set attribute 'grad'"):
        yaten.load(checkpoint(payload))


def _archive_named(names) -> io.BytesIO:
    """A checkpoint of ``[1]`` with one more record for each of ``names``."""
    return checkpoint(pickle.dumps([1], protocol=2), [(n, b"x") for n in names])


@pytest.mark.parametrize(
    "names, message",
    [
        (["archive/../../etc/passwd"], "climbs out of the archive"),
        (["archive/data/.."], "climbs out of the archive"),
        (["/archive/abs"], "is absolute"),
        (["archive/version"], "two records are named 'archive/version'"),
        (["archive/data.pkl"], "two records are named 'archive/data.pkl'"),
    ],
)
def test_traversal_absolute_and_duplicate_record_names_are_refused(names, message):
    assert yaten.load(_archive_named(["archive/fine.txt"])) == [1]  # the control
    with pytest.raises(RuntimeError, match=message):
        yaten.load(_archive_named(names))
