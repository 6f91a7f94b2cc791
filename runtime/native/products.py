"""Products built on mm/bmm/mv and elementwise ops: inner, vdot, kron, the add-products (addmv, addr,
baddbmm, addbmm), chain_matmul, cross (linalg.cross's), cdist and trace."""

import yaten

from .._dims import wrap_dim


def inner(self, other):
    if self.ndim == 0 or other.ndim == 0:
        return self * other
    if self.shape[-1] != other.shape[-1]:
        raise RuntimeError(
            f"inner() the last dimension must match on both input tensors but got shapes "
            f"{list(self.shape)} and {list(other.shape)}"
        )
    return yaten.tensordot(self, other, [[-1], [-1]])


def vdot(self, other):
    if self.ndim != 1 or other.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {self.ndim}D and {other.ndim}D tensors")
    return self.conj().dot(other) if self.is_complex() else self.dot(other)


def kron(self, other):
    n = max(self.ndim, other.ndim)
    sa = (1,) * (n - self.ndim) + tuple(self.shape)
    sb = (1,) * (n - other.ndim) + tuple(other.shape)
    # a's dim i pairs with b's dim i: interleave them, multiply by broadcasting, merge the pairs.
    a = self.reshape([s for d in sa for s in (d, 1)])
    b = other.reshape([s for d in sb for s in (1, d)])
    return (a * b).reshape([x * y for x, y in zip(sa, sb)])


def _scaled_sum(self, product, beta, alpha):
    """beta * self + alpha * product, where beta == 0 ignores self (its nan and inf too), as torch."""
    scaled = product if alpha == 1 else product * alpha
    if beta == 0:
        return yaten.zeros_like(self) + scaled
    return (self if beta == 1 else self * beta) + scaled


def addmv(self, mat, vec, beta=1, alpha=1):
    return _scaled_sum(self, mat.mv(vec), beta, alpha)


def addmv_(self, mat, vec, beta=1, alpha=1):
    return self.copy_(addmv(self, mat, vec, beta, alpha))


def addr(self, vec1, vec2, beta=1, alpha=1):
    if vec1.ndim != 1 or vec2.ndim != 1:
        raise RuntimeError(
            f"addr: Expected 1-D argument vec1, but got {vec1.ndim}-D"
            if vec1.ndim != 1
            else f"addr: Expected 1-D argument vec2, but got {vec2.ndim}-D"
        )
    return _scaled_sum(self, vec1.outer(vec2), beta, alpha)


def addr_(self, vec1, vec2, beta=1, alpha=1):
    return self.copy_(addr(self, vec1, vec2, beta, alpha))


def baddbmm(self, batch1, batch2, beta=1, alpha=1):
    return _scaled_sum(self, batch1.bmm(batch2), beta, alpha)


def baddbmm_(self, batch1, batch2, beta=1, alpha=1):
    return self.copy_(baddbmm(self, batch1, batch2, beta, alpha))


def addbmm(self, batch1, batch2, beta=1, alpha=1):
    return _scaled_sum(self, batch1.bmm(batch2).sum(0), beta, alpha)


def addbmm_(self, batch1, batch2, beta=1, alpha=1):
    return self.copy_(addbmm(self, batch1, batch2, beta, alpha))


def chain_matmul(matrices):
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    if len(matrices) == 1:
        return matrices[0].clone()
    out = matrices[0]
    for m in matrices[1:]:
        out = out.mm(m)
    return out


def cross(self, other, dim=None):
    # torch.cross: linalg.cross along dim, by default the first dimension of size 3.
    if dim is None:
        shape = yaten.broadcast_shapes(self.shape, other.shape)
        dim = next((d for d, n in enumerate(shape) if n == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    return yaten.linalg.cross(self, other, dim=wrap_dim(dim, max(self.ndim, other.ndim)))


def cdist(x1, x2, p=2.0, compute_mode=None):
    if x1.ndim < 2 or x2.ndim < 2:
        raise RuntimeError(
            f"cdist only supports at least 2D tensors, X{1 if x1.ndim < 2 else 2} got: {min(x1.ndim, x2.ndim)}D"
        )
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(
            f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}"
        )
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if p == 2 and (compute_mode == 1 or (compute_mode is None and max(x1.shape[-2], x2.shape[-2]) > 25)):
        return _euclid_by_mm(x1, x2)
    diff = (x1.unsqueeze(-2) - x2.unsqueeze(-3)).abs()
    if p == 0:
        return (diff != 0).to(x1.dtype).sum(-1)
    if p == float("inf"):
        return diff.amax(-1)
    if p == 1:
        return diff.sum(-1)
    return diff.pow(p).sum(-1).pow(1.0 / p)


def _euclid_by_mm(x1, x2):
    """torch's matrix-product form: |a - b|^2 = -2 a.b + |a|^2 + |b|^2 as one batched product."""
    n1, n2 = x1.pow(2).sum(-1, keepdim=True), x2.pow(2).sum(-1, keepdim=True)
    a = yaten.cat([x1 * -2, n1, yaten.ones_like(n1)], -1)
    b = yaten.cat([x2, yaten.ones_like(n2), n2], -1)
    return a.matmul(b.transpose(-2, -1)).clamp_min(0).sqrt()


def trace(self):
    if self.ndim != 2:
        raise RuntimeError("trace: expected a matrix, but got tensor with dim " + str(self.ndim))
    return self.diagonal().sum()


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of a vector: column k is ``x ** k`` (or ``x ** (N - 1 - k)``), N columns."""
    if x.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    dtype = yaten.promote_types(x.dtype, yaten.int64)
    powers = yaten.ones(x.shape[0], max(n, 1), dtype=dtype, device=x.device)
    if n > 1:
        powers = yaten.cat([powers[:, :1], x.to(dtype).unsqueeze(1).expand(-1, n - 1)], 1).cumprod(1)
    powers = powers[:, :n]
    return powers if increasing else powers.flip(1)


def addmm_(self, mat1, mat2, beta=1, alpha=1):
    return self.copy_(yaten.addmm(self, mat1, mat2, beta=beta, alpha=alpha))
