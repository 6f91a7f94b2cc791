"""Reduction overloads that are other reductions with some arguments filled in."""

import yaten

from .._dtype import LEGACY_NAME, TYPEID_NAME
from .._generated import ops as _ops  # (imported while ops loads; used at call time)
from ..return_types import return_type


def var(self, unbiased=True):
    return yaten.var(self, None, correction=1 if unbiased else 0)


def var_dim(self, dim, unbiased=True, keepdim=False):
    return yaten.var(self, dim, correction=1 if unbiased else 0, keepdim=keepdim)


def std(self, unbiased=True):
    return yaten.std(self, None, correction=1 if unbiased else 0)


def std_dim(self, dim, unbiased=True, keepdim=False):
    return yaten.std(self, dim, correction=1 if unbiased else 0, keepdim=keepdim)


def all_(self):
    return _ops.all_dims(self, None, False)


def all_dim(self, dim, keepdim=False):
    return _ops.all_dims(self, (dim,), keepdim)


def any_(self):
    return _ops.any_dims(self, None, False)


def any_dim(self, dim, keepdim=False):
    return _ops.any_dims(self, (dim,), keepdim)


def softmax(self, dim, dtype=None):
    x = self if dtype is None else self.to(dtype)
    return _ops._softmax(x, dim, False)


def log_softmax(self, dim, dtype=None):
    x = self if dtype is None else self.to(dtype)
    return _ops._log_softmax(x, dim, False)


def max_other(self, other):
    return yaten.maximum(self, other)


def min_other(self, other):
    return yaten.minimum(self, other)


def count_nonzero_dims(self, dim):
    """The number of non-zero elements over the dims in ``dim`` (int64).

    >>> yaten.count_nonzero(yaten.tensor([[1, 0], [2, 3]]), dim=[0])
    tensor([2, 1])
    """
    return yaten.sum(self != 0, list(dim) if dim else None)


def count_nonzero(self, dim=None):
    """The number of non-zero elements, over ``dim`` or all of them (int64).

    >>> yaten.count_nonzero(yaten.tensor([[1.0, 0.0], [2.0, 3.0]]))
    tensor(3)
    """
    return yaten.sum(self != 0, None if dim is None else [dim])


def nansum(self, dim=None, keepdim=False, dtype=None):
    """The sum treating NaN as zero.

    >>> yaten.nansum(yaten.tensor([1.0, float("nan"), 2.0]))
    tensor(3.)
    """
    if self.dtype.is_complex:
        raise RuntimeError("nansum on CPU does not support complex inputs")
    x = yaten.where(self.isnan(), 0, self) if self.dtype.is_floating_point else self
    return yaten.sum(x, dim, keepdim, dtype=dtype)


def nanmean(self, dim=None, keepdim=False, dtype=None):
    """The mean of the non-NaN elements (floating inputs only).

    >>> yaten.nanmean(yaten.tensor([1.0, float("nan"), 2.0]))
    tensor(1.5000)
    """
    if not (self.dtype.is_floating_point or self.dtype.is_complex):
        name = LEGACY_NAME.get(self.dtype, self.dtype)
        raise RuntimeError(
            f"nanmean(): expected input to have floating point or complex dtype but got {name}"
        )
    return nansum(self, dim, keepdim, dtype) / yaten.sum(~self.isnan(), dim, keepdim)


def _with_mean(spread, name, self, dim, correction, keepdim):
    if not self.dtype.is_floating_point:
        raise RuntimeError(f"{name} only support floating point and complex dtypes")
    return spread(self, dim, correction=correction, keepdim=keepdim), yaten.mean(self, dim, keepdim)


def std_mean_correction(self, dim=None, correction=None, keepdim=False):
    """``(std, mean)`` over ``dim`` (all dims for None), std with ``N - correction`` divisor.

    >>> yaten.std_mean(yaten.tensor([1.0, 3.0]))
    (tensor(1.4142), tensor(2.))
    """
    return _with_mean(yaten.std, "std_mean", self, dim, correction, keepdim)


def std_mean(self, unbiased=True):
    return std_mean_correction(self, None, 1 if unbiased else 0)


def std_mean_dim(self, dim, unbiased=True, keepdim=False):
    return std_mean_correction(self, dim, 1 if unbiased else 0, keepdim)


def var_mean_correction(self, dim=None, correction=None, keepdim=False):
    """``(var, mean)`` over ``dim`` (all dims for None), var with ``N - correction`` divisor.

    >>> yaten.var_mean(yaten.tensor([1.0, 3.0]), correction=0)
    (tensor(1.), tensor(2.))
    """
    return _with_mean(yaten.var, "var_mean", self, dim, correction, keepdim)


def var_mean(self, unbiased=True):
    return var_mean_correction(self, None, 1 if unbiased else 0)


def var_mean_dim(self, dim, unbiased=True, keepdim=False):
    return var_mean_correction(self, dim, 1 if unbiased else 0, keepdim)


def aminmax(self, dim=None, keepdim=False):
    """``(min, max)`` over ``dim``, or over all elements.

    >>> yaten.aminmax(yaten.tensor([[1, 5], [3, 2]]), dim=0)
    yaten.return_types.aminmax(
    min=tensor([1, 2]),
    max=tensor([3, 5]))
    """
    if dim is None and self.numel() == 0:
        raise RuntimeError(
            "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity."
        )
    dims = () if dim is None else (dim,)
    result = return_type("aminmax", ("min", "max"))
    return result(yaten.amin(self, dims, keepdim), yaten.amax(self, dims, keepdim))


def _scan_(self, scan, dim, dtype):
    if dtype is not None and dtype != self.dtype:
        raise RuntimeError(
            f"Bad in-place call: input tensor dtype {TYPEID_NAME[self.dtype]} and output tensor dtype "
            f"{TYPEID_NAME[dtype]} should match"
        )
    return self.copy_(scan(self, dim))


def cumsum_(self, dim, dtype=None):
    """In-place cumsum (``dtype``, if given, must be ``self``'s).

    >>> yaten.tensor([1.0, 2.0, 3.0]).cumsum_(0)
    tensor([1., 3., 6.])
    """
    return _scan_(self, yaten.cumsum, dim, dtype)


def cumprod_(self, dim, dtype=None):
    """In-place cumprod (``dtype``, if given, must be ``self``'s).

    >>> yaten.tensor([1.0, 2.0, 3.0]).cumprod_(0)
    tensor([1., 2., 6.])
    """
    return _scan_(self, yaten.cumprod, dim, dtype)


def sum_to_size(self, size):
    """``self`` summed down to ``size``, a shape it broadcasts from (the gradient of a broadcast)."""
    size = tuple(size)
    lead = self.ndim - len(size)
    if lead < 0 or any(n != 1 and n != m for n, m in zip(size, self.shape[lead:])):
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(self.shape)}}}.")
    dims = list(range(lead)) + [lead + i for i, n in enumerate(size) if n == 1 and self.shape[lead + i] != 1]
    out = self.sum(dims, keepdim=True) if dims else self
    return out.reshape(size) if lead else out
