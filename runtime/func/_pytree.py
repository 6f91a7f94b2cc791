"""Nested tuples, lists and dicts of leaves (tensors, numbers, None), flattened and rebuilt: the
structure the ``yaten.func`` transforms walk, as torch's ``utils._pytree`` for those containers."""


def _children(tree):
    if isinstance(tree, dict):
        return list(tree.values())
    if isinstance(tree, (tuple, list)):
        return list(tree)
    return None


def flatten(tree):
    """``(leaves, spec)``; ``unflatten(leaves, spec)`` rebuilds ``tree``.

    >>> flatten((1, {"a": 2, "b": [3]}))[0]
    [1, 2, 3]
    """
    children = _children(tree)
    if children is None:
        return [tree], None
    leaves, specs = [], []
    for child in children:
        child_leaves, child_spec = flatten(child)
        leaves += child_leaves
        specs.append((len(child_leaves), child_spec))
    return leaves, (tree, specs)


def unflatten(leaves, spec):
    """The tree of ``spec`` with ``leaves`` in place of its leaves.

    >>> leaves, spec = flatten((1, {"a": 2}))
    >>> unflatten([5, 6], spec)
    (5, {'a': 6})
    """
    if spec is None:
        return leaves[0]
    tree, specs = spec
    out, i = [], 0
    for n, child_spec in specs:
        out.append(unflatten(leaves[i : i + n], child_spec))
        i += n
    if isinstance(tree, dict):
        return dict(zip(tree.keys(), out))
    if isinstance(tree, tuple) and hasattr(tree, "_fields"):
        return type(tree)(*out)
    return type(tree)(out)


def broadcast_prefix(prefix, tree):
    """The leaves of ``prefix`` repeated over the leaves of ``tree`` below them (an ``in_dims`` of 0 for a
    whole tuple); None when the structures don't match.

    >>> broadcast_prefix((0, None), ((1, 2), 3))
    [0, 0, None]
    """
    prefix_children, children = _children(prefix), _children(tree)
    if prefix_children is None:
        return [prefix] * len(flatten(tree)[0])
    if children is None or type(prefix) is not type(tree) or len(prefix_children) != len(children):
        return None
    if isinstance(tree, dict) and set(prefix) != set(tree):
        return None
    if isinstance(tree, dict):
        prefix_children = [prefix[k] for k in tree]
    out = []
    for p, c in zip(prefix_children, children):
        sub = broadcast_prefix(p, c)
        if sub is None:
            return None
        out += sub
    return out


def tree_map(fn, tree):
    """``tree`` with ``fn`` applied to each leaf.

    >>> tree_map(lambda x: x * 2, [1, (2, 3)])
    [2, (4, 6)]
    """
    leaves, spec = flatten(tree)
    return unflatten([fn(leaf) for leaf in leaves], spec)


def spec_repr(spec, indent: int = 0) -> str:
    """torch's text for a tree structure (its ``TreeSpec`` repr), which the transforms' errors quote.

    >>> print(spec_repr(flatten((1, {"a": 2}))[1]))
    TreeSpec(tuple, None, [*,
      TreeSpec(dict, ['a'], [*])])
    """
    if spec is None:
        return "*"
    tree, specs = spec
    context = list(tree.keys()) if isinstance(tree, dict) else None
    sep = ",\n" + " " * (indent + 2)
    children = sep.join(spec_repr(s, indent + 2) for _, s in specs)
    return f"TreeSpec({type(tree).__name__}, {context}, [{children}])"


def spec_pprint(spec) -> str:
    """torch's short text for a tree structure (``treespec_pprint``): ``(*, [*, *])``.

    >>> spec_pprint(flatten((1, {"a": [2, 3]}))[1])
    "(*, {'a': [*, *]})"
    """
    if spec is None:
        return "*"
    tree, specs = spec
    children = [spec_pprint(s) for _, s in specs]
    if isinstance(tree, dict):
        return "{" + ", ".join(f"{k!r}: {c}" for k, c in zip(tree, children)) + "}"
    if isinstance(tree, list):
        return "[" + ", ".join(children) + "]"
    return "(" + ", ".join(children) + ("," if len(children) == 1 else "") + ")"
