"""Differences along a dim and the integrals built on them: diff, trapezoid, cumulative_trapezoid."""

import yaten

from .._dims import wrap_dim


def diff(self, n=1, dim=-1, prepend=None, append=None):
    """The ``n``-th forward difference along ``dim`` (``!=`` for bool), after joining ``prepend`` and
    ``append`` to ``self`` along it.

    >>> yaten.diff(yaten.tensor([1, 4, 9, 16]), prepend=yaten.tensor([0]))
    tensor([1, 3, 5, 7])
    """
    if self.dim() == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    d = wrap_dim(dim, self.dim())
    parts = [t for t in (prepend, self, append) if t is not None]
    if any(t.dim() != self.dim() for t in parts):
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    x = yaten.cat(parts, d) if len(parts) > 1 else self
    for _ in range(min(n, x.shape[d])):
        size = x.shape[d] - 1
        after, before = x.narrow(d, 1, size), x.narrow(d, 0, size)
        x = after != before if x.dtype == yaten.bool else after - before
    return x


def _sample_dim(y, dim):
    if y.dim() == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return wrap_dim(dim, y.dim())


def _pair_sums(y, d):
    """``y[i] + y[i + 1]`` along ``d`` (none when ``y`` is empty there)."""
    size = y.shape[d] - 1
    if size < 0:
        return y.narrow(d, 0, 0) * 2
    return y.narrow(d, 0, size) + y.narrow(d, 1, size)


def _spacing(y, x, d):
    """The spacing of the samples of ``y`` along ``d``: ``diff(x)``, shaped to broadcast against them."""
    if x.dim() == 1:
        if x.shape[0] != y.shape[d]:
            raise RuntimeError("trapezoid: There must be one `x` value for each sample point")
        return x.diff().reshape([-1] + [1] * (y.dim() - d - 1))
    return x.diff(dim=d)


def trapezoid_dx(y, dx=1, dim=-1):
    """The trapezoidal rule along ``dim`` with samples ``dx`` apart.

    >>> yaten.trapezoid(yaten.tensor([1.0, 2.0, 4.0]), dx=2)
    tensor(9.)
    """
    d = _sample_dim(y, dim)
    return (_pair_sums(y, d) * 0.5).sum(d) * dx


def trapezoid_x(y, x, dim=-1):
    """The trapezoidal rule along ``dim`` with the samples at ``x``.

    >>> yaten.trapezoid(yaten.tensor([1.0, 2.0, 4.0]), yaten.tensor([0.0, 1.0, 3.0]))
    tensor(7.5000)
    """
    d = _sample_dim(y, dim)
    return (_spacing(y, x, d) * _pair_sums(y, d) * 0.5).sum(d)


def cumulative_trapezoid_dx(y, dx=1, dim=-1):
    """The running trapezoidal rule along ``dim`` with samples ``dx`` apart (one shorter than ``y``).

    >>> yaten.cumulative_trapezoid(yaten.tensor([1.0, 2.0, 4.0]))
    tensor([1.5000, 4.5000])
    """
    d = _sample_dim(y, dim)
    return (_pair_sums(y, d) * (0.5 * dx)).cumsum(d)


def cumulative_trapezoid_x(y, x, dim=-1):
    """The running trapezoidal rule along ``dim`` with the samples at ``x``.

    >>> yaten.cumulative_trapezoid(yaten.tensor([1.0, 2.0, 4.0]), yaten.tensor([0.0, 1.0, 3.0]))
    tensor([1.5000, 7.5000])
    """
    d = _sample_dim(y, dim)
    return (_spacing(y, x, d) * _pair_sums(y, d) * 0.5).cumsum(d)
