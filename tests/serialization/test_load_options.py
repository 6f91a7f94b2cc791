"""``load``'s process-wide options, as torch.serialization's: the byte order of files without a byteorder record."""

import io
import zipfile

import numpy as np
import pytest
import torch

import yaten


def _without_byteorder(swap: bool) -> bytes:
    # A torch checkpoint as torch < 1.12 wrote it: no byteorder record (the data big-endian when ``swap``).
    buf = io.BytesIO()
    torch.save(torch.arange(4, dtype=torch.int32), buf)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.endswith("/byteorder"):
                continue
            if "/data/" in info.filename and swap:
                data = np.frombuffer(data, np.int32).byteswap().tobytes()
            dst.writestr(info.filename, data)
    return out.getvalue()


@pytest.mark.parametrize(
    ("endianness", "swap"), [(None, False), ("LITTLE", False), ("NATIVE", False), ("BIG", True)]
)
def test_default_load_endianness_reads_files_without_a_byteorder_record_as_torch(endianness, swap):
    data = _without_byteorder(swap)
    for lib in (torch, yaten):
        S = lib.serialization
        S.set_default_load_endianness(None if endianness is None else S.LoadEndianness[endianness])
        try:
            assert lib.load(io.BytesIO(data)).tolist() == [0, 1, 2, 3], lib.__name__
        finally:
            S.set_default_load_endianness(None)
    assert yaten.serialization.get_default_load_endianness() is None


def test_set_default_load_endianness_refuses_other_values_as_torch():
    for lib in (torch, yaten):
        with pytest.raises(TypeError, match="Invalid argument type in function set_default_load_endianness"):
            lib.serialization.set_default_load_endianness("big")
    assert issubclass(yaten.serialization.SourceChangeWarning, Warning)
