"""scaled_dot_product_attention as a CompositeImplicitAutograd op (PyTorch's math backend)."""

import math

import yaten


def _repeat_heads(t, repeats):
    """``t.repeat_interleave(repeats, -3)`` through a broadcast view: each head repeated in place."""
    if repeats == 1:
        return t
    shape = tuple(t.shape)
    lead, heads, rest = shape[:-3], shape[-3], shape[-2:]
    return t.unsqueeze(-3).expand(lead + (heads, repeats) + rest).reshape(lead + (heads * repeats,) + rest)


def _dtype_name(t):
    return {"float64": "double", "float32": "float", "float16": "c10::Half"}.get(t.dtype.name, t.dtype.name)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):  # fmt: skip
    if not (query.dtype is key.dtype is value.dtype):
        raise RuntimeError(
            "Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{_dtype_name(query)} key.dtype: {_dtype_name(key)} and value.dtype: {_dtype_name(value)} instead."
        )
    if min(query.ndim, key.ndim, value.ndim) < 2:
        raise RuntimeError(
            "Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
            f"{query.ndim} key.dim: {key.ndim} and value.dim: {value.ndim} instead."
        )
    if is_causal and attn_mask is not None:
        raise RuntimeError(
            "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True"
        )
    length, source = query.shape[-2], key.shape[-2]
    scale_factor = 1 / math.sqrt(query.shape[-1]) if scale is None else scale
    if enable_gqa and query.ndim >= 3 and key.ndim >= 3:
        key = _repeat_heads(key, query.shape[-3] // key.shape[-3])
        value = _repeat_heads(value, query.shape[-3] // value.shape[-3])
    scores = query.matmul(key.transpose(-2, -1)) * scale_factor
    # A causal row always sees key 0, so only explicit masks can leave a row with nothing to attend to.
    masked = attn_mask is not None
    if is_causal:
        rows = yaten.arange(length, device=query.device).unsqueeze(-1)
        cols = yaten.arange(source, device=query.device)
        scores = scores.masked_fill(cols > rows, float("-inf"))
    elif attn_mask is not None:
        if attn_mask.dtype is yaten.bool:
            scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            scores = scores + attn_mask
    if masked:
        # PyTorch's _safe_softmax: a row with every position masked attends to nothing (zeros, not NaN),
        # and its scores are replaced before the softmax so no NaN reaches the gradient either.
        empty = (scores == float("-inf")).all(-1, keepdim=True)
        weights = scores.masked_fill(empty, 0.0).softmax(-1).masked_fill(empty, 0.0)
    else:
        weights = scores.softmax(-1)
    if dropout_p > 0.0:
        if dropout_p > 1.0:
            raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
        keep = yaten.rand_like(weights) >= dropout_p
        weights = weights * keep / (1 - dropout_p) if dropout_p < 1.0 else weights * 0.0
    return weights.matmul(value)
