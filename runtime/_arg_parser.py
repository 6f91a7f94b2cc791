"""Python argument parsing for generated functions: binding, type checks, overload choice.

The generator emits, per overload, its Python parameters as ``(name, type, default, kwonly)``
tuples (``default`` is ``REQUIRED`` when there is none); here calls are matched against them in
order, as PyTorch's PythonArgParser does, and a TypeError lists the signatures when none fits.
"""

import builtins
import numbers
import re

from . import _device, _dtype
from . import _tensor as _T  # a module reference: _tensor imports the generated methods, which import this
from ._memory_format import memory_format as _memory_format_type

REQUIRED = object()


def _is_int(v) -> bool:
    t = type(v)
    if t is builtins.int:  # the common case first: the ABC check below costs several times more
        return True
    return (t is not builtins.bool and isinstance(v, numbers.Integral)) or (
        isinstance(v, _T.Tensor) and v.ndim == 0 and v.dtype.kind == "i"
    )


def _int_list(v, size):
    if isinstance(v, (tuple, list)):
        if all(type(x) is builtins.int for x in v):
            return tuple(v)  # (a tuple is returned as it is)
        if all(_is_int(x) for x in v):
            return tuple(int(x) for x in v)
        return _NO
    if _is_int(v):
        return (int(v),) * (size or 1)
    return _NO


def _scalar(v):
    t = type(v)
    if t is builtins.int or t is builtins.float or isinstance(v, numbers.Number):
        return v
    if isinstance(v, _T.Tensor) and v.numel() == 1 and v.ndim == 0:
        return v.item()
    return _NO


_NO = object()


def _tensor(v):
    return v if isinstance(v, _T.Tensor) else _NO


def _int(v):
    return int(v) if _is_int(v) else _NO


def _float(v):
    if type(v) is builtins.float:
        return v
    return builtins.float(v) if isinstance(v, numbers.Real) and not isinstance(v, builtins.bool) else _NO


def _bool(v):
    return v if isinstance(v, builtins.bool) else _NO


def _str(v):
    return v if isinstance(v, str) else _NO


def _scalar_type(v):
    return v if isinstance(v, _dtype.dtype) else _NO


def _device_arg(v):
    return _device.canonical(v) if isinstance(v, (_device.device, str, builtins.int)) else _NO


def _tensor_list(optional: bool):
    def check(v):
        if isinstance(v, (tuple, list)) and all(
            isinstance(t, _T.Tensor) or (optional and t is None) for t in v
        ):
            return list(v)
        return _NO

    return check


def _float_list(v):
    return tuple(builtins.float(x) for x in v) if isinstance(v, (tuple, list)) else _NO


def _memory_format(v):
    return v if isinstance(v, _memory_format_type) else _NO


def _pass(v):
    return v  # Layout, Generator: passed through


_SIMPLE = {
    "Tensor": _tensor, "int": _int, "SymInt": _int, "Scalar": _scalar, "float": _float, "bool": _bool,
    "str": _str, "ScalarType": _scalar_type, "Device": _device_arg, "MemoryFormat": _memory_format,
}  # fmt: skip


def checker(type_str: str):
    """The function that converts a value for a parameter of schema type ``type_str`` (``_NO``: no fit).

    Built once per parameter when an Overload is made, so a call does no string matching.
    """
    if type_str.endswith("?"):
        inner = checker(type_str[:-1])
        return lambda v: None if v is None else inner(v)
    if type_str in _SIMPLE:
        return _SIMPLE[type_str]
    if type_str.endswith("]"):
        elem, _, size = type_str[:-1].partition("[")
        if elem in ("int", "SymInt"):
            n = builtins.int(size) if size else None
            return lambda v: _int_list(v, n)
        if elem in ("Tensor", "Tensor?"):
            return _tensor_list(elem == "Tensor?")
        if elem == "float":
            return _float_list
    return _pass


class Overload:
    """One Python signature of a function or method and the op functions it calls.

    The op functions are named, and looked up in ``yaten._generated.ops`` on first use: the
    bindings then import nothing generated, which keeps the generated modules free of cycles.
    """

    __slots__ = ("_fn", "_out_fn", "checks", "defaults", "fn_name", "name", "names", "npos", "out_fn_name",
                 "params", "self_at", "vararg_list")  # fmt: skip

    def __init__(
        self, name: str, params: tuple, fn_name: str, out_fn_name: str | None = None, self_at: int = 0
    ):
        # A method's params leave out self, which goes back in at ``self_at`` (where.self's is 1).
        self.self_at = self_at
        self.name = name
        self.params = params
        self.fn_name = fn_name
        self.out_fn_name = out_fn_name
        self._fn = self._out_fn = None
        self.checks = tuple(checker(p[1]) for p in params)
        self.defaults = tuple(p[2] for p in params)
        self.npos = sum(1 for p in params if not p[3])
        self.names = {p[0]: i for i, p in enumerate(params)}
        # view(2, 3) and permute(1, 0): a last positional int-list parameter also takes bare ints.
        self.vararg_list = self.npos >= 1 and params[self.npos - 1][1].startswith(("int[", "SymInt["))

    @property
    def fn(self):
        if self._fn is None:
            self._fn = getattr(_ops(), self.fn_name)
        return self._fn

    @property
    def out_fn(self):
        if self._out_fn is None and self.out_fn_name is not None:
            self._out_fn = getattr(_ops(), self.out_fn_name)
        return self._out_fn

    def bind(self, args, kwargs):
        """The converted arguments in schema order, or None when this signature does not fit."""
        n = len(args)
        if n > self.npos:
            lead = self.npos - 1
            if not (self.vararg_list and all(_is_int(a) for a in args[lead:])):
                return None
            args = (*args[:lead], tuple(args[lead:]))
            n = len(args)
        checks = self.checks
        out = []
        for i in range(n):
            c = checks[i](args[i])
            if c is _NO:
                return None
            out.append(c)
        used = 0
        for i in range(n, len(checks)):
            name = self.params[i][0]
            if name not in kwargs and _NUMPY_NAMES.get(name) in kwargs:
                name = _NUMPY_NAMES[name]
            if name in kwargs:
                c = checks[i](kwargs[name])
                if c is _NO:
                    return None
                out.append(c)
                used += 1
            elif self.defaults[i] is REQUIRED:
                return None
            else:
                out.append(self.defaults[i])
        return out if used == len(kwargs) else None

    def describe(self) -> str:
        parts, star = [], False
        for name, type_str, default, kwonly in self.params:
            if kwonly and not star:
                parts.append("*")
                star = True
            shown = re.sub(r"\bScalar\b", "Number", type_str)
            parts.append(f"{shown} {name}" + ("" if default is REQUIRED else f" = {default}"))
        return f"({', '.join(parts)})"


# NumPy's keyword names, which torch's argument parser takes for these parameters (``sum(x, axis=0)``).
_NUMPY_NAMES = {"dim": "axis", "keepdim": "keepdims"}


def _ops():
    from ._generated import ops

    return ops


def _type_name(v) -> str:
    if isinstance(v, _T.Tensor):
        return "Tensor"
    if isinstance(v, (tuple, list)):
        return f"{type(v).__name__} of [{', '.join(_type_name(x) for x in v)}]"
    return type(v).__name__


def resolve(name: str, overloads: tuple, args: tuple, kwargs: dict, self_=None):
    """Call the first overload whose signature accepts ``args``/``kwargs``; TypeError if none does."""
    out = kwargs.pop("out", None) if "out" in kwargs else None
    if out is not None and not isinstance(out, (_T.Tensor, tuple)):  # a tuple: the outs of a multi-output op
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    for ov in overloads:
        bound = ov.bind(args, kwargs)
        if bound is None:
            continue
        if self_ is not None:
            bound.insert(ov.self_at, self_)
        if out is not None:
            if ov.out_fn is None:
                continue
            return ov.out_fn(*bound, out=out)
        return ov.fn(*bound)
    got = ", ".join([_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()])
    if out is not None:
        got += (", " if got else "") + "out=" + _type_name(out)
    expected = "\n".join(f" * {ov.describe()}" for ov in overloads)
    raise TypeError(
        f"{name}() received an invalid combination of arguments - got ({got}), but expected one of:\n{expected}"
    )
