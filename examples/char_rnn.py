"""A character-level RNN/GRU name generator in the style of Karpathy's makemore.

Each name is a sequence of characters framed by a start/end token (id 0, printed as ``.``); the model
reads one character embedding per step with a recurrent cell written from ``nn.Linear`` layers (a
vanilla tanh RNN or a GRU, ``--cell``), starting from a learned hidden state, and predicts the next
character at every step. Targets past the end token are -1, left out of the cross-entropy through
``ignore_index``. It trains with AdamW on a small built-in list of names, reports train and test loss,
then samples new names with ``multinomial`` (optionally among the top-k). The script is written
against the torch API and takes the library as a parameter (``--backend torch`` runs it in PyTorch).
"""

import argparse
import importlib
import sys
import time

import numpy as np

# Common English given names (a small built-in corpus: no download).
CORPUS = """
emma olivia ava isabella sophia mia charlotte amelia harper evelyn abigail emily elizabeth sofia madison
avery ella scarlett grace chloe victoria riley aria lily aubrey zoey penelope lillian addison layla natalie
camila hannah brooklyn zoe nora leah savannah audrey claire eleanor skylar ellie samantha stella paisley
violet mila allison alexa anna hazel aaliyah ariana lucy caroline sarah genesis kennedy sadie gabriella
madelyn adeline maya autumn aurora piper hailey arianna kaylee ruby serenity eva naomi nevaeh alice luna
bella quinn lydia peyton melanie kylie aubree mackenzie kinsley cora julia taylor katherine madeline
gianna eliana elena vivian willow reagan brianna clara faith ashley emilia isabelle annabelle rylee
valentina everly hadley sophie alexandra natalia ivy maria josephine delilah liam noah william james
logan benjamin mason elijah oliver jacob lucas michael alexander ethan daniel matthew aiden henry joseph
jackson samuel sebastian david carter wyatt jayden john owen dylan luke gabriel anthony isaac grayson
jack julian levi christopher joshua andrew lincoln mateo ryan jaxon nathan aaron isaiah thomas charles
caleb josiah christian hunter eli jonathan connor landon adrian asher cameron leo theodore jeremiah
hudson robert easton nolan nicholas ezra colton angel brayden jordan dominic austin ian adam elias
jaxson greyson jose ezekiel carson evan maverick bryson jace cooper xavier parker roman jason santiago
chase sawyer gavin leonardo kayden ayden jameson kevin bentley zachary everett axel tyler micah vincent
weston miles wesley nathaniel harrison brandon cole declan luis braxton damian silas tristan ryder bennett
george emmett justin kai max diego luca ryker carlos maxwell kingston ivan maddox juan ashton jayce rowan
kaiden giovanni eric jesus calvin abel king camden amir blake alex brody malachi emmanuel jonah beau
"""
NAMES = CORPUS.split()


def encoder(words):
    """The vocabulary of ``words``: (characters, char -> id with 0 kept for the start/end token,
    ids -> str stopping at the first 0)."""
    chars = sorted(set("".join(words)))
    stoi = {c: i + 1 for i, c in enumerate(chars)}

    def decode(ids):
        out = []
        for i in ids:
            if i == 0:
                break
            out.append(chars[i - 1])
        return "".join(out)

    return chars, stoi, decode


def encode_words(words, stoi, max_len: int):
    """Inputs and targets (both (len(words), max_len + 1) int64 arrays): x is the start token then the
    name, y the name then the end token, then -1 (ignored) to the end."""
    x = np.zeros((len(words), max_len + 1), dtype=np.int64)
    y = np.full((len(words), max_len + 1), -1, dtype=np.int64)
    for row, word in enumerate(words):
        ids = [stoi[c] for c in word]
        x[row, 1 : 1 + len(ids)] = ids
        y[row, : len(ids)] = ids
        y[row, len(ids)] = 0
    return x, y


def make_model(lib, vocab_size: int, block_size: int, cell: str = "gru", n_embd: int = 32, n_embd2: int = 64):
    """A makemore RNN from ``lib.nn``: ``model(idx, targets=None)`` returns (logits, loss or None)."""
    nn = lib.nn
    F = nn.functional

    class RNNCell(nn.Module):
        """The vanilla RNN cell: h_t = tanh(W [x_t, h_{t-1}] + b)."""

        def __init__(self):
            super().__init__()
            self.xh_to_h = nn.Linear(n_embd + n_embd2, n_embd2)

        def forward(self, xt, hprev):
            xh = lib.cat([xt, hprev], dim=1)
            return F.tanh(self.xh_to_h(xh))

    class GRUCell(nn.Module):
        """The GRU cell: a reset gate r, an update gate z and a candidate state computed from r * h."""

        def __init__(self):
            super().__init__()
            self.xh_to_z = nn.Linear(n_embd + n_embd2, n_embd2)
            self.xh_to_r = nn.Linear(n_embd + n_embd2, n_embd2)
            self.xh_to_hbar = nn.Linear(n_embd + n_embd2, n_embd2)

        def forward(self, xt, hprev):
            xh = lib.cat([xt, hprev], dim=1)
            r = F.sigmoid(self.xh_to_r(xh))
            xhr = lib.cat([xt, r * hprev], dim=1)
            hbar = F.tanh(self.xh_to_hbar(xhr))
            z = F.sigmoid(self.xh_to_z(xh))
            return (1 - z) * hprev + z * hbar

    class RNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.block_size = block_size
            self.start = nn.Parameter(lib.zeros(1, n_embd2))  # the hidden state before the first step
            self.wte = nn.Embedding(vocab_size, n_embd)
            self.cell = {"rnn": RNNCell, "gru": GRUCell}[cell]()
            self.lm_head = nn.Linear(n_embd2, vocab_size)

        def forward(self, idx, targets=None):
            b, t = idx.size()
            emb = self.wte(idx)
            hprev = self.start.expand((b, -1))
            hiddens = []
            for i in range(t):
                hprev = self.cell(emb[:, i, :], hprev)
                hiddens.append(hprev)
            logits = self.lm_head(lib.stack(hiddens, 1))
            if targets is None:
                return logits, None
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
            return logits, loss

        @lib.no_grad()
        def generate(self, idx, max_new_tokens: int, temperature: float = 1.0, top_k=None, generator=None):
            """Append ``max_new_tokens`` sampled characters to ``idx`` (B, T) and return it."""
            for _ in range(max_new_tokens):
                logits, _ = self(idx[:, -self.block_size :])
                logits = logits[:, -1, :] / temperature
                if top_k is not None:
                    v, _ = lib.topk(logits, top_k)
                    logits[logits < v[:, [-1]]] = -float("inf")
                probs = F.softmax(logits, dim=-1)
                idx = lib.cat((idx, lib.multinomial(probs, num_samples=1, generator=generator)), dim=1)
            return idx

    return RNN()


def train(lib, model, batches, steps: int, lr: float = 2e-3, weight_decay: float = 0.01, every: int = 0):
    """Train with AdamW for ``steps`` steps on ``batches()`` (a callable returning (x, y)); returns losses."""
    optimizer = lib.optim.AdamW(
        model.parameters(), lr=lr, weight_decay=weight_decay, betas=(0.9, 0.99), eps=1e-8
    )
    model.train()
    losses = []
    for step in range(steps):
        x, y = batches()
        _, loss = model(x, y)
        model.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        if every and (step % every == 0 or step == steps - 1):
            print(f"step {step:4d}: loss {losses[-1]:.4f}", flush=True)
    return losses


def evaluate(lib, model, x, y, batch_size: int = 64) -> float:
    """The mean loss over all of (x, y), in batches, without dropout or gradients."""
    model.eval()
    total, count = 0.0, 0
    with lib.no_grad():
        for i in range(0, len(x), batch_size):
            _, loss = model(x[i : i + batch_size], y[i : i + batch_size])
            total += loss.item() * len(x[i : i + batch_size])
            count += len(x[i : i + batch_size])
    model.train()
    return total / count


def main(argv=None) -> int:
    """Train on ``NAMES`` (a tenth held out), print the losses, then sample new names."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="yaten", choices=("yaten", "torch"))
    parser.add_argument("--cell", default="gru", choices=("rnn", "gru"))
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--seed", type=int, default=3407)
    parser.add_argument("--every", type=int, default=100, help="print the loss every N steps")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--top-k", type=int, default=None)
    args = parser.parse_args(argv)
    lib = importlib.import_module(args.backend)

    lib.manual_seed(args.seed)
    order = np.random.default_rng(args.seed).permutation(len(NAMES))
    words = [NAMES[i] for i in order]
    n_test = len(words) // 10
    chars, stoi, decode = encoder(words)
    max_len = max(len(w) for w in words)
    x_train, y_train = (lib.from_numpy(a) for a in encode_words(words[n_test:], stoi, max_len))
    x_test, y_test = (lib.from_numpy(a) for a in encode_words(words[:n_test], stoi, max_len))
    model = make_model(lib, len(chars) + 1, max_len + 1, cell=args.cell)
    n_params = sum(p.numel() for p in model.parameters())
    print(
        f"{args.backend}: {len(words)} names, vocabulary {len(chars) + 1}, {args.cell} cell, "
        f"{n_params / 1e3:.1f}k parameters"
    )
    gen = lib.Generator().manual_seed(args.seed)

    def batches():
        ix = lib.randint(len(x_train), (args.batch_size,), generator=gen)
        return x_train[ix], y_train[ix]

    start = time.perf_counter()
    losses = train(lib, model, batches, args.steps, every=args.every)
    seconds = time.perf_counter() - start
    train_loss, test_loss = evaluate(lib, model, x_train, y_train), evaluate(lib, model, x_test, y_test)
    print(
        f"trained {args.steps} steps in {seconds:.1f} s: batch loss {losses[0]:.4f} -> {losses[-1]:.4f}; "
        f"train loss {train_loss:.4f}, test loss {test_loss:.4f}"
    )
    model.eval()
    out = model.generate(
        lib.zeros(args.samples, 1, dtype=lib.long), max_len + 1, top_k=args.top_k, generator=gen
    )
    names = [decode(row[1:]) for row in out.tolist()]
    print("samples:", " ".join(names))
    new = [n for n in names if n and n not in NAMES]
    print(f"{len(new)} of {len(names)} samples are new names")
    return 0 if np.isfinite(test_loss) else 1


if __name__ == "__main__":
    sys.exit(main())
