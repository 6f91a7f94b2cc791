"""torch.fft's three primitive transforms over host arrays, on NumPy's pocketfft.

ATen reduces every public FFT to ``_fft_r2c`` (real to complex), ``_fft_c2r`` (complex, the first half of
a Hermitian-symmetric signal, to real) and ``_fft_c2c``; these are their kernels. ``normalization`` is
ATen's ``fft_norm_mode``: 0 leaves the transform unscaled, 1 scales it by ``1/sqrt(n)``, 2 by ``1/n``,
whatever the direction (the public functions choose it from ``norm=``). NumPy >= 2 keeps single precision:
float32 and complex64 inputs give complex64 and float32 results, as torch's do.
"""

import numpy as np

from .linalg import _name

NONE, BY_ROOT_N, BY_N = 0, 1, 2

# np.fft's norm= that gives ATen's scaling, per direction: numpy's "backward" scales only the inverse.
_FORWARD_NORM = {NONE: "backward", BY_ROOT_N: "ortho", BY_N: "forward"}
_INVERSE_NORM = {NONE: "forward", BY_ROOT_N: "ortho", BY_N: "backward"}


def _check_kind(a: np.ndarray, complex_input: bool) -> None:
    if (a.dtype.kind == "c") != complex_input:
        kind = "complex" if complex_input else "floating-point"
        raise RuntimeError(f"Only supports {kind} dtypes, but found: {_name(a.dtype)}")


def _complex_copy(a: np.ndarray) -> np.ndarray:
    """A transform over no dimension: the input, as a new complex array."""
    return a.astype(np.result_type(a.dtype, np.complex64))


def fft_r2c(self, dim, normalization, onesided):
    """The forward DFT of a real array over ``dim``; ``onesided`` keeps the last dimension's first
    ``n // 2 + 1`` frequencies (the rest are their conjugates).

    >>> fft_r2c(np.array([1.0, 2.0, 3.0, 4.0]), [0], 0, True)
    array([10.+0.j, -2.+2.j, -2.+0.j])
    """
    _check_kind(self, complex_input=False)
    if not dim:
        return _complex_copy(self)
    norm = _FORWARD_NORM[normalization]
    if onesided:
        return np.fft.rfftn(self, axes=dim, norm=norm)
    return np.fft.fftn(self, axes=dim, norm=norm)


def fft_c2r(self, dim, normalization, last_dim_size):
    """The inverse DFT over ``dim`` of a Hermitian-symmetric signal given by its first half along the last
    dimension of ``dim``: a real array with ``last_dim_size`` points there (the imaginary parts the
    symmetry makes zero are ignored).

    >>> fft_c2r(np.array([10.0, -2.0 + 2.0j, -2.0]), [0], 2, 4)
    array([1., 2., 3., 4.])
    """
    _check_kind(self, complex_input=True)
    sizes = [self.shape[d] for d in dim[:-1]] + [last_dim_size]
    return np.fft.irfftn(self, s=sizes, axes=dim, norm=_INVERSE_NORM[normalization])


def fft_c2c(self, dim, normalization, forward):
    """The forward (``forward``) or inverse DFT of a complex array over ``dim``.

    >>> fft_c2c(np.array([1.0 + 0.0j, 1.0j]), [0], 0, True)
    array([1.+1.j, 1.-1.j])
    """
    _check_kind(self, complex_input=True)
    if not dim:
        return _complex_copy(self)
    if forward:
        return np.fft.fftn(self, axes=dim, norm=_FORWARD_NORM[normalization])
    return np.fft.ifftn(self, axes=dim, norm=_INVERSE_NORM[normalization])
