"""The restricted unpickler behind ``yaten.load``: PyTorch's checkpoint names mapped onto yaten, nothing else.

It is the pure-Python ``pickle._Unpickler`` with every opcode that could reach code or state
outside the loaded object replaced, as ``torch/_weights_only_unpickler.py`` restricts them:

- GLOBAL / STACK_GLOBAL name only the allowlist below (PyTorch's tensor, storage, parameter, dtype,
  device and container names);
- REDUCE and NEWOBJ call only those of them that are callable, each with the argument shapes its
  pickles take (``bytearray`` of bytes, never of a size; ``_codecs.encode`` of a str as latin1);
- BUILD sets state only where PyTorch's weights-only unpickler does: a tensor's or parameter's
  ``__setstate__`` forms, and an OrderedDict's or Counter's attributes (a state_dict's
  ``_metadata``), never a class, a dtype, a device or any other shared object;
- APPEND(S), SETITEM(S) and ADDITEMS go only into a list, a dict / OrderedDict / Counter and a set;
- INST, OBJ, NEWOBJ_EX and EXT1/2/4 are refused; a persistent id must name a storage record.

The globals a user marks safe (``serialization.add_safe_globals``, ``_safe_globals.py``) are allowed
as torch allows them: named, called with any arguments, instantiated by NEWOBJ, and given state by
BUILD (their ``__setstate__``, else their ``__dict__``). Every refusal is a ``pickle.UnpicklingError``
naming the step and the type, in torch's words (``load`` wraps it in torch's advice).
"""

import _compat_pickle
import codecs
import collections
import pickle
import reprlib
import sys
from dataclasses import dataclass

from . import _device as _dev
from . import _dtype as D
from ._safe_globals import unsupported_global, user_allowed
from ._storage import UntypedStorage
from ._tensor import Size, Tensor

# PyTorch's legacy storage class names (``torch.FloatStorage``) for yaten's dtypes.
STORAGE_NAME = {d: f"{D.LEGACY_NAME[d]}Storage" for d in D.ALL}
_UNSUPPORTED_STORAGES = (
    "ComplexHalfStorage", "QInt8Storage", "QUInt8Storage", "QInt32Storage", "QUInt4x2Storage", "QUInt2x4Storage",
)  # fmt: skip
_UNSUPPORTED_DTYPES = (
    "complex32", "chalf", "uint16", "uint32", "uint64",
    "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "qint8", "quint8", "qint32",
)  # fmt: skip


class Refused(pickle.UnpicklingError):
    """A step of the pickle that yaten.load does not take (raised again as a plain ``UnpicklingError``)."""


def _refuse(what: str) -> Refused:
    return Refused(
        f"{what}. A weights-only load rebuilds tensors, parameters, dtypes, devices, containers (dict, "
        "OrderedDict, list, tuple, set, numbers, strings, bytes, None) and the globals marked safe with "
        "add_safe_globals, and never runs other code from the file"
    )


def _kind(obj) -> str:
    cls = obj if isinstance(obj, type) else type(obj)
    what = f"{cls.__module__}.{cls.__qualname__}"
    return f"the class {what}" if isinstance(obj, type) else what


@dataclass(frozen=True)
class _StorageType:
    dtype: D.dtype


@dataclass(frozen=True)
class TypedStorage:
    """A storage as it comes out of a checkpoint: the bytes and the dtype the file gave them."""

    untyped: UntypedStorage
    dtype: D.dtype


# --- PyTorch's rebuild functions, on yaten ---------------------------------------------------------
def _is_int(x) -> bool:
    return type(x) is int


def _rebuild_tensor(storage: TypedStorage, storage_offset, size, stride) -> Tensor:
    if not isinstance(storage, TypedStorage):
        raise RuntimeError(
            f"a checkpoint tensor's storage must come from a data record, got {type(storage).__name__}"
        )
    t = _empty(storage.dtype, storage.untyped.device)
    _set_storage(t, storage.untyped, storage_offset, size, stride)
    t._vc[0] = 0
    return t


def _set_storage(t: Tensor, storage: UntypedStorage, storage_offset, size, stride) -> None:
    """``t.set_`` onto the checkpoint's storage, after checking that the file gave integers: the view must
    lie inside the storage (``set_`` refuses it otherwise), so nothing can read past the record's bytes.
    As in torch, a parameter that requires grad can't be set (an in-place change of a leaf)."""
    if not (
        _is_int(storage_offset)
        and isinstance(size, (tuple, list))
        and isinstance(stride, (tuple, list))
        and all(_is_int(n) for n in (*size, *stride))
    ):
        raise RuntimeError(
            f"a checkpoint tensor's storage offset, size and stride must be integers, got {reprlib.repr(storage_offset)}, "
            f"{reprlib.repr(size)} and {reprlib.repr(stride)}"
        )
    t.set_(storage, storage_offset, tuple(size), tuple(stride))


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
    return parameter_type()(data, bool(requires_grad))


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    p = _rebuild_parameter(data, requires_grad, backward_hooks)
    _set_state(p, state)
    return p


def _get_layout(name):
    """torch's ``serialization._get_layout``: the layout a sparse tensor's record names."""
    from ._tensor_kind import sparse_coo

    if name != "torch.sparse_coo":
        raise RuntimeError(f"yaten.load: yaten has sparse COO tensors only, not {reprlib.repr(name)} ones")
    return sparse_coo


def _rebuild_sparse_tensor(layout, data):
    """torch's ``_utils._rebuild_sparse_tensor`` for the COO layout: (indices, values, size[, is_coalesced]),
    its indices checked against the size (torch validates them after loading)."""
    from ._tensor_kind import sparse_coo
    from .sparse._factory import sparse_coo_tensor

    parts = data if isinstance(data, tuple) and len(data) in (3, 4) else None
    if layout is not sparse_coo or parts is None or not all(isinstance(t, Tensor) for t in parts[:2]):
        raise RuntimeError("yaten.load: a sparse tensor's record is (indices, values, size[, is_coalesced])")
    coalesced = parts[3] if len(parts) == 4 else None
    if coalesced not in (None, True, False) or not isinstance(parts[2], (tuple, list)):
        raise RuntimeError("yaten.load: a sparse tensor's size must be a tuple and its is_coalesced a bool")
    return sparse_coo_tensor(parts[0], parts[1], parts[2], check_invariants=True, is_coalesced=coalesced)


def _rebuild_from_type_v2(func, new_type, args, state):
    # torch's wrapper for a tensor with Python attributes: only tensor rebuilds may be wrapped.
    if not any(func is f for f in _TENSOR_REBUILDS):
        raise RuntimeError(f"yaten.load: _rebuild_from_type_v2 can't call {reprlib.repr(func)}")
    if not isinstance(args, tuple):
        raise RuntimeError(
            f"yaten.load: _rebuild_from_type_v2's arguments must be a tuple, got {_kind(args)}"
        )
    ret = func(*args)
    if new_type is not Tensor and type(ret) is not new_type:
        raise RuntimeError(f"yaten.load can't rebuild a tensor of type {reprlib.repr(new_type)}")
    _set_state(ret, state)
    return ret


def _set_state(obj, state) -> None:
    # A tensor's Python attributes (``t.foo = 1``), saved by torch as a dict; only plain data gets here.
    if isinstance(state, tuple) and len(state) == 2:
        state = {**(state[0] or {}), **(state[1] or {})}
    if state:
        if not isinstance(state, dict):
            raise RuntimeError(f"a checkpoint tensor's state must be a dict, got {type(state).__name__}")
        _set_attributes(obj, state, "yaten.load refuses to set attribute {} of a tensor", RuntimeError)


def _set_attributes(obj, state: dict, refusal: str, error) -> None:
    # Into the instance dict (as torch), never a property, a setter, a method or a private name (but a
    # state_dict's ``_metadata``).
    for name, value in state.items():
        private = name.startswith("_") and name != "_metadata" if isinstance(name, str) else True
        if private or hasattr(type(obj), name):
            raise error(refusal.format(reprlib.repr(name)))
        obj.__dict__[name] = value


def parameter_class():
    """``yaten.nn.Parameter`` once nn is loaded, else None (nothing can be a Parameter yet)."""
    nn = sys.modules.get("yaten.nn")
    return getattr(nn, "Parameter", None) if nn is not None else None


def parameter_type():
    cls = parameter_class()
    if cls is None:
        from . import nn

        cls = nn.Parameter
    return cls


def python3_name(module: str, name: str) -> tuple[str, str]:
    """Protocol 2 writes Python 2's names (``__builtin__.set``, ``commands.call``): map them back."""
    if (module, name) in _compat_pickle.NAME_MAPPING:
        return _compat_pickle.NAME_MAPPING[(module, name)]
    return _compat_pickle.IMPORT_MAPPING.get(module, module), name


def allowed_global(module: str, name: str):
    """What a checkpoint's ``module.name`` (a Python 3 name) is allowed by default as, or None."""
    if f"{module}.{name}" == "torch.nn.parameter.Parameter":
        return parameter_type()
    return _ALLOWED.get(f"{module}.{name}")


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
        "torch._utils._rebuild_sparse_tensor": _rebuild_sparse_tensor,
        "torch.serialization._get_layout": _get_layout,
        "torch.storage.UntypedStorage": _StorageType(D.uint8),
    }
    for d in D.ALL:
        allowed[f"torch.{d.name}"] = d
        allowed[f"torch.{STORAGE_NAME[d]}"] = _StorageType(d)
    return allowed


_ALLOWED = _allowed_globals()


# --- what REDUCE and NEWOBJ may call, with which arguments -----------------------------------------
def _empty_or_one(*types):
    return lambda a: a == () or (len(a) == 1 and type(a[0]) in types)


def _strings(a, first: type, second: str) -> bool:
    return len(a) == 2 and type(a[0]) is first and type(a[1]) is str and a[1] == second


_ARGUMENTS = {  # callable -> (the arguments its pickles pass, a test of them)
    collections.OrderedDict: ("() or a list of pairs", _empty_or_one(list)),
    collections.Counter: ("() or a dict", _empty_or_one(dict)),
    set: ("() or a list", _empty_or_one(list)),
    bytearray: (
        "bytes, or a str and 'latin-1'",
        lambda a: _empty_or_one(bytes)(a) or _strings(a, str, "latin-1"),
    ),
    complex: ("one or two numbers", lambda a: 1 <= len(a) <= 2 and all(type(x) in (int, float) for x in a)),
    codecs.encode: ("a str and 'latin1'", lambda a: _strings(a, str, "latin1")),
    Size: ("a tuple of ints", _empty_or_one(tuple, list)),
    _dev.device: (
        "a str and an optional int",
        lambda a: 1 <= len(a) <= 2 and type(a[0]) is str and (len(a) == 1 or _is_int(a[1])),
    ),
    Tensor: ("()", lambda a: a == ()),
}
_TENSOR_REBUILDS = (_rebuild_tensor, _rebuild_tensor_v2, _rebuild_parameter, _rebuild_parameter_with_state)
_REBUILDS = (*_TENSOR_REBUILDS, _rebuild_from_type_v2, _rebuild_sparse_tensor, _get_layout)


def _call(func, args, step: str):
    if any(func is f for f in user_allowed().values()):
        return func(*args)  # as torch: the user vouched for it, with whatever arguments
    if any(func is f for f in _REBUILDS):
        expected = ("the arguments of a rebuild", lambda a: True)  # each rebuild checks its own
    elif isinstance(func, type) and func is parameter_class():  # (a pickled Parameter has loaded nn)
        expected = ("a tensor and an optional bool", _parameter_arguments)
    else:
        expected = next((v for k, v in _ARGUMENTS.items() if func is k), None)
    if expected is None:
        raise _refuse(
            f"{step} of {_kind(func)} is not allowed: it calls only yaten's rebuild functions and types"
        )
    if not (isinstance(args, tuple) and expected[1](args)):
        got = _kinds(args) if isinstance(args, tuple) else _kind(args)
        raise _refuse(f"{step} of {_kind(func)} takes {expected[0]}, got {got}")
    return func(*args)


def _parameter_arguments(a) -> bool:
    return 1 <= len(a) <= 2 and isinstance(a[0], Tensor) and all(type(x) is bool for x in a[1:])


def _kinds(args) -> str:
    return "(" + ", ".join(_kind(a) for a in args) + ")"


# --- BUILD -----------------------------------------------------------------------------------------
def _build(inst, state) -> None:
    kind = type(inst)
    if kind is Tensor or kind is parameter_class():
        _set_tensor_state(inst, state)
    elif any(kind is g for g in user_allowed().values()):
        _build_allowed(inst, state)
    elif kind is collections.OrderedDict or kind is collections.Counter:
        if not isinstance(state, dict):
            raise _refuse(f"BUILD of {_kind(inst)} takes a dict of attributes, got {_kind(state)}")
        _set_attributes(inst, state, f"BUILD of {_kind(inst)} can't set attribute {{}}", _refuse)
    else:
        raise _refuse(
            f"BUILD of {_kind(inst)} is not allowed: only a tensor, a Parameter, an OrderedDict or a Counter "
            "takes state"
        )


def _build_allowed(inst, state) -> None:
    # An instance of a class marked safe: its own __setstate__, else pickle's own BUILD (as torch's).
    if hasattr(inst, "__setstate__"):
        inst.__setstate__(state)
        return
    slotstate = None
    if isinstance(state, tuple) and len(state) == 2:
        state, slotstate = state
    if state:
        inst.__dict__.update(state)
    for k, v in (slotstate or {}).items():
        setattr(inst, k, v)


def _set_tensor_state(t: Tensor, state) -> None:
    # Tensor.__setstate__'s forms: (storage, offset, size, stride); and for a Parameter also
    # (requires_grad, _, hooks) and a legacy Variable's (data, _, hooks, requires_grad, _).
    forms = (4,) if type(t) is Tensor else (3, 4, 5)  # a plain tensor takes only set_'s form, as in torch
    if not isinstance(state, tuple) or len(state) not in forms:
        raise _refuse(
            f"BUILD of {_kind(t)} takes a tuple of {' or '.join(map(str, forms))} items, got {_kind(state)}"
        )
    if not t.is_leaf:
        raise RuntimeError("__setstate__ can be only called on leaf Tensors")
    if len(state) == 4:
        storage, offset, size, stride = state
        if not (isinstance(storage, TypedStorage) and storage.dtype is t.dtype):
            got = f"a {storage.dtype} storage" if isinstance(storage, TypedStorage) else _kind(storage)
            raise RuntimeError(f"BUILD of a {t.dtype} tensor needs a storage of that dtype, got {got}")
        _set_storage(t, storage.untyped, offset, size, stride)
        return
    if len(state) == 5:
        if not isinstance(state[0], Tensor):
            raise RuntimeError(f"a checkpoint Variable's data must be a tensor, got {_kind(state[0])}")
        t.data = state[0]
        state = (state[3], state[4], state[2])
    requires_grad, _, hooks = state
    if type(requires_grad) is not bool or not (hooks is None or (type(hooks) in _DICTS and not hooks)):
        raise _refuse(f"BUILD of {_kind(t)} takes (requires_grad, _, backward_hooks), got {_kinds(state)}")
    t.requires_grad = requires_grad


# --- the unpickler ---------------------------------------------------------------------------------
def load_storage(pid, storage) -> TypedStorage:
    """A persistent id ``('storage', type, key, location, numel)`` as the storage ``storage(key, location,
    dtype, numel)`` gives (the archive's record): how every checkpoint pickle refers to tensor bytes."""
    if not (type(pid) is tuple and len(pid) == 5 and pid[0] == "storage"):
        raise _refuse(f"a persistent id must name a storage, got {_kind(pid)}")
    _, storage_type, key, location, numel = pid
    if not (
        isinstance(storage_type, _StorageType)
        and type(key) is str
        and type(location) is str
        and _is_int(numel)
        and numel >= 0
    ):
        raise RuntimeError(f"yaten.load: malformed storage reference {_kinds(pid)} in the checkpoint")
    return TypedStorage(storage(key, location, storage_type.dtype, numel), storage_type.dtype)


_MAX_NESTING = 1000  # hashing tuples nested much deeper overflows CPython's C stack (a crash, not an error)


class RestrictedUnpickler(pickle._Unpickler):
    """The pure-Python unpickler (its opcodes can be replaced; the C one's can't) restricted as above.
    ``storage(pid)`` turns a persistent id ``('storage', type, key, location, numel)`` into a storage."""

    dispatch = pickle._Unpickler.dispatch.copy()

    def __init__(self, file, storage, encoding: str) -> None:
        super().__init__(file, encoding=encoding)
        self.storage = storage
        self.nesting = {}  # id(tuple or frozenset) -> (it, how deep it nests) for those nesting 2 or deeper

    def find_class(self, module: str, name: str):
        module, name = python3_name(module, name)
        full = f"{module}.{name}"
        found = allowed_global(module, name)
        if found is not None:
            return found
        if module == "torch" and (name in _UNSUPPORTED_STORAGES or name in _UNSUPPORTED_DTYPES):
            raise RuntimeError(f"yaten.load: the checkpoint holds {full}, a dtype yaten does not have")
        marked = user_allowed()
        if full in marked:
            return marked[full]
        raise Refused(unsupported_global(full))

    def persistent_load(self, pid):
        return load_storage(pid, self.storage)

    def _load_reduce(self):
        args = self.stack.pop()
        self.stack[-1] = _call(self.stack[-1], args, "REDUCE")

    def _load_newobj(self):
        args = self.stack.pop()
        cls = self.stack[-1]
        if isinstance(cls, type) and any(cls is g for g in user_allowed().values()):
            self.stack[-1] = cls.__new__(cls, *args)
        else:
            self.stack[-1] = _call(cls, args, "NEWOBJ")

    def _load_build(self):
        state = self.stack.pop()
        _build(self.stack[-1], state)

    def _load_inst(self):
        self.find_class(self.readline()[:-1].decode("ascii"), self.readline()[:-1].decode("ascii"))
        raise _refuse("INST is not allowed")

    def _refused_step(self, step: str):
        raise _refuse(f"{step} is not allowed")

    def _into(self, step: str, types: tuple, target) -> None:
        if type(target) not in types:
            names = " or ".join(t.__name__ for t in types)
            raise _refuse(f"{step} into {_kind(target)} is not allowed: only into a {names}")

    def _load_append(self):
        self._into("APPEND", (list,), self.stack[-2])
        super().load_append()

    def _load_appends(self):
        self._into("APPENDS", (list,), self.metastack[-1][-1])
        super().load_appends()

    def _load_setitem(self):
        self._into("SETITEM", _DICTS, self.stack[-3])
        super().load_setitem()

    def _load_setitems(self):
        self._into("SETITEMS", _DICTS, self.metastack[-1][-1])
        super().load_setitems()

    def _load_additems(self):
        self._into("ADDITEMS", (set,), self.metastack[-1][-1])
        super().load_additems()

    def _nested(self, load):
        # A tuple or frozenset is hashed as a dict key or set item; its depth is bounded when it is built.
        load(self)
        built = self.stack[-1]
        inner = (self.nesting.get(id(x), (x, 1))[1] for x in built if type(x) in (tuple, frozenset))
        depth = 1 + max(inner, default=0)
        if depth > _MAX_NESTING:
            raise pickle.UnpicklingError(f"tuples or frozensets nested more than {_MAX_NESTING} deep")
        if depth > 1:
            self.nesting[id(built)] = (built, depth)  # (kept alive, so its id is not reused)

    for _op in ("TUPLE", "TUPLE1", "TUPLE2", "TUPLE3", "FROZENSET"):
        _code = getattr(pickle, _op)[0]
        dispatch[_code] = lambda self, load=dispatch[_code]: self._nested(load)
    dispatch[pickle.REDUCE[0]] = _load_reduce
    dispatch[pickle.NEWOBJ[0]] = _load_newobj
    dispatch[pickle.BUILD[0]] = _load_build
    dispatch[pickle.INST[0]] = _load_inst
    dispatch[pickle.APPEND[0]] = _load_append
    dispatch[pickle.APPENDS[0]] = _load_appends
    dispatch[pickle.SETITEM[0]] = _load_setitem
    dispatch[pickle.SETITEMS[0]] = _load_setitems
    dispatch[pickle.ADDITEMS[0]] = _load_additems
    for _op in ("OBJ", "NEWOBJ_EX", "EXT1", "EXT2", "EXT4"):
        dispatch[getattr(pickle, _op)[0]] = lambda self, step=_op: self._refused_step(step)
    del _op, _code


_DICTS = (dict, collections.OrderedDict, collections.Counter)
