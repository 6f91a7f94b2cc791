"""Recording a graph: what the generated autograd layer calls around each differentiable op."""

from .node import gradient_edge


class TensorMeta:
    """What a formula may read of a tensor it did not save: shape, dtype, device, ndim."""

    __slots__ = ("device", "dtype", "ndim", "shape")

    def __init__(self, t):
        self.shape = t.shape
        self.dtype = t._dtype
        self.device = t._device
        self.ndim = t._data.ndim


def connect(node, inputs) -> None:
    """Point ``node`` at the gradient edges of its differentiable ``inputs`` (None allowed)."""
    edges, meta = [], []
    for t in inputs:
        if t is None:
            edges.append((None, 0))
            meta.append(None)
        else:
            edges.append(gradient_edge(t))
            meta.append((t._data.shape, t._dtype))
    node.next_functions = tuple(edges)
    node._input_meta = tuple(meta)


def set_history(result, node, output_nr: int = 0) -> None:
    if not result._dtype.is_floating_point:
        return  # integer and bool outputs are not differentiable (argmax-like results, .long())
    result.grad_fn = node
    result._rg = True
    result._output_nr = output_nr


def check_inplace(t) -> None:
    """In-place ops on a leaf that requires grad would lose its gradient: PyTorch forbids them."""
    if t.grad_fn is None and t._rg:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")


def out_of_autograd(name: str) -> None:
    raise RuntimeError(
        f"{name}(): functions with out=... arguments don't support automatic differentiation, "
        "but one of the arguments requires grad."
    )
