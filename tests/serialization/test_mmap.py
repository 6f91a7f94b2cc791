"""yaten.load(path, mmap=True): uncompressed records are mapped from the file, copy-on-write, as torch."""

import io
import os
import zipfile

import numpy as np
import pytest
import torch

import yaten


def _mapped(path) -> bool:
    """Whether this process maps ``path`` (Linux's /proc/self/maps lists every mapped file)."""
    with open("/proc/self/maps") as maps:
        return any(line.rstrip().endswith(os.fspath(path)) for line in maps)


pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/maps"), reason="needs Linux's /proc/self/maps")


def test_mmap_maps_the_records_instead_of_reading_them(tmp_path):
    path = tmp_path / "m.pt"
    x = yaten.arange(1000.0)
    yaten.save({"x": x, "view": x[10:20], "n": yaten.arange(5)}, path)
    loaded = yaten.load(path)
    assert not _mapped(path)  # the control: a plain load reads the bytes
    out = yaten.load(path, mmap=True)
    assert _mapped(path)
    assert out["x"].tolist() == x.tolist() and out["view"].tolist() == loaded["view"].tolist()
    assert out["view"].untyped_storage().data_ptr() == out["x"].untyped_storage().data_ptr()
    del out, loaded


def test_mmap_is_copy_on_write(tmp_path):
    path = tmp_path / "m.pt"
    yaten.save(yaten.zeros(4), path)
    before = path.read_bytes()
    t = yaten.load(path, mmap=True)
    t.add_(1)
    assert t.tolist() == [1.0] * 4 and path.read_bytes() == before
    assert yaten.load(path, mmap=True).tolist() == [0.0] * 4


def test_mmap_of_a_compressed_record_reads_it(tmp_path):
    # A deflated record can't be mapped: it is inflated instead (torch's mmap returns its compressed bytes).
    buf = io.BytesIO()
    yaten.save(yaten.arange(8.0), buf)
    path = tmp_path / "deflated.pt"
    with (
        zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z,
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as w,
    ):
        for n in z.namelist():
            w.writestr(n, z.read(n))
    assert yaten.load(path, mmap=True).tolist() == list(range(8))


def test_mmap_swaps_a_big_endian_file_in_its_private_pages(tmp_path):
    buf = io.BytesIO()
    yaten.save(yaten.arange(3, dtype=yaten.int32), buf)
    path = tmp_path / "big.pt"
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z, zipfile.ZipFile(path, "w") as w:
        for n in z.namelist():
            data = z.read(n)
            if n == "archive/byteorder":
                data = b"big"
            elif n == "archive/data/0":
                data = np.arange(3, dtype=">i4").tobytes()
            w.writestr(n, data)
    before = path.read_bytes()
    assert yaten.load(path, mmap=True).tolist() == [0, 1, 2]
    assert path.read_bytes() == before


def test_mmap_needs_a_path_as_in_torch(tmp_path):
    buf = io.BytesIO()
    yaten.save([1], buf)
    for load in (yaten.load, torch.load):
        buf.seek(0)
        with pytest.raises(ValueError, match="f must be a file path in order to use the mmap argument"):
            load(buf, mmap=True)


def test_mmap_of_a_truncated_file_is_a_runtime_error(tmp_path):
    path = tmp_path / "t.pt"
    yaten.save(yaten.ones(1000), path)
    data = path.read_bytes()
    for cut in (len(data) // 2, len(data) - 30):
        path.write_bytes(data[:cut])
        with pytest.raises(RuntimeError, match="not a readable checkpoint"):
            yaten.load(path, mmap=True)
