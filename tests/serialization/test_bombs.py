"""Decompression bombs: a 3 MB checkpoint with a 3 GiB compressed record costs no more than its tensors.

The archives are written here byte by byte (zipfile can't store an already-compressed stream): a
raw deflate stream of 3 GiB of zeros is 3 MB, made by repeating one fully flushed 1 MiB block.
Memory is measured in a subprocess (its peak RSS after importing yaten, then after loading).
"""

import io
import struct
import subprocess
import sys
import zipfile
import zlib

import pytest

import yaten

GIB = 1 << 30


def deflated_zeros(mib: int) -> bytes:
    """A raw deflate stream that inflates to ``mib`` MiB of zeros."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = c.compress(bytes(1 << 20)) + c.flush(zlib.Z_FULL_FLUSH)  # byte-aligned, no back-references
    return block * mib + c.flush()


def zip_archive(records) -> bytes:
    """A zip of ``(name, stored bytes, method, crc, uncompressed size)`` records, as given."""
    out, central = bytearray(), bytearray()
    for name, data, method, crc, size in records:
        name = name.encode()
        fields = (20, 0, method, 0, 0x21, crc, len(data), size, len(name))
        central += struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, *fields, 0, 0, 0, 0, 0, len(out)) + name
        out += struct.pack("<4s5H3L2H", b"PK\x03\x04", *fields, 0) + name + data
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(records), len(records), len(central), len(out), 0)
    return bytes(out + central + end)


def checkpoint(pid_numel: int, records) -> bytes:
    """yaten's checkpoint of ``zeros(4)``, its pickle saying the storage has ``pid_numel`` elements, with
    ``records`` (in ``zip_archive``'s form) for its data."""
    buf = io.BytesIO()
    yaten.save(yaten.zeros(4), buf)
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z:
        pkl = z.read("archive/data.pkl").replace(b"K\x04t", b"J" + pid_numel.to_bytes(4, "little") + b"t")
        small = [(n, z.read(n)) for n in z.namelist() if n not in ("archive/data.pkl", "archive/data/0")]
    stored = [(n, d, 0, zlib.crc32(d), len(d)) for n, d in [("archive/data.pkl", pkl), *small]]
    return zip_archive(stored + list(records))


STORED_DATA = ("archive/data/0", bytes(16), 0, zlib.crc32(bytes(16)), 16)
BOMB = deflated_zeros(3 * 1024)  # 3 GiB of zeros in about 3 MB


def test_the_bomb_is_live():
    # The control: the stream is one block repeated, and four of them inflate to 4 MiB (3 GiB is too slow).
    assert len(BOMB) < 4_000_000
    assert zlib.decompress(deflated_zeros(4), -15) == bytes(4 << 20)
    with zipfile.ZipFile(
        io.BytesIO(zip_archive([("x", deflated_zeros(4), 8, zlib.crc32(bytes(4 << 20)), 4 << 20)]))
    ) as z:
        assert z.read("x") == bytes(4 << 20)  # and zip_archive writes what zipfile reads


def _peak_growth_mb(path) -> tuple[float, str]:
    """Load ``path`` in a fresh process: (growth of its peak RSS during the load in MB, the outcome)."""
    script = f"""
import pickle, resource, yaten
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    out = repr(yaten.load({str(path)!r}))
except (RuntimeError, pickle.UnpicklingError) as e:
    out = type(e).__name__ + ": " + str(e)
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024)
print(out)
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    growth, outcome = proc.stdout.split("\n", 1)
    return float(growth), outcome


def test_unreferenced_bomb_records_are_never_read(tmp_path):
    # Nothing references data/1 or extra: loading costs what the 16-byte tensor does, not 6 GiB.
    path = tmp_path / "bomb.pt"
    bombs = [(n, BOMB, 8, 0, 3 * GIB) for n in ("archive/data/1", "archive/extra")]
    path.write_bytes(checkpoint(4, [STORED_DATA, *bombs]))
    assert path.stat().st_size < 8_000_000
    growth, outcome = _peak_growth_mb(path)
    assert outcome.startswith("tensor([0., 0., 0., 0.])"), outcome
    assert growth < 100, f"peak memory grew by {growth} MB"


def test_a_referenced_record_larger_than_its_storage_is_refused_before_inflating(tmp_path):
    path = tmp_path / "bomb.pt"
    path.write_bytes(checkpoint(4, [("archive/data/0", BOMB, 8, 0, 3 * GIB)]))
    growth, outcome = _peak_growth_mb(path)
    assert outcome.startswith(
        "RuntimeError: record size (3221225472 bytes) does not match expected size (16 bytes = 4 elements"
    ), outcome
    assert growth < 100, f"peak memory grew by {growth} MB"


def test_a_record_that_inflates_past_its_declared_size_stops_there(tmp_path):
    # The record says 16 bytes (what the tensor needs) but its stream holds 3 GiB: 16 are read.
    path = tmp_path / "bomb.pt"
    path.write_bytes(checkpoint(4, [("archive/data/0", BOMB, 8, zlib.crc32(bytes(16)), 16)]))
    growth, outcome = _peak_growth_mb(path)
    assert outcome.startswith("tensor([0., 0., 0., 0.])"), outcome
    assert growth < 100, f"peak memory grew by {growth} MB"


@pytest.mark.parametrize("numel", [2**31 - 1, 0])
def test_a_storage_claiming_more_or_less_than_its_record_is_refused(numel):
    with pytest.raises(RuntimeError, match="does not match expected size"):
        yaten.load(io.BytesIO(checkpoint(numel, [STORED_DATA])))
