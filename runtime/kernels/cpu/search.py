"""Binary search over host arrays: searchsorted (bucketize is a composite of it)."""

import numpy as np

from ..._dtype import LEGACY_NAME

_I32, _I64 = np.dtype(np.int32), np.dtype(np.int64)
_LEGACY_NAMES = {d.np: name for d, name in LEGACY_NAME.items()}


def searchsorted_side(right, side):
    """numpy's ``side`` for PyTorch's ``right``/``side`` pair, with PyTorch's checks (any device)."""
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError(
                "torch.searchsorted(): side and right can't be set to opposites, got side of left while "
                "right was True"
            )
        return side
    return "right" if right else "left"


def searchsorted_checks(seq, values, sorter):
    """PyTorch's shape and dtype checks of searchsorted's boundaries, values and sorter."""
    if seq.ndim == 0:
        raise RuntimeError(
            "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension"
        )
    if seq.ndim > 1 and (values.ndim != seq.ndim or values.shape[:-1] != seq.shape[:-1]):
        if values.ndim == 0:
            raise RuntimeError(
                "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension "
                f"is 1, but we got boundaries tensor dim({seq.ndim}) and input value's dim(0) numel(1)"
            )
        raise RuntimeError(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of "
            f"boundaries tensor and input value tensor must match, but we got boundaries tensor "
            f"{list(seq.shape)} and input value tensor {list(values.shape)}"
        )
    if sorter is not None:
        if sorter.dtype != _I64:
            name = _LEGACY_NAMES.get(sorter.dtype, str(sorter.dtype))
            raise RuntimeError(
                f"torch.searchsorted(): sorter must be a tensor of long dtype but got dtype {name}"
            )
        if sorter.shape != seq.shape:
            raise RuntimeError(
                "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor "
                f"{list(seq.shape)}and got sorter tensor {list(sorter.shape)}"
            )


def searchsorted(sorted_sequence, self, out_int32=False, right=False, side=None, sorter=None):
    """For each value, the index in the innermost rows of ``sorted_sequence`` (sorted, or sorted by
    ``sorter``) where it would be inserted to keep the order: before equal values (``left``), or after
    them (``right``). int64, or int32 with ``out_int32``.

    >>> searchsorted(np.array([1, 3, 5, 7]), np.array([[3, 6], [0, 9]]))
    array([[1, 3],
           [0, 4]])
    """
    seq, values = sorted_sequence, self
    how = searchsorted_side(right, side)
    searchsorted_checks(seq, values, sorter)
    if sorter is not None:
        if sorter.size and (sorter.min() < 0 or sorter.max() >= seq.shape[-1]):
            raise RuntimeError("torch.searchsorted(): sorter index out of range")
        seq = np.take_along_axis(seq, sorter, -1)
    out = _I32 if out_int32 else _I64
    if seq.ndim == 1:
        return np.searchsorted(seq, values, side=how).astype(out)
    rows = seq.reshape(-1, seq.shape[-1])
    vals = values.reshape(rows.shape[0], -1)
    result = np.empty(vals.shape, out)
    for r in range(rows.shape[0]):
        result[r] = np.searchsorted(rows[r], vals[r], side=how)
    return result.reshape(values.shape)
