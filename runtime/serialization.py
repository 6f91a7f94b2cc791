"""``yaten.save`` / ``yaten.load``: PyTorch's checkpoint format, loaded without running code from the file.

A checkpoint is PyTorch's zip archive: ``<name>/data.pkl`` (a pickle of the object, naming
PyTorch's rebuild functions, so ``torch.load(path, weights_only=True)`` reads it), one record
``<name>/data/<key>`` of raw bytes per storage (each aligned to 64 bytes in the file, as PyTorch
writes them), and the small ``byteorder``, ``version``, ``.format_version``, ``.storage_alignment``
and ``.data/serialization_id`` records.

Loading never imports torch and never executes code from the file: the restricted unpickler of
``_unpickler.py`` maps PyTorch's tensor, storage, parameter, dtype, device and container globals
onto yaten and refuses every other global, and every BUILD, call or container step outside what
those take, with ``pickle.UnpicklingError``. Reading the archive (here) takes only the records the
pickle references, checks each one's size against its storage before inflating it, and turns
whatever a damaged file makes zipfile, zlib or pickle raise into a ``RuntimeError``. Saving is
restricted too: tensors and plain containers only, so what ``yaten.save`` writes ``yaten.load`` can
read.

The safetensors format lives in ``yaten.safetensors``; ``save_file``/``load_file`` are here too.
"""

import codecs
import collections
import io
import os
import pickle
import secrets
import struct
import sys
import zipfile
import zlib
from dataclasses import dataclass

import numpy as np

from . import _device as _dev
from . import _dtype as D
from ._atomic_file import atomic_write
from ._backend import backend
from ._storage import UntypedStorage
from ._tensor import Size, Tensor
from ._unpickler import STORAGE_NAME, Refused, RestrictedUnpickler, parameter_class
from .safetensors import load_file, save_file

__all__ = ["load", "load_file", "save", "save_file"]

DEFAULT_PROTOCOL = 2  # PyTorch's
_ALIGNMENT = 64  # storages start at multiples of this in the file, as in PyTorch's writer
_FORMAT_VERSION = b"1"
_LEGACY_MAGIC = pickle.dumps(0x1950A86A20F9469CFC6C, protocol=2)  # how a pre-1.6 torch.save file starts
_VERSION = b"3\n"


# --- the pickle: PyTorch's names on the way out --------------------------------------------------
class _Global:
    """A ``module.name`` the pickle refers to without this process importing it (``torch._utils``)."""

    __slots__ = ("module", "name")

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def __call__(self, *args):  # pickle wants a reduce function to be callable; it is never called here
        raise TypeError(f"{self.module}.{self.name} is a name in a pickle, not a function")


_REBUILD_TENSOR_V2 = _Global("torch._utils", "_rebuild_tensor_v2")
_REBUILD_PARAMETER = _Global("torch._utils", "_rebuild_parameter")
_TORCH_DEVICE = _Global("torch", "device")
_TORCH_SIZE = _Global("torch", "Size")

# What the pickler writes as globals itself, for the containers it can save.
_PLAIN_TYPES = (
    type(None), bool, int, float, complex, str, bytes, bytearray, tuple, list, dict, collections.OrderedDict,
    collections.Counter, set, D.dtype, _Global,
)  # fmt: skip
_HELPER_GLOBALS = (collections.OrderedDict, collections.Counter, set, complex, bytearray, codecs.encode)


class _Pickler(pickle._Pickler):
    """The pure-Python pickler (it lets us write a global by name) with PyTorch's tensor reductions."""

    dispatch = pickle._Pickler.dispatch.copy()

    def __init__(self, file, protocol: int) -> None:
        super().__init__(file, protocol)
        self.storages = {}  # id(storage) -> (key, dtype, storage): views of one storage share a record

    def _write_global(self, g: _Global) -> None:
        self.write(pickle.GLOBAL + f"{g.module}\n{g.name}\n".encode())

    dispatch[_Global] = _write_global
    dispatch[D.dtype] = lambda self, d: self._write_global(_Global("torch", d.name))

    def persistent_id(self, obj):
        return obj.pid if type(obj) is _StorageRef else None

    def reducer_override(self, obj):
        if isinstance(obj, Tensor):
            return self._reduce_tensor(obj)
        if type(obj) is _dev.device:
            return (_TORCH_DEVICE, (str(obj),))
        if type(obj) is Size:
            return (_TORCH_SIZE, (tuple(obj),))
        if type(obj) is _TensorArgs:
            return (_REBUILD_TENSOR_V2, obj.args)
        if type(obj) in _PLAIN_TYPES or any(obj is g for g in _HELPER_GLOBALS):
            return NotImplemented
        raise TypeError(
            f"yaten.save can't save an object of type {type(obj).__module__}.{type(obj).__qualname__}: it saves "
            "tensors, parameters, dtypes, devices, numbers, strings, bytes, None and dicts, OrderedDicts, lists, "
            "tuples and sets of them (yaten never pickles arbitrary classes). Save a module's or optimizer's "
            "state_dict() instead of the object."
        )

    def _reduce_tensor(self, t: Tensor):
        if t.device.type not in ("cpu", "cuda"):
            raise RuntimeError(f"yaten.save: can't save a tensor on device '{t.device}'")
        storage = t.untyped_storage()
        entry = self.storages.get(id(storage))
        if entry is None:
            entry = self.storages[id(storage)] = (str(len(self.storages)), t.dtype, storage)
        elif entry[1] is not t.dtype:
            raise RuntimeError(
                "Cannot save multiple tensors or storages that view the same data as different types"
            )
        location = "cpu" if t.device.type == "cpu" else f"cuda:{t.device.index or 0}"
        storage_type = _Global("torch", STORAGE_NAME[t.dtype])
        pid = ("storage", storage_type, entry[0], location, storage.nbytes() // t.itemsize)
        args = (_StorageRef(pid), t.storage_offset(), tuple(t.shape), t.stride())
        if _is_parameter(t):  # as torch: the data as a plain tensor, then requires_grad on the Parameter
            data = _TensorArgs((*args, False, collections.OrderedDict()))
            return (_REBUILD_PARAMETER, (data, t.requires_grad, collections.OrderedDict()))
        return (_REBUILD_TENSOR_V2, (*args, t.requires_grad, collections.OrderedDict()))


@dataclass(frozen=True)
class _StorageRef:
    pid: tuple  # pickled as a persistent id: the storage's bytes are a record of their own


@dataclass(frozen=True)
class _TensorArgs:
    args: tuple  # a Parameter's data, pickled as a plain tensor: ``_rebuild_tensor_v2(*args)``


def _is_parameter(t: Tensor) -> bool:
    cls = parameter_class()
    return cls is not None and isinstance(t, cls)


# --- writing the archive --------------------------------------------------------------------------
def _archive_name(f) -> str:
    # As PyTorch: the file's base name without its extension; "archive" for a file object.
    if isinstance(f, (str, os.PathLike)):
        base = os.path.basename(os.fspath(f))
        stem = base[: base.rfind(".")] if "." in base else base
        return stem or "archive"
    return "archive"


def _write_record(zf: zipfile.ZipFile, name: str, data) -> None:
    """One stored (uncompressed) record whose data starts at a multiple of 64 bytes in the file."""
    view = memoryview(data).cast("B")
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    info.file_size = view.nbytes
    zip64 = view.nbytes * 1.05 > zipfile.ZIP64_LIMIT  # zipfile's own rule: it then adds a 20-byte field
    header = 30 + len(name.encode("utf-8")) + 4 + (20 if zip64 else 0)
    pad = -(zf.fp.tell() + header) % _ALIGNMENT
    info.extra = b"FB" + pad.to_bytes(2, "little") + b"Z" * pad  # PyTorch's padding field
    with zf.open(info, "w", force_zip64=zip64) as w:
        step = 1 << 26
        for i in range(0, view.nbytes, step):
            w.write(view[i : i + step])


def _write_archive(obj, fh, archive: str, protocol: int) -> None:
    buf = io.BytesIO()
    pickler = _Pickler(buf, protocol)
    pickler.dump(obj)
    with zipfile.ZipFile(fh, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
        _write_record(zf, f"{archive}/data.pkl", buf.getbuffer())
        _write_record(zf, f"{archive}/.format_version", _FORMAT_VERSION)
        _write_record(zf, f"{archive}/.storage_alignment", str(_ALIGNMENT).encode())
        _write_record(zf, f"{archive}/byteorder", sys.byteorder.encode())
        for key, _dtype, storage in pickler.storages.values():
            host = np.ascontiguousarray(backend(storage.device).to_host(storage._buf))
            _write_record(zf, f"{archive}/data/{key}", host)
        _write_record(zf, f"{archive}/version", _VERSION)
        _write_record(zf, f"{archive}/.data/serialization_id", str(secrets.randbits(128)).zfill(40).encode())


def save(obj, f, pickle_module=None, pickle_protocol: int = DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False) -> None:  # fmt: skip
    """Save ``obj`` (tensors in dicts, lists, tuples: a state_dict, an optimizer state) to ``f``, a path
    or a binary file object, in PyTorch's format: ``torch.load(f, weights_only=True)`` reads it.

    A path is written atomically: into a temporary file in the same directory, fsynced, then
    renamed, so an error or crash midway never leaves a partial file under that name. Views of
    one storage are saved once and share storage again after loading. Only tensors, parameters,
    dtypes, devices, ``Size``, numbers, strings, bytes, None and dicts/OrderedDicts/lists/tuples/sets
    of them can be saved; anything else is a ``TypeError``.

    >>> import io, yaten
    >>> buf = io.BytesIO()
    >>> yaten.save({"w": yaten.ones(2, 3), "step": 7}, buf)
    >>> _ = buf.seek(0)
    >>> yaten.load(buf)
    {'w': tensor([[1., 1., 1.],
            [1., 1., 1.]]), 'step': 7}
    """
    if pickle_module is not None and pickle_module is not pickle:
        raise TypeError("yaten.save: pickle_module must be None or the standard pickle module")
    if not _use_new_zipfile_serialization:
        raise RuntimeError(
            "yaten.save writes only PyTorch's zip format (_use_new_zipfile_serialization=True)"
        )

    def write(fh):
        _write_archive(obj, fh, _archive_name(f), pickle_protocol)

    if isinstance(f, (str, os.PathLike)):
        atomic_write(os.fspath(f), write)
    else:
        write(f)


# --- reading the archive ---------------------------------------------------------------------------
_SMALL_RECORDS = ("byteorder", "version", ".format_version", ".storage_alignment", ".data/serialization_id")
_SMALL_LIMIT = 4096  # the most bytes one of those may hold
_CHUNK = 1 << 24  # a storage record is inflated into its tensor's memory this much at a time
# What a damaged or crafted file can make zipfile, zlib, struct, pickle or a rebuild raise: all become
# "not a readable checkpoint" (a RuntimeError), as torch's reader reports them.
_DAMAGE = (
    zipfile.BadZipFile, EOFError, OSError, ValueError, LookupError, AttributeError, TypeError, OverflowError,
    RecursionError, MemoryError, NotImplementedError, struct.error, zlib.error, pickle.UnpicklingError,
)  # fmt: skip


class _Archive:
    """The records of one checkpoint, and the storages made from them (one per key: views share).

    Only the records the pickle references are read, each after checking that its declared size is
    what its storage needs; with ``mmap`` an uncompressed record is mapped (copy-on-write) instead."""

    def __init__(self, zf: zipfile.ZipFile, prefix: str, map_location, mmap_file) -> None:
        self.zf, self.prefix, self.map_location, self.mmap_file = zf, prefix, map_location, mmap_file
        self.storages = {}
        small = {n: self.small(n) for n in _SMALL_RECORDS}  # read, and so CRC-checked, when present
        order = small["byteorder"] or "little"
        if order not in ("little", "big"):
            raise RuntimeError(f"yaten.load: unknown byteorder {order!r} in the checkpoint")
        self.swap = order != sys.byteorder

    def small(self, name: str) -> str | None:
        info = self.zf.NameToInfo.get(self.prefix + name)
        if info is None:
            return None
        if info.file_size > _SMALL_LIMIT:
            raise RuntimeError(f"yaten.load: the checkpoint's {name} record is {info.file_size} bytes long")
        with self.zf.open(info) as r:
            return r.read(_SMALL_LIMIT).decode()

    def storage(self, key: str, location: str, dtype: D.dtype, numel: int) -> UntypedStorage:
        need = numel * dtype.itemsize
        s = self.storages.get(key)
        if s is not None:
            if s.nbytes() != need:
                raise RuntimeError(
                    f"yaten.load: storage {key} holds {s.nbytes()} bytes, but the checkpoint also says {numel} "
                    f"elements of {dtype}"
                )
            return s
        info = self.zf.NameToInfo.get(f"{self.prefix}data/{key}")
        if info is None:
            raise RuntimeError(
                f"yaten.load: the checkpoint has no record data/{key} for a storage it references"
            )
        if info.file_size != need:  # as torch's reader, and before anything is inflated
            raise RuntimeError(
                f"record size ({info.file_size} bytes) does not match expected size ({need} bytes = {numel} "
                f"elements * {dtype.itemsize} bytes/element) for dtype {dtype}"
            )
        stored = info.compress_type == zipfile.ZIP_STORED
        if stored and info.compress_size != info.file_size:
            raise RuntimeError(f"yaten.load: the uncompressed record data/{key} has two sizes")
        host = self.mapped(info) if self.mmap_file is not None and stored else self.read(info)
        if self.swap and dtype.itemsize > 1:
            host.view(dtype.np).byteswap(inplace=True)
        s = self.storages[key] = self.restore(host, location)
        return s

    def read(self, info: zipfile.ZipInfo) -> np.ndarray:
        host = np.empty(info.file_size, np.uint8)
        view = memoryview(host)
        at = 0
        with self.zf.open(info) as r:
            while at < info.file_size:
                chunk = r.read(min(_CHUNK, info.file_size - at))
                if not chunk:
                    raise EOFError(f"record {info.filename} ends after {at} of its {info.file_size} bytes")
                view[at : at + len(chunk)] = chunk
                at += len(chunk)
        return host

    def mapped(self, info: zipfile.ZipInfo) -> np.ndarray:
        # The record's bytes start after its local header (30 bytes, the name, the extra field).
        local = os.pread(self.mmap_file.fileno(), 30, info.header_offset)
        if len(local) != 30 or local[:4] != b"PK\x03\x04":
            raise zipfile.BadZipFile(f"bad local header for record {info.filename}")
        name_len, extra_len = struct.unpack("<HH", local[26:30])
        start = info.header_offset + 30 + name_len + extra_len
        if start + info.file_size > os.fstat(self.mmap_file.fileno()).st_size:
            raise EOFError(f"record {info.filename} runs past the end of the file")
        if info.file_size == 0:
            return np.empty(0, np.uint8)
        # Copy-on-write, as torch's default MAP_PRIVATE: writes to the tensor never reach the file.
        return np.asarray(np.memmap(self.mmap_file, np.uint8, "c", start, (info.file_size,)))

    def restore(self, host: np.ndarray, location: str) -> UntypedStorage:
        ml = self.map_location
        if callable(ml) and not isinstance(ml, (str, _dev.device)):
            moved = ml(UntypedStorage(host, _dev.CPU), location)
            if moved is not None:
                if not isinstance(moved, UntypedStorage):
                    raise RuntimeError(
                        f"map_location should return a yaten.UntypedStorage or None, not {type(moved).__name__}"
                    )
                return moved
            target = location
        elif isinstance(ml, dict):
            target = ml.get(location, location)
        elif ml is None:
            target = location
        else:
            target = ml
        device = _dev.canonical(target)
        if device.type == "cuda":
            from . import cuda

            if not cuda.is_available():
                raise RuntimeError(
                    "Attempting to deserialize object on a CUDA device but yaten.cuda.is_available() is False. If "
                    "you are running on a CPU-only machine, please use yaten.load with "
                    "map_location=yaten.device('cpu') to map your storages to the CPU."
                )
        return UntypedStorage(backend(device).from_host(host), device)


def _corrupt(name: str, what: str) -> RuntimeError:
    return RuntimeError(
        f"yaten.load: {name} is not a readable checkpoint: {what}. The file is truncated or corrupted, or was not "
        "written by yaten.save or torch.save (PyTorch's legacy pre-1.6 format is not supported)."
    )


def _check_names(zf: zipfile.ZipFile, name: str) -> None:
    """No two records of one name, none absolute or with a ``..`` part: such an archive was crafted."""
    seen = set()
    for n in zf.namelist():
        if n.startswith(("/", "\\")) or ".." in n.replace("\\", "/").split("/"):
            raise _corrupt(name, f"the record name {n!r} is absolute or climbs out of the archive with '..'")
        if n in seen:
            raise _corrupt(name, f"two records are named {n!r}")
        seen.add(n)


def load(f, map_location=None, pickle_module=None, *, weights_only=True, mmap=None, **pickle_load_args):
    """Load what ``yaten.save`` or ``torch.save`` wrote, without running code from the file.

    ``f`` is a path or a binary file object. ``map_location`` moves the storages: a device or
    device string (all go there), a dict from saved location to location (``{'cuda:0': 'cpu'}``),
    or a callable ``(storage, location) -> storage or None``, as in PyTorch. Loading is always
    restricted to tensors, parameters and plain containers: ``weights_only=False`` is accepted for
    compatibility and changes nothing; any other global, or a pickle step that would set state on
    anything but a tensor or a container, raises ``pickle.UnpicklingError`` naming it. A truncated,
    corrupted or inconsistent file raises ``RuntimeError``. Only the records the pickle references
    are read. With ``mmap=True`` (``f`` must be a path, as in torch) uncompressed records are mapped
    copy-on-write rather than read: pages load as the tensors touch them, and writes stay in memory.

    >>> import io, yaten
    >>> buf = io.BytesIO()
    >>> x = yaten.arange(6.0)
    >>> yaten.save([x, x[2:4]], buf)
    >>> _ = buf.seek(0)
    >>> a, b = yaten.load(buf, map_location="cpu")
    >>> b.tolist(), b.storage_offset(), a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
    ([2.0, 3.0], 2, True)
    """
    if pickle_module is not None and pickle_module is not pickle:
        raise TypeError("yaten.load: pickle_module must be None or the standard pickle module")
    unknown = set(pickle_load_args) - {"encoding"}
    if unknown:
        raise TypeError(f"yaten.load() got unexpected keyword arguments {sorted(unknown)}")
    encoding = pickle_load_args.get("encoding", "utf-8")
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            return _load(fh, repr(os.fspath(f)), map_location, encoding, fh if mmap else None)
    if mmap:
        raise ValueError("f must be a file path in order to use the mmap argument")
    if not (hasattr(f, "seekable") and f.seekable()):
        f = io.BytesIO(f.read())
    return _load(f, "the file object", map_location, encoding, None)


def _load(fh, name: str, map_location, encoding: str, mmap_file):
    try:
        zf = zipfile.ZipFile(fh)
    except _DAMAGE as e:
        fh.seek(0)
        if fh.read(len(_LEGACY_MAGIC)) == _LEGACY_MAGIC:
            raise RuntimeError(
                f"yaten.load: {name} is in PyTorch's legacy format (torch.save(..., "
                "_use_new_zipfile_serialization=False)), which yaten does not read. Load it with torch and save it "
                "again with torch.save's default format."
            ) from None
        raise _corrupt(name, f"failed reading zip archive ({type(e).__name__}: {e})") from None
    with zf:
        _check_names(zf, name)
        pickles = [n for n in zf.namelist() if n.endswith("/data.pkl") and n.count("/") == 1]
        if len(pickles) != 1:
            raise _corrupt(name, "expected exactly one '<archive>/data.pkl' record")
        prefix = pickles[0][: -len("data.pkl")]
        try:
            archive = _Archive(zf, prefix, map_location, mmap_file)
            data = io.BytesIO(zf.read(pickles[0]))
            return RestrictedUnpickler(data, archive.storage, encoding).load()
        except Refused as e:
            raise pickle.UnpicklingError(str(e)) from None
        except _DAMAGE as e:
            raise _corrupt(name, f"{type(e).__name__}: {e}") from None
