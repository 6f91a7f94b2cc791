"""examples/word_lstm.py, an unchanged ``import torch`` program, trains the same on yaten as in PyTorch:
from the same initial weights the losses of an epoch of truncated BPTT agree step by step (with and
without weight tying), so do the validation loss and the weights; the corpus and its batches are
word_language_model's; and the program runs as a whole under ``python -m yaten.run`` and under torch,
its checkpoint read by torch."""

import re

import numpy as np
import pytest

import yaten
from tests.examples.shared import (
    assert_losses_track,
    import_example,
    run_example,
    train_word_lm_twins,
)
from tests.tolerances import assert_close

torch = pytest.importorskip("torch")

# A small model on ~2,700 words: 8 columns, windows of 10 words, one epoch of 33 steps of SGD at lr 20
# after clip_grad_norm_(0.25); dropout off, as the two libraries draw different masks.
FLAGS = ["--lines", "300", "--emsize", "16", "--nhid", "16", "--bptt", "10", "--batch_size", "8"]
FLAGS += ["--dropout", "0"]
# float32 through a 10-step, 2-layer LSTM and 33 steps of lr 20: the libraries differ by rounding only,
# which the training grows (observed relative difference: <= 2e-7 over the first 10 steps, <= 3e-6
# after, where 1e-6 * 1.15**k allows 4e-6 at step 10 and 9e-5 at step 32). A real difference moves
# the losses far more: leaving the clipping out changes the second step's loss by 4%.
RTOL, GROWTH = 1e-6, 1.15


@pytest.mark.parametrize("tied", [False, True])
def test_the_losses_match_pytorch_step_by_step(tied):
    _, runs = train_word_lm_twins("word_lstm", FLAGS + ["--tied"] * tied)
    (_, reference, _, expected, expected_val), (_, model, _, got, got_val) = runs
    assert_losses_track(got, expected, RTOL, GROWTH)
    assert len(expected) == 33 and np.mean(expected[-5:]) < np.mean(expected[:5]) - 0.1  # it learns
    assert_close(got_val, expected_val, "validation loss", rtol=RTOL * GROWTH ** len(expected))
    assert expected_val < np.log(43) - 0.3  # below the uniform guess over the 43 words
    assert (model.decoder.weight is model.encoder.weight) == tied
    for name, p in reference.state_dict().items():
        # SGD's steps are lr * gradient: the rounding differences of the gradients times 20
        assert_close(model.state_dict()[name], p, name, rtol=0, atol=1e-4)


def test_the_corpus_and_its_batches_are_word_language_models():
    lm_torch, lm = import_example("word_lm", torch), import_example("word_lm", yaten)
    corpus, reference = lm.Corpus.synthetic(50, 7), lm_torch.Corpus.synthetic(50, 7)
    assert corpus.train.tolist() == reference.train.tolist()
    assert corpus.dictionary.idx2word == reference.dictionary.idx2word
    lines = lm.synthetic_text(50, 7)
    words = [corpus.dictionary.idx2word[i] for i in corpus.train.tolist()]
    assert words == [w for line in lines[:40] for w in [*line.split(), "<eos>"]]  # 80% to train
    assert lines[0].startswith("the ") and lines[0].endswith(" .")
    n_words = sum(len(line.split()) + 1 for line in lines)
    assert len(corpus.train) + len(corpus.valid) + len(corpus.test) == n_words
    data = lm.batchify(corpus.train, 4)
    n = len(corpus.train) // 4
    assert data.shape == (n, 4) and data.is_contiguous()
    assert data[:, 1].tolist() == corpus.train[n : 2 * n].tolist()  # column j is the j-th quarter
    x, y = lm.get_batch(data, 3, 5)
    assert x.tolist() == data[3:8].tolist() and y.tolist() == data[4:9].reshape(-1).tolist()
    x, y = lm.get_batch(data, n - 3, 5)  # the last window is shorter
    assert x.shape == (2, 4) and y.shape == (8,)


def test_the_corpus_reads_wikitext_files(tmp_path):
    lm = import_example("word_lm", yaten)
    for name, text in (("train", "a b c\nb c\n"), ("valid", "c a\n"), ("test", "d\n")):
        (tmp_path / f"{name}.txt").write_text(text)
    corpus = lm.Corpus.from_directory(tmp_path)
    assert corpus.dictionary.idx2word == ["a", "b", "c", "<eos>", "d"]
    assert corpus.train.tolist() == [0, 1, 2, 3, 1, 2, 3] and corpus.train.dtype == yaten.int64
    assert corpus.valid.tolist() == [2, 0, 3] and corpus.test.tolist() == [4, 3]


def test_the_hidden_state_is_carried_detached_and_sampling_gives_words():
    example = import_example("word_lstm", yaten)
    model = example.RNNModel(10, 8, 8, 2, dropout=0.0)
    h = model.init_hidden(3)
    out, h = model(yaten.zeros(4, 3, dtype=yaten.long), h)
    assert out.shape == (12, 10) and all(t.requires_grad for t in h)
    cut = example.word_lm.repackage_hidden(h)
    assert [t.requires_grad for t in cut] == [False, False]
    assert all(a.tolist() == b.tolist() for a, b in zip(cut, h))
    dictionary = example.word_lm.Dictionary()
    for i in range(10):
        dictionary.add_word(f"w{i}")
    yaten.manual_seed(0)
    words = example.word_lm.generate(model, dictionary, 6, temperature=0.5)
    assert len(words) == 6 and set(words) <= set(dictionary.idx2word)
    with pytest.raises(ValueError, match="When using the tied flag, nhid must be equal to emsize"):
        example.RNNModel(10, 8, 6, 2, tie_weights=True)


def test_the_program_runs_unchanged_under_yaten_run_and_torch(tmp_path):
    flags = ["--lines", "200", "--emsize", "16", "--nhid", "16", "--epochs", "2", "--words", "5"]
    flags += ["--tied", "--bptt", "10", "--log-interval", "5"]
    outputs = {}
    for lib in ("yaten", "torch"):
        save = str(tmp_path / f"{lib}.pt")
        outputs[lib] = run_example("word_lstm.py", *flags, "--save", save, on_yaten=lib == "yaten")
    for out in outputs.values():
        assert "| end of epoch   2 |" in out and "ms/batch" in out
        assert len(re.search(r"sampled: (.*)", out).group(1).split()) == 5
    # yaten's checkpoint is a torch checkpoint: torch's model loads it and finds the perplexity yaten printed
    example = import_example("word_lstm", torch)
    args = example.make_parser().parse_args(flags)
    corpus = example.word_lm.Corpus.synthetic(args.lines, args.seed)
    model = example.make_model(args, len(corpus.dictionary))
    model.load_state_dict(torch.load(tmp_path / "yaten.pt"))
    loss = example.word_lm.evaluate(model, example.word_lm.batchify(corpus.test, 10), args)
    assert f"| End of training | test loss {loss:5.2f} | test ppl {np.exp(loss):8.2f}" in outputs["yaten"]
