"""Python argument parsing for generated functions: binding, type checks, overload choice.

The generator emits, per overload, its Python parameters as ``(name, type, default, kwonly)``
tuples (``default`` is ``REQUIRED`` when there is none); here calls are matched against them in
order, as PyTorch's PythonArgParser does, and a TypeError lists the signatures when none fits.
"""

import builtins
import numbers

from . import _device, _dtype
from ._tensor import Tensor

REQUIRED = object()


def _is_int(v) -> bool:
    return (isinstance(v, numbers.Integral) and not isinstance(v, builtins.bool)) or (
        isinstance(v, Tensor) and v.ndim == 0 and v.dtype.kind == "i"
    )


def _int_list(v, size):
    if _is_int(v):
        return (int(v),) * (size or 1)
    if isinstance(v, (tuple, list)) and all(_is_int(x) for x in v):
        return tuple(int(x) for x in v)
    return _NO


def _scalar(v):
    if isinstance(v, numbers.Number):
        return v
    if isinstance(v, Tensor) and v.numel() == 1 and v.ndim == 0:
        return v.item()
    return _NO


_NO = object()


def _check(type_str: str, v):
    """``v`` converted for a parameter of schema type ``type_str``, or ``_NO`` when it does not fit."""
    if type_str.endswith("?"):
        if v is None:
            return None
        type_str = type_str[:-1]
    if type_str == "Tensor":
        return v if isinstance(v, Tensor) else _NO
    if type_str in ("int", "SymInt"):
        return int(v) if _is_int(v) else _NO
    if type_str == "Scalar":
        return _scalar(v)
    if type_str == "float":
        return builtins.float(v) if isinstance(v, numbers.Real) and not isinstance(v, builtins.bool) else _NO
    if type_str == "bool":
        return v if isinstance(v, builtins.bool) else _NO
    if type_str == "str":
        return v if isinstance(v, str) else _NO
    if type_str == "ScalarType":
        return v if isinstance(v, _dtype.dtype) else _NO
    if type_str == "Device":
        return _device.canonical(v) if isinstance(v, (_device.device, str, builtins.int)) else _NO
    if type_str.endswith("]"):
        elem, _, size = type_str[:-1].partition("[")
        if elem in ("int", "SymInt"):
            return _int_list(v, builtins.int(size) if size else None)
        if elem in ("Tensor", "Tensor?") and isinstance(v, (tuple, list)):
            ok = all(isinstance(t, Tensor) or (elem == "Tensor?" and t is None) for t in v)
            return list(v) if ok else _NO
        if elem == "float" and isinstance(v, (tuple, list)):
            return tuple(builtins.float(x) for x in v)
        return _NO
    return v  # Layout, MemoryFormat, Generator: passed through


class Overload:
    """One Python signature of a function or method and the op functions it calls.

    The op functions are named, and looked up in ``yaten._generated.ops`` on first use: the
    bindings then import nothing generated, which keeps the generated modules free of cycles.
    """

    __slots__ = ("_fn", "_out_fn", "fn_name", "name", "names", "npos", "out_fn_name", "params", "vararg_list")

    def __init__(self, name: str, params: tuple, fn_name: str, out_fn_name: str | None = None):
        self.name = name
        self.params = params
        self.fn_name = fn_name
        self.out_fn_name = out_fn_name
        self._fn = self._out_fn = None
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
        params = self.params
        if len(args) > self.npos:
            lead = self.npos - 1
            if self.vararg_list and lead >= 0 and all(_is_int(a) for a in args[lead:]):
                args = (*args[:lead], tuple(args[lead:]))
            else:
                return None
        values = [REQUIRED] * len(params)
        for i, a in enumerate(args):
            values[i] = a
        for k, v in kwargs.items():
            i = self.names.get(k)
            if i is None or values[i] is not REQUIRED:
                return None
            values[i] = v
        out = []
        for (_, type_str, default, _), v in zip(params, values):
            if v is REQUIRED:
                if default is REQUIRED:
                    return None
                out.append(default)
                continue
            c = _check(type_str, v)
            if c is _NO:
                return None
            out.append(c)
        return out

    def describe(self) -> str:
        parts, star = [], False
        for name, type_str, default, kwonly in self.params:
            if kwonly and not star:
                parts.append("*")
                star = True
            shown = type_str.replace("Scalar", "Number")
            parts.append(f"{shown} {name}" + ("" if default is REQUIRED else f" = {default}"))
        return f"({', '.join(parts)})"


def _ops():
    from ._generated import ops

    return ops


def _type_name(v) -> str:
    if isinstance(v, Tensor):
        return "Tensor"
    if isinstance(v, (tuple, list)):
        return f"{type(v).__name__} of [{', '.join(_type_name(x) for x in v)}]"
    return type(v).__name__


def resolve(name: str, overloads: tuple, args: tuple, kwargs: dict, self_=None):
    """Call the first overload whose signature accepts ``args``/``kwargs``; TypeError if none does."""
    out = kwargs.pop("out", None) if "out" in kwargs else None
    for ov in overloads:
        bound = ov.bind(args, kwargs)
        if bound is None:
            continue
        if self_ is not None:
            bound.insert(0, self_)
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
