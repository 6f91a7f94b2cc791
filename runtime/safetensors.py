"""The safetensors format: named tensors as raw little-endian bytes behind a JSON header.

A file is: an 8-byte little-endian header length N, N bytes of JSON (``{"name": {"dtype": "F32",
"shape": [2, 3], "data_offsets": [begin, end]}, ..., "__metadata__": {"key": "value"}}``, padded
with spaces to a multiple of 8), then the data: each tensor's elements, contiguous, at its offsets
(counted from the end of the header), the tensors covering the data exactly with no gaps or
overlaps. Reading checks all of this (and that no name appears twice) and says what is wrong, as a
``RuntimeError`` ("invalid safetensors data: ...") where the ``safetensors`` package raises its
``SafetensorError``; nothing in the file is executed.

>>> import yaten
>>> from yaten import safetensors
>>> blob = safetensors.save({"w": yaten.ones(2, dtype=yaten.float16)}, metadata={"step": "3"})
>>> safetensors.load(blob)
{'w': tensor([1., 1.], dtype=yaten.float16)}
"""

import json
import os

import numpy as np

from . import _device as _dev
from . import _dtype as D
from ._atomic_file import atomic_write
from ._tensor import Tensor

__all__ = ["load", "load_file", "save", "save_file"]

_CODE = {
    D.bool: "BOOL", D.uint8: "U8", D.int8: "I8", D.int16: "I16", D.int32: "I32", D.int64: "I64",
    D.float16: "F16", D.bfloat16: "BF16", D.float32: "F32", D.float64: "F64", D.complex64: "C64",
}  # fmt: skip
_DTYPE = {code: d for d, code in _CODE.items()}
_OTHER_CODES = (
    "U16",
    "U32",
    "U64",
    "F8_E4M3",
    "F8_E5M2",
    "F8_E8M0",
    "F4",
    "F6_E2M3",
    "F6_E3M2",
)
_MAX_HEADER = 100_000_000  # the reference implementation's limit


def _check_tensors(tensors) -> None:
    if not isinstance(tensors, dict):
        raise TypeError(f"expected a dict of str to Tensor, got {type(tensors).__name__}")
    for name, t in tensors.items():
        if not isinstance(name, str):
            raise TypeError(f"tensor names must be str, got {type(name).__name__} ({name!r})")
        if name == "__metadata__":
            raise ValueError("'__metadata__' is reserved for the metadata and can't name a tensor")
        if not isinstance(t, Tensor):
            raise TypeError(f"tensors[{name!r}] must be a Tensor, got {type(t).__name__}")
        if t.dtype not in _CODE:  # the format has complex64 ("C64") but no complex128
            raise TypeError(f"safetensors has no dtype for {t.dtype}: tensors[{name!r}] can't be saved")


def save(tensors: dict, metadata: dict | None = None) -> bytes:
    """The safetensors bytes of ``tensors`` (a dict of str to Tensor) and optional ``metadata``
    (a dict of str to str). Tensors may be on any device and non-contiguous; their values are written.

    >>> import yaten
    >>> from yaten import safetensors
    >>> blob = safetensors.save({"a": yaten.tensor([1, 2])})
    >>> n = int.from_bytes(blob[:8], "little")
    >>> n, blob[8 : 8 + n]
    (56, b'{"a":{"dtype":"I64","shape":[2],"data_offsets":[0,16]}}  ')
    """
    chunks = []
    header = _header(tensors, metadata, chunks)
    return header + b"".join(chunks)


def save_file(tensors: dict, filename, metadata: dict | None = None) -> None:
    """Write ``tensors`` (and ``metadata``) to ``filename`` in the safetensors format, atomically
    (a temporary file beside it, fsynced, then renamed).

    >>> import os, tempfile, yaten
    >>> from yaten.serialization import load_file, save_file
    >>> path = os.path.join(tempfile.mkdtemp(), "m.safetensors")
    >>> save_file({"b": yaten.zeros(2, dtype=yaten.bool)}, path)
    >>> load_file(path)
    {'b': tensor([False, False])}
    """
    chunks = []
    header = _header(tensors, metadata, chunks)

    def write(fh):
        fh.write(header)
        for c in chunks:
            fh.write(c)

    atomic_write(os.fspath(filename), write)


def _header(tensors: dict, metadata, chunks: list) -> bytes:
    _check_tensors(tensors)
    head = {}
    if metadata is not None:
        if not isinstance(metadata, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()
        ):
            raise TypeError("metadata must be a dict of str to str")
        head["__metadata__"] = metadata
    offset = 0
    # Wider elements first, then by name: each tensor's data starts aligned to its element size.
    for name in sorted(tensors, key=lambda n: (-tensors[n].dtype.itemsize, n)):
        t = tensors[name]
        host = np.ascontiguousarray(t.detach()._host()).astype(t.dtype.np.newbyteorder("<"), copy=False)
        data = memoryview(host.reshape(-1).view(np.uint8))
        head[name] = {
            "dtype": _CODE[t.dtype],
            "shape": list(t.shape),
            "data_offsets": [offset, offset + data.nbytes],
        }
        chunks.append(data)
        offset += data.nbytes
    text = json.dumps(head, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return len(text).to_bytes(8, "little") + text


def _bad(what: str) -> RuntimeError:
    return RuntimeError(f"invalid safetensors data: {what}")


def load(data: bytes, device="cpu") -> dict:
    """The tensors of safetensors bytes ``data`` (as written by ``save`` or any safetensors writer).

    >>> import yaten
    >>> from yaten import safetensors
    >>> safetensors.load(safetensors.save({"x": yaten.arange(3.0)}))["x"]
    tensor([0., 1., 2.])
    """
    return _parse(memoryview(data).cast("B"), device)[0]


def load_file(filename, device="cpu") -> dict:
    """The tensors of the safetensors file ``filename``, on ``device``.

    >>> import os, tempfile, yaten
    >>> from yaten.serialization import load_file, save_file
    >>> path = os.path.join(tempfile.mkdtemp(), "m.safetensors")
    >>> save_file({"w": yaten.eye(2)}, path, metadata={"format": "pt"})
    >>> load_file(path)["w"].tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    with open(filename, "rb") as fh:
        data = fh.read()
    return _parse(memoryview(data), device)[0]


def load_metadata(data: bytes) -> dict | None:
    """The ``__metadata__`` of safetensors bytes (None when there is none).

    >>> import yaten
    >>> from yaten import safetensors
    >>> safetensors.load_metadata(safetensors.save({}, metadata={"k": "v"}))
    {'k': 'v'}
    """
    return _parse(memoryview(data).cast("B"), "cpu", header_only=True)[1]


def _parse(buf: memoryview, device, header_only: bool = False):
    if buf.nbytes < 8:
        raise _bad(f"{buf.nbytes} bytes is too short for the 8-byte header length")
    n = int.from_bytes(buf[:8], "little")
    if n > _MAX_HEADER:
        raise _bad(f"the header length {n} is over the limit of {_MAX_HEADER} bytes")
    if 8 + n > buf.nbytes:
        raise _bad(
            f"the header length {n} runs past the end of the data ({buf.nbytes} bytes): the file is truncated"
        )
    raw = bytes(buf[8 : 8 + n])
    if not raw.startswith(b"{"):
        raise _bad("the header is not a JSON object")
    try:
        head = json.loads(raw.decode("utf-8"), object_pairs_hook=_unique_keys)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _bad(f"the header is not valid JSON ({e})") from None
    if not isinstance(head, dict):
        raise _bad("the header is not a JSON object")
    metadata = head.pop("__metadata__", None)
    if metadata is not None and not (
        isinstance(metadata, dict) and all(isinstance(v, str) for v in metadata.values())
    ):
        raise _bad("'__metadata__' must map strings to strings")
    entries = [(name, _entry(name, info)) for name, info in head.items()]
    data = buf[8 + n :]
    _check_layout(entries, data.nbytes)
    if header_only:
        return None, metadata
    dev = _dev.canonical(device)
    from ._factories import make

    out = {}
    for name, (dtype, shape, begin, end) in entries:
        host = np.frombuffer(data[begin:end], dtype.np.newbyteorder("<")).astype(dtype.np).reshape(shape)
        out[name] = make(host, dev)
    return out, metadata


def _unique_keys(pairs: list) -> dict:
    # JSON lets a name appear twice (the last would win): a file naming a tensor twice is refused.
    seen = set()
    for key, _ in pairs:
        if key in seen:
            raise _bad(f"the header names {key!r} twice")
        seen.add(key)
    return dict(pairs)


def _entry(name: str, info):
    if not isinstance(info, dict) or set(info) != {"dtype", "shape", "data_offsets"}:
        raise _bad(
            f"tensor {name!r} must have exactly the keys 'dtype', 'shape' and 'data_offsets', got {info!r}"
        )
    code, shape, offsets = info["dtype"], info["shape"], info["data_offsets"]
    if code not in _DTYPE:
        if code in _OTHER_CODES:
            raise RuntimeError(f"safetensors dtype {code} of tensor {name!r} is not supported by yaten")
        raise _bad(f"tensor {name!r} has unknown dtype {code!r}")
    if not (isinstance(shape, list) and all(type(s) is int and s >= 0 for s in shape)):
        raise _bad(f"tensor {name!r} has shape {shape!r}; expected a list of non-negative integers")
    if not (isinstance(offsets, list) and len(offsets) == 2 and all(type(o) is int for o in offsets)):
        raise _bad(f"tensor {name!r} has data_offsets {offsets!r}; expected [begin, end]")
    begin, end = offsets
    dtype = _DTYPE[code]
    numel = 1
    for s in shape:
        numel *= s
    if not 0 <= begin <= end or end - begin != numel * dtype.itemsize:
        raise _bad(
            f"tensor {name!r} has data_offsets {offsets} for {numel} elements of {code} "
            f"({numel * dtype.itemsize} bytes)"
        )
    return dtype, tuple(shape), begin, end


def _check_layout(entries: list, nbytes: int) -> None:
    """The tensors' byte ranges must tile the data exactly: no gap, no overlap, nothing past the end."""
    at = 0
    for name, (_, _, begin, end) in sorted(entries, key=lambda e: (e[1][2], e[1][3])):
        if begin != at:
            what = (
                "overlaps the previous tensor"
                if begin < at
                else f"leaves a gap of {begin - at} bytes before it"
            )
            raise _bad(f"tensor {name!r} at bytes [{begin}, {end}) {what}")
        at = end
    if at != nbytes:
        raise _bad(
            f"the tensors cover {at} bytes of data but there are {nbytes}: the file is truncated or padded"
        )
