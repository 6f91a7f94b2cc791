"""``yaten.save`` / ``yaten.load``: PyTorch's checkpoint format, as torch 2.13 writes and reads it.

A checkpoint is PyTorch's zip archive: ``<name>/data.pkl`` (a pickle of the object, naming
PyTorch's rebuild functions, so ``torch.load(path, weights_only=True)`` reads it), one record
``<name>/data/<key>`` of raw bytes per storage (each aligned to 64 bytes in the file, as PyTorch
writes them), and the small ``byteorder``, ``version``, ``.format_version``, ``.storage_alignment``
and ``.data/serialization_id`` records.

``save`` pickles any picklable object (a state_dict, a whole Module or optimizer, NumPy arrays,
your own classes), naming yaten's classes and functions by torch's names (``_torch_names.py``), so
``torch.load`` reads a whole yaten model and the reverse. Loading never imports torch. By default
(``weights_only=True``, as torch 2.6+) it never executes code from the file: the restricted unpickler
of ``_unpickler.py`` maps PyTorch's tensor, storage, parameter, dtype, device and container globals
onto yaten, admits the globals marked safe (``add_safe_globals``, ``_safe_globals.py``) and refuses
every other global, and every BUILD, call or container step outside what those take, with torch's
``pickle.UnpicklingError``. ``weights_only=False`` (or ``TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1`` /
``YATEN_FORCE_NO_WEIGHTS_ONLY_LOAD=1`` when the call doesn't say) unpickles everything
(``_full_unpickler.py``): it can run arbitrary code, so use it only on files you trust. Reading the
archive (here) takes only the records the pickle references, checks each one's size against its
storage before inflating it, and turns whatever a damaged file makes zipfile, zlib or pickle raise
into a ``RuntimeError``.

The safetensors format lives in ``yaten.safetensors``; ``save_file``/``load_file`` are here too.
"""

import collections
import enum
import io
import os
import pickle
import pickletools
import secrets
import struct
import sys
import warnings
import zipfile
import zlib
from dataclasses import dataclass

import numpy as np

from . import _device as _dev
from . import _dtype as D
from ._atomic_file import atomic_write
from ._backend import backend
from ._full_unpickler import full_load
from ._safe_globals import (
    add_safe_globals,
    clear_safe_globals,
    get_safe_globals,
    safe_globals,
    user_allowed,
    weights_only_message,
)
from ._storage import UntypedStorage
from ._tensor import Size, Tensor
from ._torch_names import pickle_name
from ._unpickler import (
    STORAGE_NAME,
    Refused,
    RestrictedUnpickler,
    allowed_global,
    parameter_class,
    python3_name,
)
from .safetensors import load_file, save_file

__all__ = [
    "LoadEndianness", "SourceChangeWarning", "add_safe_globals", "clear_safe_globals", "get_default_load_endianness",
    "get_safe_globals", "get_unsafe_globals_in_checkpoint", "load", "load_file", "safe_globals", "save", "save_file",
    "set_default_load_endianness",
]  # fmt: skip

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
_REBUILD_SPARSE = _Global("torch._utils", "_rebuild_sparse_tensor")
_GET_LAYOUT = _Global("torch.serialization", "_get_layout")
_TORCH_DEVICE = _Global("torch", "device")
_TORCH_SIZE = _Global("torch", "Size")


class _Pickler(pickle._Pickler):
    """The pure-Python pickler (it lets us write a global by name) with PyTorch's tensor reductions and
    yaten's globals written under torch's names."""

    dispatch = pickle._Pickler.dispatch.copy()

    def __init__(self, file, protocol: int) -> None:
        super().__init__(file, protocol)
        self.storages = {}  # id(storage) -> (key, dtype, storage): views of one storage share a record

    def _write_global(self, g: _Global) -> None:
        self.write(pickle.GLOBAL + f"{g.module}\n{g.name}\n".encode())

    def save_global(self, obj, name=None) -> None:
        qualname = name or getattr(obj, "__qualname__", None) or obj.__name__
        if "<locals>" in qualname:  # what torch's (C) pickler raises; the Python one says it differently
            raise AttributeError(f"Can't pickle local object {qualname!r}")
        named = pickle_name(obj, qualname)
        if named is None:
            super().save_global(obj, name)
            return
        module, qualname = named
        if self.proto >= 4:
            self.save(module)
            self.save(qualname)
            self.write(pickle.STACK_GLOBAL)
        else:
            self.write(pickle.GLOBAL + f"{module}\n{qualname}\n".encode())
        self.memoize(obj)

    dispatch[type] = save_global
    dispatch[type(_write_global)] = save_global  # Python functions

    dispatch[_Global] = _write_global
    dispatch[D.dtype] = lambda self, d: self._write_global(_Global("torch", d.name))

    def persistent_id(self, obj):
        return obj.pid if type(obj) is _StorageRef else None

    def reducer_override(self, obj):
        if isinstance(obj, Tensor) and obj.is_sparse:  # as torch: the layout, then the parts
            parts = (obj._indices(), obj._values(), obj.shape, obj.is_coalesced())
            return (_REBUILD_SPARSE, (_LayoutName("torch.sparse_coo"), parts))
        if isinstance(obj, Tensor):
            if hasattr(obj, "materialize"):  # a lazy module's uninitialized tensor pickles itself, as torch's
                return NotImplemented
            return self._reduce_tensor(obj)
        if type(obj) is _LayoutName:
            return (_GET_LAYOUT, (obj.name,))
        if type(obj) is _dev.device:
            return (_TORCH_DEVICE, (str(obj),))
        if type(obj) is Size:
            return (_TORCH_SIZE, (tuple(obj),))
        if type(obj) is _TensorArgs:
            return (_REBUILD_TENSOR_V2, obj.args)
        return NotImplemented

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
class _LayoutName:
    name: str  # a sparse tensor's layout, pickled as torch's ``serialization._get_layout(name)``


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
    """Save ``obj`` to ``f``, a path or a binary file object, in PyTorch's format.

    ``obj`` is anything picklable: a state_dict (which ``torch.load(f)`` reads with its default
    ``weights_only=True``), a whole Module or optimizer, NumPy arrays, your own classes (loaded with
    ``weights_only=False``, by yaten or by torch: yaten's classes and functions are named by torch's
    paths, ``torch.nn.modules.linear.Linear``). A path is written atomically: into a temporary file in
    the same directory, fsynced, then renamed, so an error or crash midway never leaves a partial
    file under that name. Views of one storage are saved once and share storage again after loading.

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
class SourceChangeWarning(Warning):
    """torch's warning class for a pickled module whose source changed (kept for code that filters it)."""


class LoadEndianness(enum.Enum):
    """The byte order ``load`` assumes for a checkpoint without a ``byteorder`` record (written by torch
    before 1.12): ``set_default_load_endianness`` picks it; None (the default) means little-endian."""

    NATIVE = 1
    LITTLE = 2
    BIG = 3


_load_endianness = [None]


def get_default_load_endianness() -> LoadEndianness | None:
    """The byte order assumed for checkpoints without a byteorder record (None: little-endian, as torch).

    >>> import yaten
    >>> yaten.serialization.get_default_load_endianness() is None
    True
    """
    return _load_endianness[0]


def set_default_load_endianness(endianness) -> None:
    """Set the byte order assumed for checkpoints without a byteorder record (a ``LoadEndianness`` or None).

    >>> import yaten
    >>> S = yaten.serialization
    >>> S.set_default_load_endianness(S.LoadEndianness.BIG); S.get_default_load_endianness()
    <LoadEndianness.BIG: 3>
    >>> S.set_default_load_endianness(None)
    """
    if not isinstance(endianness, LoadEndianness) and endianness is not None:
        raise TypeError("Invalid argument type in function set_default_load_endianness")
    _load_endianness[0] = endianness


def _fallback_byteorder() -> str:
    order = _load_endianness[0]
    if order is LoadEndianness.BIG:
        return "big"
    return sys.byteorder if order is LoadEndianness.NATIVE else "little"


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
        order = small["byteorder"] or _fallback_byteorder()
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


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Load what ``yaten.save`` or ``torch.save`` wrote.

    ``f`` is a path or a binary file object. ``map_location`` moves the storages: a device or
    device string (all go there), a dict from saved location to location (``{'cuda:0': 'cpu'}``),
    or a callable ``(storage, location) -> storage or None``, as in PyTorch.

    ``weights_only`` (the default, unless a ``pickle_module`` is given, as torch 2.6+) restricts
    loading to tensors, parameters, plain containers and the globals marked safe with
    ``yaten.serialization.add_safe_globals``: any other global, or a pickle step that would set state
    on anything else, raises torch's ``pickle.UnpicklingError``, and no code from the file runs.
    ``weights_only=False`` unpickles everything (whole Modules and optimizers, your own classes; the
    ``torch.*`` names in a file saved by torch are yaten's): **it can run arbitrary code from the
    file, so use it only on files from a source you trust.** With ``weights_only`` not given, the
    environment variable ``TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD`` (or ``YATEN_FORCE_NO_WEIGHTS_ONLY_LOAD``)
    set to 1 makes it False, with a warning; ``TORCH_FORCE_WEIGHTS_ONLY_LOAD`` (or
    ``YATEN_FORCE_WEIGHTS_ONLY_LOAD``) makes every load weights-only.

    A truncated, corrupted or inconsistent file raises ``RuntimeError``. Only the records the
    pickle references are read. With ``mmap=True`` (``f`` must be a path, as in torch) uncompressed
    records are mapped copy-on-write rather than read: pages load as the tensors touch them, and
    writes stay in memory.

    >>> import io, yaten
    >>> buf = io.BytesIO()
    >>> x = yaten.arange(6.0)
    >>> yaten.save([x, x[2:4]], buf)
    >>> _ = buf.seek(0)
    >>> a, b = yaten.load(buf, map_location="cpu")
    >>> b.tolist(), b.storage_offset(), a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
    ([2.0, 3.0], 2, True)
    >>> _ = buf.seek(0); yaten.save(yaten.nn.Linear(2, 1), buf); _ = buf.seek(0)
    >>> yaten.load(buf, weights_only=False)  # trusted: a whole module
    Linear(in_features=2, out_features=1, bias=True)
    """
    weights_only = _weights_only(weights_only, pickle_module)
    if weights_only:
        if pickle_module is not None:
            raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
        if pickle_load_args:
            warnings.warn("pickle_load_args only works if `weights_only=False`.", stacklevel=2)
    else:
        pickle_module = pickle_module or pickle
    pickle_load_args.setdefault("encoding", "utf-8")
    read = _Reader(map_location, weights_only, pickle_module, pickle_load_args)
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            return read(fh, repr(os.fspath(f)), fh if mmap else None)
    if mmap:
        raise ValueError("f must be a file path in order to use the mmap argument")
    if not (hasattr(f, "seekable") and f.seekable()):
        f = io.BytesIO(f.read())
    return read(f, "the file object", None)


_TRUE = ("1", "y", "yes", "true")


def _env_flag(name: str) -> bool:
    return any(os.getenv(f"{lib}_{name}", "0").lower() in _TRUE for lib in ("TORCH", "YATEN"))


def _weights_only(weights_only, pickle_module) -> bool:
    """``load``'s weights_only after its default and the environment's overrides, as torch decides it."""
    not_set = weights_only is None
    if not_set:
        weights_only = pickle_module is None
    force, force_no = _env_flag("FORCE_WEIGHTS_ONLY_LOAD"), _env_flag("FORCE_NO_WEIGHTS_ONLY_LOAD")
    if force and force_no:
        raise RuntimeError(
            "Only one of `TORCH_FORCE_WEIGHTS_ONLY_LOAD` or `TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD` "
            "should be set, but both were set."
        )
    if force:
        return True
    if force_no and not_set:  # only when the call didn't say
        warnings.warn(
            "Environment variable TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD detected, since the"
            "`weights_only` argument was not explicitly passed to `torch.load`, forcing weights_only=False.",
            UserWarning,
            stacklevel=3,
        )
        return False
    return bool(weights_only)


def _open_archive(fh, name: str) -> tuple[zipfile.ZipFile, str]:
    """The checkpoint's zip archive, checked, and the name of its ``<archive>/data.pkl`` record."""
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
    try:
        _check_names(zf, name)
        pickles = [n for n in zf.namelist() if n.endswith("/data.pkl") and n.count("/") == 1]
        if len(pickles) != 1:
            raise _corrupt(name, "expected exactly one '<archive>/data.pkl' record")
    except RuntimeError:
        zf.close()
        raise
    return zf, pickles[0]


@dataclass(frozen=True)
class _Reader:
    """One ``load`` call's settings, applied to an open checkpoint file."""

    map_location: object
    weights_only: bool
    pickle_module: object
    pickle_load_args: dict

    def __call__(self, fh, name: str, mmap_file):
        zf, pkl = _open_archive(fh, name)
        with zf:
            prefix = pkl[: -len("data.pkl")]
            try:
                archive = _Archive(zf, prefix, self.map_location, mmap_file)
                data = io.BytesIO(zf.read(pkl))
            except _DAMAGE as e:
                raise _corrupt(name, f"{type(e).__name__}: {e}") from None
            if not self.weights_only:
                # Errors of the user's own classes are theirs, as torch (and pickle) raise them.
                return full_load(data, archive.storage, self.pickle_module, **self.pickle_load_args)
            unpickler = RestrictedUnpickler(
                data, archive.storage, **self.pickle_load_args
            )  # (bad arguments raise)
            try:
                return unpickler.load()
            except Refused as e:
                raise pickle.UnpicklingError(weights_only_message(str(e))) from None
            except _DAMAGE as e:
                raise _corrupt(name, f"{type(e).__name__}: {e}") from None


def get_unsafe_globals_in_checkpoint(f) -> list[str]:
    """The globals a checkpoint names that a ``weights_only`` load would refuse: neither allowed by
    default nor marked safe with ``add_safe_globals`` (read statically from the pickle, as torch's).

    >>> import io, yaten
    >>> buf = io.BytesIO()
    >>> yaten.save(yaten.nn.Identity(), buf)
    >>> _ = buf.seek(0)
    >>> yaten.serialization.get_unsafe_globals_in_checkpoint(buf)
    ['torch.nn.modules.linear.Identity']
    """
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            return get_unsafe_globals_in_checkpoint(fh)
    try:
        zf, pkl = _open_archive(f, "the checkpoint")
    except RuntimeError as e:
        raise ValueError(f"Expected input to be a checkpoint returned by torch.save ({e})") from None
    with zf:
        data = zf.read(pkl)
    marked = user_allowed()
    unsafe, strings = set(), []
    for op, arg, _pos in pickletools.genops(data):
        if op.name == "GLOBAL":
            module, name = python3_name(*arg.split(" ", 1))
        elif op.name == "STACK_GLOBAL" and len(strings) >= 2:
            module, name = python3_name(strings[-2], strings[-1])
        else:
            if isinstance(arg, str):
                strings.append(arg)
            continue
        if allowed_global(module, name) is None and f"{module}.{name}" not in marked:
            unsafe.add(f"{module}.{name}")
    return sorted(unsafe)
