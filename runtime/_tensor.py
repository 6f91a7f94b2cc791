"""Tensor: a strided view (shape, strides, offset) over an UntypedStorage, with autograd metadata.

A tensor keeps its elements as one backend array ``_data`` (a NumPy view on cpu, a numba.cuda
device array on cuda) whose shape and strides are the tensor's. Views share their root's storage
and version counter; ``_base`` is that root. Ops and methods are attached by the generated layer.
"""

import numbers
import warnings

import numpy as np

from . import _device as _dev
from . import _dtype as D
from ._backend import backend
from ._dims import wrap_dim
from ._generated.methods import TensorMethods
from ._layout import contiguous_strides
from ._memory_format import is_channels_last_contiguous
from ._storage import UntypedStorage


class Size(tuple):
    """A tensor's shape, as ``torch.Size``.

    >>> import yaten
    >>> yaten.zeros(2, 3).shape
    yaten.Size([2, 3])
    """

    __slots__ = ()

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, i):
        r = tuple.__getitem__(self, i)
        return Size(r) if isinstance(i, slice) else r

    def __add__(self, other):
        return Size(tuple.__add__(self, tuple(other)))

    def __repr__(self) -> str:
        return f"yaten.Size({list(self)})"


class Tensor(TensorMethods):
    """A multi-dimensional array with autograd, as ``torch.Tensor``.

    >>> import yaten
    >>> x = yaten.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    >>> (x * x).sum().backward()
    >>> x.grad
    tensor([[2., 4.],
            [6., 8.]])
    """

    __slots__ = (
        "__dict__",
        "__weakref__",
        "_acc",
        "_base",
        "_data",
        "_device",
        "_dtype",
        "_grad",
        "_grad_fn",
        "_offset",
        "_output_nr",
        "_retains_grad",
        "_rg",
        "_storage",
        "_strides",
        "_vc",
        "_view_version",
    )  # fmt: skip

    # --- construction: the one place tensors are made from backend arrays --------------------
    def __new__(cls, *args, **kwargs):
        if args or kwargs:
            from ._factories import legacy_new

            return legacy_new(cls, *args, **kwargs)
        return wrap(np.empty((0,), D.get_default_dtype().np), _dev.CPU)

    # --- metadata -----------------------------------------------------------------------------
    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None):
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[_wrap_dim(dim, self._data.ndim)]

    @property
    def dtype(self) -> D.dtype:
        return self._dtype

    @property
    def device(self) -> _dev.device:
        d = self._device
        return d.plain if d.sparse else d  # a sparse tensor's device, without its dispatch key

    @property
    def is_cuda(self) -> bool:
        return self._device.type == "cuda"

    @property
    def is_cpu(self) -> bool:
        return self._device.type == "cpu"

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    ndimension = dim

    def numel(self) -> int:
        return self._data.size

    nelement = numel

    def element_size(self) -> int:
        return self._dtype.itemsize

    @property
    def itemsize(self) -> int:
        return self._dtype.itemsize

    @property
    def nbytes(self) -> int:
        """``numel() * element_size()``: the bytes of the elements, not of the storage behind them."""
        return self._data.size * self._dtype.itemsize

    def stride(self, dim: int | None = None):
        if self._strides is not None:
            st = self._strides  # an empty view: NumPy zeroes the strides of empty arrays, PyTorch keeps them
        elif self._data.size == 0:
            st = contiguous_strides(self._data.shape)  # a new empty tensor: PyTorch's are contiguous
        else:
            item = self._dtype.itemsize
            st = tuple([s // item for s in self._data.strides])
        return st if dim is None else st[_wrap_dim(dim, len(st))]

    def storage_offset(self) -> int:
        return self._offset

    def is_contiguous(self, memory_format=None) -> bool:
        if memory_format is not None and memory_format.name.startswith("channels_last"):
            return is_channels_last_contiguous(memory_format.name, self._data.shape, self.stride())
        if self._data.size == 0:
            return True
        expected = 1
        for n, s in zip(reversed(self._data.shape), reversed(self.stride())):
            if n != 1 and s != expected:
                return False
            expected *= n
        return True

    def is_floating_point(self) -> bool:
        return self._dtype.is_floating_point

    def is_complex(self) -> bool:
        return self._dtype.is_complex

    def untyped_storage(self) -> UntypedStorage:
        """The storage this tensor looks into; every view of it (and ``set_`` sharers) return the same one.

        >>> import yaten
        >>> x = yaten.arange(6.0)
        >>> x.untyped_storage().data_ptr() == x[2:].untyped_storage().data_ptr()
        True
        """
        s = self._storage
        if s is None:
            if self._device.sparse:
                raise NotImplementedError("Cannot access storage of SparseTensorImpl")
            root = self._base if self._base is not None else self
            s = root._storage
            if s is None:
                s = root._storage = UntypedStorage(backend(root._device).flat_bytes(root._data), root._device)
            self._storage = s
        return s

    def share_memory_(self) -> "Tensor":
        """Move this tensor's storage into shared memory, so that processes it is sent to (through
        ``yaten.multiprocessing``) share it rather than copy it; a no-op when shared already and on cuda.

        This tensor and the tensor it is a view of look at the shared bytes afterwards; other views made
        before the call keep the old bytes (yaten's views hold their own array), so share first.

        >>> import yaten
        >>> x = yaten.zeros(3)
        >>> x.is_shared(), x.share_memory_() is x, x.is_shared()
        (False, True, True)
        """
        storage = self.untyped_storage()
        old = storage._buf
        if storage.share_memory_()._buf is not old:
            for t in (self, self._base) if self._base is not None else (self,):
                t._data = _strided(storage, t._dtype, tuple(t._data.shape), t.stride(), t._offset)
        return self

    def is_shared(self) -> bool:
        """Whether this tensor's storage is in shared memory (``share_memory_``); cuda tensors count as shared."""
        return self.untyped_storage().is_shared()

    def data_ptr(self) -> int:
        if self._data.size == 0:
            return 0  # as PyTorch: an empty tensor has no first element to point at
        return self.untyped_storage().data_ptr() + self._offset * self._dtype.itemsize

    def set_(self, source=None, storage_offset=None, size=None, stride=None) -> "Tensor":
        """Make this tensor look into ``source``'s storage (a Tensor or an UntypedStorage), as ``torch.Tensor.set_``.

        With no source the tensor becomes empty. Unlike PyTorch, a storage is never grown to fit
        ``size``: views of it would keep the old memory, so an out-of-bounds request is an error.

        >>> import yaten
        >>> a, b = yaten.zeros(2), yaten.arange(4.0)
        >>> a.set_(b).tolist(), a.data_ptr() == b.data_ptr()
        ([0.0, 1.0, 2.0, 3.0], True)
        >>> a.set_(b.untyped_storage(), 1, (2,), (2,)).tolist()
        [1.0, 3.0]
        """
        from .autograd.grad_mode import STATE
        from .autograd.record import check_inplace

        item = self._dtype.itemsize
        whole = storage_offset is None and size is None and stride is None
        if not whole and (storage_offset is None or size is None or not isinstance(storage_offset, int)):
            raise _set_type_error(source, storage_offset, size, stride)
        if isinstance(source, Tensor):
            if source._dtype is not self._dtype:
                raise RuntimeError(
                    f"Could not set tensor of type {D.TYPEID_NAME[source._dtype]} to a tensor of type "
                    f"{D.TYPEID_NAME[self._dtype]}"
                )
            storage = source.untyped_storage()
            if whole:
                size, stride, storage_offset = source.shape, source.stride(), source._offset
            elif not source.is_contiguous():
                raise RuntimeError("passed in tensor to be used as storage must be contiguous")
            else:
                storage_offset += source._offset  # as PyTorch: counted from the source's first element
        elif isinstance(source, UntypedStorage):
            storage = source
            if whole:
                size, storage_offset = (storage.nbytes() // item,), 0
        elif source is None and whole:
            storage = UntypedStorage(backend(self._device).empty((0,), np.uint8), self._device)
            size, storage_offset = (0,), 0
        else:
            raise _set_type_error(source, storage_offset, size, stride)
        size = tuple(size)
        stride = contiguous_strides(size) if stride is None else tuple(stride)
        if len(size) != len(stride):
            raise RuntimeError(f"unequal size length ({len(size)}) and stride length ({len(stride)})")
        if storage.device != self._device:
            raise RuntimeError(
                f'Attempted to set the storage of a tensor on device "{self._device}" to a storage on different '
                f'device "{storage.device}".  This is no longer allowed; the devices must match.'
            )
        if any(s < 0 for s in stride) or any(n < 0 for n in size):
            raise RuntimeError(
                f"Storage size calculation overflowed with sizes={list(size)} and strides={list(stride)}"
            )
        check_in_bounds(storage, item, size, stride, storage_offset)
        source_rg = isinstance(source, Tensor) and source._rg
        if STATE.enabled:
            check_inplace(self)
        self._data = _strided(storage, self._dtype, size, stride, storage_offset)
        self._storage = storage
        self._offset = storage_offset
        self._strides = stride if 0 in size else None
        self._vc[0] += 1
        if STATE.enabled and (self._rg or source_rg):
            # As PyTorch: the result stays in the graph, but its gradient is not implemented.
            from .autograd.node import NotImplementedBackward
            from .autograd.record import connect, set_history

            node = NotImplementedBackward("set_")
            connect(node, (self, source if source_rg else None))
            set_history(self, node)
        return self

    @property
    def _version(self) -> int:
        if is_inference(self):
            raise RuntimeError("Inference tensors do not track version counter.")
        return self._vc[0]

    def is_inference(self) -> bool:
        """Whether this tensor was made in inference mode (it then never joins a graph).

        >>> import yaten
        >>> with yaten.inference_mode():
        ...     x = yaten.ones(2)
        >>> x.is_inference(), (x + 1).is_inference()
        (True, False)
        """
        return is_inference(self)

    # --- autograd metadata ----------------------------------------------------------------------
    @property
    def grad_fn(self):
        """The node that made this tensor (None for a leaf). A view whose storage was changed in place
        since it was made reports its new history, as PyTorch does."""
        if self._base is not None:
            refresh_view(self)
        return self._grad_fn

    @property
    def requires_grad(self) -> bool:
        if self._base is not None:
            refresh_view(self)
        return self._rg

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise RuntimeError("requires_grad must be a bool")
        if self.grad_fn is not None:
            if value:
                return
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use a computed "
                "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
            )
        if value and not (self._dtype.is_floating_point or self._dtype.is_complex):
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        if value and not _GRAD.inference and is_inference(self):
            raise RuntimeError(
                "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
            )
        self._rg = value

    def requires_grad_(self, requires_grad: bool = True) -> "Tensor":
        if not isinstance(requires_grad, bool):
            raise TypeError(
                "requires_grad_(): argument 'requires_grad' (position 1) must be bool, not "
                f"{type(requires_grad).__name__}"
            )
        if requires_grad and not (self._dtype.is_floating_point or self._dtype.is_complex):
            # PyTorch words this one differently from the requires_grad setter's.
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self.requires_grad = requires_grad
        return self

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def grad(self):
        g = self._grad
        if g is None and self.grad_fn is not None and not self._retains_grad:
            warnings.warn(_NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return g

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(
                    f"assigned grad expected to be a Tensor or None but got grad of type {type(value).__name__}"
                )
            if value._dtype is not self._dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{D.TYPEID_NAME[value._dtype]}' to a tensor with "
                    f"grad_dtype '{D.LEGACY_NAME[self._dtype]}'. The gradient must match the tensor's dtype."
                )
            if value._device != self._device:
                raise RuntimeError(
                    f"attempting to assign a gradient on device '{value._device}' to a tensor on device "
                    f"'{self._device}'. Please ensure that the gradient and the tensor are on the same device"
                )
            if value._data.shape != self._data.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value._data.shape)}' to a tensor of size "
                    f"'{list(self._data.shape)}'. Please ensure that the gradient and the tensor are the same size"
                )
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    @property
    def output_nr(self) -> int:
        return self._output_nr

    def retain_grad(self) -> None:
        """Keep this non-leaf's gradient in ``.grad`` during backward (a leaf keeps it anyway).

        >>> import yaten
        >>> x = yaten.tensor([1.0, 2.0], requires_grad=True)
        >>> y = x * x
        >>> y.retain_grad()
        >>> y.sum().backward()
        >>> y.grad
        tensor([1., 1.])
        """
        if not self._rg:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is not None and not self._retains_grad:
            from .autograd.hooks import register_retain_grad

            register_retain_grad(self)
            self._retains_grad = True

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None) -> None:
        _autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def register_hook(self, hook):
        from .autograd.hooks import register_tensor_hook

        return register_tensor_hook(self, hook)

    @property
    def data(self) -> "Tensor":
        """This tensor's values without its history: the same storage, but a version counter of its
        own, so autograd does not see in-place changes made through it (as PyTorch's ``.data``).

        >>> import yaten
        >>> x = yaten.ones(2, requires_grad=True)
        >>> x.data.mul_(3)
        tensor([3., 3.])
        >>> x._version, x.grad_fn
        (0, None)
        """
        vc = [0] if type(self._vc) is list else InferenceVersion()
        out = _new(self._data, self._device, self._offset, None, self._storage, vc, False)
        out._strides = self._strides
        return out

    @data.setter
    def data(self, new) -> None:
        # The same object (its autograd state, hooks and version counter) now looks at new's elements.
        if not isinstance(new, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(new).__name__}")
        self._data, self._device, self._dtype = new._data, new._device, new._dtype
        self._offset, self._storage, self._strides, self._base = new._offset, new._storage, new._strides, None

    def detach_(self) -> "Tensor":
        """Cut this tensor from its history in place (it becomes a leaf that does not require grad)."""
        if self._base is not None and self._view_version is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) "
                "for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and "
                "hence detach_() cannot be called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
            )
        self._grad_fn = None
        self._rg = False
        self._output_nr = 0
        return self

    def register_post_accumulate_grad_hook(self, hook):
        """``hook(tensor)`` runs after backward accumulated a gradient into this leaf's ``.grad``.

        >>> import yaten
        >>> x = yaten.ones(2, requires_grad=True)
        >>> h = x.register_post_accumulate_grad_hook(lambda t: print(t.grad))
        >>> (x * 3).sum().backward()
        tensor([3., 3.])
        """
        from .autograd.hooks import register_post_accumulate_grad_hook

        return register_post_accumulate_grad_hook(self, hook)

    # --- conversion to Python and NumPy ---------------------------------------------------------
    def _host(self) -> np.ndarray:
        return backend(self._device).to_host(self._data)

    def item(self):
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return self._host().reshape(()).item()

    def tolist(self):
        return self._host().tolist()

    def numpy(self, *, force: bool = False) -> np.ndarray:
        if self._device.sparse:
            raise TypeError("can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() first.")
        if self._rg and not force:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
            )
        if self._device.type != "cpu":
            if not force:
                raise TypeError(
                    f"can't convert {self._device.type}:{self._device.index} device type tensor to numpy. "
                    "Use Tensor.cpu() to copy the tensor to host memory first."
                )
            return self._host()
        if self._dtype is D.bfloat16:  # torch has no NumPy bfloat16 (yaten's storage is ml_dtypes')
            raise TypeError("Got unsupported ScalarType BFloat16")
        return self._data

    # --- zero-copy exchange (runtime/_interop.py) -----------------------------------------------
    def __dlpack__(self, **kwargs):
        from ._interop import dlpack

        return dlpack(self, **kwargs)

    def __dlpack_device__(self) -> tuple:
        from ._interop import dlpack_device

        return dlpack_device(self)

    @property
    def __cuda_array_interface__(self) -> dict:
        from ._interop import cuda_array_interface

        return cuda_array_interface(self)

    def __array__(self, dtype=None, copy=None):
        # Unlike torch, a tensor that requires grad converts too (its data, shared): yaten's own tests
        # compare results with np.asarray(t). Other devices still raise numpy()'s TypeError.
        a = self.numpy(force=self._device.type == "cpu")
        return a if dtype is None else a.astype(dtype, copy=False)

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __contains__(self, element) -> bool:
        if isinstance(element, (Tensor, numbers.Number)):
            return bool((element == self).any().item())
        raise RuntimeError(
            f"Tensor.__contains__ only supports Tensor or scalar, but you passed in a {type(element)}."
        )

    def _scalar(self):
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def __bool__(self) -> bool:
        n = self._data.size
        if n != 1:
            raise RuntimeError(
                f"Boolean value of Tensor with {'no values' if n == 0 else 'more than one value'} is ambiguous"
            )
        return bool(self.item())

    def _real_scalar(self, c_type: str):
        # A complex value converts only when its imaginary part is zero, as c10's checked conversion.
        v = self._scalar()
        if isinstance(v, complex):
            if v.imag != 0:
                raise RuntimeError(f"value cannot be converted to type {c_type} without overflow")
            return v.real
        return v

    def __float__(self) -> float:
        return float(self._real_scalar("double"))

    def __int__(self) -> int:
        return int(self._real_scalar("int64_t"))

    def __index__(self) -> int:
        if self._dtype.kind in "fc" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __complex__(self) -> complex:
        return complex(self._scalar())

    # --- new tensors like this one -----------------------------------------------------------------
    def _like(self, dtype, device) -> dict:
        return {
            "dtype": self._dtype if dtype is None else dtype,
            "device": self._device if device is None else device,
        }

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
        """``yaten.zeros(*size)`` with this tensor's dtype and device unless given."""
        from ._factories import zeros

        return zeros(*size, requires_grad=requires_grad, **self._like(dtype, device))

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
        """``yaten.ones(*size)`` with this tensor's dtype and device unless given."""
        from ._factories import ones

        return ones(*size, requires_grad=requires_grad, **self._like(dtype, device))

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
        """``yaten.empty(*size)`` with this tensor's dtype and device unless given."""
        from ._factories import empty

        return empty(*size, requires_grad=requires_grad, **self._like(dtype, device))

    def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False, layout=None,
                 pin_memory=False):  # fmt: skip
        """``yaten.full(size, fill_value)`` with this tensor's dtype and device unless given.

        >>> import yaten
        >>> yaten.tensor([1, 2]).new_full((2,), 3.5)
        tensor([3, 3])
        """
        from ._factories import full

        return full(size, fill_value, requires_grad=requires_grad, **self._like(dtype, device))

    def new_tensor(
        self, data, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False
    ):
        """``yaten.tensor(data)`` (a copy) with this tensor's dtype and device unless given."""
        from ._factories import tensor

        return tensor(data, requires_grad=requires_grad, **self._like(dtype, device))

    def uniform_(self, from_=0.0, to=1.0, *, generator=None):
        """Fill in place with samples from U[from_, to) (torch's ``from``), on this tensor's device.

        >>> import yaten
        >>> all(-1 <= v < 1 for v in yaten.empty(5).uniform_(-1, 1).tolist())
        True
        """
        from ._random import fill_uniform_

        return fill_uniform_(self, from_, to, generator)

    def normal_(self, mean=0.0, std=1.0, *, generator=None):
        """Fill in place with samples from N(mean, std²), on this tensor's device.

        >>> import yaten
        >>> yaten.empty(2, 3).normal_(0.0, 0.02).shape
        yaten.Size([2, 3])
        """
        from ._random import fill_normal_

        return fill_normal_(self, mean, std, generator)

    def bernoulli_(self, p=0.5, *, generator=None):
        """Fill in place with 0/1 samples, 1 with probability ``p`` (a number or a broadcastable tensor).

        >>> import yaten
        >>> yaten.empty(3).bernoulli_(yaten.tensor([1.0, 0.0, 1.0])).tolist()
        [1.0, 0.0, 1.0]
        """
        from ._random import fill_bernoulli_

        return fill_bernoulli_(self, p, generator)

    def random_(self, *args, generator=None, **kwargs):
        """Fill in place with integers drawn uniformly: ``random_()``, ``random_(to)``, ``random_(from, to)``
        (``to=None``: up to the dtype's largest exact integer); ``from``/``to`` may be keywords.

        >>> import yaten
        >>> set(yaten.empty(100, dtype=yaten.int64).random_(2).tolist()) <= {0, 1}
        True
        """
        from ._random import fill_random_

        return fill_random_(self, args, kwargs, generator)

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        """``num_samples`` category indices drawn from each row of this 1-d or 2-d weight tensor.

        >>> import yaten
        >>> yaten.tensor([0.0, 1.0]).multinomial(2, replacement=True)
        tensor([1, 1])
        """
        from ._multinomial import multinomial

        return multinomial(self, num_samples, replacement, generator=generator)

    def type(self, dtype=None, non_blocking=False, **kwargs):
        """The legacy type name (``'yaten.FloatTensor'``) or, given a dtype, ``self.to(dtype)``.

        >>> import yaten
        >>> yaten.zeros(2).type(), yaten.zeros(2).type(yaten.int64).dtype
        ('yaten.FloatTensor', yaten.int64)
        """
        if dtype is None:
            return legacy_type_name(self)
        if isinstance(dtype, type):  # a legacy constructor, yaten.LongTensor
            dtype = f"{dtype.__module__}.{dtype.__name__}" if dtype.__module__ == "yaten" else dtype.__name__
        if isinstance(dtype, str):
            prefix, _, name = dtype.rpartition(".")
            target = D.BY_LEGACY_NAME.get(name.removesuffix("Tensor"))
            if target is None or prefix not in ("torch", "yaten", "torch.cuda", "yaten.cuda"):
                raise ValueError(f"invalid type: '{dtype}'")
            device = "cuda" if prefix.endswith(".cuda") else "cpu"
            return self.to(device=device, dtype=target)
        return self.to(dtype)

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        from ._repr import format_sparse_coo, format_tensor

        fn = self.grad_fn
        if self._device.sparse:
            d = self._data
            return format_sparse_coo(
                d.indices._host(), d.values._host(), size=d.shape, dtype_name=self._dtype.name,
                device=str(self._device), default_dtype_name=D.get_default_dtype().name,
                grad_fn_name=None if fn is None else fn.name(), requires_grad=self._rg,
            )  # fmt: skip
        return format_tensor(
            self._host(), dtype_name=self._dtype.name, device=str(self._device),
            default_dtype_name=D.get_default_dtype().name,
            grad_fn_name=None if fn is None else fn.name(), requires_grad=self._rg,
        )  # fmt: skip

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:
            return format(self.item(), spec)
        return object.__format__(self, spec)

    def __reduce_ex__(self, protocol):
        from ._factories import tensor_from_host

        if self._device.sparse:  # its parts, each pickled as a tensor
            from .sparse._factory import rebuild_sparse

            d = self._data
            return (rebuild_sparse, (d.indices, d.values, d.shape, d.coalesced, self._rg))
        return (tensor_from_host, (self.detach().cpu()._host().copy(), str(self._device), self._rg))

    def __deepcopy__(self, memo):
        if self.grad_fn is not None:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment."
            )
        out = self.detach().clone()
        out._rg = self._rg
        if self._grad is not None:
            out._grad = self._grad.__deepcopy__(memo)
        memo[id(self)] = out
        return out


def _new(data, device: _dev.device, offset: int, base, storage, vc, requires_grad: bool) -> Tensor:
    t = object.__new__(Tensor)
    t._data = data
    t._dtype = D.BY_NP[data.dtype]
    t._device = device
    t._offset = offset
    t._base = base
    t._storage = storage
    t._strides = None
    t._vc = vc
    t._rg = requires_grad
    t._grad = None
    t._grad_fn = None
    t._output_nr = 0
    t._acc = None
    t._retains_grad = False
    t._view_version = None
    return t


def wrap(data, device: _dev.device, requires_grad: bool = False) -> Tensor:
    """A new root tensor owning backend array ``data`` (the one place op results become tensors)."""
    return _new(data, device, 0, None, None, InferenceVersion() if _GRAD.inference else [0], requires_grad)


class InferenceVersion(list):
    """The version counter of an inference tensor: it counts nothing, and refuses in-place updates
    outside inference mode (the generated in-place ops all bump ``_vc[0]``)."""

    def __init__(self):
        super().__init__((0,))

    def __getitem__(self, i):
        if not _GRAD.inference:
            raise RuntimeError(_INFERENCE_INPLACE)
        return 0

    def __setitem__(self, i, value):
        pass


def is_inference(t: Tensor) -> bool:
    return type(t._vc) is InferenceVersion


def view_of(base: Tensor, data, offset: int) -> Tensor:
    """A tensor over ``data``, a view into ``base``'s storage starting ``offset`` elements in.

    It shares ``base``'s version counter and storage; its ``_base`` is the root of ``base``'s views.
    """
    root = base._base if base._base is not None else base
    t = _new(data, base._device, offset, root, base._storage, base._vc, False)
    if _GRAD.enabled:
        if type(base._vc) is list:  # (an inference tensor's views never join a graph)
            t._view_version = base._vc[0]  # when its history was recorded: autograd.view_history
    elif root._rg or base._rg:
        t.__dict__["_no_grad_view"] = True  # in-place on it with grad mode on is refused
    return t


def alias(t: Tensor) -> Tensor:
    """Another Tensor object for ``t``'s data: same storage, base, version counter and requires_grad,
    but no history of its own (what a saved output unpacks to)."""
    out = _new(t._data, t._device, t._offset, t._base, t._storage, t._vc, t._rg)
    out._output_nr = t._output_nr
    return out


def strided_view(base: Tensor, shape, strides, offset: int, dtype: D.dtype | None = None) -> Tensor:
    """The view of ``base``'s storage with the given element ``shape``, ``strides`` and ``offset``
    (counted in elements of ``dtype``, base's own by default)."""
    storage = base.untyped_storage()
    shape, strides = tuple(shape), tuple(strides)
    t = view_of(base, _strided(storage, dtype or base._dtype, shape, strides, offset), offset)
    t._storage = storage
    if 0 in shape:
        t._strides = strides
    return t


def _strided(storage: UntypedStorage, dtype: D.dtype, shape: tuple, strides: tuple, offset: int):
    # An empty view may start anywhere (even past the end of its storage): its array starts at 0.
    return backend(storage.device).strided(
        storage._buf, dtype.np, shape, strides, 0 if 0 in shape else offset
    )


def check_in_bounds(storage: UntypedStorage, itemsize: int, shape, strides, offset: int) -> None:
    """PyTorch's check that a view of ``shape``/``strides`` at ``offset`` lies inside ``storage``."""
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if 0 in shape:
        return
    need = itemsize * (offset + 1 + sum((n - 1) * s for n, s in zip(shape, strides)))
    if need > storage.nbytes():
        raise RuntimeError(
            f"setStorage: sizes {list(shape)}, strides {list(strides)}, storage offset {offset}, and itemsize "
            f"{itemsize} requiring a storage size of {need} are out of bounds for storage of size {storage.nbytes()}"
        )


def legacy_type_name(t: Tensor) -> str:
    """PyTorch's legacy type string of ``t`` (``yaten.FloatTensor``, ``yaten.cuda.LongTensor``)."""
    where = "yaten.cuda." if t._device.type == "cuda" else "yaten."
    return f"{where}{D.LEGACY_NAME[t._dtype]}Tensor"


def is_tensor(obj) -> bool:
    """Whether ``obj`` is a yaten Tensor (a Parameter included), as ``torch.is_tensor``.

    >>> import yaten
    >>> yaten.is_tensor(yaten.ones(1)), yaten.is_tensor([1.0])
    (True, False)
    """
    return isinstance(obj, Tensor)


def typename(obj) -> str:
    """The type name PyTorch's errors print (``torch.typename``), with yaten's names.

    >>> import yaten
    >>> yaten.typename(yaten.ones(1)), yaten.typename(3)
    ('yaten.FloatTensor', 'int')
    """
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = obj.__class__.__module__ or ""
        qualname = obj.__class__.__qualname__
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def _wrap_dim(dim: int, ndim: int) -> int:
    # size(dim) and stride(dim) do not treat a 0-d tensor as 1-d, unlike most dim arguments.
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return wrap_dim(dim, ndim)


def _set_type_error(*args) -> TypeError:
    got = ", ".join(
        type(a).__name__ if not isinstance(a, Tensor) else "Tensor" for a in args if a is not None
    )
    return TypeError(
        f"set_() received an invalid combination of arguments - got ({got}), but expected one of:\n"
        " * ()\n"
        " * (yaten.UntypedStorage source)\n"
        " * (yaten.UntypedStorage source, int storage_offset, tuple of ints size, tuple of ints stride = None)\n"
        " * (Tensor source)\n"
        " * (Tensor source, int storage_offset, tuple of ints size, tuple of ints stride = None)\n"
    )


_NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
    "Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure "
    "you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information."
)

_INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed. You can make a clone to get a "
    "normal tensor before doing inplace update."
)

# Imported last: the autograd package imports this module, which must be complete by then.
from . import autograd as _autograd
from .autograd.grad_mode import STATE as _GRAD
from .autograd.view_history import refresh_view
