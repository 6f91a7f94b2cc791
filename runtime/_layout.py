"""Memory layouts as c10 computes them: contiguous strides, dense checks, preserve_format strides."""


def contiguous_strides(shape) -> tuple:
    """PyTorch's strides for a fresh tensor: contiguous, with size-0 dims counted as 1."""
    strides, acc = [], 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(strides))


def is_non_overlapping_and_dense(shape, strides) -> bool:
    """Whether the elements fill a block without gaps or overlap, in some order of the dims.

    As c10's ``compute_non_overlapping_and_dense``: dims of size < 2 never matter. An empty tensor
    counts as dense, as in c10 (whose flag is "contiguous, or ...", and every empty tensor is contiguous).
    """
    if 0 in shape:
        return True
    if len(shape) == 1:
        return shape[0] < 2 or strides[0] == 1
    need = 1
    for d in sorted(range(len(shape)), key=lambda d: (shape[d] < 2, strides[d])):
        if shape[d] < 2:
            return True
        if strides[d] != need:
            return False
        need *= shape[d]
    return True


def infer_dense_strides(shape, strides) -> tuple:
    """Dense strides that keep the order of ``strides`` (c10's ``infer_dense_strides``, same stable sort)."""
    ndim = len(shape)
    perm = list(range(ndim - 1, -1, -1))

    def should_swap(d0, d1):
        s0, s1 = strides[d0], strides[d1]
        if s0 == 0 or s1 == 0:
            return 0
        if s0 != s1:
            return -1 if s0 < s1 else 1
        return 1 if shape[d0] > shape[d1] else 0

    for i in range(1, ndim):
        dim1 = i
        for j in range(1, i + 1):
            dim0 = i - j
            cmp = should_swap(perm[dim0], perm[dim1])
            if cmp > 0:
                perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
                dim1 = dim0
            elif cmp < 0:
                break
    out, cur = [0] * ndim, 1
    for d in perm:
        out[d] = cur
        cur *= max(shape[d], 1)
    return tuple(out)


def preserve_format_strides(shape, strides) -> tuple:
    """The strides of a copy laid out like ``shape``/``strides`` (PyTorch's preserve_format)."""
    if is_non_overlapping_and_dense(shape, strides):
        return tuple(strides)
    return infer_dense_strides(shape, strides)
