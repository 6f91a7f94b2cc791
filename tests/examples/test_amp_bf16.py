"""examples/amp_bf16.py trains the same in yaten as in PyTorch under CPU autocast: from the same initial
weights, on the same batches, the losses agree step by step in bfloat16 (and in float16 with its
GradScaler); the program runs unchanged in both libraries."""

import subprocess
import sys

import numpy as np
import pytest

import yaten
from tests.examples.shared import EXAMPLES, numpy_batches, run_example, twin_models

torch = pytest.importorskip("torch")

sys.path.insert(0, str(EXAMPLES))
import amp_bf16

STEPS, BATCH = 30, 64
# The products run in bfloat16 on both sides, rounded once from float32 sums that the libraries add in
# different orders: a logit may land one bfloat16 ulp (2**-8 relative) apart, and AdamW carries that
# on. Observed over 30 steps: 4.8e-3 relative at worst in bfloat16, 8.7e-4 in float16. Running a
# product in float32 instead would stay within these bounds too, so the dtypes are checked directly
# (below); the losses check the loop itself: the scaler, the gradients, AdamW's steps.
RTOL = {"bfloat16": 2e-2, "float16": 4e-3}


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_the_losses_match_pytorch_step_by_step(dtype):
    (x, y), _ = amp_bf16.load_digits()
    reference, model = twin_models(amp_bf16.make_model)
    expected = amp_bf16.train(torch, reference, numpy_batches(torch, x, y, BATCH), STEPS, dtype)
    got = amp_bf16.train(yaten, model, numpy_batches(yaten, x, y, BATCH), STEPS, dtype)
    np.testing.assert_allclose(got, expected, rtol=RTOL[dtype])
    assert expected[-1] < 0.5 < expected[0]  # it learns: from ln(10) ~ 2.3 to ~ 0.13
    for name, p in model.named_parameters():
        assert p.dtype == yaten.float32 and p.grad.dtype == yaten.float32, name


def test_the_region_lowers_the_products_and_keeps_the_loss_in_float32():
    (x, y), _ = amp_bf16.load_digits()
    for lib in (torch, yaten):
        model = amp_bf16.make_model(lib)
        with lib.autocast("cpu", dtype=lib.bfloat16):
            logits = model(lib.from_numpy(x[:8]))
            loss = lib.nn.functional.cross_entropy(logits, lib.from_numpy(y[:8]))
        assert (logits.dtype, loss.dtype) == (lib.bfloat16, lib.float32)


def test_the_program_runs_in_pytorch_and_unchanged_in_yaten():
    out = run_example("amp_bf16.py", "--steps", "4", "--every", "2")
    assert out.startswith("torch: autocast cpu bfloat16") and "logits bfloat16  loss float32" in out
    ran = subprocess.run(
        [sys.executable, "-m", "yaten.run", str(EXAMPLES / "amp_bf16.py"), "--steps", "4", "--every", "2",
         "--dtype", "float16"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert (
        ran.stdout.startswith("yaten: autocast cpu float16") and "logits float16  loss float32" in ran.stdout
    )
    assert "test accuracy" in ran.stdout
