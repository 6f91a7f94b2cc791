"""``Tensor.apply_``, ``map_`` and ``map2_``: a Python callable over a cpu tensor's elements, in place,
as torch's (slow by nature: one Python call per element; no autograd, so a tensor requiring grad is
refused, and, as torch's, no version bump)."""

import numbers

import numpy as np

from ._tensor import Tensor, legacy_type_name


def _check(name: str, tensors) -> None:
    for t in tensors:
        if t.device.type != "cpu":
            raise TypeError(f"{name} is only implemented on CPU tensors")
        if t.requires_grad:
            raise RuntimeError(
                f"Can't call {name}() on Variable that requires grad. Use var.detach().{name}() instead."
            )


def _as_element(value, kind: str):
    """The callable's result as the tensor's element type (Python's number rules: floats truncate to ints)."""
    if kind == "b":
        return bool(value)
    if not isinstance(value, numbers.Real):
        raise TypeError(f"must be real number, not {type(value).__name__}")
    return int(value) if kind in "iu" else float(value)


def _map(name: str, self: Tensor, others: tuple, fn) -> Tensor:
    _check(name, (self, *others))
    for other in others:
        if other.dtype is not self.dtype:
            raise TypeError(
                f"{name}: expected {legacy_type_name(self)} for 'other' (got {legacy_type_name(other)})"
            )
    arrays = [o.expand(self.shape)._data for o in others]
    data, kind = self._data, self._data.dtype.kind
    for index in np.ndindex(data.shape):
        args = (data[index].item(), *(a[index].item() for a in arrays))
        data[index] = _as_element(fn(*args), kind)
    return self


def apply_(self, callable) -> Tensor:
    """Replace each element ``v`` by ``callable(v)``, in place (cpu only); returns self.

    >>> import yaten
    >>> yaten.tensor([1.0, 2.0]).apply_(lambda v: v * 10)
    tensor([10., 20.])
    """
    return _map("apply_", self, (), callable)


def map_(self, tensor, callable) -> Tensor:
    """Replace each element ``a`` by ``callable(a, b)``, ``b`` the element of ``tensor`` (broadcast to
    this tensor's shape, same dtype) at the same place; in place, cpu only.

    >>> import yaten
    >>> yaten.tensor([[1.0], [2.0]]).map_(yaten.tensor([10.0]), lambda a, b: a + b)
    tensor([[11.],
            [12.]])
    """
    return _map("map_", self, (tensor,), callable)


def map2_(self, x, y, callable) -> Tensor:
    """``map_`` with two other tensors: ``callable(a, b, c)``.

    >>> import yaten
    >>> yaten.tensor([1.0, 2.0]).map2_(yaten.ones(2), yaten.tensor([2.0, 3.0]), lambda a, b, c: a + b * c)
    tensor([3., 5.])
    """
    return _map("map2_", self, (x, y), callable)


Tensor.apply_ = apply_
Tensor.map_ = map_
Tensor.map2_ = map2_
