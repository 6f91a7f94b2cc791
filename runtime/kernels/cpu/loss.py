"""Negative log likelihood over host arrays: nll_loss_forward and nll_loss_backward, as ATen's.

``self`` holds one row of class scores per sample, (N, C), and ``target`` the N class indices. A target
equal to ``ignore_index`` counts for nothing, neither in the loss nor in the total weight a mean
divides by. ``reduction`` is ATen's enum: 0 none, 1 mean, 2 sum. One compiled pass over the rows each
way (a training step's loss is small: NumPy's masks and fancy indexing cost more than the work).
"""

import numba
import numpy as np

from .convert import compute_dtype

NONE, MEAN = 0, 1


@numba.njit(cache=True, error_model="numpy")
def _pick_rows(x, target, weight, ignore_index, losses):  # pragma: no cover - compiled
    """``losses[i] = -x[i, t] * weight[t]`` (0 where ignored); returns the total weight and the first
    row whose target is out of bounds (-1 if none)."""
    total = weight[:0].sum()  # a zero of the weights' dtype
    for i in range(x.shape[0]):
        t = target[i]
        if t == ignore_index:
            losses[i] = 0
            continue
        if t < 0 or t >= x.shape[1]:
            return total, i
        losses[i] = -(x[i, t] * weight[t])
        total += weight[t]
    return total, -1


@numba.njit(cache=True, error_model="numpy")
def _scatter_rows(target, weight, ignore_index, scale, out):  # pragma: no cover - compiled
    """``out[i, t] = -weight[t] * scale[i]`` (``scale`` of one element applies to every row); returns
    the first row whose target is out of bounds (-1 if none)."""
    one = scale.size == 1
    for i in range(out.shape[0]):
        t = target[i]
        if t == ignore_index:
            continue
        if t < 0 or t >= out.shape[1]:
            return i
        out[i, t] = -weight[t] * scale[0 if one else i]
    return -1


def _operands(self, target, weight):
    """The target as a flat array and the weights (ones when none), in ``self``'s dtype."""
    weight = np.ones(self.shape[1], self.dtype) if weight is None else np.asarray(weight, self.dtype)
    return np.asarray(target).reshape(-1), weight


def check_target_bounds(target, bad: int) -> None:
    if bad >= 0:
        raise IndexError(f"Target {int(target[bad])} is out of bounds.")


def nll_loss_forward(self, target, weight, reduction, ignore_index):
    """``(output, total_weight)``: ``-self[i, target[i]] * weight[target[i]]`` per row, summed (and
    divided by the total weight for a mean; 0 / 0 is NaN, as in PyTorch) unless ``reduction`` is none.

    >>> nll_loss_forward(np.array([[-1.0, -2.0], [-3.0, -4.0]]), np.array([1, 0]), None, 1, -100)
    (array(2.5), array(2.))
    """
    dtype = self.dtype
    x = np.asarray(self, compute_dtype(dtype))  # half is computed in float32, as torch's CPU kernel
    target, weight = _operands(x, target, weight)
    losses = np.empty(x.shape[0], x.dtype)
    total, bad = _pick_rows(x, target, weight, ignore_index, losses)
    check_target_bounds(target, bad)
    if reduction == NONE:
        return losses.astype(dtype, copy=False), np.zeros((), dtype)
    out = losses.sum(dtype=x.dtype)
    if reduction == MEAN:
        with np.errstate(invalid="ignore", divide="ignore"):
            out = out / total
    return np.asarray(out, dtype), np.asarray(total, dtype)


def nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index, total_weight):
    """The gradient of ``nll_loss_forward``'s output with respect to ``self``: ``-weight[target[i]]``
    times the incoming gradient (over the total weight for a mean) at each row's target, 0 elsewhere.

    >>> nll_loss_backward(np.array(1.0), np.zeros((2, 2)), np.array([1, 0]), None, 1, -100, np.array(2.0))
    array([[ 0. , -0.5],
           [-0.5,  0. ]])
    """
    dtype = compute_dtype(self.dtype)  # half is computed in float32, as in the forward
    target, weight = _operands(np.empty((0, self.shape[1]), dtype), target, weight)
    scale = np.asarray(grad_output, dtype).reshape(-1)
    if reduction == MEAN:
        with np.errstate(invalid="ignore", divide="ignore"):  # a mean over no target: 0 / 0
            scale = scale / np.asarray(total_weight, dtype)
    out = np.zeros(self.shape, dtype)
    check_target_bounds(target, _scatter_rows(target, weight, ignore_index, scale, out))
    return out.astype(self.dtype, copy=False)
