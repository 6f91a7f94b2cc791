"""examples/sine_lstmcell.py, an unchanged ``import torch`` program, trains the same on yaten as in
PyTorch: from the same initial weights, in float64, every loss LBFGS's closure computes agrees with
torch's (with and without the strong-Wolfe line search), and so do the predictions past the end of the
test waves; the waves are time_sequence_prediction's; and the program runs as a whole under
``python -m yaten.run`` and under torch."""

import re

import numpy as np
import pytest

import yaten
from tests.examples.shared import assert_losses_track, import_example, run_example, twin_models
from tests.tolerances import assert_close

torch = pytest.importorskip("torch")

WAVES, LENGTH, HIDDEN, STEPS, FUTURE = 10, 50, 12, 3, 20
# LBFGS divides by curvatures that are differences of gradients, so it grows any difference of the
# last bits fast: in torch alone, initial weights moved by ~5 float64 ulps give closure losses that
# differ by 1e-13 relative within the first step (20 evaluations), 1e-10 within the second and 1e-7
# within the third. yaten against torch does the same (observed: 1e-13, 1.3e-9, 2.8e-7), where
# 1e-12 * 10**(k/8) allows 2e-10, 8e-8 and 2e-5 at the ends of the three steps (k counts the
# evaluations); a real difference moves them far more: lr 0.79 for 0.8 changes the second
# evaluation's loss by 1.6e-3.
RTOL, GROWTH = 1e-12, 10 ** (1 / 8)


def _train(example, model, data, line_search):
    lib = example.torch
    model.double()
    optimizer = example.make_optimizer(model, line_search)
    criterion = example.nn.MSELoss()
    input, target = lib.from_numpy(data[3:, :-1]), lib.from_numpy(data[3:, 1:])
    losses = []
    for _ in range(STEPS):
        losses += example.train_step(model, optimizer, criterion, input, target, verbose=False)
    test_input, test_target = lib.from_numpy(data[:3, :-1]), lib.from_numpy(data[:3, 1:])
    return losses, *example.predict(model, criterion, test_input, test_target, FUTURE)


@pytest.mark.parametrize("line_search", [None, "strong_wolfe"])
def test_the_closure_losses_match_pytorch_evaluation_by_evaluation(line_search):
    examples = {lib: import_example("sine_lstmcell", lib) for lib in (torch, yaten)}
    reference, model = twin_models(lambda lib: examples[lib].Sequence(HIDDEN))
    data = examples[torch].sine_waves(WAVES, LENGTH)
    expected, expected_test, expected_pred = _train(examples[torch], reference, data, line_search)
    got, got_test, got_pred = _train(examples[yaten], model, data, line_search)
    # max_iter=20 evaluations a step, and the line search's extra ones
    assert len(expected) >= 3 * 20 if line_search else len(expected) == 3 * 20
    assert_losses_track(got, expected, RTOL, GROWTH)
    assert expected[-1] < expected[0] / 500  # from 0.59 to ~1e-4
    final = RTOL * GROWTH ** len(expected)
    assert_close(got_test, expected_test, "test loss", rtol=final)
    assert got_pred.shape == (3, LENGTH - 1 + FUTURE) and got_pred.dtype == np.float64
    assert_close(got_pred, expected_pred, "predictions", rtol=final, atol=final)
    for name, p in reference.state_dict().items():
        assert_close(model.state_dict()[name], p, name, rtol=final, atol=final)


def test_the_waves_are_time_sequence_predictions():
    example = import_example("sine_lstmcell", yaten)
    data = example.sine_waves(5, 40)
    assert data.shape == (5, 40) and data.dtype == np.float64
    # each row is sin((t + shift) / 20) for a shift in [-80, 80): the same float64 math, so exactly
    for row in data:
        shifts = np.arange(-80, 80)
        fit = [np.abs(np.sin((np.arange(40) + s) / 20.0) - row).max() for s in shifts]
        assert min(fit) == 0.0
    assert np.array_equal(example.sine_waves(5, 40), data)  # seeded as generate_sine_wave.py


def test_the_program_runs_unchanged_under_yaten_run_and_torch():
    flags = ["--steps", "2", "--waves", "6", "--length", "30", "--future", "10", "--hidden", "8"]
    for lib in ("yaten", "torch"):
        out = run_example(
            "sine_lstmcell.py", *flags, "--line-search", "strong_wolfe", on_yaten=lib == "yaten"
        )
        assert "STEP:  1" in out and out.count("test loss:") == 2
        losses = [float(x) for x in re.findall(r"^loss: (\S+)$", out, flags=re.M)]
        assert len(losses) >= 2 * 20 and losses[-1] < losses[0] / 10
        assert len(re.findall(r"predicted: \[(.*)\]", out)[-1].split(",")) == 5
