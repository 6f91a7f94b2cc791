"""Rendering the templates and writing generated/ (deterministic, only what changed)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import jinja2

from codegen import api, lower
from codegen import formulas as F
from codegen.entries import SPARSE_KEYS, alias_module, module_functions, namespace_ops
from codegen.load import Spec, SpecError

TEMPLATES = Path(__file__).parent / "templates"


@dataclass
class Binding:
    name: str
    overloads: list
    doc: str
    module: str | None = None  # the spec's python_module: bound in yaten.<module>, not in yaten

    @property
    def table(self) -> str:
        """The module-level name of the overload table; never starting with two underscores, which a
        class body (the methods') would mangle (``_nnz``'s is ``_ov_nnz_overloads``)."""
        return ("_ov" if self.name.startswith("_") else "_") + self.name + "_overloads"


@dataclass
class BoundOverload:
    params: str
    fn: str
    out_fn: str
    stub: str
    ret: str
    doc: str
    self_at: int = 0  # a method's receiver is the argument named self, not always the first


def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True, undefined=jinja2.StrictUndefined,
    )  # fmt: skip


def _py_params(fn, method: bool, has_out=()) -> tuple[str, str]:
    """(parser tuple literal, stub parameter text) of the Python signature of ``fn``."""
    items, stub = [], ["self"] if method else []
    star = False
    for a in lower.inputs(fn):
        if method and a.name == "self":
            continue
        name = "input" if a.name == "self" else a.name
        kwonly = a in fn.schema.arguments.kwarg_only
        default = api.py_default(a) if a.default is not None else None
        items.append(f"({name!r}, {str(a.type)!r}, {default if default is not None else '_R'}, {kwonly})")
        if kwonly and not star:
            stub.append("*")
            star = True
        stub.append(f"{name}: {api.stub_type(a)}" + (f" = {default}" if default is not None else ""))
    if fn.schema.kind() == "functional" and fn.name in has_out:
        if not star:
            stub.append("*")
        stub.append("out: Tensor | None = None")
    return "(" + "".join(i + ", " for i in items) + ")", ", ".join(stub)


def _ret(fn) -> str:
    rets = fn.schema.returns
    if len(rets) == 1:
        return "list[Tensor]" if str(rets[0].type) == "Tensor[]" else "Tensor"
    if not rets:
        return "None"
    return "tuple[" + ", ".join("Tensor" for _ in rets) + "]"


def _doc(fn) -> str:
    text = fn.doc.strip() if fn.doc else ""
    sig = str(fn.schema)
    return (text + "\n\n    " if text else "") + f"Schema: ``{sig}``".replace('"', "'")


def _bindings(spec: Spec, outs: dict, variant: str) -> list[Binding]:
    groups: dict = {}
    for fn in spec.functions:
        if fn.schema.kind() == "out" or variant not in fn.variants:
            continue
        groups.setdefault(fn.schema.name.name, []).append(fn)
    out = []
    for name, fns in groups.items():
        ovs = []
        # PyTorch's parser tries Tensor overloads before Scalar ones (a 0-d tensor fits both).
        fns = sorted(
            fns, key=lambda f: sum(str(a.type).startswith("Scalar") for a in f.schema.flat_arguments)
        )
        for fn in fns:
            params, stub = _py_params(fn, variant == "method", outs)
            out_fn = outs.get(fn.name)
            names = [a.name for a in lower.inputs(fn)]
            self_at = names.index("self") if variant == "method" else 0
            ovs.append(
                BoundOverload(
                    params,
                    api.pyname(fn),
                    repr(out_fn) if out_fn else "None",
                    stub,
                    _ret(fn),
                    _doc(fn),
                    self_at,
                )
            )
        out.append(Binding(name, ovs, _doc(fns[0]), fns[0].python_module))
        # An alias binds the same overloads under its own name (errors name the alias, as PyTorch's).
        for alias in sorted({a for fn in fns for a in fn.aliases}):
            if variant == "method" and alias_module(alias):
                continue  # special_expit is torch.special.expit, not a Tensor method
            out.append(
                Binding(alias, ovs, f"Alias of ``{name}``.\n\n    " + _doc(fns[0]), alias_module(alias))
            )
    return out


def _cuda_expr(expr: str, tensors: set) -> str:
    class Index(ast.NodeTransformer):
        def visit_Name(self, node):
            if node.id in tensors:
                return ast.Subscript(value=node, slice=ast.Name(id="i", ctx=ast.Load()), ctx=ast.Load())
            return node

    return ast.unparse(Index().visit(ast.parse(expr, mode="eval")))


@dataclass
class PointwiseKernel:
    name: str
    params: str
    expr: str
    cuda_expr: str
    line: int
    unit_alpha_params: str | None = None  # the cpu kernel for alpha == 1 (alpha dropped): its parameters
    unit_alpha_expr: str | None = None
    numpy: str | None = None  # the NumPy ufunc that the cpu kernel is exactly, if any
    unit_alpha_numpy: str | None = None
    real_numpy: str | None = None  # the NumPy ufunc computing it on float32/float64, if any


def render(spec: Spec) -> dict[str, str]:
    """File name under generated/ -> its full text."""
    env = _env()
    by_name = {fn.name: fn for fn in spec.functions}
    node_names = api.backward_names(spec.derivatives)
    op_names = namespace_ops(spec.functions)
    nodes = {
        str(d.schema.name): api.node_plan(d, node_names[str(d.schema.name)], spec, op_names)
        for d in spec.derivatives
    }

    ops, outs, pointwise, dispatch = [], {}, [], []
    cpu_imports, native_imports = {}, {}
    for fn in spec.functions:
        functional = api._functional_of(fn, by_name) if fn.schema.kind() != "functional" else None
        if fn.schema.kind() != "functional" and functional is None and not (fn.pointwise or fn.dispatch):
            raise SpecError(
                f"spec/native_functions.yaml:{fn.line}: {fn.name}: no functional overload with the same arguments "
                "to derive this variant from; add it, or give this entry its own 'dispatch:'"
            )
        if fn.schema.kind() == "out":
            outs[functional.name] = api.pyname(fn)
        inplace_of = functional if fn.schema.kind() == "inplace" else None
        node = nodes.get(fn.name) or (nodes.get(inplace_of.name) if inplace_of is not None else None)
        recorded = inplace_of if fn.schema.kind() == "inplace" else fn
        if recorded is not None and recorded.scalar_of is not None:
            node = nodes[recorded.scalar_of]
        if fn.pointwise is not None:
            pointwise.append(lower.pointwise_decl(fn))
        entries = []
        for key, kernel in fn.dispatch:
            module = spec.kernel_modules[(key, kernel)].module
            if key == "CPU":
                cpu_imports.setdefault(module, set()).add(kernel)
                entries.append(("cpu", f"_quiet(_cpu_{kernel})"))
            elif key == "CUDA":
                entries.append(("cuda", f'_Lazy("{module}", "{kernel}")'))
            elif key in SPARSE_KEYS:
                native_imports.setdefault(module, set()).add(kernel)
                entries.append((key, f"_native_{kernel}"))
            else:
                native_imports.setdefault(module, set()).add(kernel)
        if entries:
            dispatch.append((api.pyname(fn), entries))
        params = []
        star = False
        for a in fn.schema.flat_arguments:
            if a in fn.schema.out_arguments and not star:
                params.append("*")
                star = True
            params.append(a.name + (f"={api.py_default(a)}" if a.default is not None else ""))
        body = lower.autocast_lines(fn) + lower.op_body(fn, spec, functional, node, {})
        ops.append(api.OpPlan(fn, api.pyname(fn), ", ".join(params), body, str(fn.schema)))

    return_types = []
    for fn in spec.functions:
        rt = lower.return_type(fn)
        if rt and fn.schema.kind() == "functional":
            return_types.append((api.pyname(fn), rt[0], api.quoted_tuple(rt[1])))
    kernels = []
    for fn in spec.functions:
        if fn.pointwise is None:
            continue
        params = lower.pointwise_params(fn)
        tensors = {a.name for a in fn.schema.flat_arguments if str(a.type) == "Tensor"}
        unit = F.without_unit_factor(fn.pointwise, "alpha") if "alpha" in params else None
        kernels.append(PointwiseKernel(api.pyname(fn), ", ".join(params), fn.pointwise,
                                       _cuda_expr(fn.pointwise, tensors), fn.line,
                                       unit and ", ".join(p for p in params if p != "alpha"), unit,
                                       F.numpy_ufunc(fn.pointwise, tensors),
                                       unit and F.numpy_ufunc(unit, tensors),
                                       lower.real_numpy_ufunc(fn)))  # fmt: skip

    functions = _bindings(spec, outs, "function")
    methods = _bindings(spec, outs, "method")
    sort = lambda d: sorted((m, sorted(n)) for m, n in d.items())
    files = {
        "__init__.py": env.get_template("__init__.py.j2").render(),
        "ops.py": env.get_template("ops.py.j2").render(
            ops=ops,
            return_types=return_types,
            pointwise=pointwise,
            dispatch=dispatch,
            cpu_imports=sort(cpu_imports),
            native_imports=sort(native_imports),
        ),
        "autograd_nodes.py": env.get_template("autograd_nodes.py.j2").render(nodes=list(nodes.values())),
        "functions.py": env.get_template("functions.py.j2").render(
            bindings=functions, modules=module_functions(spec.functions)
        ),
        "methods.py": env.get_template("methods.py.j2").render(bindings=methods),
        "pointwise_cpu.py": env.get_template("pointwise_cpu.py.j2").render(
            kernels=kernels, digest=spec.scalar_digests[0]
        ),
        "pointwise_cuda.py": env.get_template("pointwise_cuda.py.j2").render(
            kernels=kernels, digest=spec.scalar_digests[1]
        ),
        "functions.pyi": env.get_template("stubs.pyi.j2").render(
            bindings=[b for b in functions if b.module is None],
            what="namespace functions",
            is_class=False,
            indent="",
        ),
        "methods.pyi": env.get_template("stubs.pyi.j2").render(
            bindings=methods, what="Tensor methods", is_class=True, indent="    "
        ),
    }
    return files


def write(out_dir: Path, files: dict[str, str], check: bool) -> list[str]:
    """Write the files that changed (or, with ``check``, only list them). Returns the stale names."""
    stale = []
    existing = {p.name for p in out_dir.glob("*") if p.is_file()} if out_dir.exists() else set()
    for name, text in sorted(files.items()):
        path = out_dir / name
        if not path.exists() or path.read_text() != text:
            stale.append(name)
    extra = sorted(existing - set(files))
    stale.extend(f"{n} (not generated any more)" for n in extra)
    if check or not stale:
        return stale
    out_dir.mkdir(exist_ok=True)
    for name in sorted(files):
        path = out_dir / name
        if not path.exists() or path.read_text() != files[name]:
            path.write_text(files[name])
    for n in extra:
        (out_dir / n).unlink()
    return stale
