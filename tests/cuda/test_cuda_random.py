"""Random numbers drawn on the CUDA device (kernels/cuda/random.py through yaten._random), under
NUMBA_ENABLE_CUDASIM=1 without a GPU: Philox4x32-10 against its published known answers and a reference
written here, the (seed, offset) state, ranges, determinism, loose statistics of ~1000 samples,
bernoulli and dropout, the CPU's errors, and no host copies on the way."""

import contextlib
import math

import numpy as np
import pytest
from compare import CUDA, on, same_error
from gpu_compile import compiles_for_a_gpu

import yaten
from yaten import _random

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")

F = yaten.nn.functional
N = 1000


def _K():
    from yaten.kernels.cuda import random

    return random


def _np(t):
    return t.detach().cpu().numpy()


def _offset(g=None):
    g = g or _random.default_generator_for(CUDA)
    return g._offset


# --- Philox4x32-10 ---------------------------------------------------------------------------------


def _philox_reference(ctr, key, rounds=10):
    """Philox4x32 as Random123 writes it: a round, then before each later one the key bump."""
    m0, m1, w0, w1, mask = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85, 0xFFFFFFFF
    c, k = list(ctr), list(key)
    for r in range(rounds):
        if r:
            k = [(k[0] + w0) & mask, (k[1] + w1) & mask]
        p0, p1 = m0 * c[0], m1 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & mask, (p0 >> 32) ^ c[3] ^ k[1], p0 & mask]
    return c


# Random123's kat_vectors for philox4x32 with 10 rounds: counter, key, the four words out.
KNOWN_ANSWERS = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    (
        (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344),
        (0xA4093822, 0x299F31D0),
        (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1),
    ),
]


@pytest.mark.parametrize("ctr, key, want", KNOWN_ANSWERS)
def test_philox_known_answers(ctr, key, want):
    assert _K().philox4x32_10(ctr, key) == list(want)
    assert _philox_reference(ctr, key) == list(want)


def test_philox_matches_the_reference_on_random_inputs():
    rng = np.random.default_rng(0)
    for _ in range(3):
        ctr = [int(v) for v in rng.integers(0, 2**32, 4)]
        key = [int(v) for v in rng.integers(0, 2**32, 2)]
        assert _K().philox4x32_10(ctr, key) == _philox_reference(ctr, key)


def _words(seed, call, thread):
    """The reference's words of ``thread`` at counter ``(call, thread)`` (64 bits each) under ``seed``."""
    return _philox_reference(
        (call & 0xFFFFFFFF, call >> 32, thread & 0xFFFFFFFF, thread >> 32), (seed & 0xFFFFFFFF, seed >> 32)
    )


def test_draws_follow_the_documented_counters():
    # rand float32: element 4t + k is word k of thread t at counter (offset / 4, t), its top 24 bits.
    seed = 2**40 + 12345
    g = yaten.Generator("cuda").manual_seed(seed)
    first = _np(yaten.rand(10, generator=g, device="cuda"))
    second = _np(yaten.rand(3, generator=g, device="cuda"))
    want = [w >> 8 for t in range(3) for w in _words(seed, 0, t)][:10]
    assert first.tolist() == [v * 2.0**-24 for v in want]
    assert second.tolist() == [(w >> 8) * 2.0**-24 for w in _words(seed, 1, 0)][:3]
    # float64: 53 bits from two words, two calls per thread; half: the top 11 bits.
    d = _np(yaten.rand(4, generator=g.manual_seed(seed), device="cuda", dtype=yaten.float64))
    a, b = _words(seed, 0, 0), _words(seed, 1, 0)
    want = [
        ((x >> 5) * 2**26 + (y >> 6)) * 2.0**-53
        for x, y in ((a[0], a[1]), (a[2], a[3]), (b[0], b[1]), (b[2], b[3]))
    ]
    assert d.tolist() == want
    h = _np(yaten.rand(4, generator=g.manual_seed(seed), device="cuda", dtype=yaten.float16))
    assert h.astype(np.float64).tolist() == [(w >> 21) * 2.0**-11 for w in _words(seed, 0, 0)]


def test_randint_is_the_floor_of_low_plus_u_times_range():
    seed = 77
    g = yaten.Generator("cuda").manual_seed(seed)
    x = _np(yaten.randint(-5, 1000, (8,), generator=g, device="cuda"))
    words = _words(seed, 0, 0) + _words(seed, 0, 1)
    assert x.tolist() == [-5 + math.floor(w / 2**32 * 1005) for w in words]


# --- the state: (seed, offset) ------------------------------------------------------------------------


def test_offset_advances_by_the_counters_used():
    g = yaten.Generator("cuda").manual_seed(5)
    assert _offset(g) == 0
    yaten.rand(N, generator=g, device="cuda")
    assert _offset(g) == 4  # one call per thread: 4 words
    yaten.randn(N, generator=g, device="cuda", dtype=yaten.float64)
    assert _offset(g) == 12  # two calls per thread for 53-bit uniforms
    yaten.rand(0, generator=g, device="cuda")
    assert _offset(g) == 12  # nothing drawn, nothing used
    state = g.get_state()
    assert state.dtype is yaten.uint8 and state.device == yaten.device("cpu") and tuple(state.shape) == (16,)
    raw = bytes(_np(state).tolist())
    assert int.from_bytes(raw[:8], "little") == 5 and int.from_bytes(raw[8:], "little") == 12


def test_manual_seed_and_state_reproduce_streams():
    g = yaten.Generator("cuda").manual_seed(123)
    a = _np(yaten.rand(N, generator=g, device="cuda"))
    b = _np(yaten.rand(N, generator=g, device="cuda"))
    assert not np.array_equal(a, b)  # consecutive draws differ
    assert np.array_equal(_np(yaten.rand(N, generator=g.manual_seed(123), device="cuda")), a)
    c = _np(yaten.rand(N, generator=yaten.Generator("cuda").manual_seed(124), device="cuda"))
    assert not np.array_equal(a, c)
    state = g.get_state()
    x = _np(yaten.randn(N, generator=g, device="cuda"))
    other = yaten.Generator("cuda").set_state(state)
    assert other.initial_seed() == 123
    assert np.array_equal(_np(yaten.randn(N, generator=other, device="cuda")), x)
    assert np.array_equal(_np(yaten.randn(N, generator=g.set_state(state), device="cuda")), x)


def test_global_seeds_drive_the_cuda_default_generator():
    yaten.manual_seed(7)
    a = _np(yaten.rand(N, device="cuda"))
    cpu = _np(yaten.rand(5))
    yaten.cuda.manual_seed(7)
    assert yaten.cuda.initial_seed() == 7
    assert np.array_equal(_np(yaten.rand(N, device="cuda")), a)
    assert not np.array_equal(_np(yaten.rand(5)), cpu)  # the CPU stream went on, untouched
    saved = yaten.cuda.get_rng_state()
    b = _np(yaten.randn(N, device="cuda"))
    yaten.cuda.set_rng_state(saved)
    assert np.array_equal(_np(yaten.randn(N, device="cuda")), b)
    yaten.manual_seed(7)
    assert np.array_equal(_np(yaten.rand(N, device="cuda")), a)
    assert np.array_equal(_np(yaten.rand(5)), cpu)
    yaten.cuda.manual_seed_all(8)
    assert yaten.cuda.initial_seed() == 8 and yaten.initial_seed() == 7
    yaten.cuda.seed()
    assert yaten.cuda.initial_seed() == _random.default_generator_for(CUDA).initial_seed()


def test_unseeded_cuda_generator_starts_from_pytorchs_seed():
    assert yaten.Generator("cuda").initial_seed() == _random.DEFAULT_SEED
    assert yaten.Generator("cuda").device == CUDA


def test_set_state_errors_as_the_cpu_generator():
    g = yaten.Generator("cuda")
    with pytest.raises(
        RuntimeError,
        match=r"^Expected a yaten generator state of size 16 but found the input RNG state size to be 56$",
    ):
        g.set_state(yaten.Generator().get_state())
    with pytest.raises(RuntimeError, match="state size to be 16$"):
        yaten.Generator().set_state(g.get_state())
    with pytest.raises(TypeError, match="RNG state must be a yaten.ByteTensor"):
        g.set_state(yaten.zeros(16))
    with pytest.raises(TypeError, match="expected a yaten.ByteTensor, but got list"):
        g.set_state([0] * 16)


def test_every_draw_follows_the_cuda_state():
    # randint over more than 2**32 values is drawn on the host from the cuda generator's (seed, offset),
    # which it advances; randperm and normal with tensors draw on the device (normal's std check reads
    # one value back, as torch's).
    draws = {
        "randperm": lambda g: yaten.randperm(50, generator=g, device="cuda"),
        "normal_t": lambda g: yaten.normal(on(np.zeros(50), "cuda"), on(np.ones(50), "cuda"), generator=g),
        "randint_wide": lambda g: yaten.randint(-(2**40), 2**40, (50,), generator=g, device="cuda"),
    }
    for name, draw in draws.items():
        g = yaten.Generator("cuda").manual_seed(3)
        a = draw(g)
        assert a.device == CUDA, name
        after = _offset(g)
        assert after > 0 and after % 4 == 0, name
        b = draw(g)
        assert not np.array_equal(_np(a), _np(b)), name
        assert np.array_equal(_np(draw(g.manual_seed(3))), _np(a)), name
        assert _offset(g) == after, name
    p = _np(yaten.randperm(50, generator=g, device="cuda"))
    assert sorted(p.tolist()) == list(range(50))
    with no_host_copies():  # randperm sorts random keys on the device
        q = yaten.randperm(20, generator=g, device="cuda", dtype=yaten.float32)
    assert q.dtype == yaten.float32 and sorted(q.tolist()) == list(range(20))


# --- ranges and statistics ------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", [yaten.float16, yaten.float32, yaten.float64])
def test_rand_range_and_moments(dt):
    g = yaten.Generator("cuda").manual_seed(2024)
    t = yaten.rand(N, generator=g, device="cuda", dtype=dt)
    assert t.device == CUDA and t.dtype is dt and tuple(t.shape) == (N,)
    x = _np(t).astype(np.float64)
    assert x.min() >= 0 and x.max() < 1
    assert abs(x.mean() - 0.5) < 0.05 and abs(x.var() - 1 / 12) < 0.015


def test_uniform_never_rounds_up_to_one():
    # The largest uniform each dtype keeps is below 1 in that dtype.
    assert np.float16(1 - 2.0**-11) < 1 and np.float32(1 - 2.0**-24) < 1
    for dt in (yaten.float16, yaten.float32, yaten.float64):
        x = yaten.empty(N, device="cuda", dtype=dt)
        _random.fill_uniform_(x, 0.0, 1.0, yaten.Generator("cuda").manual_seed(9))
        assert _np(x).max() < 1


@pytest.mark.parametrize("dt", [yaten.float16, yaten.float32, yaten.float64])
def test_randn_and_normal_moments(dt):
    g = yaten.Generator("cuda").manual_seed(11)
    z = _np(yaten.randn(N, generator=g, device="cuda", dtype=dt)).astype(np.float64)
    assert np.isfinite(z).all() and abs(z.mean()) < 0.15 and abs(z.std() - 1) < 0.1
    y = yaten.normal(3.0, 0.5, (N,), generator=g, device="cuda", dtype=dt)
    assert y.dtype is dt and y.device == CUDA
    y = _np(y).astype(np.float64)
    assert abs(y.mean() - 3.0) < 0.08 and abs(y.std() - 0.5) < 0.05


def test_like_factories():
    g = yaten.Generator("cuda").manual_seed(1)
    base = yaten.zeros(10, 100, device="cuda", dtype=yaten.float64)
    u = yaten.rand_like(base, generator=g)
    z = yaten.randn_like(base, generator=g, dtype=yaten.float32)
    i = yaten.randint_like(base, 3, 9, generator=g)
    assert (u.dtype, z.dtype, i.dtype) == (yaten.float64, yaten.float32, yaten.float64)
    assert all(t.device == CUDA and tuple(t.shape) == (10, 100) for t in (u, z, i))
    assert _np(u).min() >= 0 and _np(u).max() < 1 and abs(_np(z).mean()) < 0.15
    assert set(np.unique(_np(i)).tolist()) == set(range(3, 9))
    assert yaten.rand_like(yaten.zeros(3), device="cuda").device == CUDA


def test_randint_range_coverage_and_dtypes():
    g = yaten.Generator("cuda").manual_seed(5)
    x = _np(yaten.randint(-3, 4, (N,), generator=g, device="cuda"))
    assert x.dtype == np.int64 and set(np.unique(x).tolist()) == set(range(-3, 4)) and abs(x.mean()) < 0.3
    b = _np(yaten.randint(0, 2, (N,), generator=g, device="cuda", dtype=yaten.bool))
    assert b.dtype == np.bool_ and 300 < b.sum() < 700
    f = _np(yaten.randint(0, 10, (N,), generator=g, device="cuda", dtype=yaten.float16))
    assert f.dtype == np.float16 and (f == np.round(f)).all() and f.min() == 0 and f.max() == 9
    full = _np(yaten.randint(0, 2**32, (N,), generator=g, device="cuda"))  # the widest on the device
    assert full.min() >= 0 and full.max() < 2**32 and full.max() > 2**31


def test_fills_on_views_and_their_checks():
    g = yaten.Generator("cuda").manual_seed(4)
    w = yaten.zeros(20, 50, device="cuda")
    view = w.t()[::2]  # a strided view: only its elements are written
    version = w._version
    assert _random.fill_uniform_(view, -2.0, 3.0, g) is view and w._version == version + 1
    x = _np(w)
    written = np.zeros((20, 50), bool)
    written.T[::2] = True
    assert (x[~written] == 0).all() and x[written].min() >= -2 and x[written].max() < 3
    assert abs(x[written].mean() - 0.5) < 0.3
    z = _np(_random.fill_normal_(yaten.empty(N, device="cuda", dtype=yaten.float64), 1.0, 0.02, g))
    assert abs(z.mean() - 1.0) < 0.005 and abs(z.std() - 0.02) < 0.003
    same_error(lambda d: _random.fill_uniform_(yaten.zeros(3, device=d, requires_grad=True)))
    same_error(lambda d: _random.fill_normal_(yaten.zeros(3, device=d, dtype=yaten.int64)))
    same_error(lambda d: _random.fill_uniform_(yaten.zeros(3, device=d), 2.0, 1.0))


def test_nn_init_draws_on_the_device():
    yaten.cuda.manual_seed(0)
    lin = yaten.nn.Linear(30, 40).to("cuda")
    before = _offset()
    yaten.nn.init.kaiming_uniform_(lin.weight, a=math.sqrt(5))
    yaten.nn.init.normal_(lin.bias, 0.0, 0.5)
    assert _offset() == before + 8
    bound = 1 / math.sqrt(30)
    assert np.abs(_np(lin.weight)).max() <= bound and np.abs(_np(lin.weight)).max() > 0.9 * bound


# --- bernoulli --------------------------------------------------------------------------------------------


def test_bernoulli_frequencies():
    g = yaten.Generator("cuda").manual_seed(8)
    p = on(np.array([0.0, 0.25, 1.0] * 400, np.float32), "cuda")
    x = yaten.bernoulli(p, generator=g)
    assert x.device == CUDA and x.dtype is yaten.float32 and tuple(x.shape) == (1200,)
    x = _np(x)
    assert set(np.unique(x).tolist()) <= {0.0, 1.0}
    assert (x[0::3] == 0).all() and (x[2::3] == 1).all() and abs(x[1::3].mean() - 0.25) < 0.07
    y = _np(yaten.bernoulli(yaten.zeros(N, device="cuda", dtype=yaten.int64), 0.75, generator=g))
    assert y.dtype == np.int64 and abs(y.mean() - 0.75) < 0.05
    for dt in (yaten.float16, yaten.float64, yaten.bool):
        assert _np(yaten.bernoulli(yaten.zeros(3, device="cuda", dtype=dt), p=1.0)).tolist() == [1, 1, 1]
        assert _np(yaten.bernoulli(yaten.zeros(3, device="cuda", dtype=dt), p=0.0)).tolist() == [0, 0, 0]
    # Probabilities read through a view's strides and in half.
    q = on(np.tile([[0.0], [1.0]], (1, 5)), "cuda", np.float16).t()
    assert _np(yaten.bernoulli(q)).tolist() == [[0.0, 1.0]] * 5


def test_bernoulli_is_reproducible():
    p = yaten.full((N,), 0.5, device="cuda")
    a = _np(yaten.bernoulli(p, generator=yaten.Generator("cuda").manual_seed(1)))
    b = _np(yaten.bernoulli(p, generator=yaten.Generator("cuda").manual_seed(1)))
    c = _np(yaten.bernoulli(p, generator=yaten.Generator("cuda").manual_seed(2)))
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_bernoulli_and_random_fill_cuda_tensors_in_place():
    g = yaten.Generator("cuda").manual_seed(3)
    x = yaten.empty(N, device="cuda")
    assert x.bernoulli_(0.25, generator=g) is x and x.device == CUDA
    assert set(np.unique(_np(x)).tolist()) <= {0.0, 1.0} and abs(_np(x).mean() - 0.25) < 0.07
    x.bernoulli_(on(np.array([0.0, 1.0] * (N // 2), np.float32), "cuda"))
    assert (_np(x)[0::2] == 0).all() and (_np(x)[1::2] == 1).all()
    y = yaten.empty(N, device="cuda", dtype=yaten.int64).random_(3, 7, generator=g)
    assert y.device == CUDA and set(_np(y).tolist()) == {3, 4, 5, 6}
    z = yaten.empty(N, device="cuda", dtype=yaten.float16).random_()
    assert _np(z).min() >= 0 and _np(z).max() <= 2**11


def test_bad_probabilities_raise_and_draw_nothing():
    g = yaten.Generator("cuda").manual_seed(0)
    for bad in ([0.5, 2.0], [0.5, float("nan")], [-0.5, 0.5]):
        same_error(lambda d, b=bad: yaten.bernoulli(yaten.tensor(b, device=d)))
        with pytest.raises(RuntimeError):
            yaten.bernoulli(yaten.tensor(bad, device="cuda"), generator=g)
    assert _offset(g) == 0


RANDOM_ERRORS = [
    lambda d: yaten.rand(2, dtype=yaten.int64, device=d),
    lambda d: yaten.randn(2, dtype=yaten.int32, device=d),
    lambda d: yaten.rand_like(yaten.zeros(2, dtype=yaten.int64, device=d)),
    lambda d: yaten.randn_like(yaten.zeros(2, dtype=yaten.int64, device=d)),
    lambda d: yaten.randint(5, 5, (3,), device=d),
    lambda d: yaten.randint(0, 300, (3,), dtype=yaten.uint8, device=d),
    lambda d: yaten.normal(0.0, -1.0, (2,), device=d),
    lambda d: yaten.normal(yaten.zeros(2, device=d), yaten.tensor([1.0, -1.0], device=d)),
    lambda d: yaten.bernoulli(yaten.tensor([1, 0], device=d)),
    lambda d: yaten.bernoulli(yaten.zeros(3, device=d), 1.5),
    lambda d: yaten.bernoulli(yaten.zeros(3, device=d), -0.1),
    lambda d: yaten.rand(2, device=d, generator=5),
    lambda d: F.dropout(yaten.zeros(3, device=d), 1.5),
    lambda d: F.dropout(yaten.zeros(3, device=d), -0.1),
    lambda d: F.dropout(yaten.tensor([1, 2], device=d), 0.5),
]


@pytest.mark.parametrize("call", RANDOM_ERRORS, ids=range(len(RANDOM_ERRORS)))
def test_errors_as_the_cpu(call):
    same_error(call)


def test_generator_of_the_wrong_device_type():
    with pytest.raises(RuntimeError, match=r"^Expected a 'cuda' device type for generator but found 'cpu'$"):
        yaten.rand(2, device="cuda", generator=yaten.Generator())
    with pytest.raises(RuntimeError, match=r"^Expected a 'cpu' device type for generator but found 'cuda'$"):
        yaten.rand(2, generator=yaten.Generator("cuda"))
    for call in (
        lambda g: yaten.bernoulli(yaten.zeros(2, device="cuda"), 0.5, generator=g),
        lambda g: yaten.bernoulli(yaten.zeros(2, device="cuda"), generator=g),
        lambda g: _random.fill_normal_(yaten.zeros(2, device="cuda"), generator=g),
        lambda g: yaten.randperm(3, device="cuda", generator=g),
        lambda g: yaten.normal(yaten.zeros(2, device="cuda"), 1.0, generator=g),
    ):
        with pytest.raises(RuntimeError, match="Expected a 'cuda' device type for generator but found 'cpu'"):
            call(yaten.Generator())


# --- dropout ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", [yaten.float32, yaten.float64, yaten.float16])
def test_dropout_zeroes_about_p_and_scales_the_rest(dt):
    yaten.cuda.manual_seed(0)
    x = yaten.ones(N, device="cuda", dtype=dt)
    y = F.dropout(x, 0.3)
    assert y.device == CUDA and y.dtype is dt
    v = _np(y).astype(np.float64)
    kept = v != 0
    assert abs(kept.mean() - 0.7) < 0.05
    np.testing.assert_allclose(v[kept], 1 / 0.7, rtol=1e-3 if dt is yaten.float16 else 1e-6)


def test_dropout_gradient_is_the_mask_times_the_scale():
    yaten.cuda.manual_seed(1)
    x = yaten.randn(N, device="cuda", dtype=yaten.float64).requires_grad_()
    y = F.dropout(x, 0.4)
    assert type(y.grad_fn).__name__ == "MulBackward0"
    y.backward(yaten.ones(N, device="cuda", dtype=yaten.float64))
    mask = _np(y) != 0
    assert x.grad.device == CUDA
    np.testing.assert_allclose(_np(x.grad), np.where(mask, 1 / 0.6, 0.0))
    np.testing.assert_allclose(_np(y)[mask], (_np(x) / 0.6)[mask])


def test_dropout_is_reproducible_and_draws_differ():
    x = yaten.randn(N, device="cuda")
    yaten.cuda.manual_seed(3)
    a, b = _np(F.dropout(x, 0.5)), _np(F.dropout(x, 0.5))
    yaten.cuda.manual_seed(3)
    assert np.array_equal(_np(F.dropout(x, 0.5)), a) and not np.array_equal(a, b)


@pytest.mark.parametrize(
    "call",
    [
        lambda x: F.dropout(x, 0.5, training=False),
        lambda x: F.dropout(x, 0.0),
        lambda x: F.dropout(x, 1.0),
        lambda x: yaten.dropout(x, 1.0, True),
        lambda x: F.dropout(x * 1, 1.0, inplace=True),
    ],
)
def test_dropout_edge_cases_as_the_cpu(call):
    a = np.random.default_rng(0).standard_normal((3, 4))
    outs = []
    for d in ("cpu", "cuda"):
        x = on(a, d).requires_grad_()
        before = _offset()
        y = call(x)
        assert _offset() == before  # nothing to draw
        y.backward(yaten.ones(3, 4, device=d, dtype=yaten.float64))
        outs.append((_np(y), _np(x.grad), y is x))
    np.testing.assert_array_equal(outs[1][0], outs[0][0])
    np.testing.assert_array_equal(outs[1][1], outs[0][1])
    assert outs[1][2] == outs[0][2]


def test_dropout_inplace():
    yaten.cuda.manual_seed(1)
    x = yaten.ones(N, device="cuda")
    y = F.dropout(x, 0.5, inplace=True)
    assert y is x and x._version == 1
    assert set(np.unique(_np(x)).tolist()) == {0.0, 2.0}


@contextlib.contextmanager
def no_host_copies():
    """Every host <-> device transfer of the cuda kernels raises inside the block."""
    from yaten.kernels.cuda import memory

    def refuse(*args, **kwargs):
        raise AssertionError("a host <-> device copy")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(memory, "from_host", refuse)
        mp.setattr(memory, "to_host", refuse)
        mp.setattr(type(memory.empty((1,), np.float32)), "copy_to_host", refuse)
        yield


def test_dropout_model_trains_on_cuda_without_host_copies():
    yaten.cuda.manual_seed(0)
    yaten.manual_seed(0)
    nn = yaten.nn
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 2)).to("cuda")
    opt = yaten.optim.SGD(model.parameters(), lr=0.1)
    rng = np.random.default_rng(0)
    x, target = (
        on(rng.standard_normal((4, 4)), "cuda", np.float32),
        on(rng.standard_normal((4, 2)), "cuda", np.float32),
    )
    seed_grad = yaten.ones((), device="cuda")
    first = [_np(p).copy() for p in model.parameters()]

    def step():
        opt.zero_grad()
        loss = ((model(x) - target) ** 2).mean()
        loss.backward(seed_grad)
        opt.step()
        return loss

    step()  # the first step also makes the kernels' cached placeholders
    offset = _offset()
    with no_host_copies():
        losses = [step() for _ in range(2)]
    assert _offset() == offset + 2 * 4  # one dropout mask per step, drawn on the device
    assert all(math.isfinite(loss.item()) for loss in losses)
    model.eval()
    assert model[2](x) is x
    for p, p0 in zip(model.parameters(), first, strict=True):
        assert p.grad.device == CUDA
        assert not np.array_equal(_np(p), p0) and np.isfinite(_np(p)).all()


def test_sampling_makes_no_host_copies():
    g = yaten.Generator("cuda").manual_seed(0)
    x = yaten.empty(100, device="cuda")
    with no_host_copies():
        made = (
            yaten.rand(100, generator=g, device="cuda"),
            yaten.randn(100, generator=g, device="cuda", dtype=yaten.float16),
            yaten.randint(0, 7, (100,), generator=g, device="cuda"),
            yaten.bernoulli(x, 0.5, generator=g),
            yaten.rand_like(x, generator=g),
            yaten.normal(1.0, 2.0, (100,), generator=g, device="cuda"),
            _random.fill_uniform_(x, -1.0, 1.0, g),
            _random.fill_normal_(x, 0.0, 1.0, g),
        )
    assert all(t.device == CUDA for t in made)


# --- the real-GPU code path: the kernels compile to PTX ------------------------------------------------

GPU_KERNELS = """
import importlib
R = importlib.import_module("yaten.kernels.cuda.random")
u64, f64, b = nt.uint64, nt.float64, nt.boolean
ptx = lambda fn, sig: cuda.compile_ptx(fn.py_func, sig, cc=(9, 0))
for out in (nt.float32, nt.float64):
    ptx(R._uniform_kernel, (out[::1], u64, u64, u64, u64, f64, b, f64, f64))
    ptx(R._normal_kernel, (out[::1], u64, u64, u64, u64, f64, b, f64, f64))
    ptx(R._bernoulli_kernel, (out[::1], u64, u64, u64, u64, f64, b, f64))
    for p in (nt.float32, nt.float64):
        ptx(R._bernoulli_tensor_kernel, (out[::1], u64, u64, u64, u64, f64, b, p[::1], nt.int32[::1]))
ptx(R._randint_kernel, (nt.int64[::1], u64, u64, u64, nt.int64, u64))
ptx(R._philox_kernel, (u64[::1], u64, u64, u64, u64, u64, u64))
"""


def test_kernels_compile_for_a_gpu():
    compiles_for_a_gpu(GPU_KERNELS)
