"""What a derivative formula or a pointwise expression refers to, read with ``ast``."""

from __future__ import annotations

import ast

METADATA_ATTRS = ("shape", "dtype", "device", "ndim")
GEOMETRY_ATTR = "geometry"  # sizes, strides, storage offset and storage size (PyTorch's TensorGeometry)
BUILTINS = frozenset({"None", "True", "False", "int", "float", "bool", "len", "range", "tuple", "list",
                      "isinstance", "zip", "enumerate", "any", "all", "slice"})  # fmt: skip


def parse(expr: str) -> ast.Expression:
    try:
        return ast.parse(expr, mode="eval")
    except SyntaxError as e:
        raise ValueError(f"formula is not a valid Python expression ({e.msg}): {expr}") from None


def free_names(expr: str) -> list[str]:
    """Names an expression reads that it does not bind itself (lambda/comprehension variables)."""
    tree = parse(expr)
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    seen = []
    for node in ast.walk(tree):
        free = isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in bound
        if free and node.id not in seen:
            seen.append(node.id)
    return seen


def usage(expr: str, name: str) -> str | None:
    """How ``expr`` uses ``name``: None (not at all), "meta" (only .shape/.dtype/...), "geometry"
    (``.geometry``, and maybe .shape/...), or "value"."""
    tree = parse(expr)
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    found = None
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == name:
            parent = parents.get(node)
            if isinstance(parent, ast.Attribute) and parent.attr == GEOMETRY_ATTR:
                found = "geometry"
            elif isinstance(parent, ast.Attribute) and parent.attr in METADATA_ATTRS:
                found = found or "meta"
            else:
                return "value"
    return found


def called_functions(expr: str) -> list[str]:
    """Names called as functions in a pointwise expression (``exp`` in ``1 / (1 + exp(-self))``)."""
    out = []
    for node in ast.walk(parse(expr)):
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name):
                raise ValueError("a pointwise expression may only call plain functions, like exp(self)")
            if node.func.id not in out:
                out.append(node.func.id)
    return out
