"""The transformer of "Attention Is All You Need", as ``torch.nn.Transformer``, its encoder and decoder
stacks and their layers (torch's parameter names, so torch's state_dicts load).

torch runs inference (eval mode, no gradient) of an encoder given a key-padding mask through nested
tensors, which gives padded positions a zero output before the final norm; yaten computes the same
result with the dense path and zeroes those positions (``TransformerEncoder._nested_padding``).
"""

import copy
import warnings

import yaten

from .. import functional as F
from ..functional.attention import _canonical_mask
from ..init import xavier_uniform_
from .activation import GELU, MultiheadAttention, ReLU
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .module import Module
from .normalization import LayerNorm

__all__ = [
    "Transformer",
    "TransformerDecoder",
    "TransformerDecoderLayer",
    "TransformerEncoder",
    "TransformerEncoderLayer",
]


def _generate_square_subsequent_mask(sz, device=None, dtype=None):
    """A causal mask of size (sz, sz): -inf above the diagonal, 0 elsewhere."""
    return yaten.triu(yaten.full((sz, sz), float("-inf"), dtype=dtype, device=device), diagonal=1)


def _get_seq_len(src, batch_first):
    if src.dim() == 2:
        return src.size(0)
    return src.size(1 if batch_first else 0)


def _none_or_dtype(mask):
    if mask is None:
        return None
    if isinstance(mask, yaten.Tensor):
        return mask.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")


def _get_clones(module, n):
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


def _get_activation_fn(activation):
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def _detect_is_causal_mask(mask, is_causal=None, size=None):
    """``is_causal`` when given; otherwise whether ``mask`` is the causal mask of ``size``."""
    make_causal = is_causal is True
    if is_causal is None and mask is not None:
        sz = size if size is not None else mask.size(-2)
        causal = _generate_square_subsequent_mask(sz, device=mask.device, dtype=mask.dtype)
        make_causal = mask.shape == causal.shape and bool((mask == causal).all())
    return make_causal


class Transformer(Module):
    """An encoder-decoder transformer: ``num_encoder_layers`` TransformerEncoderLayers and
    ``num_decoder_layers`` TransformerDecoderLayers, each stack followed by a LayerNorm (or a
    ``custom_encoder``/``custom_decoder``). Inputs are (S, N, E), (N, S, E) with ``batch_first``, or
    unbatched (S, E); the output has the target's shape.

    >>> import yaten
    >>> model = yaten.nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
    ...                              dim_feedforward=16, batch_first=True)
    >>> src, tgt = yaten.rand(3, 5, 8), yaten.rand(3, 4, 8)
    >>> mask = model.generate_square_subsequent_mask(4)
    >>> model(src, tgt, tgt_mask=mask).shape
    yaten.Size([3, 4, 8])
    """

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation=F.relu, custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):  # fmt: skip
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        layer_args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first,
                      bias)  # fmt: skip
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            encoder_layer = TransformerEncoderLayer(*layer_args, **factory)
            encoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers, encoder_norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            decoder_layer = TransformerDecoderLayer(*layer_args, **factory)
            decoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers, decoder_norm)
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                memory_is_causal=False):  # fmt: skip
        """Encode ``src``, then decode ``tgt`` attending to the encoding. A bool mask is True where
        attention is not allowed; a float mask is added to the attention scores."""
        is_batched = src.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if is_batched and src.size(batch_dim) != tgt.size(batch_dim):
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(
            src, mask=src_mask, src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal
        )
        return self.decoder(
            tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask, tgt_key_padding_mask=tgt_key_padding_mask,
            memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
            memory_is_causal=memory_is_causal,
        )  # fmt: skip

    @staticmethod
    def generate_square_subsequent_mask(sz, device=None, dtype=None):
        """A square causal mask: -inf where position i would attend to a later position j > i, 0 elsewhere.

        >>> import yaten
        >>> yaten.nn.Transformer.generate_square_subsequent_mask(3)
        tensor([[0., -inf, -inf],
                [0., 0., -inf],
                [0., 0., 0.]])
        """
        return _generate_square_subsequent_mask(sz, device=device, dtype=dtype)

    def _reset_parameters(self):
        for p in self.parameters():
            if p.dim() > 1:
                xavier_uniform_(p)


class TransformerEncoder(Module):
    """A stack of ``num_layers`` copies of ``encoder_layer`` (then ``norm`` when given).
    ``enable_nested_tensor`` is accepted as torch accepts it, with torch's warning when the layer
    cannot use it.

    >>> import yaten
    >>> layer = yaten.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16)
    >>> encoder = yaten.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
    >>> encoder(yaten.rand(5, 3, 8)).shape
    yaten.Size([5, 3, 8])
    """

    __constants__ = ("norm",)

    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True):
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why_not = _why_not_sparsity_fast_path(encoder_layer)
        if enable_nested_tensor and why_not:
            warnings.warn(
                f"enable_nested_tensor is True, but self.use_nested_tensor is False because {why_not}",
                stacklevel=2,
            )
            self.use_nested_tensor = False

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        """Pass ``src`` through the layers in turn (``mask``: the attention mask; ``is_causal``: a
        hint that it is the causal mask, detected when None)."""
        src_key_padding_mask = _canonical_mask(
            src_key_padding_mask, "src_key_padding_mask", _none_or_dtype(mask), "mask", src.dtype
        )
        mask = _canonical_mask(mask, "mask", None, "", src.dtype, check_other=False)
        first_layer = self.layers[0]
        batch_first = first_layer.self_attn.batch_first
        padding = self._nested_padding(src, mask, src_key_padding_mask)
        is_causal = _detect_is_causal_mask(mask, is_causal, _get_seq_len(src, batch_first))
        output = src
        for mod in self.layers:
            output = mod(
                output, src_mask=mask, is_causal=is_causal, src_key_padding_mask=src_key_padding_mask
            )
        if padding is not None:
            output = output.masked_fill(padding.unsqueeze(-1), 0.0)
        if self.norm is not None:
            output = self.norm(output)
        return output

    def _nested_padding(self, src, mask, key_padding_mask):
        """Where torch's nested-tensor inference path leaves zeros (the padded positions, batch-first
        (N, S)), or None when torch takes the dense path."""
        first = self.layers[0]
        if not getattr(self, "use_nested_tensor", False) or first.training or src.dim() != 3:
            return None
        if key_padding_mask is None or mask is not None:
            return None
        keep = key_padding_mask.logical_not()
        left_aligned = bool((keep[:, :-1] >= keep[:, 1:]).all())
        if getattr(self, "mask_check", True) and not left_aligned:
            return None
        attn = first.self_attn
        weights = (src, attn.in_proj_weight, attn.in_proj_bias, attn.out_proj.weight, attn.out_proj.bias,
                   first.norm1.weight, first.norm1.bias, first.norm2.weight, first.norm2.bias, first.linear1.weight,
                   first.linear1.bias, first.linear2.weight, first.linear2.bias)  # fmt: skip
        if yaten.is_grad_enabled() and any(w.requires_grad for w in weights):
            return None
        padding = keep.logical_not()
        return padding if first.self_attn.batch_first else padding.transpose(0, 1)


def _why_not_sparsity_fast_path(encoder_layer):
    """Why torch's nested-tensor path cannot run this layer ("" when it can)."""
    enc_layer = "encoder_layer"
    if not isinstance(encoder_layer, TransformerEncoderLayer):
        return f"{enc_layer} was not TransformerEncoderLayer"
    attn = encoder_layer.self_attn
    if encoder_layer.norm_first:
        return f"{enc_layer}.norm_first was True"
    if not attn.batch_first:
        return f"{enc_layer}.self_attn.batch_first was not True(use batch_first for better inference performance)"
    if not attn._qkv_same_embed_dim:
        return f"{enc_layer}.self_attn._qkv_same_embed_dim was not True"
    if attn.in_proj_bias is None:
        return f"{enc_layer}.self_attn was passed bias=False"
    if not encoder_layer.activation_relu_or_gelu:
        return f"{enc_layer}.activation_relu_or_gelu was not True"
    if encoder_layer.norm1.eps != encoder_layer.norm2.eps:
        return f"{enc_layer}.norm1.eps was not equal to {enc_layer}.norm2.eps"
    if attn.num_heads % 2 == 1:
        return f"{enc_layer}.self_attn.num_heads is odd"
    return ""


class TransformerDecoder(Module):
    """A stack of ``num_layers`` copies of ``decoder_layer`` (then ``norm`` when given).

    >>> import yaten
    >>> layer = yaten.nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16)
    >>> decoder = yaten.nn.TransformerDecoder(layer, num_layers=2)
    >>> decoder(yaten.rand(4, 3, 8), yaten.rand(5, 3, 8)).shape
    yaten.Size([4, 3, 8])
    """

    __constants__ = ("norm",)

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False):  # fmt: skip
        """Pass ``tgt`` through the layers in turn, each attending to ``memory``."""
        seq_len = _get_seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)
        output = tgt
        for mod in self.layers:
            output = mod(
                output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask, tgt_key_padding_mask=tgt_key_padding_mask,
                memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
                memory_is_causal=memory_is_causal,
            )  # fmt: skip
        if self.norm is not None:
            output = self.norm(output)
        return output


class _TransformerLayer(Module):
    """What the encoder and decoder layers share: ``blocks`` sub-layers (self-attention, the decoder's
    attention to memory, the feed-forward network), each with its LayerNorm and dropout, registered
    in torch's order (so state_dict keys and reprs are torch's)."""

    def __init__(self, blocks, d_model, nhead, dim_feedforward, dropout, layer_norm_eps, batch_first, norm_first,
                 bias, factory):  # fmt: skip
        super().__init__()
        attention = {"dropout": dropout, "bias": bias, "batch_first": batch_first, **factory}
        self.self_attn = MultiheadAttention(d_model, nhead, **attention)
        if blocks == 3:
            self.multihead_attn = MultiheadAttention(d_model, nhead, **attention)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory)
        self.norm_first = norm_first
        for i in range(1, blocks + 1):
            setattr(self, f"norm{i}", LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory))
        for i in range(1, blocks + 1):
            setattr(self, f"dropout{i}", Dropout(dropout))

    def _feed_forward(self, x):
        return self.linear2(self.dropout(self.activation(self.linear1(x))))

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False,
                           is_causal=is_causal)[0]  # fmt: skip
        return self.dropout1(x)


class TransformerEncoderLayer(_TransformerLayer):
    """Self-attention then a feed-forward network (``linear1``, activation, ``linear2``), each with a
    residual connection and a LayerNorm (after, or before with ``norm_first``). ``activation`` is
    "relu", "gelu" or a callable.

    >>> import yaten
    >>> layer = yaten.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True)
    >>> [name for name, _ in layer.named_parameters()][:4]
    ['self_attn.in_proj_weight', 'self_attn.in_proj_bias', 'self_attn.out_proj.weight', 'self_attn.out_proj.bias']
    >>> layer(yaten.rand(3, 5, 8)).shape
    yaten.Size([3, 5, 8])
    """

    __constants__ = ("norm_first",)

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):  # fmt: skip
        super().__init__(2, d_model, nhead, dim_feedforward, dropout, layer_norm_eps, batch_first, norm_first, bias,
                         {"device": device, "dtype": dtype})  # fmt: skip
        if isinstance(activation, str):
            activation = _get_activation_fn(activation)
        if activation is F.relu or isinstance(activation, ReLU):
            self.activation_relu_or_gelu = 1
        elif activation is F.gelu or isinstance(activation, GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        self.activation = activation

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "activation"):
            self.activation = F.relu

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        """The layer applied to ``src`` (``src_mask``: the attention mask; ``is_causal``: a hint that
        it is the causal mask)."""
        src_key_padding_mask = _canonical_mask(
            src_key_padding_mask, "src_key_padding_mask", _none_or_dtype(src_mask), "src_mask", src.dtype
        )
        src_mask = _canonical_mask(src_mask, "src_mask", None, "", src.dtype, check_other=False)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal=is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal=is_causal))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _ff_block(self, x):
        return self.dropout2(self._feed_forward(x))


class TransformerDecoderLayer(_TransformerLayer):
    """Self-attention, attention to the encoder's ``memory`` (``multihead_attn``), then a
    feed-forward network, each with a residual connection and a LayerNorm (after, or before with
    ``norm_first``).

    >>> import yaten
    >>> layer = yaten.nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16)
    >>> layer(yaten.rand(4, 3, 8), yaten.rand(5, 3, 8), tgt_is_causal=True,
    ...       tgt_mask=yaten.nn.Transformer.generate_square_subsequent_mask(4)).shape
    yaten.Size([4, 3, 8])
    """

    __constants__ = ("norm_first",)

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):  # fmt: skip
        super().__init__(3, d_model, nhead, dim_feedforward, dropout, layer_norm_eps, batch_first, norm_first, bias,
                         {"device": device, "dtype": dtype})  # fmt: skip
        self.activation = _get_activation_fn(activation) if isinstance(activation, str) else activation

    def __setstate__(self, state):
        if "activation" not in state:
            state["activation"] = F.relu
        super().__setstate__(state)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):  # fmt: skip
        """The layer applied to ``tgt``, attending to ``memory``."""
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(
                self.norm2(x), memory, memory_mask, memory_key_padding_mask, memory_is_causal
            )
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
            x = self.norm2(
                x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask, memory_is_causal)
            )
            x = self.norm3(x + self._ff_block(x))
        return x

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal=False):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                is_causal=is_causal, need_weights=False)[0]  # fmt: skip
        return self.dropout2(x)

    def _ff_block(self, x):
        return self.dropout3(self._feed_forward(x))
