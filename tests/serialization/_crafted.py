"""Checkpoints assembled by hand for the safety tests: any pickle, any records, any names."""

import io
import warnings
import zipfile


def checkpoint(pkl: bytes, records=()) -> io.BytesIO:
    """A checkpoint archive whose data.pkl is ``pkl``, with ``records`` (``(name, bytes)`` pairs; a name
    may repeat one already written, which zipfile warns of and writes)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z, warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        z.writestr("archive/data.pkl", pkl)
        z.writestr("archive/byteorder", "little")
        z.writestr("archive/version", "3\n")
        for name, data in records:
            z.writestr(name, data)
    buf.seek(0)
    return buf
