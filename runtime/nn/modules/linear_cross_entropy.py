"""The chunked path of ``F.linear_cross_entropy`` (``options`` given), as
``torch.nn.modules.linear_cross_entropy``: the batch goes through the projection and the cross entropy
a chunk of rows at a time, and backward recomputes each chunk's logits, so no (N, C) logits tensor is
ever kept: peak memory is one chunk's. Class-index targets, no label smoothing, (C,) bias only."""

import yaten

from ...autograd.function import Function


def _chunk_terms(x, weight_matrix, bias, target, class_weight, ignore_index):
    """One chunk's logits, the safe targets (ignored ones at class 0) and each row's loss weight
    (its class weight, 0 when ignored)."""
    logits = x @ weight_matrix.t()
    if bias is not None:
        logits = logits + bias
    valid = target != ignore_index
    safe = yaten.where(valid, target, 0)
    scale = valid.to(logits.dtype)
    if class_weight is not None:
        scale = scale * class_weight.index_select(0, safe).to(logits.dtype)
    return logits, safe, scale


class _ChunkedLinearCrossEntropy(Function):
    @staticmethod
    def forward(
        ctx, input, weight_matrix, bias, target, class_weight, reduction, ignore_index, chunk, acc_dtype
    ):
        losses, weights = [], []
        for start in range(0, input.shape[0], chunk):
            rows = slice(start, start + chunk)
            logits, safe, scale = _chunk_terms(
                input[rows], weight_matrix, bias, target[rows], class_weight, ignore_index
            )
            picked = logits.gather(1, safe.unsqueeze(1)).squeeze(1)
            losses.append((logits.logsumexp(1) - picked) * scale)
            weights.append(scale)
        loss = yaten.cat(losses)
        ctx.save_for_backward(input, weight_matrix, bias, target, class_weight)
        ctx.reduction, ctx.ignore_index, ctx.chunk, ctx.acc_dtype = reduction, ignore_index, chunk, acc_dtype
        ctx.total_weight = yaten.cat(weights).sum()
        if reduction == "none":
            return loss
        total = loss.sum()
        return total if reduction == "sum" else total / ctx.total_weight

    @staticmethod
    def backward(ctx, grad):
        input, weight_matrix, bias, target, class_weight = ctx.saved_tensors
        if ctx.reduction == "mean":
            grad = grad / ctx.total_weight
        acc = ctx.acc_dtype
        grad_input = yaten.empty_like(input) if ctx.needs_input_grad[0] else None
        grad_weight = yaten.zeros(weight_matrix.shape, dtype=acc, device=input.device)
        grad_bias = yaten.zeros(weight_matrix.shape[0], dtype=acc, device=input.device)
        for start in range(0, input.shape[0], ctx.chunk):
            rows = slice(start, start + ctx.chunk)
            x = input[rows]
            logits, safe, scale = _chunk_terms(
                x, weight_matrix, bias, target[rows], class_weight, ctx.ignore_index
            )
            row_grad = grad[rows] if ctx.reduction == "none" else grad
            # d loss / d logits = (softmax - one_hot(target)) * the row's weight and incoming gradient
            g = logits.softmax(1).scatter_add(1, safe.unsqueeze(1), -yaten.ones_like(logits[:, :1]))
            g = g * (scale * row_grad).unsqueeze(1)
            if grad_input is not None:
                grad_input[rows] = g @ weight_matrix
            grad_weight += (g.t() @ x).to(acc)
            grad_bias += g.sum(0).to(acc)
        grad_weight = grad_weight.to(weight_matrix.dtype) if ctx.needs_input_grad[1] else None
        grad_bias = grad_bias.to(bias.dtype) if bias is not None and ctx.needs_input_grad[2] else None
        return grad_input, grad_weight, grad_bias, None, None, None, None, None, None


def _linear_cross_entropy_batch_chunked(input, linear_weight, target, linear_bias, weight, reduction, ignore_index,
                                        batch_chunk_size, acc_dtype):  # fmt: skip
    """The loss of a (N, in_features) input, ``batch_chunk_size`` rows at a time."""
    return _ChunkedLinearCrossEntropy.apply(
        input,
        linear_weight,
        linear_bias,
        target,
        weight,
        reduction,
        ignore_index,
        batch_chunk_size,
        acc_dtype,
    )
