"""yaten.utils.tensorboard: without the tensorboard extra, an ImportError naming it (torch's type); with
it, event files whose scalars, histograms and text read back as those of torch's SummaryWriter."""

import importlib.util
import subprocess
import sys

import numpy as np
import pytest

HAS_TENSORBOARD = importlib.util.find_spec("tensorboard") is not None


@pytest.mark.skipif(HAS_TENSORBOARD, reason="the error of an install without the extra")
def test_without_the_extra_the_import_error_names_it():
    code = (
        "try:\n    import yaten.utils.tensorboard\nexcept ModuleNotFoundError as e:\n    print(e.name, '|', e)\n"
        "try:\n    import torch.utils.tensorboard\nexcept ModuleNotFoundError as e:\n    print(e.name)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120).stdout
    ours, torchs = out.splitlines()
    assert ours == (
        "tensorboard | yaten.utils.tensorboard (torch.utils.tensorboard) needs the tensorboard package, an optional "
        "extra: pip install 'yaten[tensorboard]' (or pip install tensorboard)"
    )
    assert torchs == "tensorboard"


def _read(logdir):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    acc = EventAccumulator(str(logdir), size_guidance={"histograms": 0, "scalars": 0, "tensors": 0})
    acc.Reload()
    return acc


def _log(lib, logdir):
    writer = lib.utils.tensorboard.SummaryWriter(str(logdir))
    for step in range(3):
        writer.add_scalar("loss", lib.tensor(1.0 / (step + 1)), step)
        writer.add_scalar("lr", 0.1 * step, step, new_style=True)
        writer.add_histogram("w", lib.from_numpy(np.linspace(-1.0, 2.0, 50) * (step + 1)), step)
    writer.add_histogram("few", lib.from_numpy(np.arange(10.0)), 0, bins=4, max_bins=2)
    writer.add_text("note", "hello *world*", 0)
    writer.add_scalars("run", {"a": 1.0, "b": 2.0}, 0)
    writer.close()


@pytest.mark.skipif(not HAS_TENSORBOARD, reason="needs the tensorboard extra")
def test_event_files_read_back_as_torchs(tmp_path):
    import torch
    import torch.utils.tensorboard

    import yaten
    import yaten.utils.tensorboard

    _log(torch, tmp_path / "torch")
    _log(yaten, tmp_path / "yaten")
    want, got = _read(tmp_path / "torch"), _read(tmp_path / "yaten")
    assert (
        got.Tags()["scalars"] == want.Tags()["scalars"]
        and got.Tags()["histograms"] == want.Tags()["histograms"]
    )
    assert got.Tags()["tensors"] == want.Tags()["tensors"]
    for tag in want.Tags()["scalars"]:
        assert [(e.step, e.value) for e in got.Scalars(tag)] == [(e.step, e.value) for e in want.Scalars(tag)]
    for tag in want.Tags()["histograms"]:
        assert [(e.step, e.histogram_value) for e in got.Histograms(tag)] == [
            (e.step, e.histogram_value) for e in want.Histograms(tag)
        ]
    for tag in want.Tags()["tensors"]:
        assert [e.tensor_proto for e in got.Tensors(tag)] == [e.tensor_proto for e in want.Tensors(tag)]
    assert sorted(p.name for p in (tmp_path / "yaten").iterdir() if p.is_dir()) == ["run_a", "run_b"]
