"""Whole objects across libraries: ``torch.save(model)`` loads in yaten (through ``yaten.run``) and the reverse.

A Sequential (Linear, ReLU, LayerNorm, Dropout), a TransformerEncoder with ``activation=F.gelu``, an
LSTM and an Adam optimizer that has taken a step are saved in one file by one library, loaded with
``weights_only=False`` by the other in a subprocess, and the loaded objects' outputs and next
optimizer step are compared with the saver's. Also: weights-only refusals, safe globals and NumPy, as
torch's.
"""

import io
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_close

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 300

# The program both directions run in the loading library: outputs in eval mode, then one Adam step.
LOADER = """
import sys
import numpy as np
import torch

d = torch.load(sys.argv[1], weights_only=False)
seq, enc, lstm, opt = d["seq"], d["enc"], d["lstm"], d["opt"]
x, src, seqin = (torch.from_numpy(d[k]) for k in ("x", "src", "seqin"))
out = {}
with torch.no_grad():
    out["seq"] = seq(x).numpy()
    out["enc"] = enc(src).numpy()
    o, (h, c) = lstm(seqin)
    out["lstm"], out["lstm_h"], out["lstm_c"] = o.numpy(), h.numpy(), c.numpy()
out["kinds"] = np.array([type(m).__module__ + "." + type(m).__name__ for m in (seq, enc, lstm, opt)])
out["same_params"] = np.array(opt.param_groups[0]["params"][0] is seq[0].weight)
seq.train()
torch.manual_seed(0)
opt.zero_grad()
seq[3].p = 0.0  # no dropout for the step, so both libraries take the same one
seq(x).square().sum().backward()
opt.step()
out["stepped"] = seq[0].weight.detach().numpy()
out["exp_avg"] = opt.state[seq[0].weight]["exp_avg"].numpy()
np.savez(sys.argv[2], **out)
"""


def _build(lib, F):
    lib.manual_seed(0)
    nn = lib.nn
    seq = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.LayerNorm(8), nn.Dropout(0.25), nn.Linear(8, 3))
    layer = nn.TransformerEncoderLayer(
        8, 2, dim_feedforward=16, dropout=0.1, activation=F.gelu, batch_first=True
    )
    enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
    lstm = nn.LSTM(4, 5, num_layers=2, batch_first=True)
    opt = lib.optim.Adam(seq.parameters(), lr=0.01)
    seq(lib.ones(2, 4)).sum().backward()
    opt.step()  # the optimizer has state to carry
    for m in (seq, enc, lstm):
        m.eval()
    rng = np.random.default_rng(0)
    inputs = {
        "x": rng.standard_normal((5, 4)).astype(np.float32),
        "src": rng.standard_normal((2, 6, 8)).astype(np.float32),
        "seqin": rng.standard_normal((2, 7, 4)).astype(np.float32),
    }
    return {"seq": seq, "enc": enc, "lstm": lstm, "opt": opt, **inputs}


def _expected(path: Path, tmp_path: Path, python_args) -> dict:
    """What the saving library's own LOADER run gives: the reference for the other library's."""
    return _run_loader(path, tmp_path / "expected.npz", python_args)


def _run_loader(path: Path, out: Path, python_args) -> dict:
    program = out.with_name(f"load_{out.stem}.py")  # (a program named torch.py would shadow torch)
    program.write_text(textwrap.dedent(LOADER))
    done = subprocess.run(
        [sys.executable, *python_args, str(program), str(path), str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=TIMEOUT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    with np.load(out) as z:
        return {k: z[k] for k in z.files}


def _compare(got: dict, want: dict) -> None:
    for key in ("seq", "enc", "lstm", "lstm_h", "lstm_c", "stepped", "exp_avg"):
        assert_close(got[key], want[key], what=key)
    assert bool(got["same_params"]) and bool(want["same_params"])


TORCH = ()  # a plain ``python program.py``: torch itself
YATEN_RUN = ("-m", "yaten.run")  # the same program, unchanged, on yaten


@pytest.mark.parametrize(
    ("saver", "loader"),
    [("torch", "yaten"), ("yaten", "torch")],
    ids=["torch-saves-yaten-loads-through-the-runner", "yaten-saves-torch-loads"],
)
def test_a_whole_model_and_optimizer_load_in_the_other_library(saver, loader, tmp_path):
    libs, runs = {"torch": torch, "yaten": yaten}, {"torch": TORCH, "yaten": YATEN_RUN}
    path = tmp_path / f"{saver}_whole.pt"
    libs[saver].save(_build(libs[saver], libs[saver].nn.functional), path)
    want = _expected(path, tmp_path, runs[saver])  # the saver's own outputs and step
    got = _run_loader(path, tmp_path / f"{loader}.npz", runs[loader])
    assert got["kinds"].tolist() == [
        f"{loader}.nn.modules.container.Sequential", f"{loader}.nn.modules.transformer.TransformerEncoder",
        f"{loader}.nn.modules.rnn.LSTM", f"{loader}.optim.adam.Adam",
    ]  # fmt: skip
    _compare(got, want)


def test_yaten_names_its_globals_by_torchs_paths():
    buf = io.BytesIO()
    yaten.save([yaten.nn.MultiheadAttention(4, 2), yaten.nn.functional.relu, yaten.relu, yaten.Tensor], buf)
    names = yaten.serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(buf.getvalue()))
    assert "torch.nn.modules.activation.MultiheadAttention" in names
    assert "torch.nn.modules.linear.NonDynamicallyQuantizableLinear" in names
    assert {"torch.nn.functional.relu", "torch.relu"} <= set(names)
    assert not any(n.startswith("yaten") for n in names)
    loaded = torch.load(io.BytesIO(buf.getvalue()), weights_only=False)
    assert type(loaded[0]) is torch.nn.MultiheadAttention
    assert loaded[1:] == [torch.nn.functional.relu, torch.relu, torch.Tensor]
    mine = yaten.load(io.BytesIO(buf.getvalue()), weights_only=False)
    assert mine[1:] == [yaten.nn.functional.relu, yaten.relu, yaten.Tensor]


def test_every_nn_class_is_at_torchs_class_path():
    import importlib
    import inspect

    for name in dir(yaten.nn):
        ours, theirs = getattr(yaten.nn, name), getattr(torch.nn, name, None)
        if not inspect.isclass(ours) or theirs is None or not issubclass(ours, yaten.nn.Module):
            continue
        module = "yaten" + theirs.__module__.removeprefix("torch")
        assert getattr(importlib.import_module(module), theirs.__qualname__) is ours, name
        assert ours.__module__ == module, name


# --- weights-only loads, as torch's ---------------------------------------------------------------
class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


def _refusals(path):
    with pytest.raises(pickle.UnpicklingError) as theirs:
        torch.load(path)
    with pytest.raises(pickle.UnpicklingError) as ours:
        yaten.load(path)
    return str(ours.value), str(theirs.value)


def test_a_whole_model_is_refused_by_default_with_torchs_message(tmp_path):
    torch.save(torch.nn.Sequential(torch.nn.Linear(2, 2)), tmp_path / "m.pt")
    ours, theirs = _refusals(tmp_path / "m.pt")
    assert ours == theirs
    assert "GLOBAL torch.nn.modules.container.Sequential was not an allowed global by default" in ours


def test_safe_globals_admit_a_class_as_torchs(tmp_path):
    torch.save({"p": Point(1, 2.5), "w": torch.ones(2)}, tmp_path / "p.pt")
    ours, theirs = _refusals(tmp_path / "p.pt")
    assert ours == theirs
    unsafe = yaten.serialization.get_unsafe_globals_in_checkpoint(tmp_path / "p.pt")
    assert sorted(unsafe) == sorted(torch.serialization.get_unsafe_globals_in_checkpoint(tmp_path / "p.pt"))
    with yaten.serialization.safe_globals([Point]):
        assert yaten.serialization.get_safe_globals() == [Point]
        assert yaten.serialization.get_unsafe_globals_in_checkpoint(tmp_path / "p.pt") == []
        d = yaten.load(tmp_path / "p.pt")
    assert yaten.serialization.get_safe_globals() == []
    assert type(d["p"]) is Point and (d["p"].x, d["p"].y) == (1, 2.5) and d["w"].tolist() == [1.0, 1.0]
    yaten.serialization.add_safe_globals([(Point, f"{Point.__module__}.Point")])
    try:
        assert type(yaten.load(tmp_path / "p.pt")["p"]) is Point
    finally:
        yaten.serialization.clear_safe_globals()
    assert yaten.serialization.get_safe_globals() == []


def test_a_yaten_class_marked_safe_loads_a_torch_file(tmp_path):
    torch.save(torch.nn.Linear(2, 1), tmp_path / "lin.pt")
    with yaten.serialization.safe_globals([yaten.nn.Linear]):
        m = yaten.load(tmp_path / "lin.pt")
    assert type(m) is yaten.nn.Linear and m.weight.shape == (1, 2)
    # A function is listed under the name yaten.save gives it (torch.nn.functional.relu), not its family module.
    buf = io.BytesIO()
    yaten.save({"act": yaten.nn.functional.relu}, buf)
    with yaten.serialization.safe_globals([yaten.nn.functional.relu]):
        assert yaten.load(io.BytesIO(buf.getvalue()))["act"] is yaten.nn.functional.relu


def test_numpy_needs_allowlisting_as_in_torch(tmp_path):
    arrays = {"a": np.arange(6, dtype=np.int32).reshape(2, 3), "s": np.float64(2.5)}
    torch.save(arrays, tmp_path / "np.pt")
    first_ours, first_theirs = _refusals(tmp_path / "np.pt")
    assert first_ours == first_theirs
    needed = torch.serialization.get_unsafe_globals_in_checkpoint(tmp_path / "np.pt")
    assert sorted(yaten.serialization.get_unsafe_globals_in_checkpoint(tmp_path / "np.pt")) == sorted(needed)
    allow = [np._core.multiarray._reconstruct, np.ndarray, np.dtype, np._core.multiarray.scalar,
             type(np.dtype(np.int32)), type(np.dtype(np.float64))]  # fmt: skip
    with yaten.serialization.safe_globals(allow), torch.serialization.safe_globals(allow):
        ours, theirs = yaten.load(tmp_path / "np.pt"), torch.load(tmp_path / "np.pt")
    assert np.array_equal(ours["a"], theirs["a"]) and ours["a"].dtype == np.int32
    assert ours["s"] == theirs["s"] == 2.5 and type(ours["s"]) is np.float64
    buf = io.BytesIO()
    yaten.save(arrays, buf)  # yaten saves NumPy objects too, and torch reads them
    buf.seek(0)
    assert np.array_equal(torch.load(buf, weights_only=False)["a"], arrays["a"])
