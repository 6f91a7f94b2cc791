"""Parameter and Buffer: the tensors a Module registers when they are assigned as its attributes."""

import sys
from collections import OrderedDict

from .._factories import empty
from .._tensor import Tensor

__all__ = ["Buffer", "Parameter", "UninitializedBuffer", "UninitializedParameter", "is_lazy"]

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


# --- uninitialized (lazy) tensors --------------------------------------------------------------------
# Every op reads a tensor's elements through its ``_data`` slot: the uninitialized classes guard that
# slot with a property that raises (PyTorch's ``__torch_function__`` refusal), and the few methods
# PyTorch allows read the slot itself through its descriptor. Tensor properties (``ndim``, ``is_leaf``,
# ...) pass, as torch lets its attribute descriptors through.
_DATA_SLOT = Tensor._data
_PROPERTY_GETTERS = frozenset(
    value.fget.__code__
    for klass in Tensor.__mro__
    for value in vars(klass).values()
    if isinstance(value, property) and value.fget is not None
)


def _plain(t: Tensor) -> Tensor:
    """A plain Tensor over ``t``'s (empty) elements, sharing its storage and version counter."""
    out = object.__new__(Tensor)
    for slot in _STATE_SLOTS:
        object.__setattr__(out, slot, getattr(Tensor, slot).__get__(t, Tensor))
    out._rg = False
    out._grad = out._grad_fn = None
    return out


def _allowed(name: str):
    """A conversion PyTorch lets an uninitialized tensor make: run on its elements, then ``_rewrap``."""

    def method(self, *args, **kwargs):
        return self._rewrap(getattr(_plain(self), name)(*args, **kwargs))

    method.__name__ = name
    method.__doc__ = f"``Tensor.{name}`` of the (empty) elements (PyTorch allows it before materializing)."
    return method


class UninitializedTensorMixin:
    """What ``UninitializedParameter`` and ``UninitializedBuffer`` share: no elements until
    ``materialize(shape)``; using one in an op is PyTorch's ValueError, reading its shape its
    RuntimeError. Only ``size``, ``copy_``, ``is_complex``, ``is_floating_point``, the dtype and
    device conversions and ``get_device`` work, as in PyTorch."""

    __slots__ = ()
    cls_to_become: type

    @property
    def _data(self):
        caller = sys._getframe(1).f_code
        if caller in _PROPERTY_GETTERS:
            return _DATA_SLOT.__get__(self)
        raise self._refusal(caller.co_name)

    def _refusal(self, op: str) -> ValueError:
        return ValueError(
            f"Attempted to use an uninitialized parameter in <function {op}>. This error happens when you are "
            "using a `LazyModule` or explicitly manipulating "
            f"`torch.nn.parameter.{type(self).__name__}` objects. When using LazyModules Call `forward` with a "
            "dummy batch to initialize the parameters before calling torch functions"
        )

    @_data.setter
    def _data(self, value) -> None:
        _DATA_SLOT.__set__(self, value)

    def materialize(self, shape, device=None, dtype=None) -> None:
        """Give it ``shape`` (uninitialized elements) and make it a ``cls_to_become`` (Parameter or Tensor),
        on its own device and dtype unless others are given."""
        self.data = empty(shape, device=self._device if device is None else device,
                          dtype=self._dtype if dtype is None else dtype)  # fmt: skip
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        # torch's ops refuse the tensor before reading its shape (ValueError); only Python code outside
        # them (the user's, nn.Module's state_dict loading) reaches this property (RuntimeError). yaten's
        # ops are Python too: a read from yaten's op layers is the ops' refusal.
        caller = sys._getframe(1)
        module = caller.f_globals.get("__name__", "")
        if module.startswith("yaten.") and not module.startswith("yaten.nn.modules."):
            raise self._refusal(caller.f_code.co_name)
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
            "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. Call "
            "`forward` to initialize the parameters before accessing their attributes."
        )

    @property
    def data(self) -> Tensor:
        return _plain(self)

    @data.setter
    def data(self, new) -> None:
        Tensor.data.fset(self, _plain(new) if is_lazy(new) else new)

    def size(self, dim=None):
        return _plain(self).size(dim)

    def copy_(self, src, non_blocking=False):
        _plain(self).copy_(_plain(src) if is_lazy(src) else src, non_blocking)
        return self

    def share_memory_(self):
        raise RuntimeError(
            "Can't share memory on an uninitialized parameter or buffer. Call `forward` to initialize the "
            "parameters before calling `module.share_memory()`."
        )

    def _rewrap(self, converted: Tensor) -> Tensor:
        return converted

    to, cpu, cuda = _allowed("to"), _allowed("cpu"), _allowed("cuda")
    half, float, double = _allowed("half"), _allowed("float"), _allowed("double")
    char, short, int, long = _allowed("char"), _allowed("short"), _allowed("int"), _allowed("long")

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"

    __str__ = __repr__

    def __reduce_ex__(self, proto):
        # As PyTorch: only the class and requires_grad (no elements, no hooks).
        return (type(self), (self.requires_grad,))


def is_lazy(param) -> bool:
    """Whether ``param`` is an ``UninitializedParameter`` or ``UninitializedBuffer``.

    >>> import yaten
    >>> yaten.nn.parameter.is_lazy(yaten.nn.UninitializedParameter()), yaten.nn.parameter.is_lazy(yaten.ones(1))
    (True, False)
    """
    return isinstance(param, UninitializedTensorMixin)


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A Parameter whose shape is not known yet (a lazy module's, until its first forward), as
    ``torch.nn.UninitializedParameter``; ``materialize(shape)`` makes it a Parameter in place.

    >>> import yaten
    >>> p = yaten.nn.UninitializedParameter(dtype=yaten.float64)
    >>> p, p.dtype
    (<UninitializedParameter>, yaten.float64)
    >>> p + 1
    Traceback (most recent call last):
    ValueError: Attempted to use an uninitialized parameter in <function add_Scalar>. ...
    >>> p.materialize((2, 3))
    >>> type(p).__name__, p.shape, p.requires_grad
    ('Parameter', yaten.Size([2, 3]), True)
    """

    __slots__ = ()
    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        return _make_subclass(cls, empty(0, device=device, dtype=dtype), requires_grad)

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.requires_grad, self._device, self._dtype)
        memo[id(self)] = result
        return result


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer whose shape is not known yet (a lazy norm layer's running statistics), as
    ``torch.nn.UninitializedBuffer``; ``materialize(shape)`` makes it a plain Tensor in place. Unlike the
    parameter, a dtype or device conversion keeps it uninitialized.

    >>> import yaten
    >>> b = yaten.nn.UninitializedBuffer().double()
    >>> b, b.dtype, b.persistent
    (<UninitializedBuffer>, yaten.float64, True)
    >>> b.materialize(3)
    >>> type(b).__name__, b.shape
    ('Tensor', yaten.Size([3]))
    """

    __slots__ = ()
    cls_to_become = Tensor

    def __new__(cls, requires_grad=False, device=None, dtype=None, persistent=True):
        out = _make_subclass(cls, empty(0, device=device, dtype=dtype), requires_grad)
        out.persistent = persistent
        out._is_buffer = True
        return out

    def _rewrap(self, converted: Tensor) -> Tensor:
        out = _make_subclass(type(self), converted, self._rg)
        out.persistent = self.persistent
        out._is_buffer = True
        return out
