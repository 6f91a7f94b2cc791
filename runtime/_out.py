"""out= variants: writing a computed result into the caller's tensor, as PyTorch does."""

import warnings

from ._dtype import LEGACY_NAME
from ._overlap import assert_no_partial_overlap
from ._promotion import can_cast


def write_out(name: str, out, result, inputs=()):
    """Copy ``result`` into ``out`` (resized if needed) and return ``out``; ``out`` may not partly
    overlap the tensors of ``inputs`` (an elementwise op's), as PyTorch's elementwise kernels refuse."""
    if out.grad_fn is not None or out._rg:
        from .autograd.record import out_of_autograd

        out_of_autograd(name)
    if out._device != result._device:
        raise RuntimeError(
            f"Expected out tensor to have device {result._device}, but got {out._device} instead"
        )
    if not can_cast(result._dtype, out._dtype):
        raise RuntimeError(
            f"result type {LEGACY_NAME[result._dtype]} can't be cast to the desired output type "
            f"{LEGACY_NAME[out._dtype]}"
        )
    for t in inputs:
        assert_no_partial_overlap(out._data, t._data)
    if out.shape != result.shape:
        if out.numel() != 0:
            warnings.warn(
                f"An output with one or more elements was resized since it had shape {list(out.shape)}, which does "
                f"not match the required output shape {list(result.shape)}. This behavior is deprecated, and in a "
                "future PyTorch release outputs will not be resized unless they have zero elements. You can explicitly "
                "reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).",
                UserWarning,
                stacklevel=3,
            )
        out.set_(result.to(out._dtype))
        return out
    with _no_grad():
        out.copy_(result)
    return out


def _no_grad():
    from .autograd.grad_mode import no_grad

    return no_grad()
