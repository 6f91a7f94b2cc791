"""examples/char_rnn.py trains the same in yaten as in PyTorch: from the same initial weights, on the same
batches, the losses of the RNN and of the GRU agree step by step; the data framing and sampling are what
makemore's are; and an unchanged ``import torch`` makemore-style GRU runs under ``python -m yaten.run``."""

import sys
import textwrap

import numpy as np
import pytest

import yaten
from tests.examples.shared import EXAMPLES, numpy_batches, run_example, run_unchanged, twin_models
from tests.tolerances import assert_close

torch = pytest.importorskip("torch")

sys.path.insert(0, str(EXAMPLES))
import char_rnn

STEPS, BATCH = 25, 16
# float32 through a 16-step recurrence and AdamW: the two libraries differ by rounding only (observed:
# 1.9e-7 relative at the worst of 25 steps for the RNN, 1.7e-7 for the GRU), while a real difference
# moves the losses more: AdamW's weight decay of 0.01 left out moves them by 5e-5 within 25 steps.
RTOL = 1e-5
# The weights after 25 steps (observed max |difference|: 8e-7); 1e-5 as Adam's normalized steps can
# magnify rounding in a gradient that is ~0 in both libraries.
WEIGHT_ATOL = 1e-5


def _data():
    chars, stoi, decode = char_rnn.encoder(char_rnn.NAMES)
    max_len = max(len(w) for w in char_rnn.NAMES)
    x, y = char_rnn.encode_words(char_rnn.NAMES, stoi, max_len)
    return chars, stoi, decode, max_len, x, y


def _twin_models(cell):
    chars, _, _, max_len, _, _ = _data()
    return twin_models(lambda lib: char_rnn.make_model(lib, len(chars) + 1, max_len + 1, cell=cell))


def test_names_are_framed_as_makemore_frames_them():
    chars, stoi, decode, max_len, x, y = _data()
    row = char_rnn.NAMES.index("emma")
    ids = [stoi[c] for c in "emma"]
    assert x[row].tolist() == [0, *ids] + [0] * (max_len - 4)
    assert y[row].tolist() == [*ids, 0] + [-1] * (max_len - 4)
    assert decode([*ids, 0, 5]) == "emma" and len(chars) == 26


@pytest.mark.parametrize("cell", ["rnn", "gru"])
def test_the_losses_match_pytorch_step_by_step(cell):
    *_, x, y = _data()
    reference, model = _twin_models(cell)
    expected = char_rnn.train(torch, reference, numpy_batches(torch, x, y, BATCH), STEPS)
    got = char_rnn.train(yaten, model, numpy_batches(yaten, x, y, BATCH), STEPS)
    np.testing.assert_allclose(got, expected, rtol=RTOL)
    assert expected[-1] < expected[0] - 0.4  # it learns: from ln(27) ~ 3.3 to ~ 2.7 in 25 steps
    for name, p in reference.state_dict().items():
        assert_close(model.state_dict()[name], p, name, rtol=0, atol=WEIGHT_ATOL)
    assert_close(
        char_rnn.evaluate(yaten, model, yaten.from_numpy(x), yaten.from_numpy(y)),
        char_rnn.evaluate(torch, reference, torch.from_numpy(x), torch.from_numpy(y)),
        rtol=RTOL,
    )


def test_sampling_returns_names_of_known_characters():
    chars, *_ = _data()
    _, model = _twin_models("gru")
    model.eval()
    start = yaten.zeros(4, 1, dtype=yaten.long)
    gen = yaten.Generator().manual_seed(0)
    out = model.generate(start, 8, top_k=3, generator=gen)
    assert out.shape == (4, 9) and out.dtype == yaten.long
    assert out[:, 0].tolist() == [0] * 4
    assert out.min().item() >= 0 and out.max().item() <= len(chars)
    again = model.generate(start, 8, top_k=3, generator=yaten.Generator().manual_seed(0))
    assert again.tolist() == out.tolist()  # the generator alone decides the draws


def test_the_program_runs_on_both_backends():
    for backend, cell in (("yaten", "rnn"), ("torch", "gru")):
        out = run_example(
            "char_rnn.py",
            "--backend",
            backend,
            "--cell",
            cell,
            "--steps",
            "3",
            "--every",
            "1",
            "--samples",
            "3",
        )
        assert f"{cell} cell" in out and "step    2: loss" in out and "samples:" in out


# makemore's RNN as its users write it: torch imports, a Dataset and a DataLoader, a GRU cell from
# nn.Linear, cross_entropy with ignore_index=-1, AdamW, sampling with multinomial.
UNCHANGED = textwrap.dedent(
    """
    import torch
    import torch.nn as nn
    from torch.nn import functional as F
    from torch.utils.data import DataLoader, Dataset

    words = ["anna", "bob", "clara", "dave", "eve", "frank", "grace", "hank", "ivy", "jack", "kate", "leo"]
    chars = sorted(set("".join(words)))
    stoi = {ch: i + 1 for i, ch in enumerate(chars)}
    itos = {i: s for s, i in stoi.items()}
    block_size = max(len(w) for w in words) + 1

    class CharDataset(Dataset):
        def __len__(self):
            return len(words)

        def __getitem__(self, idx):
            ix = torch.tensor([stoi[w] for w in words[idx]], dtype=torch.long)
            x = torch.zeros(block_size, dtype=torch.long)
            y = torch.zeros(block_size, dtype=torch.long)
            x[1 : 1 + len(ix)] = ix
            y[: len(ix)] = ix
            y[len(ix) + 1 :] = -1
            return x, y

    class GRUCell(nn.Module):
        def __init__(self, n_embd, n_embd2):
            super().__init__()
            self.xh_to_z = nn.Linear(n_embd + n_embd2, n_embd2)
            self.xh_to_r = nn.Linear(n_embd + n_embd2, n_embd2)
            self.xh_to_hbar = nn.Linear(n_embd + n_embd2, n_embd2)

        def forward(self, xt, hprev):
            xh = torch.cat([xt, hprev], dim=1)
            r = F.sigmoid(self.xh_to_r(xh))
            hbar = F.tanh(self.xh_to_hbar(torch.cat([xt, r * hprev], dim=1)))
            z = F.sigmoid(self.xh_to_z(xh))
            return (1 - z) * hprev + z * hbar

    class RNN(nn.Module):
        def __init__(self, vocab_size, n_embd=16, n_embd2=32):
            super().__init__()
            self.start = nn.Parameter(torch.zeros(1, n_embd2))
            self.wte = nn.Embedding(vocab_size, n_embd)
            self.cell = GRUCell(n_embd, n_embd2)
            self.lm_head = nn.Linear(n_embd2, vocab_size)

        def forward(self, idx, targets=None):
            b, t = idx.size()
            emb = self.wte(idx)
            hprev = self.start.expand((b, -1))
            hiddens = []
            for i in range(t):
                hprev = self.cell(emb[:, i, :], hprev)
                hiddens.append(hprev)
            logits = self.lm_head(torch.stack(hiddens, 1))
            loss = None
            if targets is not None:
                loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
            return logits, loss

    torch.manual_seed(0)
    model = RNN(len(chars) + 1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01, betas=(0.9, 0.99), eps=1e-8)
    loader = DataLoader(CharDataset(), batch_size=4, shuffle=True)
    losses = []
    for epoch in range(8):
        for x, y in loader:
            logits, loss = model(x, y)
            model.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())

    @torch.no_grad()
    def generate(idx, max_new_tokens):
        for _ in range(max_new_tokens):
            logits, _ = model(idx)
            probs = F.softmax(logits[:, -1, :], dim=-1)
            idx = torch.cat((idx, torch.multinomial(probs, num_samples=1)), dim=1)
        return idx

    out = generate(torch.zeros(3, 1, dtype=torch.long), block_size).tolist()
    names = []
    for row in out:
        row = row[1:]  # crop the start token, then everything from the end token on
        crop = row.index(0) if 0 in row else len(row)
        names.append("".join(itos[i] for i in row[:crop]))
    lib = type(torch.tensor(0)).__module__.split(".")[0]
    print(lib, losses[0], losses[-1], len(out[0]), ",".join(names))
    """
)


def test_an_unchanged_import_torch_name_generator_runs_under_the_runner(tmp_path):
    lib, first, last, width, names = run_unchanged(tmp_path, "makemore_gru.py", UNCHANGED).split()
    assert lib == "yaten" and float(last) < float(first) - 0.5
    assert int(width) == 7 and len(names.split(",")) == 3 and set(names) <= set("abcdefghijklnortvy,")
