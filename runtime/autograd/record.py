"""Recording a graph: what the generated autograd layer calls around each differentiable op."""

from .anomaly_mode import STATE as ANOMALY
from .anomaly_mode import forward_trace
from .hooks import register_retain_grad
from .node import gradient_edge
from .view_history import rebase_view


class TensorMeta:
    """What a formula may read of a tensor it did not save: shape, dtype, device, ndim, and where
    asked for, ``geometry``: (shape, strides, storage offset, storage size in elements)."""

    __slots__ = ("device", "dtype", "geometry", "ndim", "shape")

    def __init__(self, t, geometry: bool = False):
        self.shape = t.shape
        self.dtype = t._dtype
        self.device = t._device
        self.ndim = t._data.ndim
        if geometry:
            self.geometry = tensor_geometry(t)


def tensor_geometry(t) -> tuple:
    """(shape, strides, storage offset, storage size in elements): where ``t``'s elements lie (PyTorch's
    TensorGeometry), what a view's gradient is laid out by without keeping the tensor."""
    return (
        tuple(t.shape),
        tuple(t.stride()),
        t.storage_offset(),
        t.untyped_storage().nbytes() // t._dtype.itemsize,
    )


def connect(node, inputs) -> None:
    """Point ``node`` at the gradient edges of its differentiable ``inputs`` (None allowed)."""
    if ANOMALY.enabled:
        node.metadata["traceback_"] = forward_trace()
    edges, meta = [], []
    for t in inputs:
        if t is None:
            edges.append((None, 0))
            meta.append(None)
        else:
            edges.append(gradient_edge(t))
            meta.append((t._data.shape, t._dtype, t._device))
    node.next_functions = tuple(edges)
    node._input_meta = tuple(meta)


def set_history(result, node, output_nr: int = 0) -> None:
    if not (result._dtype.is_floating_point or result._dtype.is_complex):
        return  # integer and bool outputs are not differentiable (argmax-like results, .long())
    result._grad_fn = node
    result._rg = True
    result._output_nr = output_nr


def set_inplace_history(t, node, output_nr: int = 0) -> None:
    """Make in-place op ``node`` (output ``output_nr`` of it) the history of ``t``; for a view, rebase
    its base's history too (a view is always the only output)."""
    old = t.grad_fn
    if t._retains_grad and old is not None:
        old._retain_hooks.pop(t._output_nr, None)  # retain_grad follows the tensor's newest history
    if t._base is not None:
        rebase_view(t, node)
    else:
        set_history(t, node, output_nr)
    if t._retains_grad:
        register_retain_grad(t)


def check_inplace(t) -> None:
    """In-place ops on a leaf that requires grad would lose its gradient: PyTorch forbids them."""
    base = t._base
    # getattr, not t.__dict__: reading __dict__ would give every view written in place a dict of its own.
    if base is not None and getattr(t, "_custom_view", None) is not None:
        raise RuntimeError(custom_view_error(t, "is being modified inplace"))
    if t._rg and (t if base is None else base).grad_fn is None:
        what = "a leaf Variable" if base is None else "a view of a leaf Variable"
        raise RuntimeError(f"{what} that requires grad is being used in an in-place operation.")
    if base is not None and base._rg and getattr(t, "_no_grad_view", False):
        raise RuntimeError(NO_GRAD_VIEW)


def custom_view_error(t, what: str) -> str:
    return (
        f"{t.__dict__['_custom_view']} is a view and {what}. This view was created inside a custom Function (or "
        "because an input was returned as-is) and the autograd logic to handle view+inplace would override the "
        "custom backward associated with the custom Function, leading to incorrect gradients. This behavior is "
        "forbidden. You can fix this by cloning the output of the custom Function."
    )


NO_GRAD_VIEW = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this use "
    "case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the "
    "inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside "
    "(if you want the inplace to be tracked)."
)


def not_differentiable(op: str, arg: str) -> None:
    raise RuntimeError(
        f"The function '{op}' is not differentiable with respect to argument '{arg}'. "
        "This input cannot have requires_grad True."
    )


def out_of_autograd(name: str) -> None:
    raise RuntimeError(
        f"{name}(): functions with out=... arguments don't support automatic differentiation, "
        "but one of the arguments requires grad."
    )
