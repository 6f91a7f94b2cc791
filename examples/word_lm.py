"""What the word-level language models (word_lstm.py, word_transformer.py) share, as pytorch/examples'
word_language_model keeps it in data.py and main.py.

- The corpus: words to ids, each line ending in ``<eos>``, from a directory holding ``train.txt``,
  ``valid.txt`` and ``test.txt`` (the WikiText-2 layout, ``--data DIR``) or, with no download, generated
  from a small English-like grammar (``--lines N``).
- Truncated backpropagation through time: the id stream cut into ``--batch_size`` columns
  (``batchify``), trained in windows of ``--bptt`` words (``get_batch``); a recurrent model carries its
  hidden state from one window to the next, detached from the last window's graph (``repackage_hidden``).
- Training: SGD by hand (``p.data.add_(p.grad, alpha=-lr)``) after ``clip_grad_norm_``, the loss and
  perplexity printed every ``--log-interval`` batches; after each epoch the validation loss, the best
  model saved (``--save``), the learning rate divided by 4 when the validation loss stops improving.
- At the end: the best model's test perplexity, and ``--words`` words sampled from it.
"""

import argparse
import math
import random
import time
from pathlib import Path

import torch
import torch.nn as nn

# The grammar of the generated corpus: sentences "the [adjective] noun verb [the [adjective] noun]
# [preposition the place]", joined by "and", each line ending in "."
ADJECTIVES = ["old", "young", "small", "big", "quick", "lazy", "brave", "quiet"]
NOUNS = ["cat", "dog", "bird", "fox", "horse", "child", "farmer", "king", "queen", "sailor"]
INTRANSITIVE = ["slept", "ran", "sang", "laughed", "waited"]
TRANSITIVE = ["saw", "chased", "found", "followed", "helped", "watched"]
PREPOSITIONS = ["in", "near", "behind", "beside"]
PLACES = ["garden", "river", "forest", "village", "castle", "market"]


def synthetic_text(n_lines: int, seed: int) -> list[str]:
    """``n_lines`` lines of the built-in grammar, drawn with Python's ``random`` seeded ``seed`` (the
    same text in every library)."""
    rng = random.Random(seed)

    def noun_phrase():
        adjective = [rng.choice(ADJECTIVES)] if rng.random() < 0.5 else []
        return ["the", *adjective, rng.choice(NOUNS)]

    def sentence():
        words = noun_phrase()
        if rng.random() < 0.5:
            words.append(rng.choice(INTRANSITIVE))
        else:
            words += [rng.choice(TRANSITIVE), *noun_phrase()]
        if rng.random() < 0.4:
            words += [rng.choice(PREPOSITIONS), "the", rng.choice(PLACES)]
        return words

    lines = []
    for _ in range(n_lines):
        words = sentence()
        while rng.random() < 0.3:
            words += ["and", *sentence()]
        lines.append(" ".join([*words, "."]))
    return lines


SPLITS = ("train", "valid", "test")


class Dictionary:
    """Words to ids and back, in order of first appearance."""

    def __init__(self):
        self.word2idx = {}
        self.idx2word = []

    def add_word(self, word: str) -> int:
        if word not in self.word2idx:
            self.idx2word.append(word)
            self.word2idx[word] = len(self.idx2word) - 1
        return self.word2idx[word]

    def __len__(self):
        return len(self.idx2word)


class Corpus:
    """The train, validation and test splits (lists of lines) as 1-d int64 tensors of word ids."""

    def __init__(self, train: list[str], valid: list[str], test: list[str]):
        self.dictionary = Dictionary()
        self.train = self.tokenize(train)
        self.valid = self.tokenize(valid)
        self.test = self.tokenize(test)

    @classmethod
    def from_directory(cls, path) -> "Corpus":
        """The corpus of ``train.txt``, ``valid.txt`` and ``test.txt`` in ``path`` (WikiText-2's files)."""
        splits = [(Path(path) / f"{name}.txt").read_text(encoding="utf8").splitlines() for name in SPLITS]
        return cls(*splits)

    @classmethod
    def synthetic(cls, n_lines: int, seed: int) -> "Corpus":
        """``n_lines`` generated lines: 80% to train, 10% each to validate and test."""
        lines = synthetic_text(n_lines, seed)
        cut, end = n_lines * 8 // 10, n_lines * 9 // 10
        return cls(lines[:cut], lines[cut:end], lines[end:])

    def tokenize(self, lines: list[str]):
        ids = [self.dictionary.add_word(word) for line in lines for word in [*line.split(), "<eos>"]]
        return torch.tensor(ids, dtype=torch.int64)


def batchify(data, bsz: int):
    """The id stream as ``bsz`` columns (dropping the words that don't fill a last row): row i holds
    the i-th word of every column, so the columns are independent streams, read in parallel."""
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


def get_batch(source, i: int, bptt: int):
    """The window of up to ``bptt`` rows starting at row ``i`` and its targets (the next words),
    flattened as the model's output is."""
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i : i + seq_len]
    target = source[i + 1 : i + 1 + seq_len].view(-1)
    return data, target


def repackage_hidden(h):
    """A hidden state cut from the graph of the windows before, so that backpropagation stops there."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def is_recurrent(model) -> bool:
    """Whether ``model`` carries a hidden state (``init_hidden``) from one window to the next."""
    return hasattr(model, "init_hidden")


def log_probs(model, data, hidden):
    """The model's log-probabilities for ``data`` as (len(data) * batch, ntokens), and the hidden state
    that follows (None for a model without one)."""
    if not is_recurrent(model):
        return model(data).view(-1, model.ntoken), None
    output, hidden = model(data, repackage_hidden(hidden))
    return output, hidden


def train_epoch(model, train_data, lr: float, args, epoch: int = 1) -> list[float]:
    """One pass over ``train_data`` (batchified) in windows of ``args.bptt``; returns every batch's loss."""
    model.train()
    criterion = nn.NLLLoss()
    total_loss, losses = 0.0, []
    start_time = time.time()
    hidden = model.init_hidden(args.batch_size) if is_recurrent(model) else None
    n_batches = (len(train_data) - 1 + args.bptt - 1) // args.bptt
    for batch, i in enumerate(range(0, train_data.size(0) - 1, args.bptt)):
        data, targets = get_batch(train_data, i, args.bptt)
        model.zero_grad()
        output, hidden = log_probs(model, data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        # clip_grad_norm_ helps prevent the exploding gradient problem in RNNs / LSTMs.
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        losses.append(loss.item())
        total_loss += losses[-1]
        if batch % args.log_interval == 0 and batch > 0:
            cur_loss = total_loss / args.log_interval
            elapsed = time.time() - start_time
            print(
                f"| epoch {epoch:3d} | {batch:5d}/{n_batches:5d} batches | lr {lr:02.2f} | "
                f"ms/batch {elapsed * 1000 / args.log_interval:5.2f} | "
                f"loss {cur_loss:5.2f} | ppl {math.exp(cur_loss):8.2f}",
                flush=True,
            )
            total_loss = 0.0
            start_time = time.time()
        if args.dry_run:
            break
    return losses


def evaluate(model, data_source, args) -> float:
    """The mean loss per word over ``data_source`` (batchified), without dropout or gradients."""
    model.eval()
    criterion = nn.NLLLoss()
    total_loss = 0.0
    hidden = model.init_hidden(data_source.size(1)) if is_recurrent(model) else None
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, args.bptt):
            data, targets = get_batch(data_source, i, args.bptt)
            output, hidden = log_probs(model, data, hidden)
            total_loss += len(data) * criterion(output, targets).item()
    return total_loss / (len(data_source) - 1)


def generate(model, dictionary: Dictionary, n_words: int, temperature: float = 1.0) -> list[str]:
    """``n_words`` words sampled from the model one at a time, from a random first word; a recurrent
    model is fed its last word and its hidden state, the Transformer the whole text so far."""
    model.eval()
    inputs = torch.randint(len(dictionary), (1, 1), dtype=torch.long)
    hidden = model.init_hidden(1) if is_recurrent(model) else None
    words = []
    with torch.no_grad():
        for _ in range(n_words):
            output, hidden = log_probs(model, inputs, hidden)
            word_weights = output[-1].div(temperature).exp()
            word_idx = torch.multinomial(word_weights, 1)
            word_tensor = word_idx.view(1, 1)
            inputs = word_tensor if is_recurrent(model) else torch.cat([inputs, word_tensor], 0)
            words.append(dictionary.idx2word[word_idx.item()])
    return words


def make_parser(description: str) -> argparse.ArgumentParser:
    """The flags both models take (word_language_model's, smaller defaults: a CPU runs it in minutes)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--data", type=str, default=None, help="a directory with train/valid/test.txt")
    parser.add_argument("--lines", type=int, default=2000, help="lines of generated text (without --data)")
    parser.add_argument("--emsize", type=int, default=128, help="size of word embeddings")
    parser.add_argument("--nhid", type=int, default=128, help="number of hidden units per layer")
    parser.add_argument("--nlayers", type=int, default=2, help="number of layers")
    parser.add_argument("--lr", type=float, default=20, help="initial learning rate")
    parser.add_argument("--clip", type=float, default=0.25, help="gradient clipping")
    parser.add_argument("--epochs", type=int, default=6, help="upper epoch limit")
    parser.add_argument("--batch_size", type=int, default=20, metavar="N", help="batch size")
    parser.add_argument("--bptt", type=int, default=35, help="sequence length")
    parser.add_argument(
        "--dropout", type=float, default=0.2, help="dropout applied to layers (0 = no dropout)"
    )
    parser.add_argument("--seed", type=int, default=1111, help="random seed")
    parser.add_argument("--log-interval", type=int, default=20, metavar="N", help="report interval")
    parser.add_argument("--save", type=str, default="model.pt", help="path to save the final model")
    parser.add_argument("--words", type=int, default=20, help="number of words to sample at the end")
    parser.add_argument("--temperature", type=float, default=1.0, help="temperature of the sampling")
    parser.add_argument("--dry-run", action="store_true", help="verify the code and the model (one batch)")
    return parser


def run(args, make_model) -> int:
    """Train ``make_model(args, ntokens)`` as ``args`` says, print the losses, then sample words."""
    torch.manual_seed(args.seed)
    corpus = Corpus.from_directory(args.data) if args.data else Corpus.synthetic(args.lines, args.seed)
    eval_batch_size = 10
    train_data = batchify(corpus.train, args.batch_size)
    val_data = batchify(corpus.valid, eval_batch_size)
    test_data = batchify(corpus.test, eval_batch_size)
    ntokens = len(corpus.dictionary)
    model = make_model(args, ntokens)
    n_params = sum(p.numel() for p in model.parameters())
    print(f"{len(corpus.train)} training words, vocabulary {ntokens}, {n_params / 1e3:.1f}k parameters")

    lr = args.lr
    best_val_loss = None
    for epoch in range(1, args.epochs + 1):
        epoch_start_time = time.time()
        train_epoch(model, train_data, lr, args, epoch)
        val_loss = evaluate(model, val_data, args)
        print("-" * 89)
        print(
            f"| end of epoch {epoch:3d} | time: {time.time() - epoch_start_time:5.2f}s | "
            f"valid loss {val_loss:5.2f} | valid ppl {math.exp(val_loss):8.2f}"
        )
        print("-" * 89)
        if best_val_loss is None or val_loss < best_val_loss:
            torch.save(model.state_dict(), args.save)
            best_val_loss = val_loss
        else:
            lr /= 4.0  # no improvement on the validation set: anneal the learning rate

    model.load_state_dict(torch.load(args.save))
    test_loss = evaluate(model, test_data, args)
    print("=" * 89)
    print(f"| End of training | test loss {test_loss:5.2f} | test ppl {math.exp(test_loss):8.2f}")
    print("=" * 89)
    print("sampled:", " ".join(generate(model, corpus.dictionary, args.words, args.temperature)))
    return 0 if math.isfinite(test_loss) else 1
