"""Running a generated elementwise op: PyTorch's type promotion, then the device's kernel.

The generator emits, for every ``pointwise:`` entry, a scalar function (cpu) and a numba.cuda kernel
(cuda), and a ``PointwiseOp`` describing which arguments are tensors and which take part in type
promotion. Here the compute dtype is chosen and the kernel for it is built on first use.
"""

import importlib

import numpy as np

from . import _dtype as D
from ._promotion import can_cast, result_type_of


class PointwiseOp:
    """One elementwise overload: its generated kernels and how its dtypes are derived."""

    __slots__ = ("_cpu_fn", "_cuda", "_ufuncs", "alpha", "dtypes", "kind", "name", "promote", "tensors")

    def __init__(self, name: str, cpu_fn, tensors: tuple, promote: tuple, kind: str, dtypes: str = "all",
                 alpha: int | None = None):  # fmt: skip
        self.name = name
        self.tensors = tensors  # positions of the tensor arguments
        self.promote = promote  # positions of the arguments that take part in promotion
        self.kind = kind  # PyTorch's promotion kind: default, int_to_float, always_bool, bool_to_long
        self.dtypes = dtypes  # input dtypes the op is defined for: all, floating, no_bool
        self.alpha = alpha  # position of an ``alpha`` scale, which must fit the promoted dtype
        self._cpu_fn = cpu_fn
        self._ufuncs = {}
        self._cuda = None

    def result_dtypes(self, args):
        """(result dtype, compute dtype) for these arguments."""
        tensors, scalars = [], []
        for i in self.promote:
            a = args[i]
            if i in self.tensors:
                tensors.append((D.BY_NP[a.dtype], a.ndim))
            else:
                scalars.append(a)
        rt = result_type_of(tensors, scalars)
        if (self.dtypes == "floating" and rt.kind != "f") or (self.dtypes == "no_bool" and rt is D.bool):
            raise NotImplementedError(f"\"{self.name}\" not implemented for '{_legacy(rt)}'")
        if self.alpha is not None:
            _check_alpha(args[self.alpha], rt)
        kind = self.kind
        if kind == "int_to_float" and rt.kind != "f":
            rt = D.get_default_dtype()
        elif kind == "bool_to_long" and rt is D.bool:
            rt = D.int64
        ct = D.float32 if rt is D.float16 else rt
        if kind == "always_bool":
            return D.bool, ct
        return rt, ct

    def __call__(self, device, args, out=None):
        """The result array of this op on ``args`` (schema order); written into ``out`` if given."""
        rt, ct = self.result_dtypes(args)
        if out is not None:
            out_dt = D.BY_NP[out.dtype]
            if not can_cast(rt, out_dt):
                raise RuntimeError(
                    f"result type {_legacy(rt)} can't be cast to the desired output type {_legacy(out_dt)}"
                )
        if device.type == "cuda":
            return self._cuda_kernel()(args, self.tensors, rt, ct, out)
        ufunc = self._ufunc(args, ct, rt)
        cnp = ct.np
        call = []
        for i, a in enumerate(args):
            if i in self.tensors:
                call.append(a if (a.dtype == cnp or i not in self.promote) else a.astype(cnp))
            else:
                call.append(cnp.type(a))
        if out is not None:
            _check_inplace_shape(out, call, self.tensors)
            ufunc(*call, out=out, casting="unsafe")
            return out
        if rt is not ct and self.kind != "always_bool":
            shape = np.broadcast_shapes(*(call[i].shape for i in self.tensors))
            res = np.empty(shape, rt.np)
            ufunc(*call, out=res, casting="unsafe")
            return res
        res = ufunc(*call)
        return res if type(res) is np.ndarray else np.asarray(res)

    def _ufunc(self, args, ct, rt):
        key = (ct, tuple(args[i].dtype for i in self.tensors if i not in self.promote))
        u = self._ufuncs.get(key)
        if u is None:
            from .kernels.cpu.vectorize import build_ufunc

            types = []
            for i, a in enumerate(args):
                types.append(a.dtype.name if (i in self.tensors and i not in self.promote) else ct.np.name)
            ret = "bool" if self.kind == "always_bool" else ct.np.name
            u = self._ufuncs[key] = build_ufunc(self._cpu_fn, ret, types)
        return u

    def _cuda_kernel(self):
        if self._cuda is None:
            mod = importlib.import_module("yaten.kernels.cuda.pointwise")
            fn = getattr(importlib.import_module("yaten._generated.pointwise_cuda"), self.name + "_kernel")
            self._cuda = mod.launcher(fn)
        return self._cuda


def _check_alpha(alpha, dtype) -> None:
    if isinstance(alpha, float) and dtype.kind != "f":
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    if isinstance(alpha, bool) and dtype is not D.bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")


def _check_inplace_shape(out, call, tensors) -> None:
    shape = np.broadcast_shapes(out.shape, *(call[i].shape for i in tensors))
    if shape != out.shape:
        raise RuntimeError(
            f"output with shape {list(out.shape)} doesn't match the broadcast shape {list(shape)}"
        )


_LEGACY = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
           "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}  # fmt: skip


def _legacy(dt) -> str:
    return _LEGACY[dt.name]
