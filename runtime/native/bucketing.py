"""Counting values into buckets: searchsorted with a number, bucketize (searchsorted with the
arguments the other way round), bincount, histc and histogram (scatter_add of ones or weights, so on
every device)."""

import math

import yaten

from .._dtype import LEGACY_NAME, TYPEID_NAME
from ..return_types import return_type


def searchsorted_scalar(sorted_sequence, self, out_int32=False, right=False, side=None, sorter=None):
    """searchsorted of one number (converted to the boundaries' dtype, as PyTorch does): a 0-d index.

    >>> yaten.searchsorted(yaten.tensor([1, 3, 5]), 3, right=True)
    tensor(2)
    """
    value = yaten.tensor(self, dtype=sorted_sequence.dtype, device=sorted_sequence.device)
    return yaten.searchsorted(
        sorted_sequence, value, out_int32=out_int32, right=right, side=side, sorter=sorter
    )


def _check_boundaries(boundaries):
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})")


def bucketize(self, boundaries, out_int32=False, right=False):
    """The bucket of each value between the sorted 1-d ``boundaries``: ``i`` with
    ``boundaries[i-1] < v <= boundaries[i]`` (``<=``, ``<`` with ``right``).

    >>> yaten.bucketize(yaten.tensor([0, 3, 9]), yaten.tensor([1, 3, 5]))
    tensor([0, 1, 3])
    """
    _check_boundaries(boundaries)
    return yaten.searchsorted(boundaries, self, out_int32=out_int32, right=right)


def bucketize_scalar(self, boundaries, out_int32=False, right=False):
    """bucketize of one number: a 0-d index.

    >>> yaten.bucketize(3, yaten.tensor([1, 3, 5]), right=True)
    tensor(2)
    """
    _check_boundaries(boundaries)
    return yaten.searchsorted(boundaries, self, out_int32=out_int32, right=right)


def bincount(self, weights=None, minlength=0):
    """How often each value ``0..max(self)`` (at least ``minlength`` of them) occurs in the 1-d
    non-negative integer ``self``, or the sum of its ``weights`` (float32 weights give float32, others
    float64). Not differentiable, as PyTorch's.

    >>> yaten.bincount(yaten.tensor([1, 3, 3, 0]), minlength=5)
    tensor([1, 1, 0, 2, 0])
    """
    if self.dtype.is_floating_point:
        name = LEGACY_NAME.get(self.dtype, self.dtype)
        raise NotImplementedError(f"\"bincount_{self.device.type}\" not implemented for '{name}'")
    if self.dim() != 1 or (self.numel() and bool((self < 0).any())):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is not None and (weights.dim() != 1 or weights.shape[0] != self.shape[0]):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    size = max(int(self.max()) + 1 if self.numel() else 0, minlength)
    index = self.long()
    if weights is None:
        return _sums(index, yaten.ones_like(index), size)
    return _sums(
        index, weights.detach().to(yaten.float32 if weights.dtype == yaten.float32 else yaten.float64), size
    )


def _sums(index, values, size):
    """The sums of ``values`` by ``index`` into ``size`` bins."""
    return yaten.zeros(size, dtype=values.dtype, device=values.device).scatter_add(0, index, values)


def histc(self, bins=100, min=0, max=0):
    """A histogram of ``self`` in ``bins`` equal bins between ``min`` and ``max`` (the data's own
    range when both are 0); values outside are left out, ``max`` falls in the last bin. Not
    differentiable, as PyTorch's.

    >>> yaten.histc(yaten.tensor([1.0, 2.0, 1.0, 4.0]), bins=4, min=0, max=3)
    tensor([0., 2., 1., 0.])
    """
    _histogram_checks(self, bins, f"histogram_{self.device.type}")
    if min > max:
        raise RuntimeError("torch.histc: max must be larger than min")
    x = self.detach().reshape(-1)
    lo, hi = float(min), float(max)
    if lo == hi and x.numel():
        lo, hi = float(x.min()), float(x.max())
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise RuntimeError(f"torch.histc: range of [{lo:g}, {hi:g}] is not finite")
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    values = x[(x >= lo) & (x <= hi)]
    index = ((values - lo) * bins / (hi - lo)).long().clamp(max=bins - 1)
    return _sums(index, yaten.ones_like(values), bins)


def _histogram_checks(self, bins, kernel):
    if not self.dtype.is_floating_point:
        name = LEGACY_NAME.get(self.dtype, self.dtype)
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{name}'")
    if isinstance(bins, int) and bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")


def histogram(self, bins, weight=None, density=False):
    """``(hist, bin_edges)``: how many elements of ``self`` (or how much of their ``weight``) fall
    between each two of the sorted ``bins`` edges, the last bin with its right edge; with
    ``density``, divided by the total and the bin widths. Not differentiable, as PyTorch's.

    >>> yaten.histogram(yaten.tensor([1.0, 2.0, 1.0, 4.0]), yaten.tensor([0.0, 1.5, 2.0, 4.0]))
    yaten.return_types.histogram(
    hist=tensor([2., 0., 2.]),
    bin_edges=tensor([0.0000, 1.5000, 2.0000, 4.0000]))
    """
    _histogram_checks(self, bins, "histogramdd")
    if bins.dim() != 1:
        raise RuntimeError(
            "torch.histogramdd: bins tensor should have one dimension, but got "
            f"{bins.dim()} dimensions in the bins tensor for dimension 0"
        )
    if bins.dtype != self.dtype:
        raise RuntimeError(
            "torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input with "
            f"dtype {TYPEID_NAME[self.dtype]} and bins for dimension 0 with dtype {TYPEID_NAME[bins.dtype]}"
        )
    if weight is not None and weight.dtype != self.dtype:
        raise RuntimeError(
            "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should have the "
            f"same dtype, but got input({TYPEID_NAME[self.dtype]}), and weight({TYPEID_NAME[weight.dtype]})"
        )
    if weight is not None and weight.shape != self.shape:
        raise RuntimeError(
            "torch.histogramdd: if weight tensor is provided it should have the same shape as the input "
            "tensor excluding its innermost dimension, but got input with shape "
            f"{[*self.shape, 1]} and weight with shape {list(weight.shape)}"
        )
    x, edges = self.detach().reshape(-1), bins.detach()
    n = edges.shape[0] - 1
    index = yaten.searchsorted(edges, x, right=True) - 1
    index = yaten.where(x == edges[-1], n - 1, index)  # the last bin holds its right edge
    inside = (index >= 0) & (index < n)  # NaN and values outside the edges count nowhere
    values = yaten.ones_like(x) if weight is None else weight.detach().reshape(-1)
    hist = _sums(index[inside], values[inside], n)
    if density:
        hist = hist / hist.sum() / edges.diff()
    return return_type("histogram", ("hist", "bin_edges"))(hist, edges)


def histogram_bin_ct(self, bins=100, range=None, weight=None, density=False):
    """histogram with ``bins`` equal bins over ``range`` (the data's own range by default; a single
    value gets the bins of [v - 0.5, v + 0.5]).

    >>> yaten.histogram(yaten.tensor([1.0, 2.0, 1.0, 4.0]), bins=3).hist
    tensor([2., 1., 1.])
    """
    _histogram_checks(self, bins, "histogramdd")
    x = self.detach()
    if range is not None:
        lo, hi = float(range[0]), float(range[1])
    elif x.numel():
        lo, hi = float(x.min()), float(x.max())
    else:
        lo, hi = 0.0, 1.0
    if lo > hi:
        raise RuntimeError(
            f"torch.histogramdd: min should not exceed max, but got min {lo:g} max {hi:g} for dimension 0"
        )
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    edges = yaten.linspace(lo, hi, bins + 1, dtype=self.dtype, device=self.device)
    return histogram(self, edges, weight, density)
