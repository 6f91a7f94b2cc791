"""What the example tests share: one model in both libraries from the same initial weights, the same
batches for both, and running a program in a fresh interpreter (as a user runs it, or under
``python -m yaten.run``)."""

import importlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import torch

import yaten
from tests.tolerances import assert_close
from yaten import _torch_alias


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


def _is_torch(name: str) -> bool:
    return name == "torch" or name.startswith("torch.")


def _is_example(module) -> bool:
    return Path(getattr(module, "__file__", None) or "/").parent == EXAMPLES


class _TorchOnly(_torch_alias.TorchFinder):
    """yaten.run's finder of ``torch.*``, which leaves the loading of yaten's own modules alone: a yaten
    module imported by an example here is the test process's module, as it would be without it."""

    def _yaten_spec(self, fullname, path, target):
        return None


def import_example(name: str, lib):
    """``examples/<name>.py``, an ``import torch`` program, imported as a module of its own whose
    ``import torch`` (and that of the example modules it imports) gives ``lib``: torch, or yaten as
    ``python -m yaten.run`` serves it. The test's own ``torch`` and ``sys.modules`` are left as they were."""
    saved = {n: m for n, m in sys.modules.items() if _is_example(m) or (lib is yaten and _is_torch(n))}
    for n in saved:
        del sys.modules[n]
    finder = _TorchOnly()
    if lib is yaten:
        sys.meta_path.insert(0, finder)
    if str(EXAMPLES) not in sys.path:
        sys.path.insert(0, str(EXAMPLES))
    try:
        return importlib.import_module(name)
    finally:
        if finder in sys.meta_path:
            sys.meta_path.remove(finder)
        for n, m in list(sys.modules.items()):
            if _is_example(m) or (lib is yaten and _is_torch(n)):
                del sys.modules[n]
        sys.modules.update(saved)


def assert_losses_track(got, expected, rtol: float, growth: float) -> None:
    """``got`` and ``expected`` (losses, one a step) agree within a relative tolerance of ``rtol`` at the
    first step, growing by the factor ``growth`` a step: training grows the rounding differences
    between two libraries (as it grows a last-bit change of the initial weights in one library)."""
    assert len(got) == len(expected), (len(got), len(expected))
    for step, (g, e) in enumerate(zip(got, expected)):
        assert_close(g, e, f"step {step}", rtol=rtol * growth**step, atol=0)


def train_word_lm_twins(name: str, flags: list[str]):
    """``examples/<name>.py`` (word_lstm or word_transformer) with ``flags``: its model built in torch
    (seeded 0) and in yaten from torch's weights, trained one epoch by the example's own loop (each
    library in its own import of the example) and evaluated on the validation split. Returns the
    parsed flags and, for torch then yaten: (the example module, the model, its corpus, the losses
    of the epoch, the validation loss)."""
    examples = {lib: import_example(name, lib) for lib in (torch, yaten)}
    args = examples[torch].make_parser().parse_args(flags)
    corpora = {lib: m.word_lm.Corpus.synthetic(args.lines, args.seed) for lib, m in examples.items()}
    ntokens = len(corpora[torch].dictionary)
    models = dict(zip((torch, yaten), twin_models(lambda lib: examples[lib].make_model(args, ntokens))))
    runs = []
    for lib, example in examples.items():
        lm, model, corpus = example.word_lm, models[lib], corpora[lib]
        losses = lm.train_epoch(model, lm.batchify(corpus.train, args.batch_size), args.lr, args)
        runs.append((example, model, corpus, losses, lm.evaluate(model, lm.batchify(corpus.valid, 10), args)))
    return args, runs


def run_example(script: str, *args: str, on_yaten: bool = False) -> str:
    """The standard output of ``python examples/<script> ARGS`` (``on_yaten``: of ``python -m yaten.run
    examples/<script> ARGS``), which must exit with 0."""
    python = [sys.executable, "-m", "yaten.run"] if on_yaten else [sys.executable]
    out = subprocess.run(
        [*python, str(EXAMPLES / script), *args], capture_output=True, text=True, timeout=240
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
