"""Multi-head attention, as ``torch.nn.MultiheadAttention``."""

import yaten

from .. import functional as F
from ..init import constant_, xavier_normal_, xavier_uniform_
from ..parameter import Parameter
from .linear import Linear
from .module import Module

__all__ = ["MultiheadAttention"]


class NonDynamicallyQuantizableLinear(Linear):
    """A ``Linear`` by another name: PyTorch names MultiheadAttention's output projection so (it keeps
    quantization tools off it), and the name shows in the module's repr."""


class MultiheadAttention(Module):
    """Attention from ``query`` to ``key``/``value`` in ``num_heads`` parallel heads of size
    ``embed_dim // num_heads``; inputs are (L, N, E), or (N, L, E) with ``batch_first``, or unbatched (L, E).

    >>> import yaten
    >>> mha = yaten.nn.MultiheadAttention(8, 2, batch_first=True)
    >>> mha
    MultiheadAttention(
      (out_proj): NonDynamicallyQuantizableLinear(in_features=8, out_features=8, bias=True)
    )
    >>> x = yaten.randn(3, 5, 8)
    >>> out, weights = mha(x, x, x)
    >>> out.shape, weights.shape
    (yaten.Size([3, 5, 8]), yaten.Size([3, 5, 5]))
    """

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):  # fmt: skip
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(
                f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and "
                f"num_heads={num_heads} instead"
            )
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if not self._qkv_same_embed_dim:
            # Keys and values of other sizes than the queries': one projection weight each.
            self.q_proj_weight = Parameter(yaten.empty((embed_dim, embed_dim), **factory))
            self.k_proj_weight = Parameter(yaten.empty((embed_dim, self.kdim), **factory))
            self.v_proj_weight = Parameter(yaten.empty((embed_dim, self.vdim), **factory))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = Parameter(yaten.empty((3 * embed_dim, embed_dim), **factory))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(yaten.empty(3 * embed_dim, **factory))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, **factory)
        if add_bias_kv:
            self.bias_k = Parameter(yaten.empty((1, 1, embed_dim), **factory))
            self.bias_v = Parameter(yaten.empty((1, 1, embed_dim), **factory))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        if self._qkv_same_embed_dim:
            xavier_uniform_(self.in_proj_weight)
        else:
            xavier_uniform_(self.q_proj_weight)
            xavier_uniform_(self.k_proj_weight)
            xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            constant_(self.in_proj_bias, 0.0)
            constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            xavier_normal_(self.bias_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):  # fmt: skip
        """(output, attention weights): weights averaged over heads (N, L, S), per head (N, H, L, S) when
        ``average_attn_weights`` is False, None when ``need_weights`` is False."""
        is_batched = query.dim() == 3
        if self.batch_first and is_batched:
            query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        separate = not self._qkv_same_embed_dim
        out, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias,
            self.bias_k, self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight, self.out_proj.bias,
            training=self.training, key_padding_mask=key_padding_mask, need_weights=need_weights,
            attn_mask=attn_mask, use_separate_proj_weight=separate, q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight, v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights, is_causal=is_causal,
        )  # fmt: skip
        if self.batch_first and is_batched:
            return out.transpose(1, 0), weights
        return out, weights
