"""Every bad call of ``bad_calls_args`` raises in yaten what it raises in torch, or returns where torch does."""

import pytest
import torch
from bad_calls import Outcome, figures, raised
from bad_calls_args import CASES

import yaten


@pytest.mark.parametrize("label, call", [pytest.param(label, call, id=label) for label, call in CASES])
def test_bad_call_raises_what_torch_raises(label, call):
    expected = raised(torch, call)
    got = raised(yaten, call)
    assert got is expected, f"{label}: torch {expected}, yaten {got}"


def test_figures_count_silent_acceptances_and_type_mismatches():
    outcomes = [Outcome("a", TypeError, TypeError), Outcome("b", RuntimeError, None), Outcome("c", None, IndexError),
                Outcome("d", RuntimeError, IndexError), Outcome("e", None, None)]  # fmt: skip
    f = figures(outcomes)
    assert (f["calls"], f["both raise"], f["same type"], f["same type %"]) == (5, 2, 1, 50.0)
    assert f["silent (torch raises, yaten returns)"] == 1
    assert f["reverse (yaten raises, torch returns)"] == 1


# torch's max_pool3d_with_indices reads ``input.is_cuda`` (for its deterministic-algorithms path) before
# its argument parser sees the input, so a non-tensor gives an AttributeError there; yaten's parser's
# TypeError is what every other pooling function gives.
_TORCH_READS_INPUT_FIRST = {"max_pool3d_with_indices"}


def _functional_names():
    return [n for n in dir(yaten.nn.functional)
            if not n.startswith("_") and callable(getattr(yaten.nn.functional, n)) and hasattr(torch.nn.functional, n)
            and n not in _TORCH_READS_INPUT_FIRST]  # fmt: skip


@pytest.mark.parametrize("name", _functional_names())
@pytest.mark.parametrize("bad", [None, 1.0, [1.0, 2.0]], ids=["None", "number", "list"])
def test_functional_with_a_non_tensor_input_raises_what_torch_raises(name, bad):
    """Every nn.functional function given a non-tensor where its first tensor goes (with 0, 1 or 2 good
    tensors after it) raises torch's exception type, never an AttributeError from deep inside."""
    for n_good in range(3):

        def call(m, n_good=n_good):
            return getattr(m.nn.functional, name)(bad, *[m.ones(2, 3) for _ in range(n_good)])

        expected = raised(torch, call)
        assert raised(yaten, call) is expected, f"{name}({bad!r}, {n_good} tensors): torch {expected}"
