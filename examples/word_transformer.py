"""A word-level Transformer language model, as pytorch/examples' word_language_model builds it.

Word embeddings scaled by sqrt(d_model) plus sinusoidal positional encodings -> an
``nn.TransformerEncoder`` of ``nn.TransformerEncoderLayer``s (sequence first, as that example has it)
under the causal mask of ``nn.Transformer.generate_square_subsequent_mask`` -> a linear decoder to the
vocabulary. Trained on windows of ``--bptt`` words, reporting the perplexity, then sampling a few words
(word_lm.py: corpus, training loop, sampling). A plain ``import torch`` program: ``python
word_transformer.py`` runs it in PyTorch, ``python -m yaten.run word_transformer.py`` on yaten.
"""

import math
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
import word_lm


class PositionalEncoding(nn.Module):
    r"""Inject some information about the relative or absolute position of the tokens in the sequence:
    sines and cosines of different frequencies, of the same dimension as the embeddings.

    .. math::
        \text{PosEncoder}(pos, 2i) = sin(pos/10000^(2i/d_model))
        \text{PosEncoder}(pos, 2i+1) = cos(pos/10000^(2i/d_model))
    """

    def __init__(self, d_model, dropout=0.1, max_len=5000):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        pe = pe.unsqueeze(0).transpose(0, 1)
        self.register_buffer("pe", pe)

    def forward(self, x):
        x = x + self.pe[: x.size(0), :]
        return self.dropout(x)


class TransformerModel(nn.Module):
    """Container module with an encoder, a transformer module, and a decoder."""

    def __init__(self, ntoken, ninp, nhead, nhid, nlayers, dropout=0.5):
        super().__init__()
        self.model_type = "Transformer"
        self.ntoken = ntoken
        self.src_mask = None
        self.pos_encoder = PositionalEncoding(ninp, dropout)
        encoder_layers = nn.TransformerEncoderLayer(ninp, nhead, nhid, dropout)
        self.transformer_encoder = nn.TransformerEncoder(encoder_layers, nlayers)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.ninp = ninp
        self.decoder = nn.Linear(ninp, ntoken)
        self.init_weights()

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, src, has_mask=True):
        if has_mask:
            if self.src_mask is None or self.src_mask.size(0) != len(src):
                self.src_mask = nn.Transformer.generate_square_subsequent_mask(len(src), device=src.device)
        else:
            self.src_mask = None
        src = self.encoder(src) * math.sqrt(self.ninp)
        src = self.pos_encoder(src)
        output = self.transformer_encoder(src, self.src_mask)
        output = self.decoder(output)
        return F.log_softmax(output, dim=-1)


def make_parser():
    parser = word_lm.make_parser("PyTorch word-level Transformer language model")
    parser.add_argument("--nhead", type=int, default=2, help="the number of heads in the encoder")
    parser.set_defaults(lr=5)  # word_language_model's README trains its Transformer with --lr 5
    return parser


def make_model(args, ntokens):
    return TransformerModel(ntokens, args.emsize, args.nhead, args.nhid, args.nlayers, args.dropout)


def main(argv=None):
    return word_lm.run(make_parser().parse_args(argv), make_model)


if __name__ == "__main__":
    sys.exit(main())
