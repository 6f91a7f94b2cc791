"""``yaten.save`` / ``yaten.load``: PyTorch's checkpoint format, loaded without running code from the file.

A checkpoint is PyTorch's zip archive: ``<name>/data.pkl`` (a pickle of the object, naming
PyTorch's rebuild functions, so ``torch.load(path, weights_only=True)`` reads it), one record
``<name>/data/<key>`` of raw bytes per storage (each aligned to 64 bytes in the file, as PyTorch
writes them), and the small ``byteorder``, ``version``, ``.format_version``, ``.storage_alignment``
and ``.data/serialization_id`` records.

Loading never imports torch and never executes code from the file: a restricted unpickler maps
PyTorch's tensor, storage, parameter, dtype, device and container globals onto yaten and refuses
every other global with ``pickle.UnpicklingError``. Saving is restricted the same way: tensors and
plain containers only, so what ``yaten.save`` writes ``yaten.load`` can read.

The safetensors format lives in ``yaten.safetensors``; ``save_file``/``load_file`` are here too.
"""

import _compat_pickle
import codecs
import collections
import io
import os
import pickle
import secrets
import sys
import zipfile
from dataclasses import dataclass

import numpy as np

from . import _device as _dev
from . import _dtype as D
from ._atomic_file import atomic_write
from ._backend import backend
from ._storage import UntypedStorage
from ._tensor import Size, Tensor
from .safetensors import load_file, save_file

__all__ = ["load", "load_file", "save", "save_file"]

DEFAULT_PROTOCOL = 2  # PyTorch's
_ALIGNMENT = 64  # storages start at multiples of this in the file, as in PyTorch's writer
_FORMAT_VERSION = b"1"
_LEGACY_MAGIC = pickle.dumps(0x1950A86A20F9469CFC6C, protocol=2)  # how a pre-1.6 torch.save file starts
_VERSION = b"3\n"

# PyTorch's legacy storage class names (``torch.FloatStorage``) for yaten's dtypes.
_STORAGE_NAME = {d: f"{D.LEGACY_NAME[d]}Storage" for d in D.ALL}
_DTYPE_OF_STORAGE = {name: d for d, name in _STORAGE_NAME.items()}
_UNSUPPORTED_STORAGES = (
    "BFloat16Storage", "ComplexFloatStorage", "ComplexDoubleStorage", "QInt8Storage", "QUInt8Storage",
    "QInt32Storage", "QUInt4x2Storage", "QUInt2x4Storage",
)  # fmt: skip
_UNSUPPORTED_DTYPES = (
    "bfloat16", "complex32", "complex64", "complex128", "cfloat", "cdouble", "uint16", "uint32", "uint64",
    "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "qint8", "quint8", "qint32",
)  # fmt: skip


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
        storage_type = _Global("torch", _STORAGE_NAME[t.dtype])
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


def _parameter_class():
    # nn loads on first use; without it nothing can be a Parameter.
    nn = sys.modules.get("yaten.nn")
    return getattr(nn, "Parameter", None) if nn is not None else None


def _is_parameter(t: Tensor) -> bool:
    cls = _parameter_class()
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


# --- reading: the restricted unpickler ------------------------------------------------------------
@dataclass(frozen=True)
class _StorageType:
    dtype: D.dtype


@dataclass(frozen=True)
class TypedStorage:
    """A storage as it comes out of a checkpoint: the bytes and the dtype the file gave them."""

    untyped: UntypedStorage
    dtype: D.dtype


def _rebuild_tensor(storage: TypedStorage, storage_offset, size, stride) -> Tensor:
    from .autograd.grad_mode import no_grad

    if not isinstance(storage, TypedStorage):
        raise RuntimeError(
            f"a checkpoint tensor's storage must come from a data record, got {type(storage).__name__}"
        )
    with no_grad():
        t = _empty(storage.dtype, storage.untyped.device)
        t.set_(storage.untyped, storage_offset, tuple(size), tuple(stride))
    t._vc[0] = 0
    return t


def _empty(dtype: D.dtype, device) -> Tensor:
    from ._factories import empty

    return empty(0, dtype=dtype, device=device)


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    t = _rebuild_tensor(storage, storage_offset, size, stride)
    t.requires_grad = bool(requires_grad)
    return t


def _rebuild_parameter(data, requires_grad, backward_hooks):
    if not isinstance(data, Tensor):
        raise RuntimeError(f"a checkpoint Parameter's data must be a tensor, got {type(data).__name__}")
    return _parameter_type()(data, bool(requires_grad))


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    p = _rebuild_parameter(data, requires_grad, backward_hooks)
    _set_state(p, state)
    return p


def _rebuild_from_type_v2(func, new_type, args, state):
    # torch's wrapper for a tensor with Python attributes: only tensor rebuilds may be wrapped.
    if func not in (_rebuild_tensor, _rebuild_tensor_v2, _rebuild_parameter, _rebuild_parameter_with_state):
        raise RuntimeError(f"yaten.load: _rebuild_from_type_v2 can't call {func!r}")
    ret = func(*args)
    if new_type is not Tensor and type(ret) is not new_type:
        raise RuntimeError(f"yaten.load can't rebuild a tensor of type {new_type!r}")
    _set_state(ret, state)
    return ret


def _set_state(obj, state) -> None:
    # A tensor's Python attributes (``t.foo = 1``), saved by torch as a dict; only plain data gets here.
    if isinstance(state, tuple) and len(state) == 2:
        state = {**(state[0] or {}), **(state[1] or {})}
    if state:
        if not isinstance(state, dict):
            raise RuntimeError(f"a checkpoint tensor's state must be a dict, got {type(state).__name__}")
        for name, value in state.items():
            if not isinstance(name, str) or name.startswith("_") or hasattr(type(obj), name):
                raise RuntimeError(f"yaten.load refuses to set attribute {name!r} of a tensor")
            obj.__dict__[name] = value  # as torch: the instance dict, never a property or a setter


def _parameter_type():
    cls = _parameter_class()
    if cls is None:
        from . import nn

        cls = nn.Parameter
    return cls


def _allowed_globals() -> dict:
    """``module.name`` in the file → what yaten rebuilds it with (the whole list of what may load)."""
    allowed = {
        "collections.OrderedDict": collections.OrderedDict,
        "collections.Counter": collections.Counter,
        "builtins.set": set,
        "builtins.bytearray": bytearray,
        "builtins.complex": complex,
        "_codecs.encode": codecs.encode,  # bytes, in pickle protocol 2
        "torch.Size": Size,
        "torch.device": _dev.device,
        "torch.Tensor": Tensor,
        "torch._utils._rebuild_tensor": _rebuild_tensor,
        "torch._utils._rebuild_tensor_v2": _rebuild_tensor_v2,
        "torch._utils._rebuild_parameter": _rebuild_parameter,
        "torch._utils._rebuild_parameter_with_state": _rebuild_parameter_with_state,
        "torch._tensor._rebuild_from_type_v2": _rebuild_from_type_v2,
        "torch.storage.UntypedStorage": _StorageType(D.uint8),
    }
    for d in D.ALL:
        allowed[f"torch.{d.name}"] = d
        allowed[f"torch.{_STORAGE_NAME[d]}"] = _StorageType(d)
    return allowed


_ALLOWED = _allowed_globals()


class _RestrictedUnpickler(pickle.Unpickler):
    def __init__(self, file, archive: "_Archive", encoding: str) -> None:
        super().__init__(file, encoding=encoding)
        self.archive = archive

    def find_class(self, module: str, name: str):
        # Protocol 2 writes Python 2's names (``__builtin__.set``, ``commands.call``): map them back.
        if (module, name) in _compat_pickle.NAME_MAPPING:
            module, name = _compat_pickle.NAME_MAPPING[(module, name)]
        else:
            module = _compat_pickle.IMPORT_MAPPING.get(module, module)
        full = f"{module}.{name}"
        if full == "torch.nn.parameter.Parameter":
            return _parameter_type()
        found = _ALLOWED.get(full)
        if found is not None:
            return found
        if module == "torch" and (name in _UNSUPPORTED_STORAGES or name in _UNSUPPORTED_DTYPES):
            raise RuntimeError(f"yaten.load: the checkpoint holds {full}, a dtype yaten does not have")
        raise _Refused(
            f"Weights only load failed: Unsupported global: GLOBAL {full} was not an allowed global by default. "
            "yaten.load rebuilds only tensors, parameters, dtypes, devices and containers (dict, OrderedDict, "
            "list, tuple, set, numbers, strings, bytes, None), and never runs code from the file. Load the file "
            "in an environment you trust and save a state_dict of plain data instead."
        )

    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage"):
            raise RuntimeError(f"yaten.load: unknown persistent id {pid!r} in the checkpoint")
        _, storage_type, key, location, numel = pid
        if (
            not isinstance(storage_type, _StorageType)
            or not isinstance(key, str)
            or not isinstance(location, str)
        ):
            raise RuntimeError(f"yaten.load: malformed storage reference {pid!r} in the checkpoint")
        dtype = storage_type.dtype
        storage = self.archive.storage(key, location, dtype)
        if not isinstance(numel, int) or storage.nbytes() != numel * dtype.itemsize:
            raise RuntimeError(
                f"yaten.load: storage {key} holds {storage.nbytes()} bytes, but the checkpoint says {numel!r} "
                f"elements of {dtype}"
            )
        return TypedStorage(storage, dtype)


class _Refused(pickle.UnpicklingError):
    """A global outside the allowlist (raised again as a plain ``pickle.UnpicklingError``)."""


class _Archive:
    """The records of one checkpoint, and the storages made from them (one per key: views share)."""

    def __init__(self, zf: zipfile.ZipFile, prefix: str, map_location) -> None:
        self.zf, self.prefix, self.map_location = zf, prefix, map_location
        self.storages = {}
        order = zf.read(prefix + "byteorder").decode() if prefix + "byteorder" in zf.NameToInfo else "little"
        if order not in ("little", "big"):
            raise RuntimeError(f"yaten.load: unknown byteorder {order!r} in the checkpoint")
        self.swap = order != sys.byteorder

    def storage(self, key: str, location: str, dtype: D.dtype) -> UntypedStorage:
        s = self.storages.get(key)
        if s is None:
            host = np.frombuffer(self.zf.read(f"{self.prefix}data/{key}"), np.uint8).copy()
            if self.swap and dtype.itemsize > 1:
                host.view(dtype.np).byteswap(inplace=True)
            s = self.storages[key] = self.restore(host, location)
        return s

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


def load(f, map_location=None, pickle_module=None, *, weights_only=True, mmap=None, **pickle_load_args):
    """Load what ``yaten.save`` or ``torch.save`` wrote, without running code from the file.

    ``f`` is a path or a binary file object. ``map_location`` moves the storages: a device or
    device string (all go there), a dict from saved location to location (``{'cuda:0': 'cpu'}``),
    or a callable ``(storage, location) -> storage or None``, as in PyTorch. Loading is always
    restricted to tensors, parameters and plain containers: ``weights_only=False`` is accepted for
    compatibility and changes nothing; any other global in the file raises ``pickle.UnpicklingError``
    naming it. A truncated or corrupted file raises ``RuntimeError``. ``mmap`` is accepted; the
    data is read into memory.

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
    if isinstance(f, (str, os.PathLike)):
        name = repr(os.fspath(f))
        with open(f, "rb") as fh:
            return _load(fh, name, map_location, pickle_load_args.get("encoding", "utf-8"))
    if not (hasattr(f, "seekable") and f.seekable()):
        f = io.BytesIO(f.read())
    return _load(f, "the file object", map_location, pickle_load_args.get("encoding", "utf-8"))


def _load(fh, name: str, map_location, encoding: str):
    try:
        zf = zipfile.ZipFile(fh)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as e:
        fh.seek(0)
        if fh.read(len(_LEGACY_MAGIC)) == _LEGACY_MAGIC:
            raise RuntimeError(
                f"yaten.load: {name} is in PyTorch's legacy format (torch.save(..., "
                "_use_new_zipfile_serialization=False)), which yaten does not read. Load it with torch and save it "
                "again with torch.save's default format."
            ) from None
        raise _corrupt(name, f"failed reading zip archive ({e})") from None
    with zf:
        pickles = [n for n in zf.namelist() if n.endswith("/data.pkl") and n.count("/") == 1]
        if len(pickles) != 1:
            raise _corrupt(name, "expected exactly one '<archive>/data.pkl' record")
        prefix = pickles[0][: -len("data.pkl")]
        try:
            # The small records are read (and so CRC-checked) even though only data.pkl matters.
            for n in zf.namelist():
                if n.startswith(prefix) and not n.startswith(prefix + "data/"):
                    zf.read(n)
            archive = _Archive(zf, prefix, map_location)
            data = zf.read(pickles[0])
            return _RestrictedUnpickler(io.BytesIO(data), archive, encoding).load()
        except _Refused as e:
            raise pickle.UnpicklingError(str(e)) from None
        except (zipfile.BadZipFile, KeyError, EOFError, pickle.UnpicklingError, OSError, UnicodeDecodeError,
                ValueError, IndexError, AttributeError, TypeError, OverflowError) as e:  # fmt: skip
            # (TypeError: a rebuild function given arguments of the wrong kinds by a damaged pickle.)
            raise _corrupt(name, f"{type(e).__name__}: {e}") from None
