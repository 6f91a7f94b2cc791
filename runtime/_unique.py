"""``torch.unique`` and ``torch.unique_consecutive`` as torch/functional.py has them: the native ops
(``_unique2``, ``unique_dim``, ``unique_consecutive``, in runtime/native/unique.py) return three
tensors; these return the values alone, or a tuple with the inverse and the counts asked for."""

from ._generated import ops as _ops
from ._tensor import Tensor

__all__ = ["unique", "unique_consecutive"]


def _asked(values, inverse, counts, return_inverse, return_counts):
    out = (values,) + ((inverse,) if return_inverse else ()) + ((counts,) if return_counts else ())
    return out if len(out) > 1 else values


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct elements of ``input`` (or slices along ``dim``), sorted; with ``return_inverse``
    also where each element went, with ``return_counts`` also how often each occurs.

    >>> import yaten
    >>> yaten.unique(yaten.tensor([3, 1, 3, 2]), return_counts=True)
    (tensor([1, 2, 3]), tensor([1, 1, 2]))
    """
    if dim is None:
        result = _ops._unique2(input, sorted, return_inverse, return_counts)
    else:
        result = _ops.unique_dim(input, dim, sorted, return_inverse, return_counts)
    return _asked(*result, return_inverse, return_counts)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """The first element of each run of equal consecutive elements (or slices along ``dim``), with the
    inverse and the run lengths when asked for.

    >>> import yaten
    >>> yaten.unique_consecutive(yaten.tensor([1, 1, 2, 1]), return_counts=True)
    (tensor([1, 2, 1]), tensor([2, 1, 1]))
    """
    return _asked(
        *_ops.unique_consecutive(input, return_inverse, return_counts, dim), return_inverse, return_counts
    )


Tensor.unique = unique
Tensor.unique_consecutive = unique_consecutive
