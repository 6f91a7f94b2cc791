"""The Tensor attributes of complex numbers: ``real``/``imag`` (views of the parts, settable as
torch's) and the conjugate transposes ``H``/``mH``; the ops behind them are in runtime/native/complex.py.
"""

import warnings

from ._generated import ops
from ._tensor import Tensor


def _part(op):
    """The property of one part: ``op``'s view to read, written by ``copy_`` (a tensor) or ``fill_``
    (a number)."""

    def put(self, value) -> None:
        target = op(self)
        if isinstance(value, Tensor):
            target.copy_(value)
        else:
            target.fill_(value)

    return property(op, put, doc=f"``{op.__name__}(self)``: a view, settable.")


def _H(self) -> Tensor:
    ndim = self.ndim
    if ndim == 0:
        warnings.warn(
            "Tensor.H is deprecated on 0-D tensors. Consider using x.conj().", UserWarning, stacklevel=2
        )
        return self.conj()
    if ndim != 2:
        hint = " For batches of matrices, consider using tensor.mH" if ndim > 2 else ""
        raise RuntimeError(
            f"tensor.H is only supported on matrices (2-D tensors). Got {ndim}-D tensor.{hint}"
        )
    return self.adjoint()


def _mH(self) -> Tensor:
    if self.ndim < 2:
        raise RuntimeError(
            f"tensor.mH is only supported on matrices or batches of matrices. Got {self.ndim}-D tensor."
        )
    return self.adjoint()


Tensor.real = _part(ops.real)
Tensor.imag = _part(ops.imag)
Tensor.H = property(_H, doc="The conjugate transpose of a matrix.")
Tensor.mH = property(_mH, doc="The conjugate transpose of the last two dimensions.")
