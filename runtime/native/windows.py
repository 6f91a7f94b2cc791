"""The window functions of signal processing (``hann_window``, ``hamming_window``, ``blackman_window``,
``bartlett_window``, ``kaiser_window``), computed in the requested dtype as torch's factories compute
them. ``periodic=True`` (the default) gives the first ``N`` points of an ``N + 1``-point symmetric window,
the window ``stft`` expects."""

import numpy as np

import yaten

from .. import _dtype as D


def _points(name, window_length, periodic, dtype, device):
    """``(arange(L), None)`` in the window's dtype with ``L = window_length (+ 1 when periodic)``, or
    ``(None, window)`` for the windows of zero or one point, which every function returns as they are."""
    dtype = dtype or D.get_default_dtype()
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(
            f"{name} expects floating point dtypes, got: TensorOptions(dtype={D.TYPEID_NAME[dtype]}, "
            f"device={yaten.device(device or 'cpu')}, layout=Strided (default), requires_grad=false (default), "
            "pinned_memory=false, memory_format=(nullopt))"
        )
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    if window_length <= 1:
        return None, yaten.ones(window_length, dtype=dtype, device=device)
    return yaten.arange(window_length + periodic, dtype=dtype, device=device), None


def _trim(window, periodic):
    return window[:-1] if periodic else window


def _cosine(name, window_length, periodic, alpha, beta, dtype, device):
    k, short = _points(name, window_length, periodic, dtype, device)
    if k is None:
        return short
    window = k.mul_(np.pi * 2.0 / (k.numel() - 1)).cos_().mul_(-beta).add_(alpha)
    return _trim(window, periodic)


def hamming_window(
    window_length, periodic=True, alpha=0.54, beta=0.46, dtype=None, layout=None, device=None, pin_memory=None
):
    """``alpha - beta * cos(2 pi k / (N - 1))``: the Hamming window.

    >>> import yaten
    >>> yaten.hamming_window(4, periodic=False)
    tensor([0.0800, 0.7700, 0.7700, 0.0800])
    """
    return _cosine("hamming_window", window_length, periodic, alpha, beta, dtype, device)


def hann_window(window_length, periodic=True, dtype=None, layout=None, device=None, pin_memory=None):
    """``0.5 - 0.5 cos(2 pi k / (N - 1))``: the Hann window.

    >>> import yaten
    >>> yaten.hann_window(4)
    tensor([0.0000, 0.5000, 1.0000, 0.5000])
    """
    return _cosine("hann_window", window_length, periodic, 0.5, 0.5, dtype, device)


def blackman_window(window_length, periodic=True, dtype=None, layout=None, device=None, pin_memory=None):
    """``0.42 - 0.5 cos(2 pi k / (N - 1)) + 0.08 cos(4 pi k / (N - 1))``: the Blackman window.

    >>> import yaten
    >>> yaten.blackman_window(5, periodic=False, dtype=yaten.float64)
    tensor([0.0000, 0.3400, 1.0000, 0.3400, 0.0000], dtype=yaten.float64)
    """
    k, short = _points("blackman_window", window_length, periodic, dtype, device)
    if k is None:
        return short
    k.mul_(np.pi / (k.numel() - 1))
    window = k.mul(4).cos_().mul_(0.08) - k.mul(2).cos_().mul_(0.5) + 0.42
    return _trim(window, periodic)


def bartlett_window(window_length, periodic=True, dtype=None, layout=None, device=None, pin_memory=None):
    """``1 - |2k / (N - 1) - 1|``: the triangular (Bartlett) window.

    >>> import yaten
    >>> yaten.bartlett_window(5, periodic=False)
    tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    k, short = _points("bartlett_window", window_length, periodic, dtype, device)
    if k is None:
        return short
    n = k.numel()
    window = k.mul_(2.0 / (n - 1))
    first_half = ((n - 1) >> 1) + 1
    window[first_half:].mul_(-1).add_(2)
    return _trim(window, periodic)


def kaiser_window(
    window_length, periodic=True, beta=12.0, dtype=None, layout=None, device=None, pin_memory=None
):
    """``I0(beta sqrt(1 - ((k - a) / a)^2)) / I0(beta)`` with ``a = (N - 1) / 2``: the Kaiser window.

    >>> import yaten
    >>> yaten.kaiser_window(4, periodic=False, beta=2.0, dtype=yaten.float64)
    tensor([0.4387, 0.9243, 0.9243, 0.4387], dtype=yaten.float64)
    """
    k, short = _points("kaiser_window", window_length, periodic, dtype, device)
    if k is None:
        return short
    a = (k.numel() - 1) / 2.0
    ratio = k.sub_(a).div_(a)
    window = yaten.i0(ratio.mul_(ratio).neg_().add_(1).sqrt_().mul_(beta))
    window = window / yaten.i0(yaten.full((), beta, dtype=k.dtype, device=k.device))
    return _trim(window, periodic)
