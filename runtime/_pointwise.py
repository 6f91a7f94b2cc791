"""Running a generated elementwise op: PyTorch's type promotion, then the device's kernel.

The generator emits, for every ``pointwise:`` entry, a scalar function (cpu) and a numba.cuda kernel
(cuda), and a ``PointwiseOp`` describing which arguments are tensors and which take part in type
promotion. Here the compute dtype is chosen and the kernel for it is built on first use.
"""

import importlib

import numpy as np

from . import _dtype as D
from ._dispatch import no_sparse_kernel
from ._fp_errors import quiet
from ._host_allocator import allocation_error
from ._overlap import assert_no_overlap_with_inputs
from ._pointwise_checks import CHECKS, complex_refusal, op_name
from ._promotion import can_cast, infer_size, result_type_of


class _Plan:
    """What one combination of argument dtypes needs: result/compute dtypes, casts, the ufunc."""

    __slots__ = ("casts", "check", "ct", "kt", "result_alloc", "rt", "ufunc")

    def __init__(self, rt, ct, kt, casts, check):
        self.rt = rt
        self.ct = ct
        self.kt = kt  # what the kernel returns: ct, bool (comparisons) or ct's real part (abs of complex)
        self.casts = casts  # (position, NumPy dtype) of the tensor arguments to convert first
        self.ufunc = None  # the cpu ufunc, built on first use on cpu
        self.result_alloc = rt is not kt  # the kernel computes in ct but the result is rt (float16, bfloat16)
        self.check = check  # what PyTorch checks on every call's values (a zero divisor), or None


class PointwiseOp:
    """One elementwise overload: its generated kernels and how its dtypes are derived.

    Everything that depends only on the argument dtypes (promotion, checks, casts, the ufunc) is
    worked out once per combination and kept in a plan, so a call is a dict lookup and the loop.
    """

    __slots__ = (
        "_check",
        "_cpu_fn",
        "_cuda",
        "_is_tensor",
        "_key",
        "_plans",
        "_quiet_run",
        "_real_numpy",
        "_unit_alpha",
        "alpha",
        "complex",
        "dtypes",
        "kind",
        "multi_tensor",
        "name",
        "promote",
        "tensors",
    )  # fmt: skip

    def __init__(self, name: str, cpu_fn, tensors: tuple, promote: tuple, kind: str, dtypes: str = "all",
                 alpha: int | None = None, unit_alpha_fn=None, complex: tuple = (), real_numpy=None):  # fmt: skip
        self.name = name
        self.tensors = tensors  # positions of the tensor arguments
        self.promote = promote  # positions of the arguments that take part in promotion
        self.kind = kind  # PyTorch's promotion kind: default, int_to_float, always_bool, bool_to_long,
        # complex_to_float
        self.dtypes = (
            dtypes  # real input dtypes the op is defined for: all, floating, float_double, integral, no_bool
        )
        self.complex = complex  # the device types whose kernels take complex ones too: ("cpu", "cuda")
        self.alpha = alpha  # position of an ``alpha`` scale, which must fit the promoted dtype
        self._cpu_fn = cpu_fn
        self._real_numpy = real_numpy  # NumPy's SIMD ufunc of the same function, for float32/float64 compute
        self._quiet_run = quiet(self._run_cpu)
        self._check = CHECKS.get(name)
        self._cuda = None
        self._plans = {}
        self.multi_tensor = len(tensors) > 1
        self._is_tensor = tuple(i in tensors for i in range(max((*tensors, *promote, alpha or 0)) + 1))
        self._key = _plan_key(self._is_tensor)
        # alpha == 1 (add/sub by default) runs a kernel without it: a number operand costs the ufunc
        # its contiguous inner loop (4x slower at 8k elements).
        self._unit_alpha = None
        if unit_alpha_fn is not None:
            pos = lambda i: i - (i > alpha)
            self._unit_alpha = PointwiseOp(
                name, unit_alpha_fn, tuple(pos(i) for i in tensors),
                tuple(pos(i) for i in promote if i != alpha), kind, dtypes, complex=complex,
            )  # fmt: skip
        _ALL.append(self)

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
        dtypes = self.dtypes
        if rt.kind == "c":
            if not self.complex:
                raise complex_refusal(self.name, rt, args)
        elif (
            (dtypes == "floating" and rt.kind != "f")
            or (dtypes == "float_double" and (rt.kind != "f" or rt.itemsize < 4))
            or (dtypes == "integral" and rt.kind not in "bi")
            or (dtypes == "no_bool" and rt is D.bool)
        ):
            raise NotImplementedError(f"\"{self.name}\" not implemented for '{D.LEGACY_NAME[rt]}'")
        if self.alpha is not None:
            _check_alpha(args[self.alpha], rt)
        kind = self.kind
        if kind == "int_to_float" and rt.kind in "bi":
            rt = D.get_default_dtype()
        elif kind == "bool_to_long" and rt is D.bool:
            rt = D.int64
        ct = D.float32 if rt is D.float16 or rt is D.bfloat16 else rt
        if kind == "always_bool":
            return D.bool, ct
        if kind == "complex_to_float":
            return rt.to_real(), ct
        return rt, ct

    def _plan(self, args) -> _Plan:
        rt, ct = self.result_dtypes(args)
        # Python numbers go to the ufunc as they are (NumPy converts them to the loop's type);
        # tensors of another dtype than the compute dtype are converted first.
        casts = tuple((i, ct.np) for i in self.tensors if i in self.promote and args[i].dtype != ct.np)
        check = self._check and self._check(args, rt)
        kt = (
            D.bool
            if self.kind == "always_bool"
            else (ct.to_real() if self.kind == "complex_to_float" else ct)
        )
        return _Plan(rt, ct, kt, casts, check)

    def __call__(self, device, args, out=None):
        """The result array of this op on ``args`` (schema order); written into ``out`` if given."""
        if device.sparse:  # an op whose spec entry names no sparse kernel (its in-place form: out is self)
            inplace = out is not None and out is args[0]
            raise no_sparse_kernel(op_name(self.name) + ("_" if inplace else ""), device)
        unit = self._unit_alpha
        if (
            unit is not None
            and args[self.alpha].__class__ is int
            and args[self.alpha] == 1
            and device.type == "cpu"
        ):
            a = self.alpha
            return unit(device, args[:a] + args[a + 1 :], out)
        key = self._key(args)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = self._plan(args)
        if plan.check is not None and device.type == "cpu":
            plan.check(args)
        if out is not None:
            if (
                out is args[0]
                and plan.rt is not plan.ct
                and self.kind == "complex_to_float"
                and plan.ct.kind == "c"
            ):
                raise RuntimeError(f"In-place {self.name} is not supported for complex tensors.")
            assert_no_overlap_with_inputs(out, args, self.tensors)
            out_dt = D.BY_NP[out.dtype]
            if not can_cast(plan.rt, out_dt):
                raise RuntimeError(
                    f"result type {D.LEGACY_NAME[plan.rt]} can't be cast to the desired output type {D.LEGACY_NAME[out_dt]}"
                )
        if device.type == "cuda":
            if plan.ct.kind == "c" and "cuda" not in self.complex:
                op = op_name(self.name)
                raise NotImplementedError(
                    f"Could not run 'aten::{op}' with arguments from the 'CUDA' backend: yaten's cuda kernel of "
                    f"{op} takes no complex numbers ({D.LEGACY_NAME[plan.ct]}); compute it on the cpu"
                )
            return self._cuda_kernel()(args, self.tensors, plan.rt, plan.ct, out)
        ufunc = plan.ufunc or self._build_ufunc(plan, args)
        if self.multi_tensor:
            tensors = self.tensors
            first = args[tensors[0]].shape
            for i in tensors:
                if args[i].shape != first:  # NumPy would broadcast too, but with its ValueError
                    infer_size(*(args[j].shape for j in tensors))
                    break
        return self._quiet_run(ufunc, plan, args, out)

    def _run_cpu(self, ufunc, plan, args, out):
        call = args
        if plan.casts:
            call = list(args)
            for i, dt in plan.casts:
                call[i] = call[i].astype(dt)
        if out is not None:
            _check_inplace_shape(out, call, self.tensors)
            ufunc(*call, out=out, casting="unsafe")
            return out
        if plan.result_alloc:
            shape = np.broadcast_shapes(*(call[i].shape for i in self.tensors))
            try:
                res = np.empty(shape, plan.rt.np)
            except (MemoryError, ValueError) as e:
                raise allocation_error(e, shape, plan.rt.np) from None
            ufunc(*call, out=res, casting="unsafe")
            return res
        try:
            res = ufunc(*call)
        except MemoryError as e:
            shape = np.broadcast_shapes(*(call[i].shape for i in self.tensors))
            raise allocation_error(e, shape, plan.rt.np) from None
        return res if res.__class__ is np.ndarray else np.asarray(res)

    def _build_ufunc(self, plan, args):
        if isinstance(self._cpu_fn, np.ufunc):  # NumPy's own (its tensors arrive cast to the compute dtype)
            plan.ufunc = self._cpu_fn
            return plan.ufunc
        if self._real_numpy is not None and plan.ct.np.kind == "f" and plan.kt is plan.ct:
            plan.ufunc = self._real_numpy  # float32/float64 compute (the half types compute in float32)
            return plan.ufunc
        from .kernels.cpu.vectorize import build_ufunc

        ct = plan.ct.np.name
        types = [
            a.dtype.name if (i in self.tensors and i not in self.promote) else ct for i, a in enumerate(args)
        ]
        plan.ufunc = build_ufunc(self._cpu_fn, plan.kt.np.name, types)
        return plan.ufunc

    def _cuda_kernel(self):
        if self._cuda is None:
            mod = importlib.import_module("yaten.kernels.cuda.pointwise")
            fn = getattr(importlib.import_module("yaten._generated.pointwise_cuda"), self.name + "_kernel")
            self._cuda = mod.launcher(fn)
        return self._cuda


def _plan_key(is_tensor: tuple):
    """The function giving a call's plan key: each tensor's dtype (and, when there are several
    tensors, whether it is 0-d: that changes promotion between tensors) and each number's type.
    The common argument patterns get a key without a loop (this runs on every op call)."""
    if is_tensor == (True,):
        return lambda args: args[0].dtype
    if is_tensor == (True, False):
        return lambda args: (args[0].dtype, args[1].__class__)
    if is_tensor == (True, True):
        return lambda args: (args[0].dtype, args[1].dtype, args[0].ndim == 0, args[1].ndim == 0)

    def key(args):
        return tuple([(a.dtype, a.ndim == 0) if t else a.__class__ for a, t in zip(args, is_tensor)])

    return key


_ALL = []  # every PointwiseOp, so that their plans can be dropped when the default dtype changes


def clear_plans() -> None:
    for op in _ALL:
        op._plans.clear()


def _check_alpha(alpha, dtype) -> None:
    if isinstance(alpha, bool) and dtype is not D.bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, (float, complex)) and dtype.kind in "bi":
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    if isinstance(alpha, complex) and dtype.kind != "c":
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a complex number.")


def _check_inplace_shape(out, call, tensors) -> None:
    if all(call[i].shape == out.shape for i in tensors):
        return
    shape = np.broadcast_shapes(out.shape, *(call[i].shape for i in tensors))
    if shape != out.shape:
        raise RuntimeError(
            f"output with shape {list(out.shape)} doesn't match the broadcast shape {list(shape)}"
        )
