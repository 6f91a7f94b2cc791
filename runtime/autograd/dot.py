"""to_dot: the backward graph of tensors as Graphviz DOT source, drawn as torchviz's ``make_dot`` draws it.

One box per Backward node, labelled with its name; the output tensors in dark olive green; each leaf's
AccumulateGrad fed by a light-blue box naming the leaf (through ``params``) with its shape; the tensors a
node saved for backward in orange, joined to that node by an undirected edge. Edges follow the data
flow of the forward pass, as in torchviz: from each of a node's ``next_functions`` to the node, so the
outputs end up at the bottom of the picture.

Node ids are given in the order of a depth-first walk from the outputs, never from ``id()``: the same
graph gives the same text on every call and in every process. Rendering needs the Graphviz ``dot``
program; building the source does not, and no Python graphviz package is used.
"""

import shutil
import subprocess

from .. import _tensor as T

__all__ = ["DotGraph", "to_dot"]

_NODE_ATTRS = "align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box style=filled"
_SAVED_PREFIX = "_saved_"
_FREED = "freed"
_UNAVAILABLE = "unavailable"


class DotGraph:
    """DOT source of a graph (``.source``, also ``str()``), with rendering through the ``dot`` program."""

    def __init__(self, source: str):
        self.source = source

    def __str__(self) -> str:
        return self.source

    def __repr__(self) -> str:
        return f"<DotGraph: {self.source.count(chr(10)) + 1} lines of DOT>"

    def pipe(self, format: str = "svg") -> bytes:
        """The graph rendered by Graphviz (``dot -T<format>``), as bytes."""
        exe = shutil.which("dot")
        if exe is None:
            raise RuntimeError(
                "rendering a graph needs the Graphviz `dot` executable, which is not on PATH; install Graphviz "
                "(e.g. `apt-get install graphviz`) or render `.source` (or a file written by `.save()`) elsewhere"
            )
        done = subprocess.run(
            [exe, f"-T{format}"], input=self.source.encode(), capture_output=True, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"`dot -T{format}` failed with exit status {done.returncode}: "
                f"{done.stderr.decode(errors='replace').strip()}"
            )
        return done.stdout

    def _repr_svg_(self) -> str:
        return self.pipe("svg").decode()

    def save(self, path) -> str:
        """Write the DOT source to ``path`` (render it later with ``dot -Tsvg path``); returns ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.source)
        return path


def to_dot(tensor_or_tensors, params=None, show_attrs=False, show_saved=True, max_attr_chars=50) -> DotGraph:
    """The backward graph behind ``tensor_or_tensors`` (a Tensor, or a tuple or list of them) as DOT.

    ``params`` maps names to tensors (e.g. ``dict(model.named_parameters())``) to label the leaves.
    ``show_saved`` draws the tensors each node saved for backward (``freed`` once a backward without
    ``retain_graph`` released them); ``show_attrs`` lists a node's other saved arguments (dims, scalars)
    under its name, each value cut to ``max_attr_chars`` characters.

    >>> import yaten
    >>> from yaten.autograd.dot import to_dot
    >>> x = yaten.ones(2, 3, requires_grad=True)
    >>> print(to_dot((x * 2).exp().sum(), params={"x": x}))
    digraph {
        graph [size="12,12"]
        node [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box style=filled]
        n0 [label="()" fillcolor=darkolivegreen1]
        n1 -> n0
        n1 [label="SumBackward0"]
        n2 -> n1
        n2 [label="ExpBackward0"]
        n2 -> n3 [dir=none]
        n3 [label="result\\n (2, 3)" fillcolor=orange]
        n4 -> n2
        n4 [label="MulBackward0"]
        n4 -> n5 [dir=none]
        n5 [label="other\\n ()" fillcolor=orange]
        n6 -> n4
        n6 [label="AccumulateGrad"]
        n7 -> n6
        n7 [label="x\\n (2, 3)" fillcolor=lightblue]
    }
    """
    outputs = (
        tuple(tensor_or_tensors) if isinstance(tensor_or_tensors, (tuple, list)) else (tensor_or_tensors,)
    )
    for i, t in enumerate(outputs):
        if not isinstance(t, T.Tensor):
            raise TypeError(
                f"to_dot() expects a Tensor or a tuple of Tensors, but got {type(t).__name__} at {i}"
            )
    param_names = {}
    for name, p in (params or {}).items():
        if not isinstance(p, T.Tensor):
            raise TypeError(f"to_dot(): params[{name!r}] must be a Tensor, but got {type(p).__name__}")
        param_names[id(p)] = name
    builder = _Builder(param_names, show_attrs, show_saved, max(max_attr_chars, 3))
    for t in outputs:
        builder.add_tensor(t, "darkolivegreen1")
    return DotGraph(builder.source())


class _Builder:
    def __init__(self, param_names, show_attrs, show_saved, max_attr_chars):
        self.param_names = param_names
        self.show_attrs = show_attrs
        self.show_saved = show_saved
        self.max_attr_chars = max_attr_chars
        self.body = []
        self._ids = {}  # id(obj) -> DOT id; _keep holds the objects so no id() is reused meanwhile
        self._keep = []
        self._seen = set()

    def _id(self, obj=None) -> str:
        """The DOT id of ``obj`` (given on first use); a fresh id when ``obj`` is None."""
        if obj is not None and id(obj) in self._ids:
            return self._ids[id(obj)]
        name = f"n{len(self._keep)}"
        self._keep.append(obj)
        if obj is not None:
            self._ids[id(obj)] = name
        return name

    def _node(self, ident: str, label: str, color: str | None = None) -> None:
        fill = f" fillcolor={color}" if color else ""
        self.body.append(f'\t{ident} [label="{_escape(label)}"{fill}]')

    def _edge(self, a: str, b: str, attrs: str = "") -> None:
        self.body.append(f"\t{a} -> {b}{f' [{attrs}]' if attrs else ''}")

    def _tensor_label(self, t, name=None) -> str:
        if name is None:
            name = self.param_names.get(id(t), "")
        size = _size_str(t.shape)
        return f"{name}\n {size}" if name else size

    def add_tensor(self, t, color: str) -> None:
        if id(t) in self._seen:
            return
        self._seen.add(id(t))
        ident = self._id(t)
        self._node(ident, self._tensor_label(t), color)
        if t.grad_fn is not None:
            self._edge(self._id(t.grad_fn), ident)
            self._add_graph(t.grad_fn)
        if t._base is not None:
            self.add_tensor(t._base, "darkolivegreen3")
            self._edge(self._id(t._base), ident, "style=dotted")

    def _add_graph(self, root) -> None:
        # Iterative depth-first walk: graphs can be far deeper than Python's recursion limit.
        stack = [root]
        while stack:
            fn = stack.pop()
            if id(fn) in self._seen:
                continue
            self._seen.add(id(fn))
            ident = self._id(fn)
            self._node(ident, self._fn_label(fn))
            if self.show_saved:
                for name, value in _saved_tensors(fn):
                    box = self._id()
                    self._edge(ident, box, "dir=none")
                    label = f"{name}\n {value}" if isinstance(value, str) else self._tensor_label(value, name)
                    self._node(box, label, "orange")
            variable = getattr(fn, "variable", None)
            if isinstance(variable, T.Tensor):  # AccumulateGrad: the leaf it fills
                self._edge(self._id(variable), ident)
                if id(variable) not in self._seen:
                    self._seen.add(id(variable))
                    self._node(self._id(variable), self._tensor_label(variable), "lightblue")
            children = [u for u, _ in getattr(fn, "next_functions", ()) if u is not None]
            for u in children:
                self._edge(self._id(u), ident)
            stack.extend(reversed(children))

    def _fn_label(self, fn) -> str:
        name = fn.name() if callable(getattr(fn, "name", None)) else type(fn).__name__
        name = name.rsplit("::", 1)[-1]  # yaten::autograd::AccumulateGrad is drawn as torchviz draws it
        if not self.show_attrs:
            return name
        attrs = dict(_saved_attrs(fn))
        for field, _ in _saved_tensors(fn):
            base = field.split("[")[0]
            attrs[base] = "[saved tensors]" if "[" in field else "[saved tensor]"
        if not attrs:
            return name
        attrs = dict(sorted(attrs.items()))
        col1 = max(len(k) for k in attrs)
        col2 = min(max(len(v) for v in attrs.values()), self.max_attr_chars)
        cut = lambda s: s[: col2 - 3] + "..." if len(s) > col2 else s
        rows = "\n".join(f"{k:<{col1}}: {cut(v):>{col2}}" for k, v in attrs.items())
        return f"{name}\n{'-' * max(col1 + col2 + 2, len(name))}\n{rows}"

    def source(self) -> str:
        # torchviz's resize_graph: 0.15 inch per statement, at least 12 inches.
        size = max(12, round(len(self.body) * 0.15, 2))
        head = ["digraph {", f'\tgraph [size="{size},{size}"]', f"\tnode [{_NODE_ATTRS}]"]
        return "\n".join([*head, *self.body, "}"])


def _saved_tensors(fn):
    """``(name, tensor or "freed")`` for each tensor node ``fn`` saved, in ``_saved_fields`` order."""
    out = []
    for field in getattr(fn, "_saved_fields", ()):
        saved = getattr(fn, field, None)
        name = _field_name(field)
        if isinstance(saved, list):
            for i, s in enumerate(saved):
                value = _unpack(fn, s)
                if value is not None:
                    out.append((f"{name}[{i}]", value))
        else:
            value = _unpack(fn, saved)
            if value is not None:
                out.append((name, value))
    custom = getattr(fn, "_saved", None)  # an autograd.Function's ctx.save_for_backward
    if isinstance(custom, tuple):
        for i, s in enumerate(custom):
            value = _unpack(fn, s)
            if value is not None:
                out.append((f"saved_tensors[{i}]", value))
    return out


def _unpack(fn, saved):
    """The saved tensor (read without the version check: drawing must not fail), "freed", or None."""
    if saved is None or not callable(getattr(saved, "unpack_for_property", None)):
        return None  # e.g. the shape and dtype kept of a tensor whose data no formula needs
    if getattr(saved, "_freed", False):
        return _FREED
    t = getattr(saved, "_tensor", None)
    if isinstance(t, T.Tensor):
        return t
    try:
        t = saved.unpack_for_property(fn)  # packed by saved-tensor hooks, or a wrapped number
    except (RuntimeError, TypeError):
        return _UNAVAILABLE
    return t if isinstance(t, T.Tensor) else None


def _saved_attrs(fn):
    """``(name, str(value))`` for what ``fn`` saved besides tensors: the arguments kept as they are
    (``_saved_dim`` slots) and the metadata read through properties (``_saved_self_sym_sizes``).
    """
    tensor_fields = set(getattr(fn, "_saved_fields", ()))
    tensor_names = {f.rstrip("_") for f in tensor_fields}
    out = {}
    for cls in type(fn).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            if slot.startswith(_SAVED_PREFIX) and slot not in tensor_fields:
                value = getattr(fn, slot, _MISSING)
                if value is not _MISSING:
                    out.setdefault(_field_name(slot), _attr_str(value))
        for attr, member in vars(cls).items():
            if attr.startswith(_SAVED_PREFIX) and attr not in tensor_names and isinstance(member, property):
                try:
                    value = _attr_str(getattr(fn, attr))
                except RuntimeError:  # read after a backward freed the graph
                    value = _FREED
                out.setdefault(_field_name(attr), value)
    return list(out.items())


def _attr_str(value) -> str:
    if isinstance(value, T.Tensor):
        return "[saved tensor]"
    return str(tuple(value)) if isinstance(value, tuple) else str(value)


_MISSING = object()


def _field_name(field: str) -> str:
    """``_saved_self_`` -> ``self``: the name PyTorch's ``_saved_<name>`` property uses."""
    name = field[len(_SAVED_PREFIX) :] if field.startswith(_SAVED_PREFIX) else field
    return name[:-1] if name.endswith("_") else name


def _size_str(shape) -> str:
    return "(" + ", ".join(str(int(s)) for s in shape) + ")"


def _escape(label: str) -> str:
    return label.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
