"""``embedding``, ``embedding_bag`` and ``one_hot``."""

import warnings

import numpy as np

import yaten as _yaten


def _embedding_renorm_(weight, input, max_norm, norm_type):
    # Rows of ``weight`` that ``input`` looks up and whose norm exceeds max_norm are scaled down to it,
    # in place, as PyTorch's embedding_renorm_. A repeated index writes the same row twice.
    with _yaten.no_grad():
        idx = input.reshape(-1)
        rows = weight.index_select(0, idx)
        norms = rows.norm(norm_type, [1], True)
        scale = _yaten.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        weight.index_put_([idx], rows * scale)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):  # fmt: skip
    """The rows of ``weight`` at the indices ``input``; the row ``padding_idx`` gets no gradient.
    ``sparse=True`` gives a dense gradient (yaten has no sparse tensors).

    >>> import yaten
    >>> w = yaten.arange(6.0).reshape(3, 2)
    >>> yaten.nn.functional.embedding(yaten.tensor([2, 0]), w)
    tensor([[4., 5.],
            [0., 1.]])
    """
    if padding_idx is not None:
        if padding_idx > 0:
            if padding_idx >= weight.shape[0]:
                raise AssertionError("Padding_idx must be within num_embeddings")
        elif padding_idx < 0:
            if padding_idx < -weight.shape[0]:
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = weight.shape[0] + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        _embedding_renorm_(weight, input.contiguous(), max_norm, norm_type)
    return _yaten.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def one_hot(tensor, num_classes=-1):
    """int64 one-hot encodings of the class indices ``tensor`` (``num_classes=-1``: max + 1).

    >>> import yaten
    >>> yaten.nn.functional.one_hot(yaten.tensor([0, 2]))
    tensor([[1, 0, 0],
            [0, 0, 1]])
    """
    return _yaten.one_hot(tensor, num_classes)


def _bag_positions(offsets, count, include_last_offset):
    """``(bags, L)`` positions into the flat input of each bag's entries (padded) and their validity."""
    starts = [int(o) for o in offsets.tolist()]
    ends = starts[1:] if include_last_offset else [*starts[1:], count]
    starts = starts[:-1] if include_last_offset else starts
    lengths = np.array([max(e - s, 0) for s, e in zip(starts, ends)], dtype=np.int64)
    width = max(int(lengths.max()) if len(lengths) else 0, 1)
    slots = np.arange(width)[None, :]
    positions = np.array(starts, dtype=np.int64).reshape(-1, 1) + slots
    valid = slots < lengths[:, None]
    return np.where(valid, positions, 0), valid


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):  # fmt: skip
    """Sums, means or maxima of bags of embedding rows: the rows of ``weight`` at ``input``, bagged by
    ``offsets`` (a 1-d ``input``) or by row (a 2-d one); ``padding_idx`` entries are left out.

    >>> import yaten
    >>> w = yaten.arange(6.0).reshape(3, 2)
    >>> yaten.nn.functional.embedding_bag(yaten.tensor([0, 2, 1]), w, yaten.tensor([0, 2]), mode="sum")
    tensor([[4., 6.],
            [2., 3.]])
    """
    if weight.dtype is _yaten.long and input.is_floating_point():
        warnings.warn(
            "Argument order of nn.functional.embedding_bag was changed. Usage `embedding_bag(weight, input, ...)` "
            "is deprecated, and should now be `embedding_bag(input, weight, ...)`.",
            stacklevel=2,
        )
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(
            f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it must have "
            f"the same shape as the input ({input.shape})"
        )
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError(
                "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed length "
                f"sequences. However, found offsets of type {type(offsets)}"
            )
        offsets = _yaten.arange(0, input.numel(), input.size(1), dtype=input.dtype, device=input.device)
        include_last_offset = False
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if scale_grad_by_freq:
        raise NotImplementedError(
            "yaten has no torch.nn.functional.embedding_bag(scale_grad_by_freq=True) yet"
        )
    if max_norm is not None:
        _embedding_renorm_(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for mode='sum' "
            f"(got mode='{mode}'). Please open a feature request on GitHub."
        )
    flat = input.reshape(-1)
    positions, valid = _bag_positions(offsets, flat.numel(), include_last_offset)
    index = _yaten.tensor(positions, device=weight.device)
    keep = _yaten.tensor(valid, device=weight.device)
    ids = flat.index_select(0, index.reshape(-1)).reshape(index.shape) if flat.numel() else index
    if padding_idx is not None:
        keep = keep & (ids != (padding_idx % weight.shape[0]))
    rows = weight.index_select(0, ids.reshape(-1)).reshape(*ids.shape, weight.shape[1])
    if per_sample_weights is not None:
        psw = per_sample_weights.reshape(-1)
        rows = rows * psw.index_select(0, index.reshape(-1)).reshape(*ids.shape, 1)
    mask = keep.unsqueeze(-1)
    if mode == "max":
        top = rows.masked_fill(~mask, float("-inf")).amax(1)
        return _yaten.where(keep.any(1, keepdim=True), top, 0.0)
    total = (rows * mask).sum(1)
    if mode == "sum":
        return total
    return total / keep.sum(1, keepdim=True).clamp_min(1).to(total.dtype)
