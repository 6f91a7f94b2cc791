"""A small character-level GPT (nanoGPT-style) trained on a few paragraphs of public-domain text.

The model is the usual one: token and position embeddings, Blocks of LayerNorm -> causal self-attention
(a masked softmax over a ``tril`` buffer) -> residual -> LayerNorm -> MLP -> residual, and a language-model
head; it trains with cross-entropy and AdamW, prints the loss every ``--every`` steps, then samples text
with temperature and top-k. The script is written against the torch API and takes the library as a
parameter (``--backend torch`` runs it in PyTorch).
"""

import argparse
import importlib
import math
import sys
import time

import numpy as np

# Public domain: the openings of Lewis Carroll's "Alice's Adventures in Wonderland" (1865) and
# Jane Austen's "Pride and Prejudice" (1813).
TEXT = """\
Alice was beginning to get very tired of sitting by her sister on the bank, and of having nothing to do:
once or twice she had peeped into the book her sister was reading, but it had no pictures or
conversations in it, "and what is the use of a book," thought Alice "without pictures or conversations?"

So she was considering in her own mind (as well as she could, for the hot day made her feel very sleepy
and stupid), whether the pleasure of making a daisy-chain would be worth the trouble of getting up and
picking the daisies, when suddenly a White Rabbit with pink eyes ran close by her.

There was nothing so very remarkable in that; nor did Alice think it so very much out of the way to hear
the Rabbit say to itself, "Oh dear! Oh dear! I shall be late!" (when she thought it over afterwards, it
occurred to her that she ought to have wondered at this, but at the time it all seemed quite natural);
but when the Rabbit actually took a watch out of its waistcoat-pocket, and looked at it, and then hurried
on, Alice started to her feet, for it flashed across her mind that she had never before seen a rabbit
with either a waistcoat-pocket, or a watch to take out of it, and burning with curiosity, she ran across
the field after it, and fortunately was just in time to see it pop down a large rabbit-hole under the
hedge.

It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in
want of a wife.

However little known the feelings or views of such a man may be on his first entering a neighbourhood,
this truth is so well fixed in the minds of the surrounding families, that he is considered the rightful
property of some one or other of their daughters.

"My dear Mr. Bennet," said his lady to him one day, "have you heard that Netherfield Park is let at
last?"

Mr. Bennet replied that he had not.

"But it is," returned she; "for Mrs. Long has just been here, and she told me all about it."

Mr. Bennet made no answer.

"Do you not want to know who has taken it?" cried his wife impatiently.

"You want to tell me, and I have no objection to hearing it."

This was invitation enough.
"""


def encoder(text: str):
    """The vocabulary of ``text``: (sorted characters, char -> id, ids -> str)."""
    chars = sorted(set(text))
    stoi = {c: i for i, c in enumerate(chars)}
    return chars, stoi, lambda ids: "".join(chars[i] for i in ids)


def make_model(lib, vocab_size: int, block_size: int = 32, n_layer: int = 2, n_head: int = 4,
               n_embd: int = 64, dropout: float = 0.1):  # fmt: skip
    """A GPT built from ``lib.nn``: ``model(idx, targets=None)`` returns (logits, loss or None)."""
    nn = lib.nn
    F = nn.functional

    class CausalSelfAttention(nn.Module):
        def __init__(self):
            super().__init__()
            self.c_attn = nn.Linear(n_embd, 3 * n_embd)
            self.c_proj = nn.Linear(n_embd, n_embd)
            self.attn_dropout = nn.Dropout(dropout)
            self.resid_dropout = nn.Dropout(dropout)
            mask = lib.tril(lib.ones(block_size, block_size))
            self.register_buffer("bias", mask.view(1, 1, block_size, block_size))

        def forward(self, x):
            B, T, C = x.size()
            q, k, v = self.c_attn(x).split(n_embd, dim=2)
            k = k.view(B, T, n_head, C // n_head).transpose(1, 2)
            q = q.view(B, T, n_head, C // n_head).transpose(1, 2)
            v = v.view(B, T, n_head, C // n_head).transpose(1, 2)
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
            att = F.softmax(att, dim=-1)
            att = self.attn_dropout(att)
            y = att @ v
            y = y.transpose(1, 2).contiguous().view(B, T, C)
            return self.resid_dropout(self.c_proj(y))

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.c_fc = nn.Linear(n_embd, 4 * n_embd)
            self.gelu = nn.GELU()
            self.c_proj = nn.Linear(4 * n_embd, n_embd)
            self.dropout = nn.Dropout(dropout)

        def forward(self, x):
            return self.dropout(self.c_proj(self.gelu(self.c_fc(x))))

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln_1 = nn.LayerNorm(n_embd)
            self.attn = CausalSelfAttention()
            self.ln_2 = nn.LayerNorm(n_embd)
            self.mlp = MLP()

        def forward(self, x):
            x = x + self.attn(self.ln_1(x))
            return x + self.mlp(self.ln_2(x))

    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.block_size = block_size
            self.wte = nn.Embedding(vocab_size, n_embd)
            self.wpe = nn.Embedding(block_size, n_embd)
            self.drop = nn.Dropout(dropout)
            self.h = nn.ModuleList([Block() for _ in range(n_layer)])
            self.ln_f = nn.LayerNorm(n_embd)
            self.lm_head = nn.Linear(n_embd, vocab_size)
            self.apply(self._init_weights)

        @staticmethod
        def _init_weights(module):
            if isinstance(module, (nn.Linear, nn.Embedding)):
                nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if isinstance(module, nn.Linear) and module.bias is not None:
                nn.init.zeros_(module.bias)

        def forward(self, idx, targets=None):
            _, T = idx.size()
            pos = lib.arange(0, T, dtype=lib.long, device=idx.device)
            x = self.drop(self.wte(idx) + self.wpe(pos))
            for block in self.h:
                x = block(x)
            logits = self.lm_head(self.ln_f(x))
            if targets is None:
                return logits, None
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
            return logits, loss

        @lib.no_grad()
        def generate(self, idx, max_new_tokens: int, temperature: float = 1.0, top_k=None, generator=None):
            """Append ``max_new_tokens`` sampled tokens to ``idx`` (B, T) and return it."""
            for _ in range(max_new_tokens):
                idx_cond = idx[:, -self.block_size :]
                logits, _ = self(idx_cond)
                logits = logits[:, -1, :] / temperature
                if top_k is not None:
                    v, _ = lib.topk(logits, min(top_k, logits.size(-1)))
                    logits[logits < v[:, [-1]]] = -float("inf")
                probs = F.softmax(logits, dim=-1)
                idx_next = lib.multinomial(probs, num_samples=1, generator=generator)
                idx = lib.cat((idx, idx_next), dim=1)
            return idx

    return GPT()


def get_batch(lib, data, block_size: int, batch_size: int, generator=None):
    """A random batch (x, y) of ``batch_size`` windows of ``data``, y shifted one character on."""
    ix = lib.randint(len(data) - block_size, (batch_size,), generator=generator)
    x = lib.stack([data[i : i + block_size] for i in ix.tolist()])
    y = lib.stack([data[i + 1 : i + 1 + block_size] for i in ix.tolist()])
    return x, y


def train(lib, model, batches, steps: int, lr: float = 3e-3, weight_decay: float = 0.1, every: int = 0):
    """Train with AdamW for ``steps`` steps on ``batches()`` (a callable returning (x, y)); returns losses."""
    optimizer = lib.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay, betas=(0.9, 0.99))
    model.train()
    losses = []
    for step in range(steps):
        x, y = batches()
        _, loss = model(x, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        lib.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        losses.append(loss.item())
        if every and (step % every == 0 or step == steps - 1):
            print(f"step {step:4d}: loss {losses[-1]:.4f}", flush=True)
    return losses


def main(argv=None) -> int:
    """Train on ``TEXT`` and print the loss every ``--every`` steps, then a sample."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="yaten", choices=("yaten", "torch"))
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1337)
    parser.add_argument("--every", type=int, default=50, help="print the loss every N steps")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--block-size", type=int, default=32)
    parser.add_argument("--sample-len", type=int, default=300)
    parser.add_argument("--temperature", type=float, default=0.8)
    parser.add_argument("--top-k", type=int, default=10)
    args = parser.parse_args(argv)
    lib = importlib.import_module(args.backend)

    lib.manual_seed(args.seed)
    chars, stoi, decode = encoder(TEXT)
    data = lib.tensor([stoi[c] for c in TEXT], dtype=lib.long)
    model = make_model(lib, len(chars), block_size=args.block_size)
    n_params = sum(p.numel() for p in model.parameters())
    print(
        f"{args.backend}: {len(TEXT)} characters, vocabulary {len(chars)}, {n_params / 1e3:.1f}k parameters"
    )
    gen = lib.Generator().manual_seed(args.seed)
    start = time.perf_counter()
    losses = train(
        lib, model, lambda: get_batch(lib, data, args.block_size, args.batch_size, gen), args.steps,
        every=args.every,
    )  # fmt: skip
    seconds = time.perf_counter() - start
    print(f"trained {args.steps} steps in {seconds:.1f} s: loss {losses[0]:.4f} -> {losses[-1]:.4f}")
    model.eval()
    context = lib.tensor([[stoi["\n"]]], dtype=lib.long)
    out = model.generate(
        context, args.sample_len, temperature=args.temperature, top_k=args.top_k, generator=gen
    )
    print("sample:\n" + decode(out[0].tolist()))
    return 0 if np.isfinite(losses[-1]) else 1


if __name__ == "__main__":
    sys.exit(main())
