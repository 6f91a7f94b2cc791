"""PyTorch's Hogwild example, unchanged, through ``yaten.run``: workers started by spawn train one shared model."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import torch
import torch.multiprocessing as mp
import torch.nn as nn


def train(rank, model, steps):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        model(torch.ones(1, 2)).sum().backward()
        opt.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Linear(2, 1)
    model.share_memory()
    start = model.weight.detach().clone()
    mp.spawn(train, args=(model, 3), nprocs=2)
    # each of the 2 x 3 steps subtracts lr * d(sum(w x + b))/dw = 0.1 from every weight
    drop = (start - model.weight.detach()).tolist()[0]
    print(type(model.weight).__module__, [round(d, 4) for d in drop])
"""


@pytest.mark.parametrize("runner", [(), ("-m", "yaten.run")], ids=["torch", "yaten.run"])
def test_hogwild_through_spawn_updates_the_parents_model(runner, tmp_path):
    program = tmp_path / "hogwild.py"
    program.write_text(textwrap.dedent(PROGRAM))
    done = subprocess.run(
        [sys.executable, *runner, str(program)], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    module, drop = done.stdout.split(" ", 1)
    assert module == ("yaten.nn.parameter" if runner else "torch.nn.parameter")
    assert drop.strip() == "[0.6, 0.6]"
