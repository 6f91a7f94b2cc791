"""torch.fft's transforms, composed as ATen composes them over three primitives: ``_fft_r2c`` (real to
complex), ``_fft_c2r`` (Hermitian half-signal to real) and ``_fft_c2c``, whose derivatives are the spec's.

Each function promotes its input as torch does (integers and bools to the default float dtype, a real
input to complex where the transform needs one; half precision is refused on the CPU), crops or
zero-pads the signal to ``n`` / ``s`` points, and turns ``norm=`` ("backward", "ortho", "forward")
into the primitive's scaling for its direction. The transforms ATen has no primitive for are conjugates
of one: ``ihfft`` is the conjugated forward ``rfft``, ``hfft`` the inverse real transform of the
conjugated input.
"""

import yaten

from .. import _dtype as D
from .._dims import wrap_dim, wrap_dims
from ..autograd.fft_formulas import zero_pad_end
from ..kernels.cpu.fft import BY_N, BY_ROOT_N, NONE


def _norm_mode(norm, forward):
    """ATen's ``norm_from_string``: "backward" scales the inverse by 1/n, "forward" the forward one."""
    if norm is None or norm == "backward":
        return NONE if forward else BY_N
    if norm == "forward":
        return BY_N if forward else NONE
    if norm == "ortho":
        return BY_ROOT_N
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _promote(x, require_complex=False):
    """``x`` in the dtype its transform computes in (ATen's ``promote_tensor_fft``)."""
    dtype = x.dtype
    if dtype.is_complex:
        return x
    if not dtype.is_floating_point:
        dtype = D.get_default_dtype()
    if dtype not in D.COMPLEX_OF:
        raise RuntimeError(f"Unsupported dtype {D.LEGACY_NAME[dtype]}")
    if require_complex:
        dtype = D.COMPLEX_OF[dtype]
    return x if dtype == x.dtype else x.to(dtype)


def _check_points(n):
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")


def _wrap(dim, ndim):
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return wrap_dim(dim, ndim)


def _resize(x, dims, sizes):
    """``x`` cropped or zero-padded at the end to ``sizes`` points along ``dims``."""
    for d, n in zip(dims, sizes):
        x = x.narrow(d, 0, n) if x.shape[d] > n else zero_pad_end(x, d, n)
    return x


def _complex_input(name, x):
    if x.dtype.is_complex:
        raise RuntimeError(f"{name} expects a real input tensor, but got {D.LEGACY_NAME[x.dtype]}")


# --- one dimension ---


def _points_along(x, d, n):
    """``x`` with ``n`` points along ``d`` (as it is when ``n`` is None)."""
    _check_points(x.shape[d] if n is None else n)
    return x if n is None else _resize(x, [d], [n])


def _c2c(x, n, dim, norm, forward):
    d = _wrap(dim, x.ndim)
    x = _points_along(x, d, n)
    return yaten._fft_c2c(x, [d], _norm_mode(norm, forward), forward)


def _r2c(name, x, n, dim, norm, forward, onesided):
    _complex_input(name, x)
    x = _promote(x)
    d = _wrap(dim, x.ndim)
    x = _points_along(x, d, n)
    result = yaten._fft_r2c(x, [d], _norm_mode(norm, forward), onesided)
    return result if forward else result.conj()


def _c2r(x, n, dim, norm, forward):
    x = _promote(x, require_complex=True)
    d = _wrap(dim, x.ndim)
    if n is None:
        n = 2 * (x.shape[d] - 1)
        _check_points(n)
    else:
        _check_points(n)
        x = _resize(x, [d], [n // 2 + 1])
    if forward:
        x = x.conj()
    return yaten._fft_c2r(x, [d], _norm_mode(norm, forward), n)


def fft_fft(self, n=None, dim=-1, norm=None):
    """The one-dimensional discrete Fourier transform of ``self`` along ``dim`` (``n`` points: the signal
    cropped or zero-padded).

    >>> import yaten
    >>> yaten.fft.fft(yaten.tensor([1.0, 2.0, 3.0, 4.0]))
    tensor([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
    """
    if self.dtype.is_complex:
        return _c2c(self, n, dim, norm, True)
    return _r2c("fft", self, n, dim, norm, True, False)


def fft_ifft(self, n=None, dim=-1, norm=None):
    """The inverse of ``fft``.

    >>> import yaten
    >>> yaten.fft.ifft(yaten.fft.fft(yaten.tensor([1.0, 2.0, 3.0, 4.0]))).real
    tensor([1., 2., 3., 4.])
    """
    if self.dtype.is_complex:
        return _c2c(self, n, dim, norm, False)
    return _r2c("ifft", self, n, dim, norm, False, False)


def fft_rfft(self, n=None, dim=-1, norm=None):
    """The Fourier transform of a real signal: its ``n // 2 + 1`` non-negative frequencies.

    >>> import yaten
    >>> yaten.fft.rfft(yaten.tensor([1.0, 2.0, 3.0, 4.0]))
    tensor([10.+0.j, -2.+2.j, -2.+0.j])
    """
    return _r2c("rfft", self, n, dim, norm, True, True)


def fft_irfft(self, n=None, dim=-1, norm=None):
    """The inverse of ``rfft``: a real signal of ``n`` points (``2 * (m - 1)`` by default) from its
    non-negative frequencies.

    >>> import yaten
    >>> yaten.fft.irfft(yaten.fft.rfft(yaten.tensor([1.0, 2.0, 3.0, 4.0, 5.0])), n=5)
    tensor([1., 2., 3., 4., 5.])
    """
    return _c2r(self, n, dim, norm, False)


def fft_hfft(self, n=None, dim=-1, norm=None):
    """The Fourier transform of a Hermitian-symmetric signal given by its first half: a real result.

    >>> import yaten
    >>> yaten.fft.hfft(yaten.tensor([1.0, 2.0, 3.0]))
    tensor([ 8., -2.,  0., -2.])
    """
    return _c2r(self, n, dim, norm, True)


def fft_ihfft(self, n=None, dim=-1, norm=None):
    """The inverse of ``hfft``: the first half of the inverse transform of a real signal.

    >>> import yaten
    >>> yaten.fft.ihfft(yaten.tensor([9.0, -4.0, 1.0, -4.0]))
    tensor([0.5000-0.j, 2.0000-0.j, 4.5000-0.j])
    """
    return _r2c("ihfft", self, n, dim, norm, False, True)


# --- several dimensions ---


def _shape_and_dims(x, s, dim):
    """The transform's signal sizes and (wrapped) dims, from ``s`` and ``dim`` as ATen's
    ``canonicalize_fft_shape_and_dim_args`` reads them."""
    dims = None
    if dim is not None:
        dims = list(_wrap_all(dim, x.ndim))
    if s is not None:
        if dims is not None and len(dims) != len(s):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        if len(s) > x.ndim:
            raise RuntimeError(
                f"Got shape with {len(s)} values but input tensor only has {x.ndim} dimensions."
            )
        if dims is None:
            dims = list(range(x.ndim - len(s), x.ndim))
        shape = [x.shape[d] if n == -1 else n for d, n in zip(dims, s)]
    elif dims is None:
        dims, shape = list(range(x.ndim)), list(x.shape)
    else:
        shape = [x.shape[d] for d in dims]
    for n in shape:
        _check_points(n)
    return shape, dims


def _wrap_all(dims, ndim):
    if ndim == 0 and dims:
        raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
    try:
        return wrap_dims(dims, ndim)
    except RuntimeError:
        raise RuntimeError("FFT dims must be unique") from None


def _c2r_shape_and_dims(name, x, s, dim):
    """As ``_shape_and_dims``, with the last dim's output size (``2 * (m - 1)`` by default) and the
    half-signal size the input is resized to there."""
    shape, dims = _shape_and_dims(x, s, dim)
    if not shape:
        raise RuntimeError(f"{name} must transform at least one axis")
    last = 2 * (x.shape[dims[-1]] - 1) if s is None or s[-1] == -1 else shape[-1]
    _check_points(last)
    shape[-1] = last // 2 + 1
    return shape, dims, last


def _fftn(self, s, dim, norm, forward):
    shape, dims = _shape_and_dims(self, s, dim)
    x = _resize(_promote(self, require_complex=True), dims, shape)
    return yaten._fft_c2c(x, dims, _norm_mode(norm, forward), forward)


def fft_fftn(self, s=None, dim=None, norm=None):
    """The n-dimensional Fourier transform over ``dim`` (all dimensions, or the last ``len(s)``); also
    ``fft2``, whose ``dim`` defaults to the last two.

    >>> import yaten
    >>> yaten.fft.fftn(yaten.tensor([[1.0, 2.0], [3.0, 4.0]]))
    tensor([[10.+0.j, -2.+0.j],
            [-4.+0.j,  0.+0.j]])
    """
    return _fftn(self, s, dim, norm, True)


def fft_ifftn(self, s=None, dim=None, norm=None):
    """The inverse of ``fftn`` (and ``ifft2``).

    >>> import yaten
    >>> yaten.fft.ifftn(yaten.tensor([[4.0, 0.0], [0.0, 0.0]]))
    tensor([[1.+0.j, 1.+0.j],
            [1.+0.j, 1.+0.j]])
    """
    return _fftn(self, s, dim, norm, False)


def fft_rfftn(self, s=None, dim=None, norm=None):
    """The n-dimensional transform of a real input, halved along the last of ``dim`` (and ``rfft2``).

    >>> import yaten
    >>> yaten.fft.rfft2(yaten.ones(2, 4))
    tensor([[8.+0.j, 0.+0.j, 0.+0.j],
            [0.+0.j, 0.+0.j, 0.+0.j]])
    """
    if self.dtype.is_complex:
        raise RuntimeError(f"rfftn expects a real-valued input tensor, but got {D.LEGACY_NAME[self.dtype]}")
    shape, dims = _shape_and_dims(self, s, dim)
    if not shape:
        raise RuntimeError("rfftn must transform at least one axis")
    x = _resize(_promote(self), dims, shape)
    return yaten._fft_r2c(x, dims, _norm_mode(norm, True), True)


def fft_irfftn(self, s=None, dim=None, norm=None):
    """The inverse of ``rfftn`` (and ``irfft2``): the last of ``dim`` gets ``2 * (m - 1)`` points unless
    ``s`` says otherwise.

    >>> import yaten
    >>> yaten.fft.irfftn(yaten.fft.rfftn(yaten.ones(2, 3)), s=(2, 3))
    tensor([[1., 1., 1.],
            [1., 1., 1.]])
    """
    shape, dims, last = _c2r_shape_and_dims("irfftn", self, s, dim)
    x = _resize(_promote(self, require_complex=True), dims, shape)
    return yaten._fft_c2r(x, dims, _norm_mode(norm, False), last)


def fft_hfftn(self, s=None, dim=None, norm=None):
    """The n-dimensional transform of a signal Hermitian-symmetric along the last of ``dim``, given by its
    half there: a real result (and ``hfft2``).

    >>> import yaten
    >>> yaten.fft.hfftn(yaten.ones(2, 3)).shape
    yaten.Size([2, 4])
    """
    shape, dims, last = _c2r_shape_and_dims("hfftn", self, s, dim)
    x = _resize(_promote(self, require_complex=True), dims, shape)
    mode = _norm_mode(norm, True)
    if len(dims) > 1:
        x = yaten._fft_c2c(x, dims[:-1], mode, True)
    return yaten._fft_c2r(x.conj(), dims[-1:], mode, last)


def fft_ihfftn(self, s=None, dim=None, norm=None):
    """The inverse of ``hfftn`` (and ``ihfft2``).

    >>> import yaten
    >>> yaten.fft.ihfftn(yaten.ones(2, 4)).shape
    yaten.Size([2, 3])
    """
    shape, dims = _shape_and_dims(self, s, dim)
    if not shape:
        raise RuntimeError("ihfftn must transform at least one axis")
    x = _resize(_promote(self), dims, shape)
    mode = _norm_mode(norm, False)
    half = yaten._fft_r2c(x, dims[-1:], mode, True).conj()
    return half if len(dims) == 1 else yaten._fft_c2c(half, dims[:-1], mode, False)
