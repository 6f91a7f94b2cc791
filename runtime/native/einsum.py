"""einsum and tensordot: contractions written as permutes, reshapes and batched matrix products, so
the arithmetic runs in BLAS (bmm) and autograd comes through those ops."""

import math

from .._dims import wrap_dim

_ELLIPSIS_BASE = 0x100  # labels standing for ellipsis dimensions: outside the letters an equation may use


def einsum(equation, tensors, path=None):  # path: an opt_einsum order; contracted left to right
    inputs, output = _parse(equation, tensors)
    operands = [_prepare(t, labels, inputs, output, i) for i, (t, labels) in enumerate(zip(tensors, inputs))]
    sizes = _label_sizes(operands)
    t, labels = operands[0]
    for i, (u, ulabels) in enumerate(operands[1:], start=1):
        later = set(output).union(*(set(lb) for _, lb in operands[i + 1 :]))
        t, labels = _contract(t, labels, u, ulabels, later, sizes)
    gone = [d for d, lb in enumerate(labels) if lb not in output]
    if gone:
        t = t.sum(gone)
        labels = [lb for lb in labels if lb in output]
    return t.permute([labels.index(lb) for lb in output]) if labels else t


def _parse(equation, tensors):
    """The labels of each operand (ellipses expanded into private labels) and of the output."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(tensors):
        raise RuntimeError(
            "einsum(): more operands were provided than specified in the equation"
            if len(tensors) > len(terms)
            else "einsum(): fewer operands were provided than specified in the equation"
        )
    ell_dims = 0
    parsed = []
    for i, (term, t) in enumerate(zip(terms, tensors)):
        letters = term.replace("...", "")
        for c in letters:
            if not c.isalpha():
                raise RuntimeError(f"einsum(): invalid subscript given at index {eq.index(c)} in the equation string, "
                                   "subscripts must be in [a-zA-Z]")  # fmt: skip
        if "..." in term:
            n = t.ndim - len(letters)
            if n < 0:
                raise RuntimeError(
                    f"einsum(): the number of subscripts in the equation ({len(letters)}) is more than the number "
                    f"of dimensions ({t.ndim}) for operand {i}"
                )
            ell_dims = max(ell_dims, n)
        elif len(letters) != t.ndim:
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({len(letters)}) does not match the number "
                f"of dimensions ({t.ndim}) for operand {i} and no ellipsis was given"
            )
        parsed.append((term, t.ndim - len(letters)))
    ell = [chr(_ELLIPSIS_BASE + k) for k in range(ell_dims)]
    inputs = []
    for term, n in parsed:
        head, dots, tail = term.partition("...")
        inputs.append(list(head) + (ell[ell_dims - n :] if dots else []) + list(tail))
    if arrow:
        head, dots, tail = rhs.partition("...")
        output = list(head) + (ell if dots else []) + list(tail)
        used = set().union(*map(set, inputs))
        for c in head + tail:
            if c not in used:
                raise RuntimeError(
                    f"einsum(): output subscript {c} does not appear in the equation for any input operand"
                )
            if output.count(c) > 1:
                raise RuntimeError(f"einsum(): output subscript {c} appears more than once in the output")
    else:
        counts = {}
        for labels in inputs:
            for c in labels:
                counts[c] = counts.get(c, 0) + 1
        output = ell + sorted(c for c, k in counts.items() if k == 1 and c not in ell)
    return inputs, output


def _prepare(t, labels, inputs, output, i):
    """Takes the diagonal of repeated labels and sums out labels no one else reads."""
    labels = list(labels)
    while len(set(labels)) < len(labels):
        c = next(c for c in labels if labels.count(c) > 1)
        d1 = labels.index(c)
        d2 = labels.index(c, d1 + 1)
        if t.shape[d1] != t.shape[d2]:
            raise RuntimeError(
                f"einsum(): subscript {c} is repeated for operand {i} but the sizes don't match, "
                f"{t.shape[d2]} != {t.shape[d1]}"
            )
        t = t.diagonal(0, d1, d2)
        labels = [lb for k, lb in enumerate(labels) if k not in (d1, d2)] + [c]
    others = set(output).union(*(set(lb) for k, lb in enumerate(inputs) if k != i))
    alone = [d for d, lb in enumerate(labels) if lb not in others]
    if alone:
        t = t.sum(alone)
        labels = [lb for lb in labels if lb in others]
    return t, labels


def _label_sizes(operands):
    sizes = {}
    for k, (t, labels) in enumerate(operands):
        for lb, n in zip(labels, t.shape):
            old = sizes.setdefault(lb, n)
            if n != 1 and old != 1 and n != old:
                raise RuntimeError(
                    f"einsum(): subscript {_shown(lb)} has size {n} for operand {k} which does not broadcast "
                    f"with previously seen size {old}"
                )
            if old == 1:
                sizes[lb] = n
    return sizes


def _shown(label):
    return label if ord(label) < _ELLIPSIS_BASE else "..."


def _contract(a, la, b, lb, later, sizes):
    """a (labels la) times b (labels lb) as one bmm: batch labels both keep, contracted labels both
    drop, each side's own labels as the matrix rows and columns."""
    batch = [c for c in la if c in lb and c in later]
    summed = [c for c in la if c in lb and c not in later]
    rows = [c for c in la if c not in lb]
    cols = [c for c in lb if c not in la]
    a = _arrange(a, la, batch + rows + summed, sizes)
    b = _arrange(b, lb, batch + summed + cols, sizes)
    nb, m, k, n = (math.prod(sizes[c] for c in g) for g in (batch, rows, summed, cols))
    out = a.reshape((nb, m, k)).bmm(b.reshape((nb, k, n)))
    return out.reshape([sizes[c] for c in batch + rows + cols]), batch + rows + cols


def _arrange(t, labels, order, sizes):
    t = t.permute([labels.index(c) for c in order])
    return t.expand([sizes[c] for c in order])


def tensordot(self, other, dims_self, dims_other):
    if len(dims_self) != len(dims_other):
        raise RuntimeError("both dimension lists should have same length")
    ds = [wrap_dim(d, self.ndim) for d in dims_self]
    do = [wrap_dim(d, other.ndim) for d in dims_other]
    for d1, d2 in zip(ds, do):
        if self.shape[d1] != other.shape[d2]:
            raise RuntimeError(
                f"contracted dimensions need to match, but first has size {self.shape[d1]} in dim {d1} and "
                f"second has size {other.shape[d2]} in dim {d2}"
            )
    rest_s = [d for d in range(self.ndim) if d not in ds]
    rest_o = [d for d in range(other.ndim) if d not in do]
    k = math.prod(self.shape[d] for d in ds)
    a = self.permute(rest_s + ds).reshape((-1, k) if k else (math.prod(self.shape[d] for d in rest_s), 0))
    b = other.permute(do + rest_o).reshape((k, math.prod(other.shape[d] for d in rest_o)))
    return a.mm(b).reshape([self.shape[d] for d in rest_s] + [other.shape[d] for d in rest_o])
