"""Dimension arguments: wrapping negative dims and checking ranges, with PyTorch's errors."""


def wrap_dim(dim: int, ndim: int) -> int:
    """``dim`` in ``[0, ndim)``; a 0-d tensor accepts dims -1 and 0 as PyTorch does."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return dim % n


def wrap_dims(dims, ndim: int) -> tuple:
    """Each of ``dims`` wrapped; a repeated dim is an error."""
    out = tuple(wrap_dim(d, ndim) for d in dims)
    if len(set(out)) != len(out):
        dup = next(d for d in out if out.count(d) > 1)
        raise RuntimeError(f"dim {dup} appears multiple times in the list of dims")
    return out
