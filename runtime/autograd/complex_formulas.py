"""Derivative helpers of the complex ops (runtime/native/complex.py), as torch's FunctionsManual.

They are written over the real and imaginary parts with real ops, so they need no complex
arithmetic kernel and stay differentiable for double backward.
"""

import yaten

__all__ = ["angle_backward", "polar_backward"]


def _where_nonzero(norm, value):
    # torch's formulas give 0 where |z| is 0 (no direction to differentiate along).
    return yaten.where(norm == 0, yaten.zeros_like(value), value)


def polar_backward(grad, result):
    """The gradients of ``polar(abs, angle)``: ``Re(conj(grad) * sgn(result))`` and
    ``Re(conj(grad) * result * 1j)``.

    >>> import yaten
    >>> g_abs, g_angle = polar_backward(yaten.tensor([1 + 0j]), yaten.tensor([2j]))
    >>> g_abs, g_angle
    (tensor([0.]), tensor([-2.]))
    """
    gr, gi = grad.real, grad.imag
    zr, zi = result.real, result.imag
    norm = yaten.hypot(zr, zi)
    grad_abs = _where_nonzero(norm, (gr * zr + gi * zi) / yaten.where(norm == 0, 1, norm))
    return grad_abs, gi * zr - gr * zi


def angle_backward(grad, self):
    """The gradient of ``angle(self)``: ``grad * self / |self|^2 * 1j`` (0 at 0); 0 for a real ``self``.

    >>> import yaten
    >>> angle_backward(yaten.tensor([1.0]), yaten.tensor([2j]))
    tensor([-0.5000+0.j])
    """
    if not self.dtype.is_complex:
        return yaten.zeros_like(self)
    zr, zi = self.real, self.imag
    norm2 = zr * zr + zi * zi
    scale = _where_nonzero(norm2, grad / yaten.where(norm2 == 0, 1, norm2))
    return yaten.complex(-scale * zi, scale * zr)
