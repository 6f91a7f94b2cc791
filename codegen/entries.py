"""The spec entries: a native function (native_functions.yaml) and a derivative (derivatives.yaml).

Both are frozen dataclasses built from one YAML mapping by ``from_yaml``, which consumes every key
and rejects unknown ones; cross-file checks (kernels exist, formulas name known things) live in
``codegen.load``.
"""

from __future__ import annotations

from dataclasses import dataclass

from codegen.model import FunctionSchema

DISPATCH_KEYS = (
    "CPU",
    "CUDA",
    "CompositeExplicitAutograd",
    "CompositeImplicitAutograd",
    "SparseCPU",
    "SparseCUDA",
)
SPARSE_KEYS = ("SparseCPU", "SparseCUDA")  # tensor-level kernels (runtime/native) for sparse COO arguments
VARIANTS = ("function", "method")
# PyTorch's ELEMENTWISE_TYPE_PROMOTION_KIND: complex_to_float is abs's (a complex input gives a real result).
PROMOTION_KINDS = ("default", "int_to_float", "always_bool", "bool_to_long", "complex_to_float")
DTYPE_SETS = ("all", "floating", "float_double", "integral", "no_bool")
# What torch's autocast does to an op's floating inputs, per device type (runtime/_autocast.py).
AUTOCAST_DEVICES = ("cpu", "cuda")
AUTOCAST_KINDS = ("lower_precision_fp", "fp32", "fp32_set_opt_dtype", "promote", "banned")


def _take(entry: dict, key: str, kind, default=None):
    value = entry.pop(key, default)
    if value is not default and not isinstance(value, kind):
        raise ValueError(
            f"'{key}' must be a {kind.__name__ if isinstance(kind, type) else 'value'}, got {value!r}"
        )
    return value


def _no_unknown_keys(entry: dict, known: tuple) -> None:
    if entry:
        key = sorted(entry)[0]
        raise ValueError(f"unknown key '{key}'; the keys an entry may have are: {', '.join(known)}")


@dataclass(frozen=True)
class NativeFunction:
    schema: FunctionSchema
    variants: tuple[str, ...]
    dispatch: tuple[tuple[str, str], ...]  # (dispatch key, kernel name), in spec order
    pointwise: str | None
    promotion: str
    promote: tuple[str, ...] | None  # arguments that take part in type promotion (None: the default set)
    dtypes: str  # which promoted input dtypes the kernel accepts
    doc: str | None
    line: int
    # The Tensor overload this Scalar overload stands for in autograd: PyTorch's Python binding wraps
    # the number into a tensor and calls that overload, so ``x * 2`` records MulBackward0.
    scalar_of: str | None = None
    # Tensor arguments that may be CPU 0-d tensors when the others are on another device (PyTorch's
    # ops that take such a scalar's value); elementwise ops allow it for every input already.
    cpu_scalars: tuple[str, ...] = ()
    # Other Python names of this entry's binding (``absolute`` for ``abs``): PyTorch's alias ops, bound
    # to the same overloads rather than implemented twice.
    aliases: tuple[str, ...] = ()
    # The torch submodule that binds the function (``python_module: fft``: ``fft_rfft`` is
    # ``yaten.fft.rfft``), as torchgen's key; None for the ``yaten`` namespace itself.
    python_module: str | None = None
    # ``complex: true``: the kernel is defined for complex64/complex128 too (PyTorch's *_AND_COMPLEX
    # dispatch); without it a complex input raises PyTorch's error for the op.
    complex: bool = False
    # ``autocast: {cpu: lower_precision_fp, cuda: fp32}``: the op is on torch's autocast list for those
    # device types, with that kind of cast (as (device type, kind) pairs).
    autocast: tuple[tuple[str, str], ...] = ()

    KEYS = (
        "func",
        "variants",
        "dispatch",
        "pointwise",
        "promotion",
        "promote",
        "dtypes",
        "complex",
        "scalar_of",
        "cpu_scalars",
        "aliases",
        "python_module",
        "autocast",
        "tags",
        "doc",
    )

    @classmethod
    def from_yaml(cls, raw: dict, line: int) -> NativeFunction:
        entry = dict(raw)
        func = _take(entry, "func", str)
        if func is None:
            raise ValueError("missing 'func:'; every entry starts with '- func: <schema>'")
        schema = FunctionSchema.parse(func)
        variants_text = _take(entry, "variants", str, "function")
        variants = tuple(v.strip() for v in variants_text.split(","))
        for v in variants:
            if v not in VARIANTS:
                raise ValueError(f"unknown variant '{v}'; use 'function', 'method' or 'function, method'")
        dispatch = _take(entry, "dispatch", dict, {})
        for key, kernel in dispatch.items():
            for k in str(key).split(","):
                if k.strip() not in DISPATCH_KEYS:
                    raise ValueError(
                        f"unknown dispatch key '{k.strip()}'; use one of {', '.join(DISPATCH_KEYS)}"
                    )
            if not isinstance(kernel, str) or not kernel.isidentifier():
                raise ValueError(
                    f"dispatch kernel for '{key}' must be a Python function name, got {kernel!r}"
                )
        pairs = tuple((k.strip(), kernel) for key, kernel in dispatch.items() for k in str(key).split(","))
        if any(k in SPARSE_KEYS for k, _ in pairs) and any(a.name == "device" for a in schema.flat_arguments):
            raise ValueError(
                "a SparseCPU/SparseCUDA kernel is chosen by the op's 'device' variable, which this schema's argument "
                "'device' would shadow; dispatch on the sparse argument inside the op's kernel instead"
            )
        pointwise = _take(entry, "pointwise", str)
        promotion = _take(entry, "promotion", str, "default")
        if promotion not in PROMOTION_KINDS:
            raise ValueError(f"unknown promotion '{promotion}'; use one of {', '.join(PROMOTION_KINDS)}")
        promote = _take(entry, "promote", list)
        dtypes = _take(entry, "dtypes", str, "all")
        if dtypes not in DTYPE_SETS:
            raise ValueError(f"unknown dtypes '{dtypes}'; use one of {', '.join(DTYPE_SETS)}")
        complex_ = _take(entry, "complex", bool, False)
        if complex_ and (pointwise is None or dtypes == "integral"):
            raise ValueError("'complex: true' is for pointwise ops whose dtypes include floating ones")
        entry.pop("tags", None)
        doc = _take(entry, "doc", str)
        scalar_of = _take(entry, "scalar_of", str)
        cpu_scalars = tuple(_take(entry, "cpu_scalars", list, []))
        tensors = [a.name for a in schema.flat_arguments if str(a.type) == "Tensor"]
        for name in cpu_scalars:
            if name not in tensors or name == "self":
                raise ValueError(
                    f"cpu_scalars: '{name}' is not a Tensor argument other than self; use one of {', '.join(tensors)}"
                )
        aliases = tuple(_take(entry, "aliases", list, []))
        for alias in aliases:
            if not isinstance(alias, str) or not alias.isidentifier():
                raise ValueError(f"aliases: {alias!r} is not a Python name; list names such as 'absolute'")
        python_module = _take(entry, "python_module", str)
        if python_module is not None:
            if not python_module.isidentifier():
                raise ValueError(f"python_module: {python_module!r} is not a module name; write e.g. 'fft'")
            if variants != ("function",) or not schema.name.name.startswith(python_module + "_"):
                raise ValueError(
                    f"python_module: {python_module} binds functions named '{python_module}_<name>' "
                    "(variants: function), as PyTorch's"
                )
        autocast = _take(entry, "autocast", dict, {})
        for device, kind in autocast.items():
            if device not in AUTOCAST_DEVICES or kind not in AUTOCAST_KINDS:
                raise ValueError(
                    f"autocast: {device}: {kind} is not a device type and cast kind; use "
                    f"{{{'|'.join(AUTOCAST_DEVICES)}: {'|'.join(AUTOCAST_KINDS)}}}"
                )
        if autocast and schema.kind() != "functional":
            raise ValueError("autocast: is for functional overloads (torch's autocast lists name no others)")
        _no_unknown_keys(entry, cls.KEYS)
        if pointwise is None and not pairs and schema.kind() == "functional":
            raise ValueError("needs a 'dispatch:' (kernels per device) or a 'pointwise:' expression")
        promote = tuple(promote) if promote else None
        return cls(
            schema, variants, pairs, pointwise, promotion, promote, dtypes, doc, line, scalar_of, cpu_scalars, aliases,
            python_module, complex_, tuple(autocast.items()),
        )  # fmt: skip

    @property
    def name(self) -> str:
        """The overload's full name, e.g. ``add.Tensor``."""
        return str(self.schema.name)

    def kernel(self, key: str) -> str | None:
        return dict(self.dispatch).get(key)

    @property
    def dense_dispatch(self) -> tuple[tuple[str, str], ...]:
        """The dispatch entries for strided tensors (every key but SparseCPU/SparseCUDA)."""
        return tuple((k, n) for k, n in self.dispatch if k not in SPARSE_KEYS)

    @property
    def has_sparse_kernel(self) -> bool:
        return len(self.dense_dispatch) < len(self.dispatch)


def namespace_ops(functions) -> set[str]:
    """The op names bound in the ``yaten`` namespace (what a derivative formula may call)."""
    return {fn.schema.name.name for fn in functions if "function" in fn.variants and fn.python_module is None}


# Submodules an alias binds into by its prefix, as PyTorch names its alias ops: ``special_expit`` (an alias
# of sigmoid) is ``torch.special.expit``.
ALIAS_MODULES = ("special", "linalg", "fft")


def alias_module(alias: str) -> str | None:
    """The submodule of an alias named ``<module>_<name>`` (``special_expit``), or None (``absolute``)."""
    prefix, sep, _ = alias.partition("_")
    return prefix if sep and prefix in ALIAS_MODULES else None


def module_functions(functions) -> dict[str, dict[str, str]]:
    """python_module -> {name in that module: binding name}: ``{"fft": {"rfft": "fft_rfft"}}``, aliases
    named for a submodule included (``{"special": {"expit": "special_expit"}}``)."""
    modules: dict[str, dict[str, str]] = {}
    for fn in functions:
        if fn.python_module is not None and fn.schema.kind() == "functional":
            name = fn.schema.name.name
            modules.setdefault(fn.python_module, {})[name.removeprefix(fn.python_module + "_")] = name
        for alias in fn.aliases:
            module = alias_module(alias)
            if module is not None:
                modules.setdefault(module, {})[alias.removeprefix(module + "_")] = alias
    return {m: dict(sorted(names.items())) for m, names in sorted(modules.items())}


@dataclass(frozen=True)
class Derivative:
    schema: FunctionSchema
    formulas: tuple[tuple[tuple[str, ...], str, int], ...]  # (input names, formula, line)
    output_differentiability: tuple[bool, ...] | None
    line: int
    # Tensor arguments written ``name: non_differentiable``: no gradient, and no requires_grad check
    non_differentiable: tuple[str, ...] = ()
    # ``node: CopyBackwards``: the Backward class's name, where PyTorch's is hand-written (not derived)
    node: str | None = None

    RESERVED = ("name", "output_differentiability", "result", "dispatch", "node")

    @classmethod
    def from_yaml(cls, raw: dict, lines: dict, line: int) -> Derivative:
        entry = dict(raw)
        name = entry.pop("name", None)
        if not isinstance(name, str):
            raise ValueError("missing 'name:'; every entry starts with '- name: <schema>'")
        schema = FunctionSchema.parse(name)
        od = entry.pop("output_differentiability", None)
        if od is not None and not (isinstance(od, list) and all(isinstance(b, bool) for b in od)):
            raise ValueError("'output_differentiability' must be a list of True/False, one per output")
        entry.pop("result", None)  # forward-mode formulas: accepted, not used yet
        node = entry.pop("node", None)
        if node is not None and not (isinstance(node, str) and node.isidentifier()):
            raise ValueError(f"'node' must be a class name, got {node!r}")
        if "dispatch" in entry:
            raise ValueError(
                "per-dispatch-key formulas ('dispatch:') are not supported; write the formulas under the entry"
            )
        formulas, skipped = [], []
        for key, formula in entry.items():
            names = tuple(n.strip() for n in str(key).split(","))
            if not isinstance(formula, str):
                raise ValueError(f"the formula for '{key}' must be a string expression, got {formula!r}")
            if formula.strip() == "non_differentiable":
                skipped.extend(names)
            else:
                formulas.append((names, formula.strip(), lines.get(key, line)))
        return cls(schema, tuple(formulas), tuple(od) if od else None, line, tuple(skipped), node)
