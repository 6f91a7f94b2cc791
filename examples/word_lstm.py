"""A word-level LSTM language model, as pytorch/examples' word_language_model builds it.

Word embeddings -> a 2-layer ``nn.LSTM`` with dropout between the layers -> a linear decoder to the
vocabulary, optionally sharing its weight with the embedding (``--tied``, "Using the Output Embedding to
Improve Language Models", Press & Wolf 2016). Trained with truncated backpropagation through time,
the hidden state carried across windows and detached from the last one's graph; the perplexity is
reported and a few words are sampled at the end (word_lm.py: corpus, training loop, sampling). A plain
``import torch`` program: ``python word_lstm.py`` runs it in PyTorch, ``python -m yaten.run
word_lstm.py`` on yaten.
"""

import sys

import torch.nn as nn
import torch.nn.functional as F
import word_lm


class RNNModel(nn.Module):
    """Container module with an encoder, a recurrent module, and a decoder."""

    def __init__(self, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super().__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            if nhid != ninp:
                raise ValueError("When using the tied flag, nhid must be equal to emsize")
            self.decoder.weight = self.encoder.weight
        self.init_weights()
        self.nhid = nhid
        self.nlayers = nlayers

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        decoded = decoded.view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (
            weight.new_zeros(self.nlayers, bsz, self.nhid),
            weight.new_zeros(self.nlayers, bsz, self.nhid),
        )


def make_parser():
    parser = word_lm.make_parser("PyTorch word-level LSTM language model")
    parser.add_argument("--tied", action="store_true", help="tie the word embedding and softmax weights")
    return parser


def make_model(args, ntokens):
    return RNNModel(ntokens, args.emsize, args.nhid, args.nlayers, args.dropout, args.tied)


def main(argv=None):
    return word_lm.run(make_parser().parse_args(argv), make_model)


if __name__ == "__main__":
    sys.exit(main())
