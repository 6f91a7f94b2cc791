"""What programs ask about a tensor's kind and place rather than its values, answered as torch answers.

A yaten tensor is strided or sparse COO (``x.is_sparse``, ``x.layout`` is ``yaten.strided`` or
``yaten.sparse_coo``: runtime/_sparse_coo.py), on the cpu or one cuda device, never CSR, quantized, nested,
MKL-DNN, meta, or on an accelerator yaten has no backend for, so those flags are properties that are
False (``x.is_sparse_csr``, ``x.is_meta``, ...). The layouts are objects as torch's, so code can compare
with ``yaten.sparse_coo`` or pass ``layout=yaten.strided``.

Pinned memory: yaten has no page-locked host memory. ``pin_memory()`` raises torch's error where no
accelerator is available and otherwise returns a copy (as torch's returns a copy), which ``is_pinned()``
then still reports unpinned; a host-to-device copy never needs pinning here.
"""

from . import _device as _dev
from ._factories import legacy_construct
from ._tensor import Tensor, legacy_type_name


class layout:
    """How a tensor's elements are stored, as ``torch.layout``.

    >>> import yaten
    >>> yaten.ones(2).layout, yaten.ones(2).layout == yaten.strided
    (yaten.strided, True)
    """

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"yaten.{self.name}"

    def __reduce__(self):  # pickled as a reference to the module constant, as torch's
        return self.name


strided = layout("strided")
sparse_coo = layout("sparse_coo")
sparse_csr = layout("sparse_csr")
sparse_csc = layout("sparse_csc")
sparse_bsr = layout("sparse_bsr")
sparse_bsc = layout("sparse_bsc")
jagged = layout("jagged")
_mkldnn = layout("_mkldnn")

# torch's Tensor properties for layouts, dtypes and devices yaten does not have.
_NEVER = ("is_sparse_csr", "is_quantized", "is_mkldnn", "is_meta", "is_xpu", "is_mps", "is_nested",
          "is_vulkan", "is_xla", "is_ipu", "is_maia", "is_mtia")  # fmt: skip
for _name in _NEVER:
    setattr(Tensor, _name, property(lambda self: False, doc=f"False: yaten has no such tensors ({_name})."))
Tensor.is_sparse = property(lambda self: self._device.sparse, doc="Whether this is a sparse COO tensor.")
Tensor.layout = property(
    lambda self: sparse_coo if self._device.sparse else strided,
    doc="``yaten.sparse_coo`` for a sparse COO tensor, else ``yaten.strided``.",
)


def get_device(input) -> int:
    """The index of the cuda device holding ``input``; -1 for a cpu tensor (``Tensor.get_device`` too).

    >>> import yaten
    >>> yaten.ones(2).get_device(), yaten.get_device(yaten.ones(2))
    (-1, -1)
    """
    return -1 if input.device.type == "cpu" else input.device.index


def is_pinned(self, device=None) -> bool:
    """False: yaten allocates no page-locked host memory (see the module's docstring).

    >>> import yaten
    >>> yaten.ones(2).is_pinned()
    False
    """
    return False


def pin_memory(self, device=None) -> Tensor:
    """A copy of this cpu tensor, as torch's pinned copy; torch's errors for a cuda tensor or when no
    accelerator is available.

    >>> import yaten
    >>> yaten.ones(2).pin_memory()  # doctest: +SKIP
    tensor([1., 1.])
    """
    from . import cuda

    if self.device.type != "cpu":
        raise RuntimeError(f"cannot pin '{legacy_type_name(self)}' only dense CPU tensors can be pinned")
    if not cuda.is_available():
        raise RuntimeError("Cannot access accelerator device when none is available.")
    return self.clone()


def new(self, *args, device=None) -> Tensor:
    """The legacy ``Tensor.new``: sizes give an uninitialised tensor, data a copy, nothing an empty one,
    a tensor of this dtype an alias of it; in this tensor's dtype and on its device (or ``device``).

    >>> import yaten
    >>> x = yaten.ones(2, dtype=yaten.float64)
    >>> x.new(2, 3).shape, x.new([1, 2])
    (yaten.Size([2, 3]), tensor([1., 2.], dtype=yaten.float64))
    """
    other = args[0] if len(args) == 1 and isinstance(args[0], Tensor) else None
    if other is not None and (other.dtype is not self.dtype or other.device != self.device):
        raise TypeError(
            f"new(): expected a tensor of dtype {self.dtype} on {self.device} (got {other.dtype} on {other.device})"
        )
    return legacy_construct(self.dtype, args, self.device if device is None else _dev.canonical(device))


def is_nonzero(input) -> bool:
    """Whether the single value of ``input`` is not zero; torch's errors for no value or several.

    >>> import yaten
    >>> yaten.tensor([0.0]).is_nonzero(), yaten.is_nonzero(yaten.tensor(3))
    (False, True)
    """
    n = input.numel()
    if n != 1:
        what = "no values" if n == 0 else "more than one value"
        raise RuntimeError(f"Boolean value of Tensor with {what} is ambiguous")
    return bool(input.item() != 0)


def is_same_size(input, other) -> bool:
    """Whether two tensors have the same shape.

    >>> import yaten
    >>> yaten.ones(2, 3).is_same_size(yaten.zeros(2, 3))
    True
    """
    return tuple(input.shape) == tuple(other.shape)


def is_signed(input) -> bool:
    """Whether ``input``'s dtype is signed (every dtype but uint8 and bool).

    >>> import yaten
    >>> yaten.is_signed(yaten.ones(1)), yaten.tensor([1], dtype=yaten.uint8).is_signed()
    (True, False)
    """
    return input.dtype.is_signed


def is_neg(input) -> bool:
    """False: yaten keeps no lazy negation bit (torch's is set only by ``conj`` views of complex inputs).

    >>> import yaten
    >>> yaten.ones(1).is_neg()
    False
    """
    return False


def is_inference(input) -> bool:
    """Whether ``input`` was made in inference mode (``Tensor.is_inference``).

    >>> import yaten
    >>> yaten.is_inference(yaten.ones(1))
    False
    """
    return input.is_inference()


def numel(input) -> int:
    """The number of elements of ``input``.

    >>> import yaten
    >>> yaten.numel(yaten.ones(2, 3))
    6
    """
    return input.numel()


def is_storage(obj) -> bool:
    """Whether ``obj`` is a storage (``Tensor.untyped_storage()``'s result).

    >>> import yaten
    >>> yaten.is_storage(yaten.ones(2).untyped_storage()), yaten.is_storage(yaten.ones(2))
    (True, False)
    """
    from ._storage import UntypedStorage

    return isinstance(obj, UntypedStorage)


def get_default_device() -> _dev.device:
    """The device factories make tensors on when given none: the cpu.

    >>> import yaten
    >>> yaten.get_default_device()
    device(type='cpu')
    """
    return _dev.device("cpu")


for _fn in (get_device, is_pinned, pin_memory, new, is_nonzero, is_same_size, is_signed, is_neg):
    setattr(Tensor, _fn.__name__, _fn)

__all__ = ["get_default_device", "get_device", "is_inference", "is_neg", "is_nonzero", "is_same_size", "is_signed", "is_storage",
           "jagged", "layout", "numel", "sparse_bsc", "sparse_bsr", "sparse_coo", "sparse_csc", "sparse_csr",
           "strided"]  # fmt: skip
