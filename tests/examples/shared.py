"""What the example tests share: one model in both libraries from the same initial weights, the same
batches for both, and running a program in a fresh interpreter (as a user runs it, or under
``python -m yaten.run``)."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import torch

import yaten


def twin_models(make_model):
    """``make_model(lib)`` built in torch (seeded 0) and in yaten, which is given torch's state_dict
    (parameters and buffers)."""
    torch.manual_seed(0)
    reference = make_model(torch)
    model = make_model(yaten)
    model.load_state_dict(
        {k: yaten.from_numpy(v.detach().numpy().copy()) for k, v in reference.state_dict().items()}
    )
    return reference, model


def numpy_batches(lib, x, y, batch_size: int, seed: int = 0):
    """A callable returning the next random batch of rows of the arrays ``x`` and ``y`` as ``lib``
    tensors: drawn with NumPy, so both libraries get the same batches."""
    rng = np.random.default_rng(seed)

    def next_batch():
        ix = rng.integers(0, len(x), size=batch_size)
        return lib.from_numpy(x[ix]), lib.from_numpy(y[ix])

    return next_batch


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run_example(script: str, *args: str) -> str:
    """The standard output of ``python examples/<script> ARGS``, which must exit with 0."""
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def run_unchanged(tmp_path, name: str, source: str) -> str:
    """The standard output of the ``import torch`` program ``source``, saved as ``name`` and run with
    ``python -m yaten.run``, which must exit with 0."""
    script = tmp_path / name
    script.write_text(source)
    out = subprocess.run(
        [sys.executable, "-m", "yaten.run", str(script)], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return out.stdout
