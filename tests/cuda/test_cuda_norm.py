"""The CUDA normalization kernels (runtime/kernels/cuda/norm.py) through yaten, against the CPU kernels.

native_batch_norm and native_layer_norm, forward and backward: values, dtypes, shapes, the running
statistics updated in place (through strided views too), empty and NaN statistics, output_mask, the
nn modules end to end, and the same errors as the CPU. Run under ``NUMBA_ENABLE_CUDASIM=1`` on
machines without a GPU: the simulator runs every GPU thread as a Python thread, so inputs are tiny.
"""

import numpy as np
import pytest

import yaten

pytestmark = [
    pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1"),
    # The simulator computes with NumPy scalars, which warn where a GPU silently gives inf or NaN.
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
]

CUDA = yaten.device("cuda", 0)
DTYPES = [np.float32, np.float64]
SHAPE = (3, 2, 4)


def _t(a, device, dtype=None):
    """A C-contiguous yaten tensor on ``device`` with the values of ``a``."""
    return yaten.from_numpy(np.array(a, dtype)).to(device)


def _values(dt, shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dt)


def _opt(a, device, dt):
    return None if a is None else _t(a, device, dt)


def _same(got, want, cuda=True):
    """``got`` (on cuda) equals ``want`` (on the CPU): device, dtype, shape, values (NaN where NaN)."""
    if cuda:
        assert got.device == CUDA
    assert got.dtype == want.dtype and tuple(got.shape) == tuple(want.shape)
    g, w = got.detach().cpu().numpy(), want.detach().cpu().numpy()
    rtol = 1e-5 if w.dtype == np.float32 else 1e-10
    np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol)


def _both(fn):
    """Runs ``fn(device)`` (returning a tuple of tensors) on the CPU and on cuda; compares them."""
    want, got = fn("cpu"), fn("cuda")
    for g, w in zip(got, want, strict=True):
        _same(g, w)


def _same_error(fn):
    """``fn(device)`` raises the same exception type with the same message on the CPU and on cuda."""
    with pytest.raises(Exception) as cpu:
        fn("cpu")
    with pytest.raises(type(cpu.value)) as dev:
        fn("cuda")
    assert type(dev.value) is type(cpu.value)
    assert str(dev.value) == str(cpu.value)


# --- native_batch_norm ---------------------------------------------------------------------------


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("momentum", [0.1, 0.5])
def test_batch_norm_matches_cpu(dt, training, affine, momentum):
    x = _values(dt, SHAPE)
    w, b = (_values(dt, 2, 1), _values(dt, 2, 2)) if affine else (None, None)
    rm, rv = _values(dt, 2, 3), np.abs(_values(dt, 2, 4)) + 0.5
    stats = {}

    def run(device):
        rmt, rvt = _t(rm, device), _t(rv, device)
        out = yaten.native_batch_norm(_t(x, device), _opt(w, device, dt), _opt(b, device, dt), rmt, rvt,
                                      training, momentum, 1e-3)  # fmt: skip
        stats[device] = (rmt, rvt)
        return out

    _both(run)
    for g, w_ in zip(stats["cuda"], stats["cpu"]):
        _same(g, w_)
    if training:  # the running statistics moved
        assert not np.allclose(stats["cuda"][0].cpu().numpy(), rm)


@pytest.mark.parametrize("dt", DTYPES)
def test_batch_norm_training_without_running_stats(dt):
    x = _values(dt, (4, 3))
    _both(lambda d: yaten.native_batch_norm(_t(x, d), None, None, None, None, True, 0.1, 1e-5))


def test_batch_norm_updates_strided_running_stats_in_place():
    x = _values(np.float32, SHAPE)
    stats = {}

    def run(device):
        base_m, base_v = _t(np.zeros(4, np.float32), device), _t(np.ones(4, np.float32), device)
        rm, rv = base_m[::2], base_v[1::2]  # strided views: the update must land in the base
        out = yaten.native_batch_norm(_t(x, device), None, None, rm, rv, True, 0.2, 1e-5)
        stats[device] = (base_m, base_v)
        return out

    _both(run)
    for g, w in zip(stats["cuda"], stats["cpu"]):
        _same(g, w)


def test_batch_norm_half_input_and_float_stats():
    x = _values(np.float16, SHAPE)
    stats = {}

    def run(device):
        rm, rv = _t(np.zeros(2, np.float32), device), _t(np.ones(2, np.float32), device)
        out = yaten.native_batch_norm(_t(x, device), None, None, rm, rv, True, 0.1, 1e-5)
        stats[device] = (rm, rv)
        return out

    want, got = run("cpu"), run("cuda")
    for g, w in zip(got, want):
        assert g.dtype == w.dtype == yaten.float16 and g.shape == w.shape
        np.testing.assert_allclose(
            g.cpu().numpy().astype(np.float64), w.numpy().astype(np.float64), rtol=2e-3
        )
    for g, w in zip(stats["cuda"], stats["cpu"]):
        _same(g, w)


def test_batch_norm_eval_saves_empty_stats_and_empty_batch_gives_nan():
    x = _values(np.float32, SHAPE)
    _, mean, invstd = yaten.native_batch_norm(
        _t(x, "cuda"), None, None, _t(np.zeros(2), "cuda"), _t(np.ones(2), "cuda"), False, 0.1, 1e-5
    )
    assert tuple(mean.shape) == tuple(invstd.shape) == (0,) and mean.dtype == yaten.float32
    stats = {}

    def run(device):
        rm, rv = _t(np.zeros(2), device), _t(np.ones(2), device)
        out = yaten.native_batch_norm(_t(np.zeros((0, 2, 3)), device), None, None, rm, rv, True, 0.1, 1e-5)
        stats[device] = (rm, rv)
        return out

    _, mean, invstd = run("cuda")
    assert np.isnan(mean.cpu().numpy()).all() and np.isnan(invstd.cpu().numpy()).all()
    assert np.isnan(stats["cuda"][0].cpu().numpy()).all()
    _both(run)


@pytest.mark.parametrize("missing", ["running_mean", "running_var"])
def test_batch_norm_eval_errors_match_cpu(missing):
    x = _values(np.float32, SHAPE)

    def run(device):
        rm = None if missing == "running_mean" else _t(np.zeros(2), device)
        rv = None if missing == "running_var" else _t(np.ones(2), device)
        return yaten.native_batch_norm(_t(x, device), None, None, rm, rv, False, 0.1, 1e-5)

    _same_error(run)


# --- native_batch_norm_backward ------------------------------------------------------------------


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("affine", [True, False])
def test_batch_norm_backward_matches_cpu(dt, training, affine):
    x, g = _values(dt, SHAPE), _values(dt, SHAPE, 5)
    w = _values(dt, 2, 1) if affine else None
    rm, rv = _values(dt, 2, 3), np.abs(_values(dt, 2, 4)) + 0.5

    def run(device):
        xt = _t(x, device)
        _, mean, invstd = yaten.native_batch_norm(xt, _opt(w, device, dt), None, _t(rm, device), _t(rv, device),
                                                  training, 0.1, 1e-3)  # fmt: skip
        return yaten.native_batch_norm_backward(_t(g, device), xt, _opt(w, device, dt), _t(rm, device),
                                                _t(rv, device), mean, invstd, training, 1e-3, [True, True, True])  # fmt: skip

    _both(run)


@pytest.mark.parametrize("mask", [[False, True, True], [True, False, False], [True, True, False]])
def test_batch_norm_backward_output_mask(mask):
    x, g, w = _values(np.float64, SHAPE), _values(np.float64, SHAPE, 5), _values(np.float64, 2, 1)

    def run(device):
        xt = _t(x, device)
        _, mean, invstd = yaten.native_batch_norm(xt, _t(w, device), None, None, None, True, 0.1, 1e-5)
        return yaten.native_batch_norm_backward(_t(g, device), xt, _t(w, device), None, None, mean, invstd, True,
                                                1e-5, mask)  # fmt: skip

    want, got = run("cpu"), run("cuda")
    for keep, gt, wt in zip(mask, got, want):
        assert gt.shape == wt.shape and gt.dtype == wt.dtype and gt.device == CUDA
        if keep:
            _same(gt, wt)


# --- native_layer_norm and its backward ----------------------------------------------------------


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("normalized_shape", [[4], [2, 4]])
@pytest.mark.parametrize("affine", ["both", "weight", "none"])
def test_layer_norm_and_backward_match_cpu(dt, normalized_shape, affine):
    x, g = _values(dt, SHAPE), _values(dt, SHAPE, 5)
    w = _values(dt, normalized_shape, 1) if affine != "none" else None
    b = _values(dt, normalized_shape, 2) if affine == "both" else None

    def run(device):
        xt = _t(x, device)
        wt, bt = _opt(w, device, dt), _opt(b, device, dt)
        out = yaten.native_layer_norm(xt, normalized_shape, wt, bt, 1e-5)
        grads = yaten.native_layer_norm_backward(_t(g, device), xt, normalized_shape, out[1], out[2], wt, bt,
                                                 [True, True, True])  # fmt: skip
        return (*out, *grads)

    _both(run)


@pytest.mark.parametrize("mask", [[True, False, False], [False, True, False], [True, False, True]])
def test_layer_norm_backward_output_mask(mask):
    x, g, w = _values(np.float64, SHAPE), _values(np.float64, SHAPE, 5), _values(np.float64, 4, 1)

    def run(device):
        xt, wt = _t(x, device), _t(w, device)
        _, mean, rstd = yaten.native_layer_norm(xt, [4], wt, None, 1e-5)
        return yaten.native_layer_norm_backward(_t(g, device), xt, [4], mean, rstd, wt, None, mask)

    want, got = run("cpu"), run("cuda")
    for keep, gt, wt in zip(mask, got, want):
        assert gt.shape == wt.shape and gt.dtype == wt.dtype and gt.device == CUDA
        if keep:
            _same(gt, wt)


def test_layer_norm_strided_input_and_empty_rows():
    x = _values(np.float32, (4, 3))
    _both(lambda d: yaten.native_layer_norm(_t(x, d).t(), [4], None, None, 1e-5))
    # Rows of no elements: NaN statistics, as the CPU's.
    _both(lambda d: yaten.native_layer_norm(_t(np.zeros((2, 0)), d), [0], None, None, 1e-5))


# --- the nn modules end to end -------------------------------------------------------------------


def _module_run(make, x, device):
    yaten.manual_seed(0)
    m = make().to(device)
    xt = _t(x, device).requires_grad_()
    y = m(xt)
    (y * _t(np.linspace(-1, 1, y.numel()).reshape(tuple(y.shape)), device, x.dtype)).sum().backward()
    return m, y, xt


@pytest.mark.parametrize(
    "make, shape",
    [
        (lambda: yaten.nn.BatchNorm2d(2), (2, 2, 2, 2)),
        (lambda: yaten.nn.BatchNorm2d(2, momentum=0.5, affine=False), (2, 2, 1, 3)),
        (lambda: yaten.nn.LayerNorm(4), (3, 2, 4)),
        (lambda: yaten.nn.LayerNorm([2, 4], elementwise_affine=False), (3, 2, 4)),
    ],
)
def test_modules_forward_backward_match_cpu(make, shape):
    x = _values(np.float32, shape)
    mc, yc, xc = _module_run(make, x, "cpu")
    md, yd, xd = _module_run(make, x, "cuda")
    _same(yd, yc)
    _same(xd.grad, xc.grad)
    for pd, pc in zip(md.parameters(), mc.parameters(), strict=True):
        _same(pd.grad, pc.grad)
    for bd, bc in zip(md.buffers(), mc.buffers(), strict=True):
        if bc.dtype.is_floating_point:
            _same(bd, bc)
    # Eval mode normalizes with the running statistics.
    md.eval(), mc.eval()
    _same(md(_t(x, "cuda")), mc(_t(x, "cpu")))
