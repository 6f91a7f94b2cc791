"""The CUDA convolution kernels (runtime/kernels/cuda/conv.py) through yaten, against the CPU kernels.

conv1d, conv2d and conv_transpose2d with stride, padding, dilation, groups and bias;
``convolution_backward`` with each output_mask; ``nn.Conv2d(...).cuda()`` forward and backward; the
same errors (type and message) as the CPU. Run under ``NUMBA_ENABLE_CUDASIM=1`` on machines without
a GPU: the simulator runs every GPU thread as a Python thread, so every input here is tiny.
"""

import numpy as np
import pytest
from compare import assert_same, on, same_error
from gpu_compile import compiles_for_a_gpu

import yaten

pytestmark = [
    pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1"),
    # The simulator computes with NumPy scalars, which warn where a GPU silently gives inf or NaN.
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
]

F = yaten.nn.functional


def _values(dt, shape, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dt).kind in "iu":
        return rng.integers(-3, 4, shape).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def _both(fn, dt, *shapes):
    """``fn`` of random arrays of ``shapes`` (None: no argument) on cuda and on the CPU, compared."""
    arrays = [None if s is None else _values(dt, s, seed) for seed, s in enumerate(shapes)]
    want = fn(*[None if a is None else on(a, "cpu") for a in arrays])
    got = fn(*[None if a is None else on(a, "cuda") for a in arrays])
    assert_same(got, want)


# (input, weight, bias, kwargs): stride, padding, dilation, groups and bias, kept to a few dozen outputs.
CONV2D = [
    ((2, 2, 4, 4), (3, 2, 3, 3), (3,), {}),
    ((2, 2, 4, 4), (3, 2, 3, 3), None, {"padding": 1, "stride": 2}),
    ((1, 4, 4, 5), (4, 2, 2, 2), (4,), {"groups": 2, "dilation": (1, 2), "padding": (1, 0)}),
    ((2, 2, 4, 4), (2, 1, 2, 3), None, {"groups": 2, "stride": (2, 1)}),
]


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("xs, ws, bs, kwargs", CONV2D)
def test_conv2d_matches_cpu(dt, xs, ws, bs, kwargs):
    _both(lambda x, w, b: F.conv2d(x, w, b, **kwargs), dt, xs, ws, bs)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize(
    "xs, ws, bs, kwargs",
    [
        ((2, 2, 6), (3, 2, 3), (3,), {"stride": 2, "padding": 1}),
        ((1, 4, 5), (2, 2, 2), None, {"groups": 2, "dilation": 2}),
    ],
)
def test_conv1d_matches_cpu(dt, xs, ws, bs, kwargs):
    _both(lambda x, w, b: F.conv1d(x, w, b, **kwargs), dt, xs, ws, bs)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize(
    "xs, ws, bs, kwargs",
    [
        ((2, 2, 3, 3), (2, 3, 2, 2), (3,), {}),
        ((1, 2, 3, 3), (2, 1, 3, 2), (2,), {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2}),
        ((1, 2, 2, 3), (2, 2, 2, 2), None, {"dilation": (2, 1), "stride": (1, 2)}),
    ],
)
def test_conv_transpose2d_matches_cpu(dt, xs, ws, bs, kwargs):
    _both(lambda x, w, b: F.conv_transpose2d(x, w, b, **kwargs), dt, xs, ws, bs)


@pytest.mark.parametrize("dt", [np.float16, np.int32])
def test_half_and_integer_conv2d_match_cpu(dt):
    # float16 is computed in float32, integers with int64 sums, on both devices.
    _both(lambda x, w, b: F.conv2d(x, w, b, padding=1), dt, (1, 2, 3, 3), (2, 2, 2, 2), (2,))
    _both(lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2), dt, (1, 2, 2, 2), (2, 1, 2, 2), (1,))


def test_non_contiguous_input_matches_cpu():
    x = _values(np.float64, (2, 4, 4, 2))
    w = _values(np.float64, (3, 2, 2, 2), 1)
    want = F.conv2d(on(x, "cpu").permute(0, 3, 1, 2), on(w, "cpu"), stride=2)
    got = F.conv2d(on(x, "cuda").permute(0, 3, 1, 2), on(w, "cuda"), stride=2)
    assert_same(got, want)


MASKS = [(True, True, True), (True, False, False), (False, True, False), (False, False, True)]


@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("mask", MASKS)
def test_convolution_backward_matches_cpu(transposed, mask):
    x = _values(np.float64, (2, 2, 3, 4))
    w = _values(np.float64, (2, 2, 2, 2) if transposed else (4, 1, 2, 2), 1)
    args = ([2, 1], [1, 0], [1, 2], transposed, [1, 0] if transposed else [0, 0], 2)
    y = yaten.convolution(on(x, "cpu"), on(w, "cpu"), None, *args)
    g = _values(np.float64, y.shape, 2)

    def run(dev):
        return yaten.convolution_backward(on(g, dev), on(x, dev), on(w, dev), [y.shape[1]], *args, list(mask))

    want, got = run("cpu"), run("cuda")
    for m, a, b in zip(mask, got, want, strict=True):
        assert_same(a, b)
        assert (a.numel() == 0) == (not m)  # PyTorch's undefined tensor when masked off


def test_conv2d_module_cuda_forward_and_backward():
    yaten.manual_seed(0)
    cpu = yaten.nn.Conv2d(2, 4, 3, stride=2, padding=1, groups=2, bias=True).double()
    dev = yaten.nn.Conv2d(2, 4, 3, stride=2, padding=1, groups=2, bias=True).double()
    dev.load_state_dict(cpu.state_dict())
    dev = dev.cuda()
    x = _values(np.float64, (2, 2, 4, 4))
    xc, xd = on(x, "cpu").requires_grad_(), on(x, "cuda").requires_grad_()
    yc, yd = cpu(xc), dev(xd)
    assert_same(yd, yc)
    (yc * yc).sum().backward()
    (yd * yd).sum().backward()
    assert_same(xd.grad, xc.grad)
    assert_same(dev.weight.grad, cpu.weight.grad)
    assert_same(dev.bias.grad, cpu.bias.grad)


def test_errors_match_cpu():
    x, w = np.ones((1, 2, 3, 3)), np.ones((2, 2, 2, 2))

    def conv(xv, wv, bias=None, stride=(1,), padding=(0,), transposed=False, output_padding=(0,), groups=1):
        def run(dev):
            b = None if bias is None else on(bias, dev)
            return yaten.convolution(
                on(xv, dev), on(wv, dev), b, stride, padding, [1], transposed, output_padding, groups
            )

        return run

    same_error(conv(x, w.astype(np.float32)))  # dtypes differ
    same_error(conv(x, w, bias=np.ones(2, np.float32)))  # bias dtype
    same_error(conv(x, np.ones((2, 3, 2, 2))))  # channels
    same_error(conv(x, w, bias=np.ones(3)))  # bias size
    same_error(conv(x, np.ones((2, 2, 4, 4))))  # kernel larger than the input
    same_error(conv(x, w, stride=(0,)))
    same_error(conv(x, w, padding=(-1,)))
    same_error(conv(x, w, groups=3))
    same_error(conv(x, w, transposed=True, output_padding=(1,)))  # output padding >= stride and dilation
    same_error(conv(x[0], w))  # 3-d input for a 4-d weight
    err = same_error(conv(x, np.ones((2, 2, 2, 2, 2))))  # 3-d convolutions
    assert isinstance(err, (RuntimeError, NotImplementedError))


# --- the real-GPU code path: the kernels compile to PTX ------------------------------------------

GPU_KERNELS = """
from yaten.kernels.cuda import conv as C
i64 = nt.int64
for ct in ("uint8", "int8", "int16", "int32", "int64", "float32", "float64"):
    ct = np.dtype(ct)
    arr = from_dtype(ct)[::1]
    cuda.compile_ptx(C._im2col.py_func, (arr, *[i64] * 14, arr), cc=(9, 0))
    cuda.compile_ptx(C._col2im_kernel(ct).py_func, (arr, *[i64] * 14, arr), cc=(9, 0))
    for bias in {ct, np.dtype(np.float16) if ct == np.float32 else ct}:
        cuda.compile_ptx(C._bias_kernel(ct).py_func, (arr, from_dtype(bias)[::1], i64, i64, i64), cc=(9, 0))
"""


def test_kernels_compile_for_a_gpu():
    compiles_for_a_gpu(GPU_KERNELS)
