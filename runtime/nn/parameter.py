"""Parameter and Buffer: the tensors a Module registers when they are assigned as its attributes."""

from collections import OrderedDict

from .._factories import empty
from .._tensor import Tensor

__all__ = ["Buffer", "Parameter"]

# Every slot of a Tensor but the dict and weakref ones: what makes an object the same tensor.
_STATE_SLOTS = tuple(s for s in Tensor.__slots__ if not s.startswith("__"))


def _make_subclass(cls, data: Tensor, requires_grad: bool) -> Tensor:
    """A ``cls`` object sharing ``data``'s storage and version counter, with no history (PyTorch's
    ``Tensor._make_subclass``): ``data.detach()`` re-typed, then ``requires_grad`` set."""
    src = data.detach()
    out = object.__new__(cls)
    for slot in _STATE_SLOTS:
        object.__setattr__(out, slot, getattr(src, slot))
    if requires_grad and not out._dtype.is_floating_point:
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    out._rg = bool(requires_grad)
    return out


class Parameter(Tensor):
    """A Tensor that a Module registers as a parameter when assigned as an attribute, as
    ``torch.nn.Parameter``.

    It shares the data (and version counter) of the tensor it is made from, has no history, and
    requires grad unless ``requires_grad=False``. Ops on it return plain Tensors.

    >>> import yaten
    >>> t = yaten.ones(2)
    >>> p = yaten.nn.Parameter(t)
    >>> p
    Parameter containing:
    tensor([1., 1.], requires_grad=True)
    >>> p.data_ptr() == t.data_ptr(), type(p * 2).__name__
    (True, 'Tensor')
    """

    __slots__ = ()

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = empty(0)
        return _make_subclass(cls, data, requires_grad)

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.detach().clone(), self.requires_grad)
        memo[id(self)] = result
        return result

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __reduce_ex__(self, proto):
        # As PyTorch: hooks are not pickled (the empty OrderedDict stands for them).
        return (_rebuild_parameter, (self.detach(), self.requires_grad, OrderedDict()))


def _rebuild_parameter(data, requires_grad, backward_hooks):
    return Parameter(data, requires_grad)


class _BufferMeta(type):
    # ``isinstance(t, Buffer)`` holds for the plain tensors that ``Buffer(...)`` returns.
    def __instancecheck__(cls, instance) -> bool:
        if cls is Buffer and isinstance(instance, Tensor) and instance.__dict__.get("_is_buffer", False):
            return True
        return super().__instancecheck__(instance)


class Buffer(metaclass=_BufferMeta):
    """A tensor that a Module registers as a buffer when assigned as an attribute, as ``torch.nn.Buffer``.

    ``Buffer(data)`` returns a plain Tensor (detached from ``data``, sharing its elements) marked as a
    buffer; ``persistent=False`` keeps it out of the module's ``state_dict``.

    >>> import yaten
    >>> b = yaten.nn.Buffer(yaten.zeros(2), persistent=False)
    >>> type(b).__name__, isinstance(b, yaten.nn.Buffer), b.persistent
    ('Tensor', True, False)
    """

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = empty(0)
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t
