"""Loading the spec: YAML to entries, and every check that spans entries, files and the runtime.

Every error is raised as ``SpecError("spec/<file>.yaml:<line>: <entry>: <what and how to fix>")``.
"""

from __future__ import annotations

import ast
import hashlib
from dataclasses import dataclass
from pathlib import Path

import yaml

from codegen import formulas as F
from codegen.entries import Derivative, NativeFunction, namespace_ops
from codegen.model import FunctionSchema

# Where the kernel named under each dispatch key must be defined (read as source, never imported).
KERNEL_DIRS = {
    "CPU": "runtime/kernels/cpu",
    "CUDA": "runtime/kernels/cuda",
    "CompositeExplicitAutograd": "runtime/native",
    "CompositeImplicitAutograd": "runtime/native",
    "SparseCPU": "runtime/native",
    "SparseCUDA": "runtime/native",
}
FORMULA_HELPERS = "runtime/autograd/formulas.py"
SCALAR_FUNCTIONS = "runtime/kernels/cpu/scalar.py"
CUDA_SCALAR_FUNCTIONS = "runtime/kernels/cuda/scalar.py"  # the same names, for the CUDA kernels
SPECIAL_FUNCTIONS = "runtime/kernels/special_math.py"  # what both libraries call for digamma & co.
DIFFERENTIABLE_TYPES = ("Tensor", "Tensor?", "Tensor[]", "Tensor?[]")


class SpecError(Exception):
    """A problem in the spec, reported as ``file:line: entry: message``."""


@dataclass(frozen=True)
class Spec:
    functions: tuple[NativeFunction, ...]
    derivatives: tuple[Derivative, ...]
    kernel_modules: dict  # (dispatch key, kernel name) -> KernelDef
    scalar_functions: tuple[str, ...]
    helpers: tuple[str, ...]
    # sha256 of the cpu and cuda scalar libraries the pointwise kernels call: written into the kernel
    # files, so that a change there changes them and Numba's disk cache of their kernels is rebuilt.
    scalar_digests: tuple[str, str] = ("", "")

    def derivative_for(self, name: str) -> Derivative | None:
        for d in self.derivatives:
            if str(d.schema.name) == name:
                return d
        return None


def _entry_label(raw: dict, key: str) -> str:
    text = raw.get(key)
    return text.split("(", 1)[0] if isinstance(text, str) else "<entry>"


def _check_duplicate_keys(entry: yaml.MappingNode, rel: str, head: str) -> None:
    """PyYAML keeps the last of two equal keys silently; a spec entry must not lose one that way."""
    label = next(
        (
            v.value.split("(", 1)[0]
            for k, v in entry.value
            if k.value == head and isinstance(v, yaml.ScalarNode)
        ),
        "<entry>",
    )
    todo = [entry]
    while todo:
        node = todo.pop()
        first = {}
        for k, v in node.value:
            if isinstance(v, yaml.MappingNode):
                todo.append(v)
            if not isinstance(k, yaml.ScalarNode):
                continue
            if k.value in first:
                raise SpecError(
                    f"{rel}:{k.start_mark.line + 1}: {label}: key '{k.value}' is given twice "
                    f"(first at line {first[k.value]}); keep one"
                )
            first[k.value] = k.start_mark.line + 1


def _read_entries(path: Path, rel: str, head: str) -> list[dict]:
    """The entries of a spec file, each mapping with its line (``__line__``) and its keys' lines
    (``__lines__``). ``head`` is the key that starts an entry: ``func`` or ``name``."""
    loader = yaml.SafeLoader(path.read_text())
    try:
        node = loader.get_single_node()
        if isinstance(node, yaml.SequenceNode):
            for item in node.value:
                if isinstance(item, yaml.MappingNode):
                    _check_duplicate_keys(item, rel, head)
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        raise SpecError(f"{rel}:{line}: <file>: not valid YAML ({getattr(e, 'problem', e)})") from None
    finally:
        loader.dispose()
    if data is None:
        return []
    if not isinstance(data, list):
        raise SpecError(f"{rel}:1: <file>: the file must be a YAML list of entries ('- {head}: ...')")
    for item, item_node in zip(data, node.value):
        line = item_node.start_mark.line + 1
        if not isinstance(item, dict):
            raise SpecError(
                f"{rel}:{line}: <file>: every list item must be an entry ('- {head}: <schema>' and its keys), got {item!r}"
            )
        item["__line__"] = line
        item["__lines__"] = {
            k.value: k.start_mark.line + 1 for k, _ in item_node.value if isinstance(k, yaml.ScalarNode)
        }
    return data


@dataclass(frozen=True)
class KernelDef:
    """A function a dispatch entry may name, as read from its source."""

    module: str  # dotted module under the yaten package
    path: str  # the file, relative to the repository root
    params: tuple[str, ...] | None  # None: not a plain def (an assignment), so not checked
    required: tuple[str, ...]


def _top_level_defs(path: Path) -> dict:
    """Top-level functions (and assigned names) of a module: name -> (params, required params)."""
    tree = ast.parse(path.read_text())
    defs = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            if a.vararg or a.kwarg:
                defs[node.name] = (None, ())
                continue
            positional = a.posonlyargs + a.args
            required = positional[: len(positional) - len(a.defaults)]
            required += [k for k, d in zip(a.kwonlyargs, a.kw_defaults) if d is None]
            defs[node.name] = (
                tuple(x.arg for x in positional + a.kwonlyargs),
                tuple(x.arg for x in required),
            )
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    defs[t.id] = (None, ())
    return defs


def _public_functions(path: Path) -> tuple[str, ...]:
    """The names ``from <module> import *`` brings in (the generated code imports them that way),
    with those of the sibling modules it star-imports in turn (``from .linalg_formulas import *``)."""
    if not path.exists():
        return ()
    names = {n for n in _top_level_defs(path) if not n.startswith("_")}
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and [a.name for a in node.names] == ["*"]:
            names.update(_public_functions(path.parent / f"{node.module}.py"))
    return tuple(sorted(names))


def _kernel_index(root: Path) -> dict:
    """(dispatch key, function name) -> the KernelDefs of every module under the key's folder that
    defines it (a dispatch entry may only name a function defined once)."""
    index = {}
    for key, folder in KERNEL_DIRS.items():
        base = root / folder
        if not base.is_dir():
            continue
        for py in sorted(base.glob("*.py")):
            if py.name == "__init__.py":
                continue
            module = "yaten." + ".".join(py.relative_to(root / "runtime").with_suffix("").parts)
            for name, (params, required) in _top_level_defs(py).items():
                if not name.startswith("_"):
                    index.setdefault((key, name), []).append(
                        KernelDef(module, str(py.relative_to(root)), params, required)
                    )
    return index


def _check_kernel_params(fn: NativeFunction, key: str, kernel: KernelDef, rel: str) -> None:
    """CPU/CUDA kernels are called with the schema's arguments by keyword: the names must line up."""
    if key not in ("CPU", "CUDA") or kernel.params is None:
        return
    outs = fn.schema.out_arguments
    args = [a.name for a in fn.schema.flat_arguments if a not in outs]
    name = fn.kernel(key)
    for a in args:
        if a not in kernel.params:
            raise SpecError(
                f"{rel}:{fn.line}: {fn.name}: kernel '{name}' ({kernel.path}) has no parameter '{a}'; kernels take "
                f"the schema's arguments by name (add '{a}', with a default if other overloads lack it)"
            )
    for p in kernel.required:
        if p not in args:
            raise SpecError(
                f"{rel}:{fn.line}: {fn.name}: kernel '{name}' ({kernel.path}) requires '{p}', which the schema does "
                "not have; give it a default or rename it after a schema argument"
            )


def load(root: Path) -> Spec:
    nf_rel, d_rel = "spec/native_functions.yaml", "spec/derivatives.yaml"
    functions, seen = [], {}
    for raw in _read_entries(root / nf_rel, nf_rel, "func"):
        line = raw.pop("__line__")
        raw.pop("__lines__")
        try:
            fn = NativeFunction.from_yaml(raw, line)
        except ValueError as e:
            raise SpecError(f"{nf_rel}:{line}: {_entry_label(raw, 'func')}: {e}") from None
        if fn.name in seen:
            raise SpecError(
                f"{nf_rel}:{line}: {fn.name}: duplicate overload name (first defined at line {seen[fn.name]}); "
                "give each overload its own '.name'"
            )
        seen[fn.name] = line
        functions.append(fn)

    candidates = _kernel_index(root)
    for fn in functions:
        for key, kernel in fn.dispatch:
            defs = candidates.get((key, kernel), [])
            if not defs:
                raise SpecError(
                    f"{nf_rel}:{fn.line}: {fn.name}: kernel '{kernel}' for {key} is not defined in any module of "
                    f"{KERNEL_DIRS[key]}/; define 'def {kernel}(...)' there or fix the name"
                )
            if len(defs) > 1:
                raise SpecError(
                    f"{nf_rel}:{fn.line}: {fn.name}: kernel '{kernel}' for {key} is defined in "
                    f"{' and '.join(d.path for d in defs)}; rename one of them (or make it private)"
                )
            _check_kernel_params(fn, key, defs[0], nf_rel)
    kernels = {k: defs[0] for k, defs in candidates.items()}

    scalar_fns = _public_functions(root / SCALAR_FUNCTIONS)
    cuda_scalar_fns = _public_functions(root / CUDA_SCALAR_FUNCTIONS)
    for fn in functions:
        if fn.pointwise is None:
            continue
        try:
            called = F.called_functions(fn.pointwise)
            unknown_names = [n for n in F.free_names(fn.pointwise) if n not in called]
        except ValueError as e:
            raise SpecError(f"{nf_rel}:{fn.line}: {fn.name}: pointwise: {e}") from None
        for name in called:
            if name not in scalar_fns:
                raise SpecError(
                    f"{nf_rel}:{fn.line}: {fn.name}: pointwise expression calls unknown function '{name}'; "
                    f"use one of the functions of {SCALAR_FUNCTIONS} or add it there"
                )
            if name not in cuda_scalar_fns:
                raise SpecError(
                    f"{nf_rel}:{fn.line}: {fn.name}: pointwise expression calls '{name}', which "
                    f"{SCALAR_FUNCTIONS} defines but {CUDA_SCALAR_FUNCTIONS} does not; add it there too "
                    "(the generated CUDA kernel calls it)"
                )
        args = {a.name for a in fn.schema.flat_arguments}
        for name in unknown_names:
            if name not in args:
                raise SpecError(
                    f"{nf_rel}:{fn.line}: {fn.name}: pointwise expression uses '{name}', which is not an argument "
                    f"of the schema ({', '.join(sorted(args))})"
                )

    helpers = _public_functions(root / FORMULA_HELPERS)
    op_names = namespace_ops(functions)
    by_name = {fn.name: fn for fn in functions}
    derivatives, seen_d = [], {}
    for raw in _read_entries(root / d_rel, d_rel, "name"):
        line = raw.pop("__line__")
        lines = raw.pop("__lines__")
        label = _entry_label(raw, "name")
        try:
            d = Derivative.from_yaml(raw, lines, line)
        except ValueError as e:
            raise SpecError(f"{d_rel}:{line}: {label}: {e}") from None
        name = str(d.schema.name)
        where = f"{d_rel}:{line}: {name}"
        fn = by_name.get(name)
        if fn is None:
            raise SpecError(f"{where}: no op '{name}' in {nf_rel}; add it there first or fix the name")
        if str(fn.schema) != str(d.schema):
            raise SpecError(
                f"{where}: schema differs from {nf_rel}:{fn.line}; write it exactly as '{fn.schema}'"
            )
        od = d.output_differentiability
        if od is not None and len(od) != len(d.schema.returns):
            raise SpecError(
                f"{where}: output_differentiability has {len(od)} entries but the schema has "
                f"{len(d.schema.returns)} returns; give one True/False per return"
            )
        if name in seen_d:
            raise SpecError(
                f"{where}: second derivatives entry for '{name}' (first at line {seen_d[name]}); merge them into one"
            )
        seen_d[name] = line
        _check_formulas(d, fn.schema, helpers, op_names, d_rel)
        derivatives.append(d)
    for fn in functions:
        if fn.scalar_of is not None:
            _check_scalar_of(fn, by_name, seen_d, nf_rel)
    _check_aliases(functions, nf_rel)
    # Numba's cache sees only the kernel's own file, not the functions it inlines from others.
    special = root / SPECIAL_FUNCTIONS
    shared = special.read_bytes() if special.exists() else b""
    digests = tuple(
        hashlib.sha256((root / rel).read_bytes() + shared).hexdigest()
        for rel in (SCALAR_FUNCTIONS, CUDA_SCALAR_FUNCTIONS)
    )
    return Spec(tuple(functions), tuple(derivatives), kernels, scalar_fns, helpers, digests)


def _check_aliases(functions, rel: str) -> None:
    """An alias names no op of the spec and no other op's alias."""
    names = {fn.schema.name.name for fn in functions}
    owner: dict = {}
    for fn in functions:
        for alias in fn.aliases:
            where = f"{rel}:{fn.line}: {fn.name}"
            if alias in names:
                raise SpecError(f"{where}: alias '{alias}' is the name of an op; remove the alias or the op")
            base = fn.schema.name.name
            if owner.setdefault(alias, base) != base:
                raise SpecError(f"{where}: alias '{alias}' is already an alias of '{owner[alias]}'; keep one")


def _check_scalar_of(fn: NativeFunction, by_name: dict, derived: dict, rel: str) -> None:
    """``scalar_of: T`` needs T to take Tensors exactly where this overload takes Scalars, and the
    derivative to be T's alone."""
    where = f"{rel}:{fn.line}: {fn.name}"
    target = by_name.get(fn.scalar_of)
    if target is None:
        raise SpecError(f"{where}: scalar_of names '{fn.scalar_of}', which is not an op of {rel}")
    if fn.scalar_of not in derived:
        raise SpecError(
            f"{where}: scalar_of names '{fn.scalar_of}', which has no derivatives entry to record"
        )
    if fn.name in derived:
        raise SpecError(
            f"{where}: has its own derivatives entry (line {derived[fn.name]}) but also scalar_of; "
            f"it records {fn.scalar_of}'s node, so remove one"
        )
    ours = [(a.name, str(a.type)) for a in fn.schema.flat_arguments]
    theirs = [(a.name, str(a.type)) for a in target.schema.flat_arguments]
    pairs = list(zip(ours, theirs))
    if (
        len(ours) != len(theirs)
        or any(n != m or (t != u and (t, u) != ("Scalar", "Tensor")) for (n, t), (m, u) in pairs)
        or all(t == u for (_, t), (_, u) in pairs)
    ):
        raise SpecError(
            f"{where}: scalar_of '{fn.scalar_of}' must have the same arguments, with Tensor where this "
            f"overload has Scalar; its schema is '{target.schema}'"
        )


def formula_scope(schema: FunctionSchema) -> set[str]:
    """The names a formula of ``schema`` may use besides helpers, ops and builtins."""
    names = {"grad", "grads", "grad_input_mask", "result"}
    names.update(a.name for a in schema.flat_arguments)
    names.update(f"result{i}" for i in range(len(schema.returns)))
    names.update(r.name for r in schema.returns if r.name)
    return names


def _check_formulas(d: Derivative, schema: FunctionSchema, helpers, op_names, rel: str) -> None:
    args = {a.name: a for a in schema.flat_arguments}
    scope = formula_scope(schema) | set(helpers) | op_names | F.BUILTINS
    for name in d.non_differentiable:
        if name not in args or str(args[name].type) not in DIFFERENTIABLE_TYPES:
            raise SpecError(
                f"{rel}:{d.line}: {d.schema.name}: '{name}: non_differentiable' names no Tensor argument of the schema"
            )
    for inputs, formula, line in d.formulas:
        where = f"{rel}:{line}: {d.schema.name}"
        for name in inputs:
            if name not in args:
                raise SpecError(
                    f"{where}: formula for '{name}', which is not an argument of the schema "
                    f"({', '.join(args)}); an entry's other keys are name, output_differentiability, result and node"
                )
            if str(args[name].type) not in DIFFERENTIABLE_TYPES:
                raise SpecError(
                    f"{where}: formula for '{name}' of type {args[name].type}, which is not differentiable; "
                    "only Tensor arguments get gradients"
                )
        try:
            names = F.free_names(formula)
        except ValueError as e:
            raise SpecError(f"{where}: {e}") from None
        for name in names:
            if name not in scope:
                raise SpecError(
                    f"{where}: formula uses unknown name '{name}'; use the schema's arguments, grad/grads/result, "
                    f"a yaten op, or a helper defined in {FORMULA_HELPERS}"
                )
