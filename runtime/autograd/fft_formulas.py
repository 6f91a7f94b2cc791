"""The derivative helpers of torch.fft's real-signal primitives (PyTorch's ``fft_r2c_backward`` and
``fft_c2r_backward``); ``_fft_c2c``'s gradient is the transform in the other direction."""

import yaten


def zero_pad_end(x, dim, size):
    """``x`` with zeros appended along ``dim`` up to ``size`` points (``x`` itself when it has them).

    >>> import yaten
    >>> zero_pad_end(yaten.ones(2, 1), 1, 3)
    tensor([[1., 0., 0.],
            [1., 0., 0.]])
    """
    missing = size - x.shape[dim]
    if missing <= 0:
        return x
    shape = list(x.shape)
    shape[dim] = missing
    return yaten.cat([x, x.new_zeros(shape)], dim)


def fft_r2c_backward(grad, dim, normalization, onesided, last_dim_size):
    """The gradient of ``_fft_r2c``: a one-sided result is the first half of a full complex transform,
    so its gradient is zero-filled back to ``last_dim_size`` points, transformed back, and the real
    part kept (the input was real).

    >>> import yaten
    >>> fft_r2c_backward(yaten.ones(3, dtype=yaten.complex128), [0], 0, True, 4)
    tensor([3., 0., 1., 0.], dtype=yaten.float64)
    """
    if onesided:
        grad = zero_pad_end(grad, dim[-1] % grad.ndim, last_dim_size)
    return yaten._fft_c2c(grad, dim, normalization, False).real


def fft_c2r_backward(grad, dim, normalization):
    """The gradient of ``_fft_c2r``: the one-sided forward transform of ``grad``, with the entries whose
    mirror images the inverse filled in by conjugate symmetry (all but the first, and the middle one of
    an even length) counted twice.

    >>> import yaten
    >>> fft_c2r_backward(yaten.tensor([1.0, 0.0, 0.0, 0.0], dtype=yaten.float64), [0], 0)
    tensor([1.+0.j, 2.+0.j, 1.+0.j], dtype=yaten.complex128)
    """
    half = yaten._fft_r2c(grad, dim, normalization, True)
    last = dim[-1] % grad.ndim
    doubled = grad.shape[last] - half.shape[last]
    if doubled <= 0:
        return half
    weight = yaten.ones(half.shape[last], dtype=grad.dtype, device=grad.device)
    weight[1 : 1 + doubled] = 2
    return half * weight.reshape([-1] + [1] * (grad.ndim - 1 - last))
