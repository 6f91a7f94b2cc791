"""The default generator's seed per process, as torch 2.13: fresh from the OS in each process."""

import subprocess
import sys

import torch

import yaten
from yaten import _random

PROBE = "import {lib}; print({lib}.initial_seed(), {lib}.Generator().initial_seed(), {lib}.rand(2).tolist())"


def _probe(lib: str) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(lib=lib)], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.split(" ", 2)


def test_each_process_draws_a_fresh_default_seed_as_torch():
    for lib in ("torch", "yaten"):
        first, second = _probe(lib), _probe(lib)
        assert first[0] != second[0], lib  # initial_seed() differs between runs
        assert first[2] != second[2], lib  # and so do the unseeded random numbers
        assert first[1] == second[1] == str(_random.DEFAULT_SEED), lib  # a new Generator() keeps the constant
    assert 0 <= yaten.initial_seed() < 2**64


def test_manual_seed_still_makes_runs_repeatable():
    yaten.manual_seed(123)
    a = yaten.rand(3).tolist()
    yaten.manual_seed(123)
    assert (
        yaten.rand(3).tolist() == a and yaten.initial_seed() == 123 == torch.manual_seed(123).initial_seed()
    )
