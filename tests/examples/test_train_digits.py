"""The main job (examples/train_digits.py) runs end to end in yaten: a short training of each model
learns, its checkpoint reloads to the same accuracy, and the curves are drawn."""

import sys
from pathlib import Path

import pytest

import yaten

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
import train_digits


@pytest.mark.parametrize("kind, floor", [("mlp", 0.85), ("cnn", 0.85)])
def test_a_short_training_learns_and_its_checkpoint_reloads(tmp_path, kind, floor):
    model, losses, accs, _ = train_digits.train(yaten, kind, epochs=2, quiet=True)
    assert losses[1] < losses[0] and accs[-1] >= floor
    reloaded = train_digits.checkpoint_round_trip(yaten, kind, model, str(tmp_path / f"{kind}.pt"))
    assert reloaded == accs[-1]


def test_the_curves_are_written_as_png(tmp_path):
    path = tmp_path / "curves.png"
    train_digits.plot({"mlp": ([1.0, 0.5], [0.5, 0.9])}, str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
