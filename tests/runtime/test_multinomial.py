"""multinomial: torch's errors and shapes; draws checked by their frequencies (yaten's random stream is
not torch's, so seeded draws are compared as distributions, never element by element)."""

import numpy as np
import pytest
import torch

import yaten

INF, NAN = float("inf"), float("nan")

BAD = {
    "too_many": ([0.1, 0.2, 0.7], 4, False),
    "zero_samples": ([0.1, 0.2, 0.7], 0, False),
    "negative_samples": ([0.1, 0.2, 0.7], -1, True),
    "negative": ([0.1, -0.2, 0.7], 1, False),
    "inf": ([0.1, INF, 0.7], 1, False),
    "nan": ([0.1, NAN, 0.7], 1, False),
    "zero_sum": ([0.0, 0.0, 0.0], 1, False),
    "zero_sum_row": ([[0.0, 0.0, 0.0], [1, 1, 1]], 1, False),
    "negative_replacement": ([0.1, -0.2, 0.7], 2, True),
    "inf_replacement": ([0.1, INF, 0.7], 2, True),
    "nan_replacement": ([0.1, NAN, 0.7], 2, True),
    "zero_sum_replacement": ([[1.0, 1.0], [0.0, 0.0]], 2, True),
    "0d": (1.0, 1, False),
    "3d": ([[[1.0, 1.0]]], 1, False),
    "integer": ([1, 2], 1, False),
    "empty_categories": ([[], []], 1, False),
    "float_samples": ([1.0, 2.0], 2.0, False),
    "bool_samples": ([1.0, 2.0], True, False),
}


def _run(lib, case):
    data, n, replacement = BAD[case]
    try:
        lib.multinomial(lib.tensor(data), n, replacement)
    except (RuntimeError, TypeError) as error:
        return type(error), str(error)
    return None


@pytest.mark.parametrize("case", sorted(BAD))
def test_errors_match_torch(case):
    want = _run(torch, case)
    assert want is not None
    assert _run(yaten, case) == want


def test_out_and_generator_errors():
    p = yaten.tensor([1.0, 1.0])
    with pytest.raises(RuntimeError, match="multinomial expects Long tensor out, got: Float"):
        yaten.multinomial(p, 2, out=yaten.empty(2))
    with pytest.raises(TypeError, match="argument 'generator' must be yaten.Generator, not int"):
        yaten.multinomial(p, 2, generator=3)
    with pytest.raises(TypeError, match=r"argument 'input' \(position 1\) must be Tensor, not list"):
        yaten.multinomial([1.0, 1.0], 2)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize(
    ("shape", "n", "replacement"), [((5,), 3, False), ((4, 6), 6, False), ((3, 4), 7, True)]
)
def test_shapes_and_dtype(dtype, shape, n, replacement):
    p = yaten.rand(*shape).to(getattr(yaten, dtype)) + 0.1
    got = yaten.multinomial(p, n, replacement)
    want = torch.multinomial(torch.rand(*shape) + 0.1, n, replacement)
    assert got.shape == want.shape and got.dtype is yaten.int64 and not got.requires_grad
    assert int(got.min()) >= 0 and int(got.max()) < shape[-1]
    if not replacement:  # distinct categories in every row
        rows = got.reshape(-1, n).tolist()
        assert all(len(set(r)) == n for r in rows)


def test_empty_rows_and_out():
    assert yaten.multinomial(yaten.zeros(0, 3), 1).shape == (0, 1)
    out = yaten.empty(5, dtype=yaten.int64)
    r = yaten.multinomial(yaten.tensor([0.0, 1.0, 0.0]), 1, out=out)
    assert r is out and out.tolist() == [1]


def test_zero_probabilities_are_drawn_last():
    got = yaten.multinomial(yaten.tensor([[0.0, 3.0, 0.0, 1.0]] * 50), 2).sort(dim=1).values
    assert (got == yaten.tensor([1, 3])).all()
    got = yaten.multinomial(yaten.tensor([0.0, 0.0, 1.0]), 2)  # torch allows it: the zeros come after
    assert got[0].item() == 2 and got[1].item() in (0, 1)


def _frequencies(draws: np.ndarray, k: int) -> np.ndarray:
    return np.bincount(draws.ravel(), minlength=k) / draws.size


@pytest.mark.parametrize("replacement", [True, False])
def test_frequencies_follow_the_weights(replacement):
    weights = np.array([1.0, 2.0, 3.0, 4.0, 0.0])
    p = weights / weights.sum()
    g = yaten.Generator().manual_seed(7)
    if replacement:
        draws = yaten.multinomial(yaten.tensor(weights), 40000, True, generator=g).numpy()
        freq, want = _frequencies(draws, 5), p
    else:  # the first draw of each row follows p
        rows = yaten.tensor(np.tile(weights, (40000, 1)))
        draws = yaten.multinomial(rows, 2, generator=g).numpy()
        freq, want = _frequencies(draws[:, 0], 5), p
        assert (draws[:, 0] != draws[:, 1]).all()
    # 40,000 draws: a frequency's standard deviation is below 0.0025; 5 of them is far out
    assert np.abs(freq - want).max() < 0.0125
    assert freq[4] == 0


def test_without_replacement_second_draw_matches_torch_distribution():
    weights = [5.0, 3.0, 2.0]
    yd = yaten.multinomial(yaten.tensor([weights] * 30000), 2, generator=yaten.Generator().manual_seed(3))
    td = torch.multinomial(torch.tensor([weights] * 30000), 2, generator=torch.Generator().manual_seed(3))
    y2, t2 = _frequencies(yd.numpy()[:, 1], 3), _frequencies(td.numpy()[:, 1], 3)
    assert np.abs(y2 - t2).max() < 0.02


def test_generator_reproducible_and_global_seed():
    p = yaten.tensor([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]])
    a = yaten.multinomial(p, 10, True, generator=yaten.Generator().manual_seed(5))
    b = p.multinomial(10, True, generator=yaten.Generator().manual_seed(5))
    assert a.tolist() == b.tolist()
    yaten.manual_seed(11)
    c = yaten.multinomial(p, 10, True)
    yaten.manual_seed(11)
    assert yaten.multinomial(p, 10, True).tolist() == c.tolist()
