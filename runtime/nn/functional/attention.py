"""Attention: ``scaled_dot_product_attention`` and ``multi_head_attention_forward``."""

import math
import warnings

import yaten as _yaten


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):  # fmt: skip
    """softmax(query @ keyᵀ · scale + mask) @ value; a bool mask says where to attend (True), a float
    mask is added to the scores.

    >>> import yaten
    >>> q = yaten.ones(1, 2, 4)
    >>> yaten.nn.functional.scaled_dot_product_attention(q, q, yaten.tensor([[[1.0], [3.0]]]), is_causal=True)
    tensor([[[1.],
             [2.]]])
    """
    return _yaten.scaled_dot_product_attention(
        query, key, value, attn_mask, dropout_p, is_causal, scale=scale, enable_gqa=enable_gqa
    )


def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """A bool mask (True = masked out) as a float one (-inf there, 0 elsewhere); a float mask as is."""
    if mask is None:
        return None
    if check_other and other_type is not None and mask.dtype is not other_type:
        warnings.warn(
            f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for both instead.",
            stacklevel=3,
        )
    if mask.dtype is _yaten.bool:
        return _yaten.zeros(tuple(mask.shape), dtype=target_type, device=mask.device).masked_fill(
            mask, float("-inf")
        )
    if not mask.dtype.is_floating_point:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    return mask


def _mha_dropout(x, p):
    if p <= 0.0:
        return x
    if p >= 1.0:
        return x * 0.0
    return x * (_yaten.rand_like(x) >= p) / (1 - p)


def _pad_last(t, value=0.0):
    """``t`` with one more column (``value``) at the end of its last dim."""
    return _yaten.cat([t, _yaten.full((*t.shape[:-1], 1), value, dtype=t.dtype, device=t.device)], -1)


def _mha_is_batched(query, key, value):
    # torch's _mha_shape_check raises AssertionError (explicitly here: ``assert`` vanishes under -O).
    if query.dim() not in (2, 3):
        raise AssertionError(
            f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D query tensor"
        )
    if key.dim() != query.dim() or value.dim() != query.dim():
        kind = "batched (3-D)" if query.dim() == 3 else "unbatched (2-D)"
        raise AssertionError(
            f"For {kind} `query`, expected `key` and `value` to be {query.dim()}-D but found {key.dim()}-D "
            f"and {value.dim()}-D tensors respectively"
        )
    return query.dim() == 3


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):  # fmt: skip
    """The forward pass of ``nn.MultiheadAttention``, sequence-first: query (L, N, E) or unbatched (L, E);
    returns (output, weights averaged over heads or per head, or None when ``need_weights`` is False)."""
    is_batched = _mha_is_batched(query, key, value)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    other_type = None if attn_mask is None else attn_mask.dtype
    key_padding_mask = _canonical_mask(
        key_padding_mask, "key_padding_mask", other_type, "attn_mask", query.dtype
    )
    if is_causal and attn_mask is None:
        raise RuntimeError(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer module method "
            "`generate_square_subsequent_mask` to create this mask."
        )
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # scaled_dot_product_attention applies the causal mask itself
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        is_causal = False if key_padding_mask is not None else is_causal
    if embed_dim != embed_dim_to_check:
        raise AssertionError(
            f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}"
        )
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    b_q = b_k = b_v = None
    if in_proj_bias is not None:
        b_q, b_k, b_v = in_proj_bias.chunk(3)
    if use_separate_proj_weight:
        w_q, w_k, w_v = q_proj_weight, k_proj_weight, v_proj_weight
    else:
        w_q, w_k, w_v = in_proj_weight.chunk(3)
    q = _yaten.linear(query, w_q, b_q)
    k = _yaten.linear(key, w_k, b_k)
    v = _yaten.linear(value, w_v, b_v)

    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(
                    f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be {(tgt_len, src_len)}."
                )
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(
                    f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                    f"{(bsz * num_heads, tgt_len, src_len)}."
                )
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
    if bias_k is not None and bias_v is not None:
        k = _yaten.cat([k, bias_k.expand(1, bsz, embed_dim)])
        v = _yaten.cat([v, bias_v.expand(1, bsz, embed_dim)])
        attn_mask = _pad_last(attn_mask) if attn_mask is not None else None
        key_padding_mask = _pad_last(key_padding_mask) if key_padding_mask is not None else None

    q = q.reshape((tgt_len, bsz * num_heads, head_dim)).transpose(0, 1)
    # static_k / static_v are already per head: (bsz * num_heads, S, head_dim).
    k = k.reshape((-1, bsz * num_heads, head_dim)).transpose(0, 1) if static_k is None else static_k
    v = v.reshape((-1, bsz * num_heads, head_dim)).transpose(0, 1) if static_v is None else static_v
    if add_zero_attn:
        zeros = _yaten.zeros((bsz * num_heads, 1, head_dim), dtype=k.dtype, device=k.device)
        k, v = _yaten.cat([k, zeros], 1), _yaten.cat([v, zeros], 1)
        attn_mask = _pad_last(attn_mask) if attn_mask is not None else None
        key_padding_mask = _pad_last(key_padding_mask) if key_padding_mask is not None else None
    src_len = k.shape[1]
    if key_padding_mask is not None:
        if tuple(key_padding_mask.shape) != (bsz, src_len):
            raise AssertionError(
                f"expecting key_padding_mask shape of {(bsz, src_len)}, but got {key_padding_mask.shape}"
            )
        kpm = key_padding_mask.reshape((bsz, 1, 1, src_len)).expand(bsz, num_heads, 1, src_len)
        kpm = kpm.reshape((bsz * num_heads, 1, src_len))
        attn_mask = kpm if attn_mask is None else attn_mask + kpm
    if not training:
        dropout_p = 0.0

    if need_weights:
        scores = (q * math.sqrt(1.0 / q.shape[-1])).matmul(k.transpose(-2, -1))
        if attn_mask is not None:
            scores = scores + attn_mask
        weights = _mha_dropout(scores.softmax(-1), dropout_p)
        out = weights.matmul(v).transpose(0, 1).reshape((tgt_len * bsz, embed_dim))
        out = _yaten.linear(out, out_proj_weight, out_proj_bias).reshape((tgt_len, bsz, embed_dim))
        weights = weights.reshape((bsz, num_heads, tgt_len, src_len))
        if average_attn_weights:
            weights = weights.mean(1)
        if not is_batched:
            out, weights = out.squeeze(1), weights.squeeze(0)
        return out, weights
    if attn_mask is not None:
        attn_mask = (
            attn_mask.unsqueeze(0)
            if attn_mask.shape[0] == 1
            else attn_mask.reshape((bsz, num_heads, -1, src_len))
        )
    q = q.reshape((bsz, num_heads, tgt_len, head_dim))
    k = k.reshape((bsz, num_heads, src_len, head_dim))
    v = v.reshape((bsz, num_heads, src_len, head_dim))
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape((bsz * tgt_len, embed_dim))
    out = _yaten.linear(out, out_proj_weight, out_proj_bias).reshape((tgt_len, bsz, embed_dim))
    return (out if is_batched else out.squeeze(1)), None
