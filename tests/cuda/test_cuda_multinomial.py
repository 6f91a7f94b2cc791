"""multinomial on cuda tensors (under NUMBA_ENABLE_CUDASIM=1 without a GPU): drawn from the cuda
generator's stream (its offset advances), results on the device, frequencies following the weights,
the CPU's errors."""

import numpy as np
import pytest

import yaten

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")


def test_draws_on_cuda_follow_the_weights():
    p = yaten.tensor([1.0, 0.0, 3.0], device="cuda")
    g = yaten.Generator("cuda").manual_seed(2)
    before = g.get_state().tolist()
    draws = yaten.multinomial(p, 8000, True, generator=g)
    assert draws.device.type == "cuda" and draws.dtype is yaten.int64 and draws.shape == (8000,)
    assert g.get_state().tolist() != before  # the stream advanced
    freq = np.bincount(draws.cpu().numpy(), minlength=3) / 8000
    assert freq[1] == 0 and abs(freq[2] - 0.75) < 0.03


def test_seeded_cuda_draws_repeat_and_rows_are_distinct():
    p = yaten.rand(3, 5, device="cuda") + 0.1
    a = p.multinomial(5, generator=yaten.Generator("cuda").manual_seed(4))
    b = p.multinomial(5, generator=yaten.Generator("cuda").manual_seed(4))
    assert a.tolist() == b.tolist()
    assert all(sorted(row) == [0, 1, 2, 3, 4] for row in a.tolist())


def test_cuda_errors_as_the_cpu():
    with pytest.raises(RuntimeError, match="probability tensor contains either `inf`, `nan` or element < 0"):
        yaten.multinomial(yaten.tensor([1.0, -1.0], device="cuda"), 1)
    with pytest.raises(RuntimeError, match="Expected a 'cuda' device type for generator but found 'cpu'"):
        yaten.multinomial(yaten.tensor([1.0, 1.0], device="cuda"), 1, generator=yaten.Generator())
