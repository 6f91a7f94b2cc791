"""torch.fft, stft/istft and the window functions beyond the op table (tests/ops/op_samples_fft.py):
torch's error messages, result dtypes, the Backward nodes torch records, gradients through every
``norm`` mode against torch's, out=, the stft/istft round trip and the windows over many lengths."""

import warnings

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_close

TRANSFORMS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "hfft2",
              "ihfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn", "fftfreq", "rfftfreq", "fftshift",
              "ifftshift"]  # fmt: skip


def _both(make):
    """``make(lib)`` for torch and yaten: the two results, or the two exceptions."""
    out = []
    for lib in (torch, yaten):
        try:
            out.append(make(lib))
        except (RuntimeError, IndexError, NotImplementedError, TypeError) as e:
            out.append(e)
    return out


def test_the_namespace_has_torch_fft_names():
    for name in TRANSFORMS:
        assert callable(getattr(yaten.fft, name)), name
    for name in ("stft", "istft"):
        assert callable(getattr(yaten, name)) and callable(getattr(yaten.Tensor, name)), name


ERRORS = {
    "half": lambda L: L.fft.fft(L.ones(4, dtype=L.float16)),
    "no points": lambda L: L.fft.fft(L.ones(4), n=0),
    "unknown norm": lambda L: L.fft.rfft(L.ones(4), norm="x"),
    "rfft of complex": lambda L: L.fft.rfft(L.ones(4, dtype=L.complex64)),
    "ihfft of complex": lambda L: L.fft.ihfft(L.ones(4, dtype=L.complex128)),
    "dim out of range": lambda L: L.fft.fft(L.ones(4), dim=2),
    "0-d": lambda L: L.fft.fft(L.tensor(1.0)),
    "0-d fftn dims": lambda L: L.fft.fftn(L.tensor(1.0), dim=(0,)),
    "repeated dims": lambda L: L.fft.fftn(L.ones(4, 4), dim=(0, -2)),
    "s too long": lambda L: L.fft.fftn(L.ones(4), s=(2, 2)),
    "s and dim": lambda L: L.fft.fftn(L.ones(4, 4), s=(2, 2), dim=(0,)),
    "no axes": lambda L: L.fft.rfftn(L.ones(4, 4), dim=()),
    "irfftn no axes": lambda L: L.fft.irfftn(L.ones(4, 4), dim=()),
    "rfftn of complex": lambda L: L.fft.rfft2(L.ones(4, 4, dtype=L.complex64)),
    "irfft of one point": lambda L: L.fft.irfft(L.ones(1)),
    "hfftn of one point": lambda L: L.fft.hfftn(L.ones(3, 1)),
    "r2c of complex": lambda L: L._fft_r2c(L.ones(3, dtype=L.complex64), [0], 0, True),
    "c2c of real": lambda L: L._fft_c2c(L.ones(3), [0], 0, True),
    "c2r of real": lambda L: L._fft_c2r(L.ones(3), [0], 0, 4),
    "window length": lambda L: L.hann_window(-1),
    "window dtype": lambda L: L.kaiser_window(3, dtype=L.int32),
    "stft return_complex": lambda L: L.stft(L.ones(16), 8),
    "stft n_fft": lambda L: L.stft(L.ones(6), 16, center=False, return_complex=True),
    "stft window size": lambda L: L.stft(L.ones(16), 8, window=L.ones(6), return_complex=True),
    "stft dtype": lambda L: L.stft(L.ones(16, dtype=L.int64), 4, center=False, return_complex=True),
    "stft align": lambda L: L.stft(L.ones(16), 8, align_to_window=True, return_complex=True),
    "stft onesided complex": lambda L: L.stft(L.ones(16, dtype=L.complex64), 8, onesided=True),
    "istft real": lambda L: L.istft(L.ones(5, 3), 8),
    "istft empty": lambda L: L.istft(L.ones(0, 3, dtype=L.complex64), 8),
    "istft frequencies": lambda L: L.istft(L.ones(5, 3, dtype=L.complex64), 6),
    "istft hop": lambda L: L.istft(L.ones(5, 3, dtype=L.complex64), 8, hop_length=9),
    "istft window": lambda L: L.istft(L.ones(5, 3, dtype=L.complex64), 8, window=L.ones(7)),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_are_torchs(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want, got = _both(ERRORS[name])
    assert isinstance(want, Exception), f"torch raised nothing: {want}"
    assert type(got) is type(want), f"{type(got).__name__}: {got} vs {type(want).__name__}: {want}"
    assert str(got) == str(want).replace("torch.", "yaten."), f"{got!s} vs {want!s}"


@pytest.mark.parametrize(
    "name, dtype, want",
    [
        ("fft", "float32", "complex64"),
        ("fft", "float64", "complex128"),
        ("fft", "int64", "complex64"),
        ("fft", "bool", "complex64"),
        ("rfft", "int32", "complex64"),
        ("fftn", "float64", "complex128"),
        ("irfft", "complex64", "float32"),
        ("irfft", "float64", "float64"),
        ("hfft", "complex128", "float64"),
        ("ihfft", "float32", "complex64"),
        ("ifft", "complex64", "complex64"),
    ],
)
def test_result_dtypes(name, dtype, want):
    x = yaten.ones(4, dtype=getattr(yaten, dtype))
    assert getattr(yaten.fft, name)(x).dtype is getattr(yaten, want)
    assert str(getattr(torch.fft, name)(torch.ones(4, dtype=getattr(torch, dtype))).dtype) == f"torch.{want}"


@pytest.mark.parametrize(
    "name, node",
    [("rfft", "FftR2CBackward0"), ("fftn", "FftC2CBackward0"), ("irfft", "FftC2RBackward0"),
     ("fft", "FftR2CBackward0")],
)  # fmt: skip
def test_backward_nodes_are_torchs(name, node):
    x = torch.ones(4, dtype=torch.float64, requires_grad=True)
    assert type(getattr(torch.fft, name)(x).grad_fn).__name__ == node
    y = yaten.ones(4, dtype=yaten.float64, requires_grad=True)
    assert type(getattr(yaten.fft, name)(y).grad_fn).__name__ == node


def _complex(rng, shape):
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
@pytest.mark.parametrize(
    "name, kwargs, complex_input",
    [("fft", {"n": 7}, False), ("ifft", {"n": 3}, True), ("rfft", {"n": 6}, False), ("irfft", {"n": 7}, True),
     ("hfft", {"n": 5}, True), ("ihfft", {}, False), ("fftn", {"s": (3, 6)}, True), ("rfft2", {}, False),
     ("irfftn", {"s": (4, 5)}, True), ("hfft2", {}, True), ("ihfftn", {"dim": (0, 1)}, False)],
)  # fmt: skip
def test_gradients_match_torchs_with_a_complex_gradient(name, kwargs, complex_input, norm):
    """Backward with a random complex (or real) gradient: torch's conjugate Wirtinger convention."""
    rng = np.random.default_rng(3)
    data = _complex(rng, (4, 5)) if complex_input else rng.standard_normal((4, 5))
    x = torch.from_numpy(data).requires_grad_()
    out = getattr(torch.fft, name)(x, norm=norm, **kwargs)
    g = _complex(rng, tuple(out.shape)) if out.is_complex() else rng.standard_normal(tuple(out.shape))
    out.backward(torch.from_numpy(g))
    y = yaten.from_numpy(data.copy()).requires_grad_()
    getattr(yaten.fft, name)(y, norm=norm, **kwargs).backward(yaten.from_numpy(g.copy()))
    assert y.grad.dtype is getattr(yaten, str(x.grad.dtype).split(".")[1])
    assert_close(y.grad, x.grad, "gradient")


@pytest.mark.parametrize("name", ["fft", "rfft", "irfft", "fft2", "irfftn"])
def test_out_writes_the_result(name):
    x = np.random.default_rng(0).standard_normal((3, 4))
    want = getattr(torch.fft, name)(torch.from_numpy(x))
    out = yaten.empty(0, dtype=getattr(yaten, str(want.dtype).split(".")[1]))
    assert getattr(yaten.fft, name)(yaten.from_numpy(x), out=out) is out
    assert_close(out, want, name)


@pytest.mark.parametrize("center, hop, win", [(True, 2, 8), (True, 3, 6), (False, 2, 8)])
def test_istft_inverts_stft(center, hop, win):
    x = np.random.default_rng(1).standard_normal((2, 40))
    window = torch.hamming_window(win, dtype=torch.float64)
    spec = torch.stft(torch.from_numpy(x), 8, hop, win, window, center=center, return_complex=True)
    back = torch.istft(spec, 8, hop, win, window, center=center, length=40)
    yspec = yaten.stft(yaten.from_numpy(x), 8, hop, win, yaten.from_numpy(window.numpy()), center=center,
                       return_complex=True)  # fmt: skip
    yback = yaten.istft(yspec, 8, hop, win, yaten.from_numpy(window.numpy()), center=center, length=40)
    assert_close(yspec, spec, "stft")
    assert_close(yback, back, "istft")
    if center:  # the window's overlap-add covers every sample: the signal comes back
        assert_close(yback, x, "round trip")


def test_stft_warns_as_torch():
    with pytest.warns(UserWarning, match="A window was not provided"):
        yaten.stft(yaten.ones(16), 8, return_complex=True)
    with pytest.warns(UserWarning, match="return_complex=False is deprecated"):
        yaten.stft(yaten.ones(16), 8, window=yaten.ones(8), return_complex=False)
    with pytest.warns(UserWarning, match="shorter than the length parameter"):
        yaten.istft(yaten.ones(5, 3, dtype=yaten.complex64), 8, window=yaten.ones(8), length=30)


@pytest.mark.parametrize("name", ["hann_window", "hamming_window", "blackman_window", "bartlett_window",
                                  "kaiser_window"])  # fmt: skip
@pytest.mark.parametrize("periodic", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_windows_match_torchs(name, periodic, dtype):
    for n in range(0, 12):
        want = getattr(torch, name)(n, periodic, dtype=getattr(torch, dtype))
        got = getattr(yaten, name)(n, periodic, dtype=getattr(yaten, dtype))
        assert got.dtype is getattr(yaten, dtype) and not got.requires_grad
        assert_close(got, want, f"{name}({n})")


def test_window_parameters():
    for alpha, beta in ((0.5, 0.5), (0.6, 0.2)):
        assert_close(yaten.hamming_window(9, False, alpha, beta), torch.hamming_window(9, False, alpha, beta))
    for beta in (0.0, 3.5, 20.0):
        assert_close(yaten.kaiser_window(9, True, beta), torch.kaiser_window(9, True, beta))
