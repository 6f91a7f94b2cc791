"""yaten.autograd.dot.to_dot: DOT text of the backward graph, checked against PyTorch's graph.

The DOT text is parsed back (every line must be a node or an edge statement of the expected form) and
its structure compared with the same graph built by torch, walked as torchviz's ``make_dot`` walks it.
"""

import collections
import os
import re
import shutil
import stat
import subprocess
import sys

import pytest
import torch

import yaten
from yaten.autograd.dot import DotGraph, to_dot

_NODE = re.compile(r'^\t(n\d+) \[label="((?:[^"\\]|\\.)*)"(?: fillcolor=([\w]+))?\]$')
_EDGE = re.compile(r"^\t(n\d+) -> (n\d+)(?: \[(dir=none|style=dotted)\])?$")
_HEAD = [
    "digraph {",
    re.compile(r'^\tgraph \[size="[\d.]+,[\d.]+"\]$'),
    "\tnode [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box style=filled]",
]

Parsed = collections.namedtuple("Parsed", "nodes edges")  # nodes: id -> (label, color); edges: (a, b, attr)


def _unescape(label: str) -> str:
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), label)


def parse(source: str) -> Parsed:
    """The DOT text back into nodes and edges; fails on any line of another form or a dangling id."""
    lines = source.split("\n")
    for want, got in zip(_HEAD, lines):
        assert want.match(got) if isinstance(want, re.Pattern) else want == got, got
    assert lines[-1] == "}"
    nodes, edges = {}, []
    for line in lines[3:-1]:
        if m := _NODE.match(line):
            assert m.group(1) not in nodes, f"node {m.group(1)} defined twice"
            nodes[m.group(1)] = (_unescape(m.group(2)), m.group(3))
        elif m := _EDGE.match(line):
            edges.append(m.groups())
        else:
            raise AssertionError(f"not a DOT node or edge statement: {line!r}")
    for a, b, _ in edges:
        assert a in nodes and b in nodes, f"edge {a} -> {b} names an undefined node"
    return Parsed(nodes, edges)


def _canon(parsed: Parsed, node_id: str) -> str:
    label, color = parsed.nodes[node_id]
    return f"{color or 'fn'}:{label.split(chr(10))[0] if color is None else label}"


def flow_edges(parsed: Parsed):
    """The data-flow edges (no attributes) as sorted (source, target) labels, e.g. ('fn:MulBackward0', ...)."""
    return sorted((_canon(parsed, a), _canon(parsed, b)) for a, b, attr in parsed.edges if attr is None)


def saved_boxes(parsed: Parsed):
    """Sorted (node name, saved-box label) for the orange boxes, each joined to its node by dir=none."""
    out = []
    for a, b, attr in parsed.edges:
        if attr == "dir=none":
            assert parsed.nodes[b][1] == "orange"
            out.append((parsed.nodes[a][0].split("\n")[0], parsed.nodes[b][0]))
    assert len(out) == sum(1 for _, color in parsed.nodes.values() if color == "orange")
    return sorted(out)


# --- the same picture from torch's graph, walked as torchviz's make_dot walks it -----------------------
def _size(shape) -> str:
    return "(" + ", ".join(str(s) for s in shape) + ")"


def _tensor_label(t, names, name=None) -> str:
    name = names.get(id(t), "") if name is None else name
    return f"{name}\n {_size(t.shape)}" if name else _size(t.shape)


def torch_reference(outputs, params=None):
    """(flow edges, saved boxes) of a torch graph in the canonical form of ``flow_edges``/``saved_boxes``."""
    names = {id(v): k for k, v in (params or {}).items()}
    edges, saved, seen = [], [], set()

    def visit(fn):
        if fn in seen:
            return
        seen.add(fn)
        name = type(fn).__name__
        for attr in dir(fn):
            if attr.startswith("_saved_") and isinstance(getattr(fn, attr), torch.Tensor):
                saved.append((name, _tensor_label(getattr(fn, attr), {}, attr[len("_saved_") :])))
        if hasattr(fn, "variable"):
            edges.append((f"lightblue:{_tensor_label(fn.variable, names)}", f"fn:{name}"))
        for u, _ in fn.next_functions:
            if u is not None:
                edges.append((f"fn:{type(u).__name__}", f"fn:{name}"))
                visit(u)

    for out in outputs:
        edges.append((f"fn:{type(out.grad_fn).__name__}", f"darkolivegreen1:{_tensor_label(out, names)}"))
        visit(out.grad_fn)
    return sorted(edges), sorted(saved)


def torchviz_fn_label(fn, max_attr_chars=50) -> str:
    """torchviz's get_fn_name(fn, show_attrs=True) on a torch node."""
    name = type(fn).__name__
    attrs = {}
    for attr in dir(fn):
        if not attr.startswith("_saved_"):
            continue
        val = getattr(fn, attr)
        attr = attr[len("_saved_") :]
        if torch.is_tensor(val):
            attrs[attr] = "[saved tensor]"
        elif isinstance(val, tuple) and any(torch.is_tensor(t) for t in val):
            attrs[attr] = "[saved tensors]"
        else:
            attrs[attr] = str(val)
    if not attrs:
        return name
    col1 = max(len(k) for k in attrs)
    col2 = min(max(len(str(v)) for v in attrs.values()), max_attr_chars)
    sep = "-" * max(col1 + col2 + 2, len(name))
    fmt = "%-" + str(col1) + "s: %" + str(col2) + "s"
    cut = lambda s: s[: col2 - 3] + "..." if len(s) > col2 else s
    return name + "\n" + sep + "\n" + "\n".join(fmt % (k, cut(str(v))) for k, v in attrs.items())


# --- graphs built the same way in both libraries (ops whose node names agree with PyTorch) -------------
def _mlp(m):
    x = m.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
    w = m.tensor([[1.0, 2.0], [0.5, -0.5], [0.3, 0.2]], requires_grad=True)
    b = m.tensor([0.1, 0.2], requires_grad=True)
    h = (x @ w + b).tanh()
    y = (h * h.sin()).exp().sum(1) + (h * h).sum()
    return (y,), {"x": x, "w": w, "b": b}


def _two_outputs(m):
    x = m.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
    w = m.tensor([[1.0, 2.0], [0.5, -0.5], [0.3, 0.2]], requires_grad=True)
    z = (w * x.t()).view(-1).sum(0, keepdim=True)
    return (z, (x * x).sum()), {"input": x}


def _shared_leaf(m):
    x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    return ((x * x + x.sin()).sum(),), {}


GRAPHS = {"mlp": _mlp, "two_outputs": _two_outputs, "shared_leaf": _shared_leaf}


@pytest.mark.parametrize("build", GRAPHS.values(), ids=GRAPHS.keys())
def test_graph_structure_as_torch(build):
    outs, params = build(yaten)
    parsed = parse(to_dot(outs if len(outs) > 1 else outs[0], params=params).source)
    t_outs, t_params = build(torch)
    want_edges, want_saved = torch_reference(t_outs, t_params)
    assert flow_edges(parsed) == want_edges
    assert saved_boxes(parsed) == want_saved


def test_boxes_and_colours():
    (y,), params = _mlp(yaten)
    parsed = parse(to_dot(y, params=params).source)
    by_colour = collections.defaultdict(list)
    for label, colour in parsed.nodes.values():
        by_colour[colour].append(label)
    assert sorted(by_colour["lightblue"]) == ["b\n (2)", "w\n (3, 2)", "x\n (2, 3)"]
    assert by_colour["darkolivegreen1"] == ["(2)"]
    assert by_colour[None].count("AccumulateGrad") == 3
    assert sorted(by_colour["orange"]) == sorted(
        ["self\n (2, 3)", "mat2\n (3, 2)", "result\n (2, 2)", "result\n (2, 2)", "self\n (2, 2)"]
        + ["self\n (2, 2)", "other\n (2, 2)"] * 2
    )
    # Each leaf box feeds exactly its AccumulateGrad node.
    for a, b, attr in parsed.edges:
        if parsed.nodes[a][1] == "lightblue":
            assert attr is None and parsed.nodes[b] == ("AccumulateGrad", None)


def test_edge_count_is_the_sum_of_next_functions():
    x = yaten.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).exp() + x  # AccumulateGrad(x) feeds MulBackward0 twice and AddBackward0 once
    parsed = parse(to_dot(y, show_saved=False).source)
    nodes = [y.grad_fn]
    stack, seen = [y.grad_fn], set()
    n_next = 0
    while stack:
        fn = stack.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        nxt = [u for u, _ in fn.next_functions if u is not None]
        n_next += len(nxt)
        stack += nxt
        nodes += nxt
    # next_functions edges + output edge + leaf -> AccumulateGrad edge
    assert len(parsed.edges) == n_next + 2 == 7
    assert sum(1 for label, c in parsed.nodes.values() if c is None) == len(seen) == 4


def test_show_saved_false_draws_no_saved_tensors():
    (y,), params = _mlp(yaten)
    parsed = parse(to_dot(y, params=params, show_saved=False).source)
    assert all(colour != "orange" for _, colour in parsed.nodes.values())
    assert all(attr is None for _, _, attr in parsed.edges)
    t_outs, t_params = _mlp(torch)
    assert flow_edges(parsed) == torch_reference(t_outs, t_params)[0]


def test_show_attrs_labels_as_torchviz():
    def build(m):
        x = m.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
        return (x * x.exp()).view(-1).t().sum(0, keepdim=True)

    parsed = parse(to_dot(build(yaten), show_attrs=True).source)
    got = sorted(
        label for label, colour in parsed.nodes.values() if colour is None and label != "AccumulateGrad"
    )
    want, stack, seen = [], [build(torch).grad_fn], set()
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen or type(fn).__name__ == "AccumulateGrad":
            continue
        seen.add(fn)
        want.append(torchviz_fn_label(fn))
        stack += [u for u, _ in fn.next_functions]
    assert len(want) == 5 and got == sorted(want)
    assert (
        "SumBackward1\n" + "-" * 20 + "\ndim           : (0,)\nkeepdim       : True\nself_sym_sizes: (6,)"
        in got
    )


def test_show_attrs_cuts_long_values():
    x = yaten.ones(2, 3, requires_grad=True)
    y = x.sum((0, 1), keepdim=True)
    label = next(
        lbl
        for lbl, c in parse(to_dot(y, show_attrs=True, max_attr_chars=5).source).nodes.values()
        if "Sum" in lbl
    )
    assert "dim           : (0..." in label and all(
        len(line.split(": ")[1]) <= 5 for line in label.split("\n")[2:]
    )


def test_deterministic_text():
    def build():
        (y,), params = _mlp(yaten)
        return y, params

    y, params = build()
    first = to_dot(y, params=params, show_attrs=True).source
    assert to_dot(y, params=params, show_attrs=True).source == first
    _garbage = [yaten.ones(3) * 2 for _ in range(50)]  # other objects, other id()s
    y2, params2 = build()
    assert to_dot(y2, params=params2, show_attrs=True).source == first
    ids = [int(i[1:]) for i in parse(first).nodes]
    assert sorted(ids) == list(range(len(ids)))  # n0, n1, ... in order of discovery


def test_deterministic_across_processes():
    code = (
        "import yaten\nfrom yaten.autograd.dot import to_dot\n"
        "x = yaten.ones(2, 3, requires_grad=True)\nw = yaten.ones(3, requires_grad=True)\n"
        "print(to_dot(((x * w).exp().sum(1), (x @ w).sin()), params={'x': x, 'w': w}).source)\n"
    )
    runs = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        for _ in range(2)
    ]
    assert runs[0].stdout == runs[1].stdout and "MvBackward0" in runs[0].stdout


def test_freed_graph_does_not_crash():
    (y,), params = _mlp(yaten)
    retained = to_dot(y, params=params)
    y.backward(yaten.ones(2), retain_graph=True)
    assert to_dot(y, params=params).source == retained.source  # retain_graph keeps the saved tensors
    y.backward(yaten.ones(2))
    freed = parse(to_dot(y, params=params, show_attrs=True).source)
    orange = [label for label, colour in freed.nodes.values() if colour == "orange"]
    assert orange and all(label.endswith("\n freed") for label in orange)
    assert flow_edges(freed) == flow_edges(parse(retained.source))


def test_saved_tensor_modified_in_place_is_still_drawn():
    x = yaten.tensor([1.0, 2.0], requires_grad=True)
    a = x * x
    b = a.sin()
    a.mul_(2)  # SinBackward0's saved `self` is now stale: unpacking it would raise
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        _ = b.grad_fn._saved_self
    assert ("SinBackward0", "self\n (2)") in saved_boxes(parse(to_dot(b).source))


def test_multiple_outputs_and_views():
    x = yaten.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    base = x * x
    v = base.view(4)
    parsed = parse(to_dot([v, x.sum()], params={"x": x}).source)
    colours = collections.Counter(c for _, c in parsed.nodes.values())
    assert colours["darkolivegreen1"] == 2 and colours["darkolivegreen3"] == 1 and colours["lightblue"] == 1
    dotted = [(parsed.nodes[a], parsed.nodes[b]) for a, b, attr in parsed.edges if attr == "style=dotted"]
    assert dotted == [(("(2, 2)", "darkolivegreen3"), ("(4)", "darkolivegreen1"))]
    # the view's base box is fed by the node that made it
    assert ("fn:MulBackward0", "darkolivegreen3:(2, 2)") in flow_edges(parsed)


def test_leaf_and_plain_tensors():
    x = yaten.ones(2, 3, requires_grad=True)
    parsed = parse(to_dot(x, params={"weight": x}).source)
    assert list(parsed.nodes.values()) == [("weight\n (2, 3)", "darkolivegreen1")] and parsed.edges == []
    parsed = parse(to_dot(yaten.tensor(1.0)).source)
    assert list(parsed.nodes.values()) == [("()", "darkolivegreen1")]


def test_deep_graph_needs_no_recursion():
    x = yaten.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(sys.getrecursionlimit() + 500):
        y = y * 1.0
    parsed = parse(to_dot(y, show_saved=False).source)
    assert len(parsed.nodes) == sys.getrecursionlimit() + 500 + 3
    assert float(re.search(r'size="([\d.]+),', to_dot(y).source).group(1)) > 12  # grows with the graph


def test_labels_are_escaped():
    x = yaten.ones(2, requires_grad=True)
    name = 'we"ird\\name'
    source = to_dot((x * x).sum(), params={name: x}).source
    assert 'label="we\\"ird\\\\name\\n (2)"' in source
    labels = [label for label, _ in parse(source).nodes.values()]
    assert f"{name}\n (2)" in labels


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` is not installed")
def test_graphviz_accepts_the_source():
    (y,), params = _mlp(yaten)
    g = to_dot(y, params=params, show_attrs=True)
    plain = g.pipe("plain").decode()
    assert sum(line.startswith("node ") for line in plain.splitlines()) == len(parse(g.source).nodes)
    assert sum(line.startswith("edge ") for line in plain.splitlines()) == len(parse(g.source).edges)
    assert g._repr_svg_().lstrip().startswith("<?xml")


def _fake_dot(tmp_path, script: str):
    exe = tmp_path / "dot"
    exe.write_text("#!/bin/sh\n" + script)
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return str(tmp_path)


def test_pipe_calls_dot(tmp_path, monkeypatch):
    monkeypatch.setenv(
        "PATH", _fake_dot(tmp_path, 'echo "args: $*"\ncat\n') + os.pathsep + os.environ["PATH"]
    )
    g = to_dot(yaten.ones(2, requires_grad=True).exp())
    assert g.pipe() == f"args: -Tsvg\n{g.source}".encode()
    assert g.pipe(format="png").startswith(b"args: -Tpng\n")
    assert g._repr_svg_() == f"args: -Tsvg\n{g.source}"


def test_pipe_reports_dot_failure(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", _fake_dot(tmp_path, 'echo "syntax error in line 3" >&2\nexit 1\n'))
    with pytest.raises(RuntimeError, match="exit status 1: syntax error in line 3"):
        to_dot(yaten.ones(2)).pipe()


def test_pipe_without_dot_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    g = to_dot(yaten.ones(2))
    with pytest.raises(RuntimeError, match="Graphviz `dot` executable.*not on PATH"):
        g.pipe()
    with pytest.raises(RuntimeError, match="Graphviz"):
        g._repr_svg_()


def test_save_and_str(tmp_path):
    g = to_dot((yaten.ones(2, requires_grad=True) * 3).sum())
    assert isinstance(g, DotGraph) and str(g) == g.source and g.source.startswith("digraph {")
    path = tmp_path / "graph.dot"
    assert g.save(str(path)) == str(path)
    assert path.read_text() == g.source
    assert "lines of DOT" in repr(g)


def test_bad_arguments():
    x = yaten.ones(2, requires_grad=True)
    with pytest.raises(TypeError, match="Tensor or a tuple of Tensors, but got list at 1"):
        to_dot((x, [x]))
    with pytest.raises(TypeError, match=r"params\['w'\] must be a Tensor"):
        to_dot(x * 2, params={"w": 3.0})


def test_custom_function_saved_tensors():
    class Square(yaten.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = yaten.ones(3, requires_grad=True)
    parsed = parse(to_dot(Square.apply(x).sum()).source)
    assert saved_boxes(parsed) == [("SquareBackward", "saved_tensors[0]\n (3)")]


def test_saved_tensor_hooks_packed_tensors_are_drawn():
    packed = []

    def pack(t):
        packed.append(t)
        return len(packed) - 1

    x = yaten.ones(2, 3, requires_grad=True)
    with yaten.autograd.graph.saved_tensors_hooks(pack, lambda i: packed[i]):
        y = (x * x.exp()).sum()
    assert packed  # the hooks did pack the saved tensors
    parsed = parse(to_dot(y).source)
    assert saved_boxes(parsed) == sorted(
        [
            ("ExpBackward0", "result\n (2, 3)"),
            ("MulBackward0", "self\n (2, 3)"),
            ("MulBackward0", "other\n (2, 3)"),
        ]
    )


def test_public_names():
    assert yaten.autograd.graph.to_dot is to_dot
    assert to_dot.__doc__ and ">>>" in to_dot.__doc__
    assert os.path.basename(yaten.autograd.dot.__file__) == "dot.py"
