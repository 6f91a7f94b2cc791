"""The CUDA normalization kernels (runtime/kernels/cuda/norm.py) through yaten, against the CPU kernels.

native_batch_norm and native_layer_norm, forward and backward: values, dtypes, shapes, the running
statistics updated in place (through strided views too), empty and NaN statistics, output_mask, the
nn modules end to end, and the same errors as the CPU. Run under ``NUMBA_ENABLE_CUDASIM=1`` on
machines without a GPU: the simulator runs every GPU thread as a Python thread, so inputs are tiny.
"""

import numpy as np
import pytest
from compare import CUDA, assert_same, both, on, same_error

import yaten

pytestmark = [
    pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1"),
    # The simulator computes with NumPy scalars, which warn where a GPU silently gives inf or NaN.
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
]

DTYPES = [np.float32, np.float64]
SHAPE = (3, 2, 4)


def _values(dt, shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dt)


def _opt(a, device, dt):
    return None if a is None else on(a, device, dt)


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
        rmt, rvt = on(rm, device), on(rv, device)
        out = yaten.native_batch_norm(on(x, device), _opt(w, device, dt), _opt(b, device, dt), rmt, rvt,
                                      training, momentum, 1e-3)  # fmt: skip
        stats[device] = (rmt, rvt)
        return out

    both(run)
    for g, w_ in zip(stats["cuda"], stats["cpu"]):
        assert_same(g, w_)
    if training:  # the running statistics moved
        assert not np.allclose(stats["cuda"][0].cpu().numpy(), rm)


@pytest.mark.parametrize("dt", DTYPES)
def test_batch_norm_training_without_running_stats(dt):
    x = _values(dt, (4, 3))
    both(lambda d: yaten.native_batch_norm(on(x, d), None, None, None, None, True, 0.1, 1e-5))


def test_batch_norm_updates_strided_running_stats_in_place():
    x = _values(np.float32, SHAPE)
    stats = {}

    def run(device):
        base_m, base_v = on(np.zeros(4, np.float32), device), on(np.ones(4, np.float32), device)
        rm, rv = base_m[::2], base_v[1::2]  # strided views: the update must land in the base
        out = yaten.native_batch_norm(on(x, device), None, None, rm, rv, True, 0.2, 1e-5)
        stats[device] = (base_m, base_v)
        return out

    both(run)
    for g, w in zip(stats["cuda"], stats["cpu"]):
        assert_same(g, w)


def test_batch_norm_half_input_and_float_stats():
    x = _values(np.float16, SHAPE)
    stats = {}

    def run(device):
        rm, rv = on(np.zeros(2, np.float32), device), on(np.ones(2, np.float32), device)
        out = yaten.native_batch_norm(on(x, device), None, None, rm, rv, True, 0.1, 1e-5)
        stats[device] = (rm, rv)
        return out

    want, got = run("cpu"), run("cuda")
    for g, w in zip(got, want):
        assert g.dtype == w.dtype == yaten.float16 and g.shape == w.shape
        np.testing.assert_allclose(
            g.cpu().numpy().astype(np.float64), w.numpy().astype(np.float64), rtol=2e-3
        )
    for g, w in zip(stats["cuda"], stats["cpu"]):
        assert_same(g, w)


def test_batch_norm_eval_saves_empty_stats_and_empty_batch_gives_nan():
    x = _values(np.float32, SHAPE)
    _, mean, invstd = yaten.native_batch_norm(
        on(x, "cuda"), None, None, on(np.zeros(2), "cuda"), on(np.ones(2), "cuda"), False, 0.1, 1e-5
    )
    assert tuple(mean.shape) == tuple(invstd.shape) == (0,) and mean.dtype == yaten.float32
    stats = {}

    def run(device):
        rm, rv = on(np.zeros(2), device), on(np.ones(2), device)
        out = yaten.native_batch_norm(on(np.zeros((0, 2, 3)), device), None, None, rm, rv, True, 0.1, 1e-5)
        stats[device] = (rm, rv)
        return out

    _, mean, invstd = run("cuda")
    assert np.isnan(mean.cpu().numpy()).all() and np.isnan(invstd.cpu().numpy()).all()
    assert np.isnan(stats["cuda"][0].cpu().numpy()).all()
    both(run)


@pytest.mark.parametrize("missing", ["running_mean", "running_var"])
def test_batch_norm_eval_errors_match_cpu(missing):
    x = _values(np.float32, SHAPE)

    def run(device):
        rm = None if missing == "running_mean" else on(np.zeros(2), device)
        rv = None if missing == "running_var" else on(np.ones(2), device)
        return yaten.native_batch_norm(on(x, device), None, None, rm, rv, False, 0.1, 1e-5)

    same_error(run)


# --- native_batch_norm_backward ------------------------------------------------------------------


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("affine", [True, False])
def test_batch_norm_backward_matches_cpu(dt, training, affine):
    x, g = _values(dt, SHAPE), _values(dt, SHAPE, 5)
    w = _values(dt, 2, 1) if affine else None
    rm, rv = _values(dt, 2, 3), np.abs(_values(dt, 2, 4)) + 0.5

    def run(device):
        xt = on(x, device)
        _, mean, invstd = yaten.native_batch_norm(xt, _opt(w, device, dt), None, on(rm, device), on(rv, device),
                                                  training, 0.1, 1e-3)  # fmt: skip
        return yaten.native_batch_norm_backward(on(g, device), xt, _opt(w, device, dt), on(rm, device),
                                                on(rv, device), mean, invstd, training, 1e-3, [True, True, True])  # fmt: skip

    both(run)


@pytest.mark.parametrize("mask", [[False, True, True], [True, False, False], [True, True, False]])
def test_batch_norm_backward_output_mask(mask):
    x, g, w = _values(np.float64, SHAPE), _values(np.float64, SHAPE, 5), _values(np.float64, 2, 1)

    def run(device):
        xt = on(x, device)
        _, mean, invstd = yaten.native_batch_norm(xt, on(w, device), None, None, None, True, 0.1, 1e-5)
        return yaten.native_batch_norm_backward(on(g, device), xt, on(w, device), None, None, mean, invstd, True,
                                                1e-5, mask)  # fmt: skip

    want, got = run("cpu"), run("cuda")
    for keep, gt, wt in zip(mask, got, want):
        assert gt.shape == wt.shape and gt.dtype == wt.dtype and gt.device == CUDA
        if keep:
            assert_same(gt, wt)


# --- native_layer_norm and its backward ----------------------------------------------------------


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("normalized_shape", [[4], [2, 4]])
@pytest.mark.parametrize("affine", ["both", "weight", "none"])
def test_layer_norm_and_backward_match_cpu(dt, normalized_shape, affine):
    x, g = _values(dt, SHAPE), _values(dt, SHAPE, 5)
    w = _values(dt, normalized_shape, 1) if affine != "none" else None
    b = _values(dt, normalized_shape, 2) if affine == "both" else None

    def run(device):
        xt = on(x, device)
        wt, bt = _opt(w, device, dt), _opt(b, device, dt)
        out = yaten.native_layer_norm(xt, normalized_shape, wt, bt, 1e-5)
        grads = yaten.native_layer_norm_backward(on(g, device), xt, normalized_shape, out[1], out[2], wt, bt,
                                                 [True, True, True])  # fmt: skip
        return (*out, *grads)

    both(run)


@pytest.mark.parametrize("mask", [[True, False, False], [False, True, False], [True, False, True]])
def test_layer_norm_backward_output_mask(mask):
    x, g, w = _values(np.float64, SHAPE), _values(np.float64, SHAPE, 5), _values(np.float64, 4, 1)

    def run(device):
        xt, wt = on(x, device), on(w, device)
        _, mean, rstd = yaten.native_layer_norm(xt, [4], wt, None, 1e-5)
        return yaten.native_layer_norm_backward(on(g, device), xt, [4], mean, rstd, wt, None, mask)

    want, got = run("cpu"), run("cuda")
    for keep, gt, wt in zip(mask, got, want):
        assert gt.shape == wt.shape and gt.dtype == wt.dtype and gt.device == CUDA
        if keep:
            assert_same(gt, wt)


def test_layer_norm_strided_input_and_empty_rows():
    x = _values(np.float32, (4, 3))
    both(lambda d: yaten.native_layer_norm(on(x, d).t(), [4], None, None, 1e-5))
    # Rows of no elements: NaN statistics, as the CPU's.
    both(lambda d: yaten.native_layer_norm(on(np.zeros((2, 0)), d), [0], None, None, 1e-5))


# --- the nn modules end to end -------------------------------------------------------------------


def _module_run(make, x, device):
    yaten.manual_seed(0)
    m = make().to(device)
    xt = on(x, device).requires_grad_()
    y = m(xt)
    (y * on(np.linspace(-1, 1, y.numel()).reshape(tuple(y.shape)), device, x.dtype)).sum().backward()
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
    assert_same(yd, yc)
    assert_same(xd.grad, xc.grad)
    for pd, pc in zip(md.parameters(), mc.parameters(), strict=True):
        assert_same(pd.grad, pc.grad)
    for bd, bc in zip(md.buffers(), mc.buffers(), strict=True):
        if bc.dtype.is_floating_point:
            assert_same(bd, bc)
    # Eval mode normalizes with the running statistics.
    md.eval(), mc.eval()
    assert_same(md(on(x, "cuda")), mc(on(x, "cpu")))
