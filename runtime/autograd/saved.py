"""SavedVariable: a tensor a Backward node keeps for its formulas, version-checked on unpack."""

import re

from .. import _tensor as T

FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
    "if you need to access saved tensors after calling backward."
)


class SavedVariable:
    """One saved tensor. An input is kept as is; an output is kept without its grad_fn (no cycle)."""

    __slots__ = ("_freed", "_is_output", "_tensor", "_version")

    def __init__(self, tensor, is_output: bool):
        self._freed = False
        self._is_output = is_output
        if tensor is None:
            self._tensor = None
            self._version = 0
            return
        self._version = tensor._vc[0]
        if is_output:
            # A new tensor object over the same data and version counter, with no grad_fn.
            saved = T.view_of(tensor, tensor._data, tensor._offset)
            saved._base = tensor._base
            saved._rg = tensor._rg
            saved._output_nr = tensor._output_nr
            self._tensor = saved
        else:
            self._tensor = tensor

    def unpack(self, node):
        if self._freed:
            raise RuntimeError(FREED)
        t = self._tensor
        if t is None:
            return None
        if t._vc[0] != self._version:
            raise RuntimeError(self._modified_message(t, node))
        if self._is_output:
            out = T.view_of(t, t._data, t._offset)
            out._base = t._base
            out._rg = t._rg
            out.grad_fn = node if t._rg else None
            out._output_nr = t._output_nr
            return out
        return t

    def _modified_message(self, t, node) -> str:
        # As PyTorch: name the node that made the tensor (for a saved output, the saving node itself).
        fn = node if self._is_output else t.grad_fn
        made_by = "" if fn is None else f", which is output {t._output_nr} of {_op_name(fn.name())},"
        return (
            "one of the variables needed for gradient computation has been modified by an inplace operation: "
            f"[{T.legacy_type_name(t)} {list(t._data.shape)}]{made_by} is at version {t._vc[0]}; expected version "
            f"{self._version} instead. Hint: the tensor was changed in place after the forward pass saved it for "
            "backward; clone it before the in-place operation (or modify it only after backward)."
        )

    def release(self) -> None:
        self._tensor = None
        self._freed = True


def _op_name(node_name: str) -> str:
    """``ExpBackward0`` -> ``Exp``: how PyTorch names a node in the in-place modification error."""
    return re.sub(r"Backward\d*$", "", node_name)
