"""flip, roll and repeat on ``cuda`` (runtime/kernels/cuda/shape.py: one remapping-gather kernel),
against the CPU kernels (runtime/kernels/cpu/shape.py).

Values, dtypes, shapes, the result's memory layout (flip keeps its input's, roll and repeat are
C-contiguous), inputs of any strides (transposed, sliced, expanded), 0-d and empty inputs, the
same errors (type and message) and the same gradients. Run under ``NUMBA_ENABLE_CUDASIM=1`` on
machines without a GPU: the simulator runs every GPU thread as a Python thread, so every input here
has a few dozen elements at most.
"""

import numpy as np
import pytest
from compare import both, on, same_error
from gpu_compile import compiles_for_a_gpu

import yaten

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")

DTYPES = [np.float32, np.float64, np.float16, np.int64, np.int8, np.bool_]


def _values(dt, shape, seed=0):
    a = np.random.default_rng(seed).integers(-9, 10, shape)
    return (a > 0) if np.dtype(dt) == np.bool_ else a.astype(dt)


LAYOUTS = {
    "contiguous": lambda t: t,
    "transposed": lambda t: t.transpose(0, 2),  # (4, 3, 2), strides (1, 4, 12)
    "sliced": lambda t: t[:, 1:, ::2],  # (2, 2, 2), an offset and a step
    "expanded": lambda t: t[:, :1].expand(2, 3, 4),  # a zero stride
    "permuted": lambda t: t.permute(1, 2, 0),
}


def _input(dev, dt, layout):
    return LAYOUTS[layout](on(_values(dt, (2, 3, 4)), dev))


def _same_layout(fn):
    """``fn(device)`` on both devices: equal, and with the same strides (the memory layout)."""
    want, got = fn("cpu"), both(fn, layout=True)
    assert got.storage_offset() == 0 and got.untyped_storage().nbytes() == want.untyped_storage().nbytes()


# --- flip ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("dims", [[0], [-1], [0, 2], [2, 0, 1], []])
def test_flip_matches_cpu(dt, dims):
    both(lambda dev: yaten.flip(_input(dev, dt, "contiguous"), dims))


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("dims", [[1], [0, -1]])
def test_flip_keeps_the_input_layout(layout, dims):
    # A permuted input gives a result in the same permuted layout, as torch's preserve_format.
    _same_layout(lambda dev: _input(dev, np.float32, layout).flip(dims))


def test_flip_known_answer():
    x = yaten.tensor([[1, 2, 3], [4, 5, 6]], device="cuda")
    assert x.flip([1]).tolist() == [[3, 2, 1], [6, 5, 4]]
    assert x.t().flip([0, 1]).tolist() == [[6, 3], [5, 2], [4, 1]]


# --- roll ---------------------------------------------------------------------------------------


ROLLS = {
    "flattened": ((5,), ()),
    "flattened-negative": ((-7,), ()),
    "flattened-beyond-numel": ((53,), ()),
    "one-dim": ((1,), (1,)),
    "negative-dim": ((2,), (-1,)),
    "two-dims": ((1, -2), (0, 2)),
    "beyond-size": ((7, -9), (1, 2)),
    "repeated-dim": ((1, 2), (2, 2)),  # rolled by the sum, as the cpu
    "zero": ((0,), (0,)),
}


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", list(ROLLS))
def test_roll_matches_cpu(dt, name):
    shifts, dims = ROLLS[name]
    both(lambda dev: yaten.roll(_input(dev, dt, "contiguous"), shifts, dims))


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("name", ["flattened", "two-dims"])
def test_roll_of_strided_inputs_is_contiguous(layout, name):
    shifts, dims = ROLLS[name]
    _same_layout(lambda dev: _input(dev, np.float32, layout).roll(shifts, dims))


def test_roll_known_answer():
    x = yaten.tensor([[0, 1, 2], [3, 4, 5]], device="cuda")
    assert x.roll(1).tolist() == [[5, 0, 1], [2, 3, 4]]
    assert x.t().roll(1).tolist() == [[5, 0], [3, 1], [4, 2]]  # the flattening is of the C order
    assert x.roll((1, -1), (0, 1)).tolist() == [[4, 5, 3], [1, 2, 0]]


# --- repeat -------------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("repeats", [(1, 1, 1), (2, 1, 3), (2, 1, 1, 2), (3, 1, 2, 1, 1)])
def test_repeat_matches_cpu(dt, repeats):
    both(lambda dev: _input(dev, dt, "contiguous").repeat(*repeats))


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_repeat_of_strided_inputs_is_contiguous(layout):
    _same_layout(lambda dev: _input(dev, np.float32, layout).repeat(2, 1, 1, 2))


def test_repeat_known_answer():
    x = yaten.tensor([1, 2], device="cuda")
    assert x.repeat(2, 2).tolist() == [[1, 2, 1, 2], [1, 2, 1, 2]]
    assert yaten.tensor([[1], [2]], device="cuda").t().repeat(1, 2).tolist() == [[1, 2, 1, 2]]


# --- 0-d and empty inputs -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda x: x.flip([]),
        lambda x: x.flip([0]),
        lambda x: x.flip([-1]),
        lambda x: x.roll(3),
        lambda x: x.repeat(()),
        lambda x: x.repeat(3),
        lambda x: x.repeat(2, 3),
    ],
)
def test_zero_dim_inputs(call):
    both(lambda dev: call(on(np.array(7.5, np.float32), dev)))


@pytest.mark.parametrize(
    "call",
    [
        lambda x: x.flip([0, 1]),
        lambda x: x.roll(2),
        lambda x: x.roll((1, 2), (0, 1)),
        lambda x: x.repeat(2, 3),
        lambda x: x.repeat(1, 0, 2),
        lambda x: x.repeat(*(-1 if n == 0 else 2 for n in x.shape)),  # 0 * -1 is no negative size
    ],
)
@pytest.mark.parametrize("shape", [(0, 3), (3, 0)])
def test_empty_inputs(call, shape):
    both(lambda dev: call(on(np.ones(shape, np.float32), dev)))


def test_repeat_zero_times():
    both(lambda dev: on(np.ones((2, 3), np.float32), dev).repeat(2, 0))


def test_results_are_new_arrays():
    x = yaten.tensor([[1.0, 2.0], [3.0, 4.0]], device="cuda")
    for r in (x.flip([]), x.roll(0), x.repeat(1, 1)):
        assert r.device == yaten.device("cuda", 0)
        r.zero_()
    assert x.tolist() == [[1.0, 2.0], [3.0, 4.0]]


# --- errors -------------------------------------------------------------------------------------


ERRORS = {
    "flip-repeated-dim": lambda x: x.flip([0, -2]),
    "flip-out-of-range": lambda x: x.flip([2]),
    "flip-0d-out-of-range": lambda x: x[0, 0].flip([1]),
    "roll-no-shifts": lambda x: x.roll((), ()),
    "roll-misaligned": lambda x: x.roll((1, 2), (0,)),
    "roll-misaligned-no-dims": lambda x: x.roll((1, 2)),
    "roll-0d-dim": lambda x: x[0, 0].roll(1, 0),
    "roll-out-of-range": lambda x: x.roll(1, 2),
    "repeat-too-few": lambda x: x.repeat(2),
    "repeat-negative": lambda x: x.repeat(2, -1),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_cpu(name):
    same_error(lambda dev: ERRORS[name](on(np.ones((2, 3), np.float32), dev)))


# --- gradients ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: x.flip([0]),
        lambda x: x.transpose(0, 1).flip([0, 1]),
        lambda x: x.roll(2),
        lambda x: x.roll((1, -1), (0, 1)),
        lambda x: x.repeat(2, 1, 2),
        lambda x: x.t().repeat(1, 3),
    ],
)
def test_gradients_match_cpu(fn):
    a = np.random.default_rng(3).standard_normal((2, 3))
    w = np.random.default_rng(4).standard_normal(fn(yaten.from_numpy(a)).shape)  # not all ones

    def grad(dev):
        x = on(a, dev).requires_grad_()
        (fn(x) * on(w, dev)).sum().backward()
        return x.grad

    both(grad)


# --- tril / triu ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("diagonal", [0, 1, -2, 5])
def test_tril_triu_match_cpu(dt, layout, diagonal):
    both(lambda dev: _input(dev, dt, layout).tril(diagonal))
    both(lambda dev: yaten.triu(_input(dev, dt, layout), diagonal))


def test_tril_triu_keep_infinities_and_nans_and_refuse_vectors():
    x = yaten.tensor([[float("inf"), float("nan")], [float("nan"), -float("inf")]], device="cuda")
    assert str(x.tril().tolist()) == "[[inf, 0.0], [nan, -inf]]"
    assert str(x.triu(1).tolist()) == "[[0.0, nan], [0.0, 0.0]]"
    same_error(lambda dev: yaten.zeros(3, device=dev).tril())


# --- the real-GPU code path ----------------------------------------------


GPU_KERNELS = """
from yaten.kernels.cuda import shape as S
for ndim in (1, 2, 4):
    t = nt.UniTuple(nt.int64, ndim)
    for dt in (np.float32, np.float64, np.float16, np.int64, np.int8, np.bool_):
        a = from_dtype(np.dtype(dt))[::1]
        cuda.compile_ptx(S._remap_kernel.py_func, (a, t, a, t, t, t, t, t, nt.int64), cc=(9, 0))
for dt in (np.float32, np.float64, np.float16, np.int64, np.int8, np.bool_):
    a = from_dtype(np.dtype(dt))[::1]
    cuda.compile_ptx(S._triangle_kernel.py_func, (a, a, nt.int64, nt.int64, nt.int64, nt.boolean), cc=(9, 0))
"""


def test_kernels_compile_for_a_gpu():
    compiles_for_a_gpu(GPU_KERNELS)
