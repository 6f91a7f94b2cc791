"""The op table's samples for torch.fft's transforms, their primitives and the window functions (merged
into op_samples.EXPLICIT and BAD).

Complex inputs are complex128 arrays (both dtype runs of the table keep them). Signal lengths are even
and odd, cropped and zero-padded (``n``/``s``), over one, two and all dimensions, in the three ``norm``
modes.
"""

import numpy as np
from op_samples import Sample, _f, _idx

# The FFT primitives: CPU kernels only (NumPy's pocketfft; no cuFFT through numba). On cuda they, and
# the transforms composed of them, raise torch's NotImplementedError for a missing backend
# (tests/cuda/test_cuda_op_table.py accepts exactly that).
CPU_ONLY = ("_fft_r2c", "_fft_c2r", "_fft_c2c")


def _c(*shape, seed=0):
    return _f(*shape, seed=seed) + 1j * _f(*shape, seed=seed + 1)


def _one_dim():
    """Samples of a one-dimensional transform (``fft``, ``ifft``, ``rfft``, ``ihfft``) of a real input."""
    return [
        Sample((_f(3, 5),)),
        Sample((_f(3, 4),), {"n": 7}, label="zero-padded"),
        Sample((_f(3, 6),), {"n": 3, "dim": 0}, label="cropped, dim 0"),
        Sample((_f(5, 3).T,), {"norm": "ortho"}, label="non-contiguous, ortho"),
        Sample((_f(2, 3, 4),), {"dim": 1, "norm": "forward"}, label="forward norm"),
        Sample((_f(6),), {"norm": "backward"}, label="1-d"),
        Sample((_idx(1, 2, 3, 4),), label="integers"),
    ]


def _complex_one_dim():
    """Samples of a one-dimensional transform whose input is (or becomes) complex."""
    return [
        Sample((_c(3, 5),)),
        Sample((_c(3, 4),), {"n": 9}, label="zero-padded"),
        Sample((_c(6, 3),), {"n": 4, "dim": 0, "norm": "ortho"}, label="cropped, dim 0, ortho"),
        Sample((_c(2, 5),), {"norm": "forward"}, label="forward norm"),
        Sample((_f(3, 4),), label="real input"),
        Sample((_idx(1, 2, 3),), label="integers"),
    ]


def _n_dim(default_dims):
    """Samples of an n-dimensional transform of a real input (``fftn``'s or ``fft2``'s family)."""
    samples = [
        Sample((_f(2, 3, 4),)),
        Sample((_f(2, 3, 4),), {"s": (4, 6)}, label="s pads"),
        Sample((_f(2, 5, 4),), {"s": (3, -1), "dim": (0, 2)}, label="s crops, -1 keeps"),
        Sample((_f(3, 4, 2),), {"dim": (1, 0), "norm": "ortho"}, label="dims reordered, ortho"),
        Sample((_f(4, 3).T,), {"norm": "forward"}, label="non-contiguous, forward norm"),
    ]
    if not default_dims:
        samples.append(Sample((_f(3, 4),), {"dim": (-1,)}, label="one dim"))
    return samples


def _complex_n_dim(default_dims):
    """Samples of an n-dimensional transform whose input is (or becomes) complex."""
    samples = [
        Sample((_c(2, 3, 4),)),
        Sample((_c(2, 3, 3),), {"s": (4, 5)}, label="s pads"),
        Sample((_c(2, 5, 4),), {"s": (3, -1), "dim": (0, 2)}, label="s crops, -1 keeps"),
        Sample((_c(3, 4, 2),), {"dim": (1, 0), "norm": "ortho"}, label="dims reordered, ortho"),
        Sample((_f(3, 4),), {"norm": "forward"}, label="real input, forward norm"),
    ]
    if not default_dims:
        samples.append(Sample((_c(3, 4),), {"dim": (0,)}, label="one dim"))
    return samples


def _hann(n):
    return 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / n)


def _hamming(n):
    return 0.54 - 0.46 * np.cos(2 * np.pi * np.arange(n) / n)


SAMPLES = {
    "_fft_r2c": [
        Sample((_f(3, 5), [1], 0, True)),
        Sample((_f(3, 4), [0, 1], 2, False), label="two dims, two-sided, by n"),
        Sample((_f(2, 3, 4), [0, 2], 1, True), label="ortho"),
        Sample((_f(4, 3).T, [0], 0, True), label="non-contiguous"),
    ],
    "_fft_c2r": [
        Sample((_c(3, 3), [1], 0, 4)),
        Sample((_c(3, 3), [1], 2, 5), label="odd length, by n"),
        Sample((_c(2, 3, 4), [0, 2], 1, 6), label="two dims, ortho"),
    ],
    "_fft_c2c": [
        Sample((_c(3, 4), [1], 0, True)),
        Sample((_c(3, 4), [0, 1], 2, False), label="inverse, two dims, by n"),
        Sample((_c(2, 3, 5), [2, 0], 1, True), label="ortho"),
    ],
    "fft_fft": _one_dim() + [Sample((_c(3, 4),), {"n": 6}, label="complex")],
    "fft_ifft": _one_dim() + [Sample((_c(3, 4),), {"n": 3, "norm": "forward"}, label="complex")],
    "fft_rfft": _one_dim(),
    "fft_ihfft": _one_dim(),
    "fft_irfft": _complex_one_dim(),
    "fft_hfft": _complex_one_dim(),
    "fft_fftn": _n_dim(False) + [Sample((_c(2, 3),), label="complex")],
    "fft_ifftn": _n_dim(False) + [Sample((_c(2, 3),), label="complex")],
    "fft_fft2": _n_dim(True) + [Sample((_c(2, 3),), label="complex")],
    "fft_ifft2": _n_dim(True) + [Sample((_c(2, 3),), label="complex")],
    "fft_rfftn": _n_dim(False),
    "fft_rfft2": _n_dim(True),
    "fft_ihfftn": _n_dim(False),
    "fft_ihfft2": _n_dim(True),
    "fft_irfftn": _complex_n_dim(False),
    "fft_irfft2": _complex_n_dim(True),
    "fft_hfftn": _complex_n_dim(False),
    "fft_hfft2": _complex_n_dim(True),
    # --- short-time transforms ---
    "stft.center": [
        Sample((_f(16), 8, None, None, _hann(8)), {"return_complex": True}),
        Sample(
            (_f(2, 20), 8, 3, 6, _hann(6)),
            {"pad_mode": "constant", "return_complex": True},
            label="batch, hop, short window, constant padding",
        ),
        Sample(
            (_f(16), 8, 2, None, _hamming(8), False),
            {"normalized": True, "onesided": False, "return_complex": True},
            label="not centred, normalized, two-sided",
        ),
        Sample((_f(16), 8, 2, None, _hann(8)), {"return_complex": False}, label="real result"),
        # Forward only: the gradients of F.pad and unfold (frames) of a complex signal accumulate through
        # index_add/index_put, whose kernels (runtime/kernels/cpu/index.py) do not take complex yet.
        Sample((_c(16), 8, 2, None, _hann(8)), {"pad_mode": "replicate"}, grad=False, label="complex input"),
        Sample(
            (_f(12), 4, 1, 2, _hann(2), False),
            {"align_to_window": True, "return_complex": True},
            label="aligned to the window",
        ),
        Sample((_f(5, 3).T[0].copy(), 4), {"hop_length": 1, "return_complex": True}, label="no window"),
    ],
    "istft": [
        Sample((_c(5, 9), 8, 2, None, _hann(8))),
        Sample((_c(2, 5, 6), 8, 2, 6, _hann(6)), {"length": 13}, label="batch, short window, length"),
        Sample(
            (_c(8, 5), 8, 2, None, _hamming(8), False),
            {"onesided": False, "return_complex": True},
            label="not centred, two-sided, complex result",
        ),
        Sample(
            (_c(8, 5), 8, 2, None, _hamming(8)),
            {"normalized": True, "onesided": False},
            label="normalized, two-sided input",
        ),
        Sample((_c(5, 4), 8, 2, None, _hann(8)), {"length": 12}, label="length beyond the signal"),
    ],
    # --- window functions ---
    "hann_window": [
        Sample((5,)),
        Sample((6, False), label="symmetric"),
        Sample((4,), {"dtype": "float64"}, label="float64"),
        Sample((1,), label="one point"),
        Sample((0,), label="empty"),
    ],
    "hamming_window": [
        Sample((5,)),
        Sample((6, False), label="symmetric"),
        Sample((6, True, 0.5), label="alpha"),
        Sample((7, False, 0.6, 0.3), {"dtype": "float64"}, label="alpha, beta"),
        Sample((1, False), label="one point"),
    ],
    "blackman_window": [
        Sample((5,)),
        Sample((6, False), {"dtype": "float64"}, label="symmetric"),
        Sample((0,), label="empty"),
    ],
    "bartlett_window": [
        Sample((5,)),
        Sample((6,), label="even"),
        Sample((7, False), {"dtype": "float64"}, label="symmetric"),
        Sample((1,), label="one point"),
    ],
    "kaiser_window": [
        Sample((5,)),
        Sample((6, False), label="symmetric"),
        Sample((7, True, 5.0), {"dtype": "float64"}, label="beta"),
        Sample((1,), label="one point"),
    ],
}

BAD_SAMPLES = {
    "_fft_r2c": [Sample((_c(3), [0], 0, True), label="complex input")],
    "_fft_c2c": [Sample((_f(3), [0], 0, True), label="real input")],
    "_fft_c2r": [Sample((_f(3), [0], 0, 4), label="real input")],
    "fft_fft": [
        Sample((_f(4).astype(np.float16),), label="half"),
        Sample((_f(4),), {"n": 0}, label="no points"),
        Sample((_f(4),), {"norm": "both"}, label="unknown norm"),
        Sample((_f(4),), {"dim": 1}, label="dim out of range"),
        Sample((np.array(1.0),), label="0-d"),
    ],
    "fft_rfft": [Sample((_c(4),), label="complex input")],
    "fft_ihfft": [Sample((_c(4),), label="complex input")],
    "fft_irfft": [Sample((_c(1),), label="one point gives none")],
    "fft_hfft": [Sample((_c(3),), {"n": -2}, label="negative n")],
    "fft_fftn": [
        Sample((_f(3, 4),), {"dim": (0, -2)}, label="repeated dim"),
        Sample((_f(4),), {"s": (2, 2)}, label="s longer than the input's dims"),
        Sample((_f(3, 4),), {"s": (2, 2), "dim": (0,)}, label="s and dim lengths differ"),
        Sample((_f(3, 4),), {"s": (0, 2)}, label="no points"),
    ],
    "fft_rfftn": [
        Sample((_f(3, 4),), {"dim": ()}, label="no dims"),
        Sample((_c(3, 4),), label="complex input"),
    ],
    "fft_irfftn": [Sample((_c(3, 4),), {"dim": ()}, label="no dims")],
    "fft_hfftn": [Sample((_c(3, 1),), label="one point gives none")],
    "fft_ihfftn": [Sample((_f(3, 4),), {"dim": ()}, label="no dims")],
    "fft_fft2": [Sample((_f(4),), label="one dimension")],
    "stft.center": [
        Sample((_f(16), 8), label="return_complex not given"),
        Sample((_f(6), 16), {"center": False, "return_complex": True}, label="n_fft longer than the signal"),
        Sample((_f(16), 8, 2, None, _hann(6)), {"return_complex": True}, label="window size"),
        Sample((_f(16), 8), {"align_to_window": True, "return_complex": True}, label="aligned and centred"),
        Sample((_c(16), 8, 2, None, _hann(8)), {"onesided": True}, label="one-sided complex"),
        Sample((_f(2, 3, 16), 8), {"center": False, "return_complex": True}, label="3-d"),
    ],
    "istft": [
        Sample((_f(5, 9), 8), label="real input"),
        Sample((_c(6, 9), 8, 2, None, _hann(8)), label="frequency size"),
        Sample((_c(5, 9), 8, 9, None, _hann(8)), label="hop longer than the window"),
        Sample((_c(5, 9), 8, 2, None, _hann(7)), label="window size"),
        Sample((_c(5, 4), 8, 8, None, _hann(8)), label="window overlap add is zero"),
    ],
    "hann_window": [
        Sample((-1,), label="negative length"),
        Sample((4,), {"dtype": "int64"}, label="integer dtype"),
    ],
    "kaiser_window": [Sample((3,), {"dtype": "int64"}, label="integer dtype")],
}
