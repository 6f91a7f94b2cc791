"""Negative log likelihood over host arrays: nll_loss_forward and nll_loss_backward, as ATen's.

``self`` holds one row of class scores per sample, (N, C), and ``target`` the N class indices. A target
equal to ``ignore_index`` counts for nothing, neither in the loss nor in the total weight a mean
divides by. ``reduction`` is ATen's enum: 0 none, 1 mean, 2 sum.
"""

import numpy as np

_NONE, _MEAN = 0, 1


def _picks(self, target, weight, ignore_index):
    """(rows, safe class of each row, weight of each row: 0 where ignored, the rows not ignored), after
    the bounds check."""
    classes = np.asarray(target).reshape(-1).astype(np.int64, copy=False)
    valid = classes != ignore_index
    bad = valid & ((classes < 0) | (classes >= self.shape[1]))
    if bad.any():
        raise IndexError(f"Target {int(classes[bad][0])} is out of bounds.")
    safe = np.where(valid, classes, 0)
    w = valid.astype(self.dtype) if weight is None else np.where(valid, weight[safe], 0).astype(self.dtype)
    return np.arange(len(classes)), safe, w, valid


def nll_loss_forward(self, target, weight, reduction, ignore_index):
    """``(output, total_weight)``: ``-self[i, target[i]] * weight[target[i]]`` per row, summed (and
    divided by the total weight for a mean; 0 / 0 is NaN, as in PyTorch) unless ``reduction`` is none.

    >>> nll_loss_forward(np.array([[-1.0, -2.0], [-3.0, -4.0]]), np.array([1, 0]), None, 1, -100)
    (array(2.5), array(2.))
    """
    rows, safe, w, valid = _picks(self, target, weight, ignore_index)
    losses = -(self[rows, safe] * w)
    total = w.sum(dtype=self.dtype)
    if reduction == _NONE:
        return np.where(valid, losses, 0).astype(self.dtype), np.zeros((), self.dtype)
    out = losses.sum(dtype=self.dtype)
    if reduction == _MEAN:
        with np.errstate(invalid="ignore", divide="ignore"):
            out = out / total
    return np.asarray(out, self.dtype), np.asarray(total, self.dtype)


def nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index, total_weight):
    """The gradient of ``nll_loss_forward``'s output with respect to ``self``: ``-weight[target[i]]``
    times the incoming gradient (over the total weight for a mean) at each row's target, 0 elsewhere.

    >>> nll_loss_backward(np.array(1.0), np.zeros((2, 2)), np.array([1, 0]), None, 1, -100, np.array(2.0))
    array([[ 0. , -0.5],
           [-0.5,  0. ]])
    """
    rows, safe, w, valid = _picks(self, target, weight, ignore_index)
    g = np.asarray(grad_output, self.dtype).reshape(-1)
    out = np.zeros(self.shape, self.dtype)
    with np.errstate(invalid="ignore", divide="ignore"):  # a mean over no target: 0 / 0, ignored below
        if reduction == _MEAN:
            g = g / np.asarray(total_weight, self.dtype)
        out[rows, safe] = np.where(valid, -w * g, 0)
    return out
