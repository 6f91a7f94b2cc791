"""Complex-number ops: the views between a complex tensor and its real parts, conjugation, and the
constructors from parts (``complex``, ``polar``).

A complex64/complex128 element is a pair of float32/float64 (real, then imaginary), so
``view_as_real`` is a view with the strides doubled and a last dimension of 2, and ``real``/``imag``
are its two slices: every device gets them through ``strided_view``. Unlike torch, ``conj`` carries
no lazy conjugate bit: it returns ``conj_physical``'s new tensor (a real tensor itself), so
``is_conj()`` is always False and ``resolve_conj``/``resolve_neg`` return their input.
"""

import math

import yaten

from .._dispatch import common_device
from .._dtype import COMPLEX_OF, LEGACY_NAME, REAL_OF, float16
from .._promotion import infer_size
from .._tensor import strided_view


def view_as_real(self):
    """``self``'s complex numbers as pairs (real, imaginary) in a new last dimension, sharing memory.

    >>> import yaten
    >>> yaten.view_as_real(yaten.tensor([1 + 2j, 3 - 1j]))
    tensor([[ 1.,  2.],
            [ 3., -1.]])
    """
    if not self.dtype.is_complex:
        raise RuntimeError("view_as_real is only supported for complex tensors")
    return strided_view(
        self, (*self.shape, 2), (*(2 * s for s in self.stride()), 1), 2 * self._offset, REAL_OF[self.dtype]
    )


def view_as_complex(self):
    """A float tensor whose last dimension is (real, imaginary) pairs as complex numbers, sharing memory.

    >>> import yaten
    >>> yaten.view_as_complex(yaten.tensor([[1.0, 2.0], [3.0, -1.0]]))
    tensor([1.+2.j, 3.-1.j])
    """
    _check_not_half(self.dtype)
    if self.dtype not in COMPLEX_OF:
        raise RuntimeError(
            "view_as_complex is only supported for half, float and double tensors, but got a tensor of "
            f"scalar type: {LEGACY_NAME[self.dtype]}"
        )
    if self.ndim == 0:
        raise RuntimeError("Input tensor must have one or more dimensions")
    shape, strides = tuple(self.shape), self.stride()
    if shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if strides[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(s % 2 for s in strides[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    if self._offset % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    return strided_view(
        self, shape[:-1], tuple(s // 2 for s in strides[:-1]), self._offset // 2, COMPLEX_OF[self.dtype]
    )


def view_as_real_copy(self):
    """``view_as_real``'s values as a new contiguous tensor.

    >>> import yaten
    >>> yaten.view_as_real_copy(yaten.tensor([1 + 2j]))
    tensor([[1., 2.]])
    """
    return yaten.view_as_real(self).clone(memory_format=yaten.contiguous_format)


def view_as_complex_copy(self):
    """``view_as_complex``'s values as a new contiguous tensor.

    >>> import yaten
    >>> yaten.view_as_complex_copy(yaten.tensor([[1.0, 2.0]]))
    tensor([1.+2.j])
    """
    return yaten.view_as_complex(self).clone(memory_format=yaten.contiguous_format)


def real(self):
    """The real parts of a complex tensor as a view (a real tensor itself).

    >>> import yaten
    >>> yaten.real(yaten.tensor([1 + 2j, 3 - 1j]))
    tensor([1., 3.])
    """
    return yaten.view_as_real(self).select(-1, 0) if self.dtype.is_complex else self


def imag(self):
    """The imaginary parts of a complex tensor as a view.

    >>> import yaten
    >>> yaten.imag(yaten.tensor([1 + 2j, 3 - 1j]))
    tensor([ 2., -1.])
    """
    if not self.dtype.is_complex:
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return yaten.view_as_real(self).select(-1, 1)


def conj_physical_kernel(self):
    """A new tensor holding the complex conjugates of ``self``'s numbers (``_conj_physical``; a copy of
    a real tensor)."""
    out = self.detach().clone()
    if out.dtype.is_complex:
        yaten.view_as_real(out).select(-1, 1).neg_()
    return out


def conj_physical_(self):
    """Conjugate ``self``'s numbers in place (a real tensor is written unchanged, as torch's kernel does).

    >>> import yaten
    >>> yaten.tensor([1 + 2j]).conj_physical_()
    tensor([1.-2.j])
    """
    return self.copy_(yaten._conj_physical(self))


def conj_physical(self):
    """The complex conjugates as a new tensor; a real tensor itself.

    >>> import yaten
    >>> yaten.conj_physical(yaten.tensor([1 + 2j]))
    tensor([1.-2.j])
    """
    return yaten._conj_physical(self) if self.dtype.is_complex else self


def conj(self):
    """The complex conjugate (``conj_physical``: yaten has no lazy conjugate bit); a real tensor itself.

    >>> import yaten
    >>> yaten.tensor([1 + 2j, 3 - 1j]).conj()
    tensor([1.-2.j, 3.+1.j])
    """
    return yaten.conj_physical(self)


def resolve_conj(self):
    """``self``: a yaten tensor never has a pending conjugation to materialize.

    >>> import yaten
    >>> x = yaten.tensor([1j])
    >>> yaten.resolve_conj(x) is x
    True
    """
    return self


def resolve_neg(self):
    """``self``: a yaten tensor never has a pending negation to materialize.

    >>> import yaten
    >>> x = yaten.ones(2)
    >>> x.resolve_neg() is x
    True
    """
    return self


def is_conj(self):
    """False: ``conj`` materializes its result, so no tensor carries torch's conjugate bit.

    >>> import yaten
    >>> yaten.is_conj(yaten.tensor([1j]).conj())
    False
    """
    return False


def _check_not_half(dtype) -> None:
    if dtype is float16:  # torch makes complex32 of it, a dtype yaten leaves out
        raise RuntimeError(
            "the complex of a Half tensor is complex32, which yaten does not have: use float or double"
        )


def _check_parts(real, imag, op: str):
    common_device(op, real, imag)
    _check_not_half(real.dtype)
    if real.dtype not in COMPLEX_OF or imag.dtype not in COMPLEX_OF:
        raise RuntimeError(
            f"Expected both inputs to be Half, Float or Double tensors but got {LEGACY_NAME[real.dtype]} and "
            f"{LEGACY_NAME[imag.dtype]}"
        )
    if real.dtype is not imag.dtype:
        raise RuntimeError(
            f"Expected object of scalar type {LEGACY_NAME[real.dtype]} but got scalar type "
            f"{LEGACY_NAME[imag.dtype]} for second argument"
        )


def complex(real, imag):
    """The complex tensor ``real + imag * 1j`` (broadcast; both parts float32 or both float64).

    >>> import yaten
    >>> yaten.complex(yaten.tensor([1.0, 2.0]), yaten.tensor([0.5, -1.0]))
    tensor([1.+0.5000j, 2.-1.0000j])
    """
    _check_parts(real, imag, "complex")
    out = yaten.empty(infer_size(real.shape, imag.shape), dtype=COMPLEX_OF[real.dtype], device=real.device)
    pairs = yaten.view_as_real(out)
    pairs.select(-1, 0).copy_(real.detach())
    pairs.select(-1, 1).copy_(imag.detach())
    return out


def polar(abs, angle):
    """The complex tensor ``abs * (cos(angle) + sin(angle) * 1j)``.

    >>> import yaten
    >>> yaten.polar(yaten.tensor([2.0]), yaten.tensor([0.0]))
    tensor([2.+0.j])
    """
    _check_parts(abs, angle, "polar")
    abs, angle = abs.detach(), angle.detach()
    return yaten.complex(abs * angle.cos(), abs * angle.sin())


def angle(self):
    """The argument of each complex number, in (-pi, pi]; for real numbers pi where negative, else 0.

    >>> import yaten
    >>> yaten.angle(yaten.tensor([1j, -1.0]))
    tensor([1.5708, 3.1416])
    """
    self = self.detach()
    if self.dtype.is_complex:
        return yaten.atan2(yaten.imag(self), yaten.real(self))
    x = self if self.dtype.is_floating_point else self.to(yaten.get_default_dtype())
    return yaten.where(x.isnan(), x, (x < 0).to(x.dtype) * math.pi)


def isreal(self):
    """Whether each element is real: a real tensor's all are; a complex number's imaginary part is 0.

    >>> import yaten
    >>> yaten.isreal(yaten.tensor([1 + 0j, 1j]))
    tensor([ True, False])
    """
    if not self.dtype.is_complex:
        return yaten.ones_like(self, dtype=yaten.bool)
    return yaten.imag(self) == 0


def adjoint(self):
    """The conjugate transpose of the last two dimensions.

    >>> import yaten
    >>> yaten.tensor([[1 + 1j, 2.0]]).adjoint()
    tensor([[1.-1.j],
            [2.-0.j]])
    """
    if self.ndim < 2:
        raise RuntimeError(
            f"tensor.adjoint() is only supported on matrices or batches of matrices. Got {self.ndim}-D tensor."
        )
    return self.transpose(-2, -1).conj()
