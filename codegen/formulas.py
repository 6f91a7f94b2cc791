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


def without_unit_factor(expr: str, name: str) -> str | None:
    """``expr`` with ``name`` taken as 1 (``self + alpha * other`` -> ``self + other``), when ``name``
    only ever multiplies; None otherwise. Dropping the factor, rather than writing a literal 1, keeps
    every operation in the kernel's own dtype."""

    class Drop(ast.NodeTransformer):
        def visit_BinOp(self, node):
            self.generic_visit(node)
            if isinstance(node.op, ast.Mult):
                if isinstance(node.left, ast.Name) and node.left.id == name:
                    return node.right
                if isinstance(node.right, ast.Name) and node.right.id == name:
                    return node.left
            return node

    tree = Drop().visit(parse(expr))
    if name not in free_names(expr) or any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(tree)):
        return None
    return ast.unparse(tree)


NUMPY_BINARY = {ast.Add: "add", ast.Sub: "subtract", ast.Mult: "multiply"}


def numpy_ufunc(expr: str, tensors: set) -> str | None:
    """The NumPy ufunc an expression is exactly (``self * other`` of two tensors -> ``multiply``), or
    None. NumPy's own loops are SIMD; a Numba ufunc of the same arithmetic gives the same numbers slower."""
    top = parse(expr).body
    binary = isinstance(top, ast.BinOp) and type(top.op) in NUMPY_BINARY
    if binary and all(isinstance(side, ast.Name) and side.id in tensors for side in (top.left, top.right)):
        return NUMPY_BINARY[type(top.op)]
    return None


# The scalar library's functions that NumPy has as ufuncs with SIMD loops for float32/float64, under
# NumPy's names. Only for real compute: NumPy's complex loops treat infinities and NaNs otherwise than
# the generated kernels, whose complex edge values the op table checks against torch.
NUMPY_REAL_UNARY = {
    "exp": "exp", "expm1": "expm1", "log": "log", "log2": "log2", "log10": "log10", "log1p": "log1p",
    "sqrt": "sqrt", "sin": "sin", "cos": "cos", "tan": "tan", "tanh": "tanh", "sinh": "sinh", "cosh": "cosh",
    "asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh",
}  # fmt: skip


def numpy_real_ufunc(expr: str, tensors: set) -> str | None:
    """The NumPy ufunc a one-function expression of a tensor computes on float32/float64
    (``tanh(self)`` -> ``tanh``; within the float tolerance of the scalar library's), or None."""
    top = parse(expr).body
    call = isinstance(top, ast.Call) and isinstance(top.func, ast.Name) and top.func.id in NUMPY_REAL_UNARY
    if call and len(top.args) == 1 and isinstance(top.args[0], ast.Name) and top.args[0].id in tensors:
        return NUMPY_REAL_UNARY[top.func.id]
    return None


# What numba.cuda computes on complex numbers as on real ones: +, -, *, ==, != and where().
_CUDA_COMPLEX_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Name,
                       ast.Constant, ast.Load, ast.Add, ast.Sub, ast.Mult, ast.USub, ast.Eq, ast.NotEq, ast.And,
                       ast.Or, ast.Call)  # fmt: skip


def cuda_takes_complex(expr: str) -> bool:
    """Whether the CUDA kernel of a pointwise expression computes complex numbers: arithmetic and
    comparison for equality only (no division, whose complex form Numba may raise from, and no scalar
    functions, which call ``math``'s real-only ones on a GPU), and ``where``."""
    for node in ast.walk(parse(expr)):
        if not isinstance(node, _CUDA_COMPLEX_NODES):
            return False
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id == "where"):
            return False
    return True
