"""The triangle ops: tril_/triu_ in place (a copy of the functional op's result, so autograd goes
through both), and the indices of a matrix's lower or upper triangle."""

import numpy as np

import yaten

from .. import _dtype as D
from .._factories import not_implemented


def tril_(self, diagonal=0):
    return self.copy_(self.tril(diagonal))


def triu_(self, diagonal=0):
    return self.copy_(self.triu(diagonal))


def tril_indices(row, col, offset=0, dtype=None, layout=None, device=None, pin_memory=None):
    _check_extents("tril_indices", row, col, dtype)
    return _indices(np.tril_indices(row, offset, col), dtype, device)


def triu_indices(row, col, offset=0, dtype=None, layout=None, device=None, pin_memory=None):
    _check_extents("triu_indices", row, col, dtype)
    return _indices(np.triu_indices(row, offset, col), dtype, device)


def _check_extents(name, row, col, dtype):
    if dtype is not None and dtype not in (D.int64, D.int32):
        raise not_implemented(name, dtype)
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")


def _indices(rows_cols, dtype, device):
    """The (2, n) tensor of the row and column indices, in row-major order as torch's."""
    data = np.stack(rows_cols).astype((dtype or D.int64).np).reshape(2, -1)
    return yaten.from_numpy(data).to(device or "cpu")
