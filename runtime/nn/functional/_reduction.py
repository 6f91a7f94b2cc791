"""The reduction arguments of the losses: ``reduction`` strings, the deprecated ``size_average``/``reduce``."""

import warnings


def _reduction_enum(reduction):
    """PyTorch's ``_Reduction.get_enum``: 'none' 0, 'mean' 1, 'sum' 2."""
    if reduction == "none":
        return 0
    if reduction == "mean":
        return 1
    if reduction == "elementwise_mean":
        warnings.warn(
            "reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.", stacklevel=3
        )
        return 1
    if reduction == "sum":
        return 2
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _legacy_reduction(size_average, reduce):
    """The reduction the deprecated ``size_average``/``reduce`` pair stands for (with PyTorch's warning)."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = "mean" if size_average and reduce else "sum" if reduce else "none"
    warnings.warn(
        f"size_average and reduce args will be deprecated, please use reduction='{ret}' instead.",
        stacklevel=3,
    )
    return ret


def _warn_target_size(input, target):
    if tuple(target.shape) != tuple(input.shape):
        warnings.warn(
            f"Using a target size ({target.size()}) that is different to the input size ({input.size()}). "
            "This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.",
            stacklevel=3,
        )


def _weighted(loss, weight, input, reduction):
    if tuple(weight.shape) != tuple(input.shape):
        raise ValueError("Weights and input must have the same size.")
    loss = loss * weight
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.sum() / weight.sum()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")
