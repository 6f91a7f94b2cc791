"""SavedVariable: a tensor a Backward node keeps for its formulas, version-checked on unpack."""

import re
import weakref

from .. import _tensor as T
from . import saved_hooks
from .grad_mode import no_grad

FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
    "if you need to access saved tensors after calling backward."
)

INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
    "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use "
    "it in autograd, or use `yaten.no_grad()` instead of `yaten.inference_mode()`."
)

PACK_MODIFIED = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to pack hook cannot be "
    "modified by in-place operations as this can lead to unexpected side-effects."
)


class SavedVariable:
    """One saved tensor. An input is kept as is; an output is kept without its grad_fn (no cycle).

    Under ``saved_tensors_hooks`` only what ``pack`` returned is kept, with what it takes to give the
    unpacked tensor its place in the graph again (grad_fn or the leaf's accumulator).
    """

    __slots__ = ("_edge", "_freed", "_is_output", "_packed", "_tensor", "_unpack", "_version")

    def __init__(self, tensor, is_output: bool):
        self._freed = False
        self._is_output = is_output
        self._unpack = None
        if tensor is None:
            self._tensor = None
            self._version = 0
            return
        if T.is_inference(tensor):
            raise RuntimeError(INFERENCE_SAVED)
        self._version = tensor._vc[0]
        hooks = saved_hooks.current()
        if hooks is not None:
            self._pack(tensor, *hooks)
        elif is_output:
            self._tensor = T.alias(tensor)  # no grad_fn, so no reference cycle through the node
        else:
            self._tensor = tensor

    def _pack(self, tensor, pack, unpack) -> None:
        with no_grad():
            self._packed = pack(tensor)
        if tensor._vc[0] != self._version:
            raise RuntimeError(PACK_MODIFIED)
        self._unpack = unpack
        self._tensor = None
        # (requires_grad, output_nr, grad_fn or the leaf's accumulator) to reattach the unpacked tensor.
        if self._is_output or not tensor._rg:
            self._edge = (tensor._rg, tensor._output_nr, None)
        elif tensor.grad_fn is not None:
            self._edge = (True, tensor._output_nr, tensor.grad_fn)
        else:
            from .node import accumulate_node

            self._edge = (True, 0, accumulate_node(tensor))

    def unpack(self, node):
        if self._freed:
            raise RuntimeError(FREED)
        if self._unpack is not None:
            return self._unpack_hooked(node)
        t = self._tensor
        if t is None:
            return None
        if t._vc[0] != self._version:
            raise RuntimeError(self._modified_message(t, node))
        if self._is_output:
            out = T.alias(t)
            if t._rg:
                out._grad_fn = node
            return out
        return t

    def _unpack_hooked(self, node):
        t = self._unpack(self._packed)
        if not isinstance(t, T.Tensor):
            raise TypeError(
                f"Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                f"{type(t).__name__}"
            )
        from .node import AccumulateGrad

        rg, output_nr, fn = self._edge
        if not rg:
            return t
        out = T.alias(t)
        out._rg = True
        out._output_nr = output_nr
        if self._is_output:
            out._grad_fn = node
        elif isinstance(fn, AccumulateGrad):
            out._acc = weakref.ref(fn)  # a leaf: gradients reach the original leaf's .grad
        else:
            out._grad_fn = fn
        return out

    unpack_for_property = unpack  # what ``grad_fn._saved_<name>`` shows

    def _modified_message(self, t, node) -> str:
        # As PyTorch: name the node that made the tensor (for a saved output, the saving node itself).
        fn = node if self._is_output else t.grad_fn
        made_by = "" if fn is None else f", which is output {t._output_nr} of {_op_name(fn.name())},"
        return (
            "one of the variables needed for gradient computation has been modified by an inplace operation: "
            f"[{T.legacy_type_name(t)} {list(t._data.shape)}]{made_by} is at version {t._vc[0]}; expected version "
            f"{self._version} instead. Hint: enable anomaly detection to find the operation that failed to "
            "compute its gradient, with yaten.autograd.set_detect_anomaly(True, check_nan=False)."
        )

    def release(self) -> None:
        self._tensor = None
        self._unpack = None
        self._packed = None
        self._edge = None
        self._freed = True


class NotSaved:
    """What a node holds where its formulas did not need a tensor (no input wanting that gradient)."""

    __slots__ = ()

    def unpack(self, node):
        return None

    unpack_for_property = unpack

    def release(self) -> None:
        pass


NOT_SAVED = NotSaved()


class SavedNumber:
    """The number of ``x * 2``, which records mul.Tensor's node (as PyTorch, whose binding wraps the 2
    into a tensor). Formulas read the number, so it takes part in type promotion as a scalar; the
    ``_saved_other`` property shows the wrapped-number tensor PyTorch shows."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def unpack(self, node):
        return self.value

    def unpack_for_property(self, node):
        import yaten

        # A wrapped number is 64-bit: int64 for an int, float64 for a float (bool stays bool).
        v = self.value
        dtype = yaten.bool if isinstance(v, bool) else yaten.int64 if isinstance(v, int) else yaten.float64
        return yaten.tensor(v, dtype=dtype)

    def release(self) -> None:
        pass


def _op_name(node_name: str) -> str:
    """``ExpBackward0`` -> ``Exp``: how PyTorch names a node in the in-place modification error."""
    return re.sub(r"Backward\d*$", "", node_name)
