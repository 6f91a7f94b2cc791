"""examples/char_gpt.py trains the same in yaten as in PyTorch: from the same initial weights, on the same
batches with dropout off, the losses agree step by step; sampling returns valid token ids; and an unchanged
``import torch`` version of the model runs under ``python -m yaten.run``."""

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import yaten

torch = pytest.importorskip("torch")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
sys.path.insert(0, str(EXAMPLES))
import char_gpt

TINY = dict(block_size=16, n_layer=2, n_head=4, n_embd=32, dropout=0.0)
STEPS, BATCH = 20, 8
# float32 through 2 layers, AdamW and grad clipping: over 20 steps the two libraries differ by rounding
# only (observed: 8e-8 relative at the worst step, one float32 ulp of a loss near 3; 2e-7 after 60 steps).
# 1e-5 leaves 100x room for other BLAS builds and thread counts, while a real difference (a wrong
# gradient, a missed mask) moves it far more: leaving out AdamW's weight decay alone moves it 9e-4.
RTOL = 1e-5
# The weights after 20 steps: Adam divides by sqrt(v), so a gradient that is ~0 in both libraries can
# still take steps of up to lr = 3e-3 in opposite directions; observed max |difference| 1.2e-5.
WEIGHT_ATOL = 1e-4


def _twin_models():
    chars, stoi, decode = char_gpt.encoder(char_gpt.TEXT)
    torch.manual_seed(0)
    reference = char_gpt.make_model(torch, len(chars), **TINY)
    model = char_gpt.make_model(yaten, len(chars), **TINY)
    state = {k: yaten.tensor(v.detach().numpy()) for k, v in reference.state_dict().items()}
    model.load_state_dict(state)
    return chars, stoi, decode, reference, model


def _batches(lib, ids, rng_seed=0):
    """The same windows for both libraries: drawn with NumPy, handed over as ``lib`` tensors."""
    rng = np.random.default_rng(rng_seed)
    block = TINY["block_size"]

    def next_batch():
        ix = rng.integers(0, len(ids) - block, size=BATCH)
        x = np.stack([ids[i : i + block] for i in ix])
        y = np.stack([ids[i + 1 : i + 1 + block] for i in ix])
        return lib.from_numpy(x), lib.from_numpy(y)

    return next_batch


def test_the_losses_match_pytorch_step_by_step():
    _, stoi, _, reference, model = _twin_models()
    ids = np.array([stoi[c] for c in char_gpt.TEXT], dtype=np.int64)
    expected = char_gpt.train(torch, reference, _batches(torch, ids), STEPS)
    got = char_gpt.train(yaten, model, _batches(yaten, ids), STEPS)
    np.testing.assert_allclose(got, expected, rtol=RTOL)
    assert expected[-1] < expected[0] - 0.5  # it learns: from ln(vocab) ~ 3.95 towards ~ 3
    for name, p in reference.state_dict().items():
        np.testing.assert_allclose(model.state_dict()[name].numpy(), p.numpy(), rtol=0, atol=WEIGHT_ATOL)


def test_sampling_returns_valid_token_ids():
    chars, stoi, decode, _, model = _twin_models()
    model.eval()
    context = yaten.tensor([[stoi["\n"]], [stoi["A"]]], dtype=yaten.long)
    out = model.generate(context, 24, temperature=0.8, top_k=5, generator=yaten.Generator().manual_seed(0))
    assert out.shape == (2, 25) and out.dtype == yaten.long
    assert out[:, :1].tolist() == context.tolist()
    assert out.min().item() >= 0 and out.max().item() < len(chars)
    assert len(decode(out[0].tolist())) == 25


def test_top_k_keeps_sampling_among_the_k_likeliest():
    _, stoi, _, _, model = _twin_models()
    model.eval()
    context = yaten.tensor([[stoi["T"]]], dtype=yaten.long)
    with yaten.no_grad():
        logits, _ = model(context)
    allowed = set(yaten.topk(logits[0, -1], 3).indices.tolist())
    gen = yaten.Generator().manual_seed(1)
    drawn = {model.generate(context, 1, top_k=3, generator=gen)[0, -1].item() for _ in range(30)}
    assert drawn <= allowed


def test_the_program_runs_on_both_backends():
    for backend in ("yaten", "torch"):
        out = subprocess.run(
            [sys.executable, str(EXAMPLES / "char_gpt.py"), "--backend", backend,
             "--steps", "3", "--every", "1", "--sample-len", "20"],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert out.returncode == 0, out.stderr
        assert "step    2: loss" in out.stdout and "sample:" in out.stdout


UNCHANGED = textwrap.dedent(
    """
    import math
    import torch
    import torch.nn as nn
    from torch.nn import functional as F

    torch.manual_seed(0)
    T, C, V = 8, 16, 11

    class Head(nn.Module):
        def __init__(self):
            super().__init__()
            self.qkv = nn.Linear(C, 3 * C, bias=False)
            self.register_buffer("tril", torch.tril(torch.ones(T, T)))

        def forward(self, x):
            B, T_, _ = x.shape
            q, k, v = self.qkv(x).split(C, dim=2)
            w = q @ k.transpose(-2, -1) / math.sqrt(C)
            w = w.masked_fill(self.tril[:T_, :T_] == 0, float("-inf"))
            return F.softmax(w, dim=-1) @ v

    class Tiny(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(V, C)
            self.pos = nn.Embedding(T, C)
            self.ln = nn.LayerNorm(C)
            self.head = Head()
            self.mlp = nn.Sequential(nn.Linear(C, 4 * C), nn.GELU(), nn.Linear(4 * C, C), nn.Dropout(0.1))
            self.out = nn.Linear(C, V)

        def forward(self, idx):
            x = self.tok(idx) + self.pos(torch.arange(idx.shape[1]))
            x = x + self.head(self.ln(x))
            return self.out(x + self.mlp(x))

    model = Tiny()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    data = torch.arange(64) % V
    for step in range(30):
        ix = torch.randint(len(data) - T - 1, (4,))
        x = torch.stack([data[i : i + T] for i in ix])
        y = torch.stack([data[i + 1 : i + T + 1] for i in ix])
        loss = F.cross_entropy(model(x).view(-1, V), y.view(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step == 0:
            first = loss.item()
    model.eval()
    with torch.no_grad():
        idx = torch.zeros((1, 1), dtype=torch.long)
        for _ in range(10):
            logits = model(idx[:, -T:])[:, -1, :]
            v, _ = torch.topk(logits, 3)
            logits[logits < v[:, [-1]]] = -float("inf")
            idx = torch.cat((idx, torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)), dim=1)
    print(type(torch.tensor(0)).__module__.split(".")[0], first, loss.item(), *idx[0].tolist())
    """
)


def test_an_unchanged_import_torch_gpt_runs_under_the_runner(tmp_path):
    script = tmp_path / "tiny_gpt.py"
    script.write_text(UNCHANGED)
    out = subprocess.run(
        [sys.executable, "-m", "yaten.run", str(script)], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    lib, first, last, *ids = out.stdout.split()
    assert lib == "yaten" and float(last) < float(first)
    assert len(ids) == 11 and all(0 <= int(i) < 11 for i in ids)
