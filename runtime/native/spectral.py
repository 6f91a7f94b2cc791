"""The real helpers of ``yaten.fft``: sample frequencies (``fftfreq``, ``rfftfreq``) and the shifts that
put the zero frequency in the middle (``fftshift``, ``ifftshift``), as torch's spectral ops compute them."""

import numpy as np

import yaten

from .. import _dtype as D


def _frequency_dtype(name: str, dtype):
    dtype = dtype or D.get_default_dtype()
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"{name} requires a floating point or complex dtype")
    return dtype


def _spacing(n: int, d: float) -> float:
    # torch multiplies by 1 / (n * d) in double: n * d == 0 gives an infinity (and 0 * inf a NaN).
    with np.errstate(divide="ignore"):
        return float(np.float64(1.0) / np.float64(n * d))


def fft_fftfreq(n, d=1.0, dtype=None, layout=None, device=None, pin_memory=None):
    """``[0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (n * d)``: the frequencies of an n-point FFT.

    >>> import yaten
    >>> yaten.fft.fftfreq(5, d=0.5)
    tensor([ 0.0000,  0.4000,  0.8000, -0.8000, -0.4000])
    """
    dtype = _frequency_dtype("fftfreq", dtype)
    result = yaten.empty(n, dtype=dtype, device=device)  # torch's errors for a negative or huge n
    half = (n + 1) // 2
    result[:half] = yaten.arange(half, device=device)
    result[half:] = yaten.arange(-(n // 2), 0, device=device)
    return result.mul_(_spacing(n, d))


def fft_rfftfreq(n, d=1.0, dtype=None, layout=None, device=None, pin_memory=None):
    """``[0, 1, ..., n // 2] / (n * d)``: the frequencies of an n-point ``rfft``.

    >>> import yaten
    >>> yaten.fft.rfftfreq(6, d=2.0, dtype=yaten.float64)
    tensor([0.0000, 0.0833, 0.1667, 0.2500], dtype=yaten.float64)
    """
    dtype = _frequency_dtype("rfftfreq", dtype)
    half = n // 2 if n >= 0 else -(-n // 2)  # C++'s n / 2, which truncates toward zero
    result = yaten.empty(half + 1, dtype=dtype, device=device)
    result.copy_(yaten.arange(half + 1, device=device))
    return result.mul_(_spacing(n, d))


def _shift(self, dim, shift_of):
    dims = list(range(self.dim())) if dim is None else list(dim)
    return self.roll([shift_of(self.size(d)) for d in dims], dims)


def fft_fftshift(self, dim=None):
    """``self`` rolled by half its size along ``dim`` (all dimensions by default): the zero frequency
    of an FFT's output moves to the middle.

    >>> import yaten
    >>> yaten.fft.fftshift(yaten.fft.fftfreq(5))
    tensor([-0.4000, -0.2000,  0.0000,  0.2000,  0.4000])
    """
    return _shift(self, dim, lambda size: size // 2)


def fft_ifftshift(self, dim=None):
    """The inverse of ``fftshift``: the zero frequency moves back to the front.

    >>> import yaten
    >>> yaten.fft.ifftshift(yaten.fft.fftshift(yaten.arange(5)))
    tensor([0, 1, 2, 3, 4])
    """
    return _shift(self, dim, lambda size: (size + 1) // 2)
