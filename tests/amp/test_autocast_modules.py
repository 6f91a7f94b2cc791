"""The output dtype of common layers and functions under ``autocast("cpu")``, against torch's: the
ones torch lists, and those whose dtype comes from what the listed ops they call return (recurrent
layers, where torch's CPU LSTM runs oneDNN's listed layer and its GRU and cells compose listed
products with a float32 state; norms that keep a bfloat16 input's dtype)."""

import pytest
import torch

import yaten


def _cases(lib):
    nn, F = lib.nn, lib.nn.functional
    x, img, seq = lib.ones(2, 3, 8), lib.ones(2, 3, 8, 8), lib.ones(4, 2, 8)

    def low(t):  # a bfloat16 activation, as the layer after a listed one sees it
        return nn.Linear(t.shape[-1], t.shape[-1])(t)

    def conv(t):
        return nn.Conv2d(3, 4, 3)(t)

    return {
        "Linear": lambda: nn.Linear(8, 4)(x),
        "Conv1d": lambda: nn.Conv1d(3, 4, 3)(x),
        "Conv2d": lambda: conv(img),
        "ConvTranspose2d": lambda: nn.ConvTranspose2d(3, 4, 3)(img),
        "LSTM": lambda: nn.LSTM(8, 5)(seq),
        "LSTM packed": lambda: nn.LSTM(8, 5)(nn.utils.rnn.pack_padded_sequence(seq, [4, 3]))[1],
        "LSTM proj": lambda: nn.LSTM(8, 5, proj_size=3)(seq),
        "LSTM 2 layers bidirectional": lambda: nn.LSTM(8, 5, 2, bidirectional=True, batch_first=True)(seq),
        "GRU": lambda: nn.GRU(8, 5)(seq),
        "RNN": lambda: nn.RNN(8, 5)(seq),
        "LSTMCell": lambda: nn.LSTMCell(8, 5)(seq[0]),
        "GRUCell": lambda: nn.GRUCell(8, 5)(seq[0]),
        "RNNCell": lambda: nn.RNNCell(8, 5)(seq[0]),
        "MultiheadAttention": lambda: nn.MultiheadAttention(8, 2)(seq, seq, seq)[0],
        "TransformerEncoderLayer": lambda: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)(seq),
        "Embedding": lambda: nn.Embedding(5, 4)(lib.tensor([1, 2])),
        "LayerNorm": lambda: nn.LayerNorm(8)(low(x)),
        "BatchNorm2d": lambda: nn.BatchNorm2d(4)(conv(img)),
        "GroupNorm": lambda: nn.GroupNorm(2, 4)(conv(img)),
        "softmax": lambda: F.softmax(low(x), -1),
        "scaled_dot_product_attention": lambda: F.scaled_dot_product_attention(x, x, x),
        "einsum": lambda: lib.einsum("bij,bkj->bik", x, x),
        "tensordot": lambda: lib.tensordot(x, x, dims=([2], [2])),
        "interpolate bilinear": lambda: F.interpolate(img, scale_factor=2, mode="bilinear"),
        "max_pool2d": lambda: F.max_pool2d(conv(img), 2),
        "nll_loss": lambda: F.nll_loss(low(x[0]), lib.tensor([1, 2, 3])),
        "cross_entropy": lambda: F.cross_entropy(low(x[0]), lib.tensor([1, 2, 3])),
        "binary_cross_entropy_with_logits": lambda: F.binary_cross_entropy_with_logits(
            low(x), lib.zeros(2, 3, 8)
        ),
        "cosine_similarity": lambda: F.cosine_similarity(low(x), x),
        "PReLU": lambda: nn.PReLU()(x),
        "Bilinear": lambda: nn.Bilinear(8, 8, 3)(x, x),
        "pad reflect": lambda: F.pad(low(x), (1, 1), mode="reflect"),
        "pad circular": lambda: F.pad(low(x), (1, 1), mode="circular"),
        "mv": lambda: lib.mv(lib.ones(3, 8), lib.ones(8)),
        "baddbmm": lambda: lib.baddbmm(lib.ones(2, 3, 3), x, x.transpose(1, 2)),
        "cdist": lambda: lib.cdist(x, x),
        "sum": lambda: low(x).sum(),
        "stack": lambda: lib.stack([low(x), x]),
        "EmbeddingBag": lambda: nn.EmbeddingBag(5, 4)(lib.tensor([[1, 2]])),
    }


def _dtypes(result):
    if isinstance(result, (tuple, list)):
        return [_dtypes(r) for r in result]
    if hasattr(result, "data") and hasattr(result, "batch_sizes"):  # a PackedSequence
        return _dtypes(result.data)
    return str(result.dtype).rpartition(".")[2]


@pytest.mark.parametrize("name", list(_cases(torch)))
def test_output_dtypes_match_torch(name):
    got = []
    for lib in (torch, yaten):
        lib.manual_seed(0)
        case = _cases(lib)[name]
        with lib.autocast("cpu"):
            got.append(_dtypes(case()))
    assert got[1] == got[0]
