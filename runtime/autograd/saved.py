"""SavedVariable: a tensor a Backward node keeps for its formulas, version-checked on unpack."""

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
            t_desc = f"[{t._device.type}, {t._dtype.name} {list(t._data.shape)}]"
            owner = f"output {t._output_nr} of {node.name()}" if self._is_output else "an input"
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an inplace "
                f"operation: {t_desc}, which is {owner}, is at version {t._vc[0]}; expected version "
                f"{self._version} instead. Hint: the backtrace further above can point to the operation that "
                "failed to compute its gradient. The variable in question was changed in there or anywhere later. "
                "Good luck!"
            )
        if self._is_output:
            out = T.view_of(t, t._data, t._offset)
            out._base = t._base
            out._rg = t._rg
            out.grad_fn = node if t._rg else None
            out._output_nr = t._output_nr
            return out
        return t

    def release(self) -> None:
        self._tensor = None
        self._freed = True
