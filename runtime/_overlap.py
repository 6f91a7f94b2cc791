"""PyTorch's memory-overlap checks for ops that write into an existing tensor (ATen's MemoryOverlap).

An in-place op whose written-to tensor has several elements at one address (``expand``), or whose
input partly shares memory with it (``a[1:].add_(a[:-1])``, ``a.add_(a.t())``), would give an answer
that depends on the order of the loop; PyTorch refuses both. Full overlap (``a.add_(a)``) is fine,
and so is any layout PyTorch cannot decide cheaply (not dense): it raises only when it is sure.
The checks read shapes, strides and addresses, so they serve every device's arrays.
"""

import numpy as np

INTERNAL_OVERLAP_MSG = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation."
)
PARTIAL_OVERLAP_MSG = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
    "single memory location. Please clone() the tensor before performing the operation."
)


def has_internal_overlap(a) -> bool:
    """torch's has_internal_overlap == YES: a zero stride over a dim of size > 1."""
    return a.size > 0 and any(st == 0 and n > 1 for n, st in zip(a.shape, a.strides))


def assert_no_internal_overlap(a) -> None:
    if 0 in a.strides and has_internal_overlap(a):
        raise RuntimeError(INTERNAL_OVERLAP_MSG)


def overlap_status(a, b) -> str:
    """torch's get_overlap_status: "full" (the same elements, same layout), "partial" or "no"
    (also when it cannot tell cheaply: a layout that is not dense)."""
    if a is b:
        return "full"
    if a.size == 0 or b.size == 0:
        return "no"
    if a.__class__ is np.ndarray and (_separate(a, b) or not np.may_share_memory(a, b)):
        return "no"
    if not (_dense(a) and _dense(b)):
        return "no"
    a_begin, a_end = _extent(a)
    b_begin, b_end = _extent(b)
    if a_begin == b_begin and a_end == b_end:
        return "full" if a.strides == b.strides else "partial"
    return "partial" if a_begin < b_end and b_begin < a_end else "no"


def assert_no_partial_overlap(out, x) -> None:
    if overlap_status(out, x) == "partial":
        raise RuntimeError(PARTIAL_OVERLAP_MSG)


def assert_no_overlap(out, x) -> None:
    """No shared element at all (index_put_'s values and indices)."""
    if overlap_status(out, x) != "no":
        raise RuntimeError(PARTIAL_OVERLAP_MSG)


def assert_no_overlap_with_inputs(out, args, positions) -> None:
    """The checks of an op writing into ``out`` that reads ``args[i]`` for ``i`` in ``positions``
    (every in-place elementwise op runs them: the usual cases take a few attribute reads)."""
    assert_no_internal_overlap(out)
    for i in positions:
        x = args[i]
        if x is not out and overlap_status(out, x) == "partial":
            raise RuntimeError(PARTIAL_OVERLAP_MSG)


def _separate(a, b) -> bool:
    """Whether two NumPy arrays are views of two different arrays that own their memory (a
    tensor's array is its storage's or a view of it): then they cannot overlap."""
    ra = a if a.base is None else a.base
    rb = b if b.base is None else b.base
    return (
        ra is not rb
        and ra.__class__ is np.ndarray
        and rb.__class__ is np.ndarray
        and ra.base is None
        and rb.base is None
    )


def _dense(a) -> bool:
    """torch's is_non_overlapping_and_dense: some permutation of the dims is contiguous."""
    expected = a.dtype.itemsize
    for st, n in sorted((st, n) for n, st in zip(a.shape, a.strides) if n != 1):
        if st != expected:
            return False
        expected *= n
    return True


def _extent(a) -> tuple:
    """(first byte, one past the last byte) of a dense array's elements."""
    iface = getattr(a, "__cuda_array_interface__", None) or a.__array_interface__
    begin = iface["data"][0]
    return begin, begin + a.size * a.dtype.itemsize
