"""CopySlices: the node of a base after an in-place op on one of its views, as in PyTorch.

``x[0].mul_(2)`` changes part of ``x``. Its gradient path runs through CopySlices, which hands the
in-place node the slice of the incoming gradient that the view covers, writes that node's gradient
for the view back into the slice, and passes the rest of ``x``'s gradient on unchanged.
"""

from .node import Node, gradient_edge
from .record import tensor_geometry


class CopySlices(Node):
    """The node of a base whose view ``fn`` modified in place.

    Its inputs are the base's previous history, then ``fn``'s own other inputs.
    """

    __slots__ = ("_base_geometry", "_view_geometry", "fn")

    def __init__(self, base, view, fn):
        super().__init__()
        self.fn = fn
        self._base_geometry = tensor_geometry(base)
        self._view_geometry = tensor_geometry(view)
        self.next_functions = (gradient_edge(base),) + fn.next_functions[1:]
        self._input_meta = ((base._data.shape, base._dtype, base._device),) + tuple(fn._input_meta[1:])

    def name(self) -> str:
        return "yaten::autograd::CopySlices"

    def apply(self, grads):
        grad = grads[0]
        if grad is None:
            return (None,) * len(self.next_functions)
        from .. import zeros

        shape, strides, offset, numel = self._base_geometry
        # A buffer laid out as the base's storage, so the view's strides and offset address it.
        flat = zeros(numel, dtype=grad.dtype, device=grad.device)
        flat.as_strided(shape, strides, offset).copy_(grad)
        vshape, vstrides, voffset, _ = self._view_geometry
        grad_slice = flat.as_strided(vshape, vstrides, voffset)
        res = self.fn.apply([grad_slice.clone()])
        if res[0] is None:
            grad_slice.zero_()
        else:
            grad_slice.copy_(res[0])
        # Taken after the writes, so under create_graph its history includes them.
        return (flat.as_strided(shape, strides, offset),) + tuple(res[1:])

    def _release(self) -> None:
        self.fn._release()
        self._freed = self.fn._freed
