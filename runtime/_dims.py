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
    seen = set()
    for d in out:  # the first repeat is reported, as PyTorch's dim_list_to_bitset does
        if d in seen:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        seen.add(d)
    return out


def reduction_dims(dim, ndim: int) -> tuple:
    """The sorted dims a multi-dim reduction runs over; ``None`` and ``()`` mean every dim.

    A 0-d tensor has no dim to name: dims 0 and -1 reduce over its single element.
    """
    if dim is None:
        return tuple(range(ndim))
    dims = (int(dim),) if hasattr(dim, "__index__") else tuple(int(d) for d in dim)
    if not dims:
        return tuple(range(ndim))
    wrapped = wrap_dims(dims, ndim)
    return tuple(sorted(wrapped)) if ndim else ()
