"""Names and Python code pieces derived from the spec: what the templates substitute.

Templates only loop and substitute; every decision about an op (which kernel, which arguments are
converted how, what a Backward node saves) is made here, once, at build time.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from codegen import formulas as F
from codegen.entries import Derivative, NativeFunction
from codegen.load import DIFFERENTIABLE_TYPES, Spec
from codegen.model import Argument, FunctionSchema


def camel(base: str) -> str:
    """PyTorch's node-name stem: each ``_`` part title-cased, so a letter after a digit is upper case
    too (``log1p`` -> ``Log1P``, ``max_pool2d`` -> ``MaxPool2D``)."""
    return "".join(part.title() for part in base.split("_"))


def backward_names(derivatives) -> dict:
    """PyTorch's rule: CamelCase of the base name + 'Backward' + how many came before with that base
    (a ``_forward`` op drops the word: nll_loss_forward records ``NllLossBackward0``)."""
    counts, names = {}, {}
    for d in derivatives:
        if d.node is not None:
            names[str(d.schema.name)] = d.node
            continue
        stem = (camel(d.schema.name.base) + "Backward").replace("ForwardBackward", "Backward")
        names[str(d.schema.name)] = f"{stem}{counts.get(stem, 0)}"
        counts[stem] = counts.get(stem, 0) + 1
    return names


def pyname(fn_or_schema) -> str:
    schema = fn_or_schema.schema if isinstance(fn_or_schema, NativeFunction) else fn_or_schema
    name = schema.name
    return f"{name.name}_{name.overload}" if name.overload else name.name


_ENUM_DEFAULTS = {"contiguous_format": "None", "Mean": "1", "Sum": "2", "None_": "0", "long": "None"}


def py_default(arg: Argument) -> str:
    text = arg.default
    if text in _ENUM_DEFAULTS:
        return _ENUM_DEFAULTS[text]
    if text.startswith("["):
        inner = text[1:-1].strip()
        return f"({inner},)" if inner and "," not in inner else f"({inner})"
    size = getattr(arg.type, "size", None)
    if size and text.lstrip("-").isdigit():
        return "(" + ", ".join([text] * size) + ")"
    return text


_STUB_TYPES = {
    "Tensor": "Tensor", "int": "int", "SymInt": "int", "float": "float", "bool": "bool", "str": "str",
    "Scalar": "int | float | bool", "ScalarType": "dtype", "Device": "device | str | int",
}  # fmt: skip


def stub_type(arg: Argument) -> str:
    """The Python annotation of an argument in the .pyi stubs."""
    text = str(arg.type)
    optional = text.endswith("?")
    text = text.rstrip("?")
    if text.endswith("]"):
        elem = text.split("[", 1)[0].rstrip("?")
        inner = _STUB_TYPES.get(elem, "Any")
        py = f"Sequence[{inner} | None]" if "?[" in text else f"Sequence[{inner}]"
        if elem in ("int", "SymInt"):
            py += " | int"
    else:
        py = _STUB_TYPES.get(text, "Any")
    return f"{py} | None" if optional else py


def kernel_arg(arg: Argument) -> str:
    """How an op function hands argument ``arg`` to an array-level kernel."""
    t, n = str(arg.type), arg.name
    if t == "Tensor":
        return f"{n}._data"
    if t == "Tensor?":
        return f"None if {n} is None else {n}._data"
    if t == "Tensor[]":
        return f"[t._data for t in {n}]"
    if t == "Tensor?[]":
        return f"[None if t is None else t._data for t in {n}]"
    if t in ("MemoryFormat", "MemoryFormat?"):
        return f"None if {n} is None else {n}.name"
    if t in ("ScalarType", "ScalarType?"):
        return f"None if {n} is None else {n}.np" if t.endswith("?") else f"{n}.np"
    return n


@dataclass
class NodePlan:
    cls: str
    schema: str
    line: int
    inputs: list  # (name, is_list) of differentiable inputs, in schema order
    saved: list  # (field, kind, source) kind in tensor/output/meta/geometry/value/tensor_list
    users: dict  # source -> the inputs whose formulas read it (saved only if one of them needs a gradient)
    unpack: list  # lines run at the top of apply
    body: list  # lines computing the per-input gradients
    returns: str
    num_outputs_expr: str
    multi_output: bool
    output_differentiability: tuple | None = None
    # Tensor arguments with no formula that are not marked non_differentiable: requiring grad is an
    # error (PyTorch's check_no_requires_grad), as (name, is_list)
    refused: list = field(default_factory=list)
    # a hand-named node (derivatives.yaml ``node:``): its name() carries the namespace, as PyTorch's
    # hand-written C++ nodes' names do
    namespaced: bool = False

    @property
    def slots(self) -> str:
        extra = ["_list_len"] if any(is_list for _, is_list in self.inputs) else []
        return quoted_tuple([f for f, _, _ in self.saved] + extra)

    @property
    def saved_fields(self) -> str:
        return quoted_tuple(f for f, k, _ in self.saved if k != "value")


@dataclass
class OpPlan:
    fn: NativeFunction
    name: str
    params: str
    body: list = field(default_factory=list)
    doc: str = ""


def _functional_of(fn: NativeFunction, by_name: dict) -> NativeFunction | None:
    """The functional overload an in-place or out= overload is a variant of: the one with the same
    base name and the same arguments (the in-place ``self`` without its write annotation, and
    without the out= arguments), as torchgen pairs them."""
    s = fn.schema
    if s.kind() not in ("inplace", "out"):
        return None
    args = [a for a in s.arguments.positional + s.arguments.kwarg_only if a not in s.out_arguments]
    wanted = [f"{a.type} {a.name}" + (f"={a.default}" if a.default is not None else "") for a in args]
    for cand in by_name.values():
        cs = cand.schema
        if cs.name.base != s.name.base or cs.kind() != "functional" or cs.name.inplace:
            continue
        have = [f"{a.type} {a.name}" + (f"={a.default}" if a.default is not None else "")
                for a in cs.arguments.positional + cs.arguments.kwarg_only]  # fmt: skip
        if have == wanted:
            return cand
    return None


def _saved_kind(schema: FunctionSchema, name: str, uses: set) -> tuple[str, str]:
    args = {a.name: a for a in schema.flat_arguments}
    if name in args:
        t = str(args[name].type)
        if t in ("Tensor", "Tensor?"):
            if uses == {"meta"}:
                return "meta", name
            return ("geometry" if uses <= {"meta", "geometry"} else "tensor"), name
        if t in ("Tensor[]", "Tensor?[]"):
            return "tensor_list", name
        return "value", name
    return "output", name


def _result_names(schema: FunctionSchema) -> dict:
    names = {"result": 0}
    for i, r in enumerate(schema.returns):
        names[f"result{i}"] = i
        if r.name:
            names[r.name] = i
    return names


def _guarded(formula: str) -> str:
    """The formula as the left part of ``... if needs[i] else None`` (parenthesised only if it must be)."""
    top = ast.parse(formula, mode="eval").body
    return f"({formula})" if isinstance(top, (ast.IfExp, ast.Lambda, ast.NamedExpr)) else formula


def quoted_tuple(names) -> str:
    """A tuple literal of strings, as it would be written by hand: ("a", "b") or ("a",)."""
    names = list(names)
    return "(" + ", ".join(f'"{n}"' for n in names) + ("," if len(names) == 1 else "") + ")"


def _need_exprs(inputs) -> dict:
    """Per input, whether it wants a gradient: ``needs`` has one entry per tensor, so a Tensor[] input
    spans ``node._list_len`` entries (it wants one if any of its tensors does) and shifts the rest."""
    out, shift = {}, ""
    for i, (name, is_list) in enumerate(inputs):
        if is_list:
            out[name] = f"True in needs[{i}{shift}:{i}{shift} + node._list_len]"
            shift += " + node._list_len - 1"
        else:
            out[name] = f"needs[{i}{shift}]"
    return out


def node_plan(d: Derivative, cls: str, spec: Spec, op_names: set) -> NodePlan:
    schema = d.schema
    arg_types = {a.name: str(a.type) for a in schema.flat_arguments}
    results = _result_names(schema)
    inputs = []
    for a in schema.flat_arguments:
        if any(a.name in names for names, _, _ in d.formulas):
            inputs.append((a.name, arg_types[a.name] in ("Tensor[]", "Tensor?[]")))
    used, users = {}, {}
    for names, formula, _ in d.formulas:
        for name in F.free_names(formula):
            if name in arg_types or (name in results):
                used.setdefault(name, set()).add(F.usage(formula, name))
                users.setdefault(name, set()).update(names)
    saved, unpack = [], []
    for name in sorted(
        used, key=lambda n: (n not in arg_types, list(arg_types).index(n) if n in arg_types else 0, n)
    ):
        kind, _ = _saved_kind(schema, name, used[name])
        field_ = f"_saved_{name}_" if kind != "value" else f"_saved_{name}"
        saved.append((field_, kind, name))
        if kind in ("tensor", "output"):
            unpack.append(f"{name} = node.{field_}.unpack(node)")
        elif kind == "tensor_list":
            unpack.append(f"{name} = [s.unpack(node) for s in node.{field_}]")
        else:
            unpack.append(f"{name} = node.{field_}")
    multi = len(schema.returns) > 1 or str(schema.returns[0].type) == "Tensor[]"
    grad_line = "grads = node._materialize(grads)" if multi else None
    body = [grad_line] if grad_line else []
    if any("grad" in F.free_names(formula) for _, formula, _ in d.formulas):
        body.append("grad = grads[0]")
    needs_at = len(body)
    index = {name: i for i, (name, _) in enumerate(inputs)}
    need = _need_exprs(inputs)
    for names, formula, line in d.formulas:
        if len(names) == 1:
            body.append(
                f"grad_{names[0]} = {_guarded(formula)} if {need[names[0]]} else None  # spec/derivatives.yaml:{line}"
            )
        else:
            if "grad_input_mask" in F.free_names(formula):
                mask = ", ".join(need[n] for n in names)
                body.append(f"grad_input_mask = ({mask},)")
            targets = ", ".join(f"grad_{n}" for n in names)
            body.append(f"{targets} = {formula}  # spec/derivatives.yaml:{line}")
    if any("needs[" in line for line in body):
        body.insert(needs_at, "needs = node._needs()")
    parts = [f"*grad_{n}" if is_list else f"grad_{n}" for n, is_list in inputs]
    returns = "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    for n, is_list in inputs:
        if is_list:
            body.insert(
                len(body),
                f"grad_{n} = grad_{n} if grad_{n} is not None else [None] * node._list_len",
            )
    nout = "len(result)" if str(schema.returns[0].type) == "Tensor[]" else str(len(schema.returns))
    return NodePlan(
        cls,
        str(schema),
        d.line,
        inputs,
        saved,
        {name: tuple(n for n, _ in inputs if n in users[name]) for name in used},
        unpack,
        body,
        returns,
        nout,
        multi,
        d.output_differentiability,
        [
            (a.name, arg_types[a.name] in ("Tensor[]", "Tensor?[]"))
            for a in schema.flat_arguments
            if arg_types[a.name] in DIFFERENTIABLE_TYPES
            and a.name not in index
            and a.name not in d.non_differentiable
        ],
        d.node is not None,
    )
