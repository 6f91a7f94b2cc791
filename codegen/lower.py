"""Lowering each native function to the body of its op function (dispatch + autograd)."""

from __future__ import annotations

from codegen import api
from codegen import formulas as F
from codegen.entries import NativeFunction
from codegen.load import Spec


def inputs(fn: NativeFunction):
    """The arguments of ``fn`` that are not out= arguments, in schema order."""
    outs = fn.schema.out_arguments
    return [a for a in fn.schema.flat_arguments if a not in outs]


def tuple_expr(items) -> str:
    items = list(items)
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def _tensor_args(fn: NativeFunction):
    return [a for a in inputs(fn) if a.type.base_type.name == "Tensor"]


def _device_lines(fn: NativeFunction, op: str, elementwise: bool) -> list[str]:
    """Statements that set ``device``, raising PyTorch's error when tensor arguments disagree."""
    ts = _tensor_args(fn)
    plain = [a.name for a in ts if str(a.type) == "Tensor"]
    if len(ts) == 1 and plain:
        return [f"device = {plain[0]}._device"]
    # Arguments that may be CPU scalars go last, so that the check can exempt the tail of its list.
    ts = [a for a in ts if a.name not in fn.cpu_scalars] + [a for a in ts if a.name in fn.cpu_scalars]
    parts = [f"*{a.name}" if str(a.type).endswith("[]") else a.name for a in ts]
    if elementwise:  # CPU 0-d inputs join any device (not an in-place op's self, its output)
        parts.append(f"scalars_from={1 if fn.schema.kind() == 'inplace' else 0}")
    elif fn.cpu_scalars:
        parts.append(f"scalars_from=-{len(fn.cpu_scalars)}")
    check = f"device = _common_device({op!r}, {', '.join(parts)})"
    if len(plain) == len(ts):  # only plain tensors: compare devices inline, check only on a mismatch
        differs = " or ".join(f"{n}._device is not device" for n in plain[1:])
        return [f"device = {plain[0]}._device", f"if {differs}:", f"    {check}"]
    return [check]


def _requires_grad_expr(inputs, types) -> str:
    parts = []
    for name, is_list in inputs:
        if types[name] == "Scalar":
            continue  # a number standing for a wrapped-number tensor (scalar_of) never requires grad
        if is_list:
            parts.append(f"_builtins.any(t is not None and t._rg for t in {name})")
        elif types[name] == "Tensor?":
            parts.append(f"({name} is not None and {name}._rg)")
        else:
            parts.append(f"{name}._rg")
    return " or ".join(parts) if parts else "False"


def _paren(expr: str) -> str:
    return f"({expr})" if " or " in expr else expr


def pointwise_params(fn: NativeFunction) -> list[str]:
    return [a.name for a in inputs(fn)]


def real_numpy_ufunc(fn: NativeFunction) -> str | None:
    """The NumPy ufunc computing a pointwise op on float32/float64 (``formulas.numpy_real_ufunc``), or None."""
    tensors = {a.name for a in fn.schema.flat_arguments if str(a.type) == "Tensor"}
    return F.numpy_real_ufunc(fn.pointwise, tensors)


def pointwise_decl(fn: NativeFunction) -> tuple:
    """(op function name, tensor positions, promoted positions, kind, dtypes, the devices whose kernels
    take complex numbers, alpha position, the cpu kernel for alpha == 1 or None, NumPy's ufunc for
    float32/float64 compute or None)."""
    params = fn.schema.flat_arguments
    tensors = tuple(i for i, a in enumerate(params) if str(a.type) == "Tensor")
    if fn.promote is not None:
        promote = tuple(i for i, a in enumerate(params) if a.name in fn.promote)
    else:
        promote = tuple(
            i for i, a in enumerate(params) if str(a.type) == "Tensor" or a.name in ("self", "other")
        )
    alpha = next((i for i, a in enumerate(params) if a.name == "alpha"), None)
    unit = alpha is not None and F.without_unit_factor(fn.pointwise, "alpha") is not None
    unit_fn = f"_pw_cpu.{api.pyname(fn)}_kernel_unit_alpha" if unit else "None"
    complex_ = (("cpu", "cuda") if F.cuda_takes_complex(fn.pointwise) else ("cpu",)) if fn.complex else ()
    real_numpy = f"_pw_cpu.{api.pyname(fn)}_kernel_numpy" if real_numpy_ufunc(fn) else "None"
    return (
        api.pyname(fn), repr(tensors), repr(promote), fn.promotion, fn.dtypes, repr(complex_), repr(alpha), unit_fn,
        real_numpy,
    )  # fmt: skip


def return_type(fn: NativeFunction) -> tuple[str, tuple] | None:
    """(name, fields) of the named tuple an op with several named returns gives (torch.return_types)."""
    rets = fn.schema.returns
    if len(rets) > 1 and all(r.name for r in rets):
        return fn.schema.name.name, tuple(r.name for r in rets)
    return None


def _wrap_result(fn: NativeFunction, expr: str) -> str:
    rets = fn.schema.returns
    if len(rets) == 1 and str(rets[0].type) == "Tensor":
        return f"_wrap({expr}, device)"
    if len(rets) == 1 and str(rets[0].type) == "Tensor[]":
        return f"[_wrap(r, device) for r in {expr}]"
    if return_type(fn):
        return f"_RT_{api.pyname(fn)}(*(_wrap(r, device) for r in {expr}))"
    return f"tuple(_wrap(r, device) for r in {expr})"


def _autograd_block(fn: NativeFunction, node: api.NodePlan, result: str, inplace: bool):
    """The recording statements; for an in-place op, a pair (before the write, after it)."""
    types = {a.name: str(a.type) for a in fn.schema.flat_arguments}
    cond = _requires_grad_expr(node.inputs, types)
    lines = ["if recording:" if inplace else f"if _GRAD.enabled and {_paren(cond)}:"]
    body = [f"node = {node.cls}()"]
    edges = ", ".join(
        f"*{n}" if is_list else ("None" if types[n] == "Scalar" else n) for n, is_list in node.inputs
    )
    body.append(f"_connect(node, {tuple_expr(edges.split(', '))})")
    for n, is_list in node.inputs:
        if is_list:
            body.append(f"node._list_len = len({n})")
    after = []
    returns = fn.schema.returns
    out_index = api._result_names(fn.schema)
    for field_, kind, name in node.saved:
        when = _save_condition(node, name, types)
        if any(n == name and types[n] == "Scalar" for n, _ in node.inputs):
            body.append(f"node.{field_} = _SavedNumber({name})")  # scalar_of: the number for the tensor
        elif kind == "tensor":
            src = "_original_self" if inplace and name == "self" else name
            body.append(f"node.{field_} = {_conditional(f'_Saved({src}, False)', when)}")
        elif kind == "meta":
            body.append(f"node.{field_} = _Meta({name})")
        elif kind == "geometry":
            body.append(f"node.{field_} = _Meta({name}, geometry=True)")
        elif kind == "tensor_list":
            body.append(f"node.{field_} = [_Saved(t, False) for t in {name}]")
        elif kind == "value":
            body.append(f"node.{field_} = {name}")
        else:
            i = out_index[name]
            target = result if len(returns) == 1 and str(returns[0].type) != "Tensor[]" else f"{result}[{i}]"
            after.append(f"node.{field_} = {_conditional(f'_Saved({target}, True)', when)}")
    diff = fn_output_differentiability(fn, node)
    if inplace:
        # As PyTorch: the node and its saved inputs are made before the write (an input aliasing self
        # is saved at its old version), the history and saved outputs after it.
        history = [f"_set_inplace_history({result}, node)"] + after
        return lines + ["    " + b for b in body], lines + ["    " + b for b in history]
    if len(returns) == 1 and str(returns[0].type) == "Tensor":
        body.append(f"_set_history({result}, node)")
    elif len(returns) == 1:
        body.append(f"node._num_outputs = len({result})")
        body.append(f"node._output_meta = [_Meta(r) for r in {result}]")
        body.append(f"for i, r in enumerate({result}):")
        body.append("    _set_history(r, node, i)")
    else:
        body.append(f"node._num_outputs = {len(returns)}")
        body.append(f"node._output_meta = [_Meta(r) for r in {result}]")
        for i, d in enumerate(diff):
            if d:
                body.append(f"_set_history({result}[{i}], node, {i})")
    body.extend(after)
    return lines + ["    " + b for b in body]


def _save_condition(node: api.NodePlan, name: str, types: dict) -> str | None:
    """When a node must save ``name``: when an input whose formula reads it needs a gradient (as
    PyTorch's ``should_compute_output``); None when every input's formula reads it."""
    users = node.users[name]
    if len(users) == len(node.inputs):
        return None
    return _requires_grad_expr([(n, is_list) for n, is_list in node.inputs if n in users], types)


def _conditional(save: str, when: str | None) -> str:
    if when == "False":
        return "_NOT_SAVED"
    return save if when is None else f"{save} if {_paren(when)} else _NOT_SAVED"


def _refusal_lines(fn: NativeFunction, node: api.NodePlan, op: str) -> list[str]:
    """PyTorch's ``check_no_requires_grad``, before the kernel runs: with grad mode on, a Tensor argument
    without a formula (and not marked non_differentiable) may not require grad."""
    types = {a.name: str(a.type) for a in fn.schema.flat_arguments}
    lines = []
    for name, is_list in node.refused:
        cond = _requires_grad_expr([(name, is_list)], types)
        lines += [f"if _GRAD.enabled and {_paren(cond)}:", f"    _not_differentiable({op!r}, {name!r})"]
    return lines


def _kernel_call(args) -> str:
    """Kernels are called by keyword: their parameters are named as the schema's arguments, and a
    kernel that serves several overloads gives defaults to the parameters some of them lack."""
    return ", ".join(f"{a.name}={api.kernel_arg(a)}" for a in args)


def _sparse_branch(fn: NativeFunction, op: str, args, assign: str, dense: str) -> list[str]:
    """A sparse COO argument makes ``device`` a sparse one (``device.sparse``): the op then runs its
    SparseCPU/SparseCUDA kernel, a tensor-level function of ``runtime/native`` called with the arguments
    themselves; strided arguments take the ``dense`` statement."""
    kwargs = ", ".join(f"{a.name}={a.name}" for a in args)
    return [
        "if device.sparse:",
        f"    {assign}_kernel(_K_{api.pyname(fn)}, device, {op!r})({kwargs})",
        "else:",
        f"    {dense}",
    ]


def fn_output_differentiability(fn, node) -> tuple:
    n = len(fn.schema.returns)
    return node.output_differentiability if getattr(node, "output_differentiability", None) else (True,) * n


def autocast_lines(fn: NativeFunction) -> list[str]:
    """The autocast check an op on torch's autocast lists starts with: while autocast is on, the op
    runs again through ``yaten._autocast.call``, its inputs cast (one attribute read when it is off;
    ``entered`` is the op that call runs uncast, autocast staying on for the ops it calls)."""
    if not fn.autocast:
        return []
    name = api.pyname(fn)
    args = inputs(fn)
    target = f"globals()[{name!r}]" if name in (a.name for a in args) else name
    kinds = "{" + ", ".join(f"{d!r}: {k!r}" for d, k in fn.autocast) + "}"
    call = "{" + ", ".join(f"{a.name!r}: {a.name}" for a in args) + "}"
    return [
        f"if _AMP.active and _AMP.entered is not {target}:",
        f"    return _autocast({target}, {kinds}, {call})",
    ]


def op_body(fn: NativeFunction, spec: Spec, functional: NativeFunction | None, node: api.NodePlan | None,
            kernel_ref: dict) -> list[str]:  # fmt: skip
    """The statements of op function ``fn``."""
    kind = fn.schema.kind()
    name = fn.schema.name.name
    args = inputs(fn)
    call = ", ".join(a.name for a in args)
    if kind == "out":
        f = functional
        grads = [(a.name, str(a.type).endswith("[]")) for a in _tensor_args(f)]
        types = {a.name: str(a.type) for a in f.schema.flat_arguments}
        outs = [a.name for a in fn.schema.out_arguments]
        # An elementwise op's out may not partly overlap its inputs (PyTorch's TensorIterator check).
        reads = [a.name for a in _tensor_args(f) if str(a.type) == "Tensor"] if f.pointwise else []
        checked = f", ({', '.join(reads)}{',' if len(reads) == 1 else ''})" if reads else ""
        target = api.pyname(f)
        if target in (a.name for a in args):  # an argument named as its op (threshold's) shadows it
            target = f"globals()[{target!r}]"
        return [
            f"if _GRAD.enabled and {_paren(_requires_grad_expr(grads, types))}:",
            f"    _out_of_autograd({name!r})",
            f"return _write_out({name!r}, {outs[0]}, {target}({call}){checked})",
        ]
    impl_fn = functional if (kind == "inplace" and fn.pointwise is None and not fn.dense_dispatch) else fn
    composite = impl_fn.kernel("CompositeImplicitAutograd")
    if composite:
        return [f"return _native_{composite}({call})"]
    explicit = impl_fn.kernel("CompositeExplicitAutograd")
    # A device-generic composite handles devices itself (copy_ even moves data between them), unless a
    # sparse argument must reach the op's SparseCPU/SparseCUDA kernel instead.
    sparse = fn.has_sparse_kernel
    lines = [] if explicit and not sparse else _device_lines(fn, name, impl_fn.pointwise is not None)
    if node is not None:
        lines.extend(_refusal_lines(fn, node, name))
    if kind == "inplace":
        if node is not None:
            types = {a.name: str(a.type) for a in fn.schema.flat_arguments}
            # Decided before the write: self's requires_grad and history change with it.
            lines.append(f"recording = _GRAD.enabled and {_paren(_requires_grad_expr(node.inputs, types))}")
            lines.append("if _GRAD.enabled:")
            lines.append("    _check_inplace(self)")
            if any(f == "_saved_self_" for f, _, _ in node.saved):
                # A formula reads self's value from before the write (for the inputs in node.users).
                when = _save_condition(node, "self", types)
                if when != "False":
                    cond = "recording" if when is None else f"recording and {_paren(when)}"
                    lines.append(f"_original_self = self.clone() if {cond} else self")
            before, after = _autograd_block(fn, node, "self", inplace=True)
            lines.extend(before)
        if impl_fn.pointwise is not None:
            kargs = tuple_expr(a.name + ("._data" if str(a.type) == "Tensor" else "") for a in args)
            write = f"_PW_{api.pyname(impl_fn)}(device, {kargs}, out=self._data)"
        elif explicit:
            write = f"_native_{explicit}({call})"
        else:
            write = f"_kernel(_K_{api.pyname(impl_fn)}, device, {name!r})({_kernel_call(args)})"
        lines.extend(_sparse_branch(fn, name, args, "", write) if sparse else [write])
        lines.append("self._vc[0] += 1")
        if node is not None:
            lines.extend(after)
        lines.append("return self")
        return lines
    if fn.pointwise is not None:
        kargs = tuple_expr(a.name + ("._data" if str(a.type) == "Tensor" else "") for a in args)
        compute = f"result = _wrap(_PW_{api.pyname(fn)}(device, {kargs}), device)"
    elif explicit:
        compute = f"result = _native_{explicit}({call})"
    else:
        compute = "result = " + _wrap_result(
            fn, f"_kernel(_K_{api.pyname(fn)}, device, {name!r})({_kernel_call(args)})"
        )
    lines.extend(_sparse_branch(fn, name, args, "result = ", compute) if sparse else [compute])
    if node is not None:
        lines.extend(_autograd_block(fn, node, "result", inplace=False))
    lines.append("return result")
    return lines
