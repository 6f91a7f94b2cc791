"""The short-time Fourier transform and its inverse (``stft``, ``istft``), as torch's: frames of ``n_fft``
samples every ``hop_length``, each multiplied by the window (zero-padded to ``n_fft`` in the middle) and
transformed by the FFT primitives; ``istft`` transforms back and overlap-adds the frames, dividing by
the overlap-added squared window. Their gradients come from the ops they are composed of."""

import warnings

import yaten

from .. import _dtype as D
from .._tensor import legacy_type_name
from ..kernels.cpu.fft import BY_N, BY_ROOT_N, NONE

_NO_WINDOW = (
    "A window was not provided. A rectangular window will be applied,which is known to cause spectral leakage. "
    "Other windows such as torch.hann_window or torch.hamming_window are recommended to reduce spectral "
    "leakage.To suppress this warning and use a rectangular window, explicitly set "
    "`window=torch.ones(n_fft, device=<device>)`."
)
_NO_WINDOW_INVERSE = (
    "A window was not provided. A rectangular window will be applied.Please provide the same window used by "
    "stft to make the inversion lossless.To suppress this warning and use a rectangular window, explicitly set "
    "`window=torch.ones(n_fft, device=<device>)`."
)
_REAL_RESULT = (
    "stft with return_complex=False is deprecated. In a future pytorch release, stft will return complex "
    "tensors for all inputs, and return_complex=False will raise an error.\nNote: you can still call "
    "torch.view_as_real on the complex output to recover the old return format."
)


def _type_string(t):
    """How torch's errors print a tensor's type: ``torch.FloatTensor``'s form, ``CPUComplexFloatType``
    for complex tensors."""
    if t.dtype.is_complex:
        return f"{t.device.type.upper()}{D.LEGACY_NAME[t.dtype]}Type"
    return legacy_type_name(t)


def _optional(value):
    return "None" if value is None else str(int(value))


def _window_string(window):
    return "None" if window is None else f"{_type_string(window)}{{{list(window.shape)}}}"


def _centered_window(window, win_length, n_fft, like):
    """The window zero-padded on both sides to ``n_fft`` points (a rectangular one when None; None when
    there is nothing to multiply by)."""
    if win_length == n_fft:
        return window
    if window is None:
        window = yaten.ones(win_length, dtype=like.dtype.to_real(), device=like.device)
    left = (n_fft - win_length) // 2
    return yaten.constant_pad_nd(window, [left, n_fft - win_length - left])


def stft(
    self,
    n_fft,
    hop_length=None,
    win_length=None,
    window=None,
    center=True,
    pad_mode="reflect",
    normalized=False,
    onesided=None,
    return_complex=None,
    align_to_window=None,
):
    """The short-time Fourier transform: ``(freq, frames)`` (with a leading batch dimension for a 2-d
    input), one ``rfft`` of a windowed frame per column; ``center`` pads the signal by ``n_fft // 2`` on
    both sides (``pad_mode``) so that frame ``t`` is centred on sample ``t * hop_length``.

    >>> import yaten
    >>> spec = yaten.stft(yaten.arange(16.0), 8, window=yaten.hann_window(8), return_complex=True)
    >>> spec.shape, spec.dtype
    (yaten.Size([5, 9]), yaten.complex64)
    """
    if center and align_to_window is not None:
        raise RuntimeError("stft align_to_window should only be set when center = false")
    signal_dim = self.dim()
    if center:
        pad = n_fft // 2
        padded = yaten.nn.functional.pad(
            self.view([1] * (3 - signal_dim) + list(self.shape)), [pad, pad], pad_mode
        )
        self = padded.view(padded.shape[-signal_dim:])
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if window is None:
        warnings.warn(_NO_WINDOW, UserWarning, stacklevel=2)
    elif window.device != self.device:
        raise RuntimeError(
            f"stft input and window must be on the same device but got self on {self.device} and window on "
            f"{window.device}"
        )
    complex_result = self.is_complex() or (window is not None and window.is_complex())
    if not (complex_result if return_complex is None else return_complex):
        if return_complex is None:
            raise RuntimeError(
                "stft requires the return_complex parameter be given for real inputs, and will further require "
                "that return_complex=True in a future PyTorch release."
            )
        warnings.warn(_REAL_RESULT, UserWarning, stacklevel=2)

    def error(what):
        return RuntimeError(
            f"stft({_type_string(self)}{list(self.shape)}, n_fft={n_fft}, hop_length={hop_length}, "
            f"win_length={win_length}, window={_window_string(window)}, normalized={int(normalized)}, "
            f"onesided={_optional(onesided)}, return_complex={_optional(return_complex)}, "
            f"align_to_window={_optional(align_to_window)}) : {what}"
        )

    if not (self.is_floating_point() or self.is_complex()):
        raise error("expected a tensor of floating point or complex values")
    if self.dim() not in (1, 2):
        raise error("expected a 1D or 2D tensor")
    frames = self if self.dim() == 2 else self.unsqueeze(0)
    length = frames.shape[1]
    if n_fft <= 0 or n_fft > length:
        raise error(f"expected 0 < n_fft < {length}, but got n_fft={win_length}")
    if hop_length <= 0:
        raise error(f"expected hop_length > 0, but got hop_length={hop_length}")
    if win_length <= 0 or win_length > n_fft:
        raise error(f"expected 0 < win_length <= n_fft, but got win_length={win_length}")
    if window is not None and (window.dim() != 1 or window.shape[0] != win_length):
        raise error(
            f"expected a 1D window tensor of size equal to win_length={win_length}, but got window with size "
            f"{list(window.shape)}"
        )
    window = _centered_window(window, win_length, n_fft, self)
    if align_to_window:  # frames start where their window does, not n_fft // 2 before its middle
        left = (n_fft - win_length) // 2
        frames = yaten.constant_pad_nd(frames, [left, n_fft - win_length - left])
    frames = frames.unfold(1, n_fft, hop_length)
    if window is not None:
        frames = frames.mul(window)
    complex_fft = frames.is_complex()
    onesided = not complex_fft if onesided is None else onesided
    normalization = BY_ROOT_N if normalized else NONE
    if complex_fft:
        if onesided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        out = yaten._fft_c2c(frames, [2], normalization, True)
    else:
        out = yaten._fft_r2c(frames, [2], normalization, onesided)
    out = out.transpose(1, 2)
    if self.dim() == 1:
        out = out.squeeze(0)
    return out if (complex_result if return_complex is None else return_complex) else yaten.view_as_real(out)


def _overlap_add(frames, hop_length, length):
    """``(channels, n_frames, n_fft, *rest)`` frames summed into ``(channels, length, *rest)`` signals,
    frame ``t`` starting at sample ``t * hop_length`` (complex frames as their real and imaginary parts)."""
    if frames.is_complex():
        return yaten.view_as_complex(_overlap_add(yaten.view_as_real(frames), hop_length, length))
    channels, n_frames, n_fft, *rest = frames.shape
    starts = yaten.arange(n_frames, device=frames.device).mul_(hop_length)
    index = (starts.unsqueeze(1) + yaten.arange(n_fft, device=frames.device)).reshape(-1)
    signal = yaten.zeros(channels, length, *rest, dtype=frames.dtype, device=frames.device)
    return signal.index_add(1, index, frames.reshape(channels, -1, *rest))


def istft(
    self,
    n_fft,
    hop_length=None,
    win_length=None,
    window=None,
    center=True,
    normalized=False,
    onesided=None,
    length=None,
    return_complex=False,
):
    """The inverse of ``stft``: the signal whose short-time transform ``self`` is (least squares, as
    torch's: the frames' overlap-add divided by the window's squared overlap-add).

    >>> import yaten
    >>> x, w = yaten.arange(16.0), yaten.hann_window(8)
    >>> y = yaten.istft(yaten.stft(x, 8, window=w, return_complex=True), 8, window=w, length=16)
    >>> bool((y - x).abs().max() < 1e-4)
    True
    """
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if window is None:
        warnings.warn(_NO_WINDOW_INVERSE, UserWarning, stacklevel=2)
    if not self.is_complex():
        raise RuntimeError(
            "istft requires a complex-valued input tensor matching the output from stft with return_complex=True."
        )
    n_frames, fft_size = self.shape[-1], self.shape[-2]
    expected_length = n_fft + hop_length * (n_frames - 1)

    def error(what):
        return RuntimeError(
            f"istft({_type_string(self)}{list(self.shape)}, n_fft={n_fft}, hop_length={hop_length}, "
            f"win_length={win_length}, window={_window_string(window)}, center={int(center)}, "
            f"normalized={int(normalized)}, onesided={_optional(onesided)}, "
            f"length={'None' if length is None else length}, return_complex={int(return_complex)}) {what}"
        )

    if self.numel() == 0:
        raise error(": input tensor cannot be empty.")
    if self.dim() not in (2, 3):
        raise error(
            f": expected a tensor with 3 or 4 dimensions of float32 or float64 values, but got {self.dim() + 1}"
        )
    one_sided = fft_size != n_fft if onesided is None else onesided
    if one_sided and n_fft // 2 + 1 != fft_size:
        raise error(
            ": expected the frequency dimension (3rd to the last) of the input tensor to match n_fft / 2 + 1 when "
            f"onesided=True, but got {fft_size}"
        )
    if not one_sided and n_fft != fft_size:
        raise error(
            ": expected the frequency dimension (3rd to the last) of the input tensor to match n_fft when "
            f"onesided=False, but got {fft_size}"
        )
    if not 0 < hop_length <= win_length:
        raise error(": expected 0 < hop_length <= win_length")
    if not 0 < win_length <= n_fft:
        raise error(": expected 0 < win_length <= n_fft")
    if window is not None and (window.dim() != 1 or window.shape[0] != win_length):
        raise error(": Invalid window shape. window has to be 1D and length of `win_length`")
    if window is None:
        window = yaten.ones(win_length, dtype=self.dtype.to_real(), device=self.device)
    window = _centered_window(window, win_length, n_fft, self)
    frames = (self if self.dim() == 3 else self.unsqueeze(0)).transpose(1, 2)  # (channels, n_frames, freq)
    normalization = BY_ROOT_N if normalized else BY_N
    if return_complex:
        if one_sided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        frames = yaten._fft_c2c(frames, [2], normalization, False)
    else:
        if window.is_complex():
            raise RuntimeError("Complex windows are incompatible with return_complex=False")
        if not one_sided:
            frames = frames.narrow(-1, 0, n_fft // 2 + 1)
        frames = yaten._fft_c2r(frames, [2], normalization, n_fft)
    signal = _overlap_add(frames * window.view(1, 1, n_fft), hop_length, expected_length)
    envelope = _overlap_add(window.pow(2).expand(1, n_frames, n_fft), hop_length, expected_length)
    start = n_fft // 2 if center else 0
    end = (-(n_fft // 2) if center else expected_length) if length is None else start + length
    signal, envelope = signal[:, start:end], envelope[:, start:end]
    if bool(envelope.abs().min() < 1e-11):
        raise error("window overlap add min: 1")
    signal = signal / envelope
    if self.dim() == 2:
        signal = signal.squeeze(0)
    if end > expected_length:
        warnings.warn(
            "The length of signal is shorter than the length parameter. Result is being padded with zeros in the "
            "tail. Please check your center and hop_length settings.",
            UserWarning,
            stacklevel=2,
        )
        signal = yaten.constant_pad_nd(signal, [0, end - expected_length])
    return signal
