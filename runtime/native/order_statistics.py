"""Order statistics through a sort along the dim: median, nanmedian, kthvalue, mode, quantile, nanquantile.

Each sorts with yaten's (stable) sort and gathers the wanted positions, so the ops run on every device
that sorts and their gradients flow back through the sort to the elements picked, as PyTorch's go to
the indices it returns. NaN sorts as the largest value.
"""

import yaten

from .._dims import wrap_dim
from ..return_types import return_type

_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _rows(self, dim, name):
    """``self`` with ``dim`` moved last (a 0-d tensor as one row of one), and ``dim`` wrapped."""
    d = wrap_dim(dim, self.dim())
    if self.dim() == 0:
        return self.reshape(1), d
    if self.shape[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    return self.movedim(d, -1), d


def _pick(self, dim, keepdim, name, position):
    """``(values, indices)`` of the element at ``position(sorted_rows)`` (int64, one per row, kept
    last dim of 1) of each row of ``self`` sorted along ``dim``."""
    rows, d = _rows(self, dim, name)
    values, indices = yaten.sort(rows, -1)
    at = position(values)
    values, indices = values.gather(-1, at), indices.gather(-1, at)
    if self.dim() == 0:
        values, indices = values.reshape(()), indices.reshape(())
    elif keepdim:
        values, indices = values.movedim(-1, d), indices.movedim(-1, d)
    else:
        values, indices = values.squeeze(-1), indices.squeeze(-1)
    return return_type(name, ("values", "indices"))(values, indices)


def _nan_count(values):
    return values.isnan().sum(-1, keepdim=True)


def median_dim(self, dim, keepdim=False):
    """``(values, indices)``: the lower median along ``dim``; a row with NaN gives its first NaN.

    >>> yaten.median(yaten.tensor([[3.0, 1.0, 2.0, 5.0]]), 1)
    yaten.return_types.median(
    values=tensor([2.]),
    indices=tensor([2]))
    """

    def position(values):
        n, nans = values.shape[-1], _nan_count(values)
        return yaten.where(nans > 0, n - nans, (n - 1) // 2)

    return _pick(self, dim, keepdim, "median", position)


def nanmedian_dim(self, dim, keepdim=False):
    """``(values, indices)``: the lower median of the non-NaN values along ``dim`` (NaN if all are).

    >>> yaten.nanmedian(yaten.tensor([[3.0, float("nan"), 1.0]]), 1)
    yaten.return_types.nanmedian(
    values=tensor([1.]),
    indices=tensor([2]))
    """

    def position(values):
        return ((values.shape[-1] - _nan_count(values) - 1) // 2).clamp(min=0)

    return _pick(self, dim, keepdim, "nanmedian", position)


def _all_elements(self, by_dim):
    """The median of all elements by ``by_dim``; its gradient is shared evenly by the elements equal
    to it (the NaNs when it is NaN), as PyTorch's ``evenly_distribute_backward``."""
    if self.numel() == 0:
        return yaten.full((), float("nan"), dtype=self.dtype, device=self.device)
    value = by_dim(self.detach().reshape(-1), 0)[0]
    if not (self.requires_grad and yaten.is_grad_enabled()):
        return value
    mask = self.isnan() if bool(value.isnan()) else self == value
    # Adds exactly 0 (or NaN to NaN) in the forward, and gives each of the k equal elements 1/k.
    return value + yaten.where(mask, self - value, 0).sum() / mask.sum()


def median(self):
    """The lower median of all elements (NaN if there is one).

    >>> yaten.median(yaten.tensor([1.0, 4.0, 2.0, 3.0]))
    tensor(2.)
    """
    return _all_elements(self, median_dim)


def nanmedian(self):
    """The lower median of all non-NaN elements.

    >>> yaten.nanmedian(yaten.tensor([1.0, float("nan"), 3.0]))
    tensor(1.)
    """
    return _all_elements(self, nanmedian_dim)


def kthvalue(self, k, dim=-1, keepdim=False):
    """``(values, indices)``: the ``k``-th smallest element along ``dim`` (``k`` from 1).

    >>> yaten.kthvalue(yaten.tensor([4.0, 1.0, 3.0]), 2)
    yaten.return_types.kthvalue(
    values=tensor(3.),
    indices=tensor(2))
    """
    d = wrap_dim(dim, self.dim())
    n = self.shape[d] if self.dim() else 1
    if not 1 <= k <= n:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")

    def position(values):
        return yaten.full((*values.shape[:-1], 1), k - 1, dtype=yaten.int64, device=values.device)

    return _pick(self, dim, keepdim, "kthvalue", position)


def mode(self, dim=-1, keepdim=False):
    """``(values, indices)``: the most frequent value along ``dim`` (the smallest on ties) and the
    last index where it occurs.

    >>> yaten.mode(yaten.tensor([1, 2, 2, 1, 3]))
    yaten.return_types.mode(
    values=tensor(1),
    indices=tensor(3))
    """

    def position(values):
        # Runs of equal sorted values: the run of each element, the length of each run, and the last
        # element of the first longest run.
        first = yaten.ones_like(values[..., :1], dtype=yaten.bool)
        run = yaten.cat([first, values[..., 1:] != values[..., :-1]], -1).cumsum(-1) - 1
        lengths = yaten.zeros_like(run).scatter_add(-1, run, yaten.ones_like(run))
        best = lengths.argmax(-1, keepdim=True)
        return (run <= best).sum(-1, keepdim=True) - 1

    return _pick(self, dim, keepdim, "mode", position)


def _quantile_checks(self, q, interpolation):
    if self.numel() == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if isinstance(q, yaten.Tensor) and q.dim() > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if self.dtype not in (yaten.float32, yaten.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if isinstance(q, yaten.Tensor):
        if q.dtype != self.dtype:
            raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
        if bool(((q < 0) | (q > 1)).any()):
            raise RuntimeError("quantile() q values must be in the range [0, 1]")
    elif not 0 <= q <= 1:
        raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q}")
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(
            "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, "
            f"but got {interpolation}"
        )


def _quantile(self, q, dim, keepdim, interpolation, ignore_nan):
    _quantile_checks(self, q, interpolation)
    if dim is None:
        rows = self.reshape(-1)
    else:
        rows, d = _rows(self, dim, "quantile")
    values = rows.sort(-1)[0]  # (..., n)
    qs = (
        q.reshape(-1)
        if isinstance(q, yaten.Tensor)
        else yaten.tensor([q], dtype=self.dtype, device=self.device)
    )
    last = values.shape[-1] - 1
    if ignore_nan:  # a row of NaN only takes its first element, a NaN
        ranks = (qs * (last - _nan_count(values))).clamp(min=0)
    else:  # a row with a NaN takes its last element, a NaN
        ranks = yaten.where(_nan_count(values) > 0, float(last), qs * last)
    if interpolation in ("lower", "higher", "nearest"):
        pick = {"lower": yaten.floor, "higher": yaten.ceil, "nearest": yaten.round}[interpolation]
        out = values.gather(-1, pick(ranks).long())
    else:
        below, above = ranks.floor(), ranks.ceil()
        weight = yaten.full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - below
        out = values.gather(-1, below.long()).lerp(values.gather(-1, above.long()), weight)
    out = out.movedim(-1, 0)  # (q, ...)
    if keepdim:
        out = out.reshape(len(qs), *[1] * self.dim()) if dim is None else out.unsqueeze(d + 1)
    if not isinstance(q, yaten.Tensor) or q.dim() == 0:
        out = out.squeeze(0)
    return out


def quantile(self, q, dim=None, keepdim=False, interpolation="linear"):
    """The ``q``-th quantiles (``q`` in [0, 1], a number or a 1-d tensor, whose dim comes first) along
    ``dim`` or of all elements, between the sorted values as ``interpolation`` says.

    >>> yaten.quantile(yaten.tensor([1.0, 2.0, 3.0, 4.0]), yaten.tensor([0.25, 0.5]))
    tensor([1.7500, 2.5000])
    """
    return _quantile(self, q, dim, keepdim, interpolation, False)


def nanquantile(self, q, dim=None, keepdim=False, interpolation="linear"):
    """quantile of the non-NaN values (NaN where all of a row are NaN).

    >>> yaten.nanquantile(yaten.tensor([1.0, float("nan"), 3.0]), yaten.tensor([0.5]))
    tensor([2.])
    """
    return _quantile(self, q, dim, keepdim, interpolation, True)
