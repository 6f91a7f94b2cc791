"""Negative log likelihood over device arrays: nll_loss_forward and nll_loss_backward (numba.cuda).

Same signatures, dtype rules, results and errors as ``kernels/cpu/loss.py``: ``self`` holds one row
of class scores per sample, (N, C), ``target`` the N class indices; a target equal to
``ignore_index`` counts for nothing, neither in the loss nor in the total weight a mean divides by;
``reduction`` is ATen's enum (0 none, 1 mean, 2 sum). Half is computed in float32.

One thread per row picks ``-self[i, t] * weight[t]`` (reading ``self`` through its strides, no
copy) and the weight it counts, or scatters the gradient into its row. A target out of bounds
lowers a one-integer flag to the first such row (an atomic min); the host copies the flag back
and raises the CPU kernel's ``IndexError`` before returning anything. A sum or mean then adds the
losses and the weights in one block (shared memory) and divides on the device, so the results
never leave it.
"""

import functools

import numpy as np
from numba import cuda, from_dtype

from ..cpu.convert import compute_dtype
from ..cpu.loss import MEAN, NONE, check_target_bounds
from . import memory
from .copy import contiguous_cast, launch, zero_
from .reduce import MAX_THREADS, block_threads


def nll_loss_forward(self, target, weight, reduction, ignore_index):
    """``(output, total_weight)``: ``-self[i, target[i]] * weight[target[i]]`` per row, summed (and
    divided by the total weight for a mean; 0 / 0 is NaN, as in PyTorch) unless ``reduction`` is none.

    >>> x = memory.from_host([[-1.0, -2.0], [-3.0, -4.0]])
    >>> [memory.to_host(r) for r in nll_loss_forward(x, memory.from_host([1, 0]), None, 1, -100)]
    [array(2.5), array(2.)]
    """
    dt = self.dtype
    acc = compute_dtype(dt)
    x = self if dt == acc else contiguous_cast(self, self.shape, acc)
    xs, (s0, s1) = memory.span(x)
    n, c = self.shape
    t, ts = _flat(target, target.dtype)
    w, ws = _weights(weight, acc)
    losses, picked = memory.empty((n,), acc), memory.empty((n,), acc)
    bad = memory.from_host(np.array([n], np.int64))
    launch(_pick_rows, n, xs, s0, s1, c, t, ts, w, ws, ignore_index, losses, picked, bad)
    _raise_out_of_bounds(t, ts, bad, n)
    if reduction == NONE:
        return _as(losses, (n,), dt), memory.from_host(np.zeros((), dt))
    out, total = memory.empty((1,), acc), memory.empty((1,), acc)
    _sum_kernel(acc)[1, block_threads(n)](losses, picked, reduction == MEAN, out, total)
    return _as(out, (), dt), _as(total, (), dt)


def nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index, total_weight):
    """The gradient of ``nll_loss_forward``'s output with respect to ``self``: ``-weight[target[i]]``
    times the incoming gradient (over the total weight for a mean) at each row's target, 0 elsewhere.

    >>> g, x, t = memory.from_host(1.0), memory.from_host(np.zeros((2, 2))), memory.from_host([1, 0])
    >>> memory.to_host(nll_loss_backward(g, x, t, None, 1, -100, memory.from_host(2.0)))
    array([[ 0. , -0.5],
           [-0.5,  0. ]])
    """
    dt = self.dtype
    acc = compute_dtype(dt)
    n, c = self.shape
    t, ts = _flat(target, target.dtype)
    w, ws = _weights(weight, acc)
    g, gs = _flat(grad_output, acc)
    if grad_output.size == 1:
        gs = 0  # one incoming gradient for every row, as the CPU kernel's scale of one element
    tw = _flat(total_weight, acc)[0]
    out = memory.empty((n, c), acc)
    zero_(out)
    bad = memory.from_host(np.array([n], np.int64))
    mean = reduction == MEAN
    launch(_scatter_rows, n, n, c, t, ts, w, ws, ignore_index, g, gs, tw, mean, memory.flat(out), bad)
    _raise_out_of_bounds(t, ts, bad, n)
    return _as(out, (n, c), dt)


# --- the kernels -------------------------------------------------------------------------------


@cuda.jit(device=True)
def _row_target(target, i, ts, ignore_index, c, bad):
    """Row ``i``'s target class, or -1 where it is ignored or out of bounds (``bad[0]`` becomes the
    first row out of bounds)."""
    t = np.int64(target[i * ts])
    if t == ignore_index:
        return np.int64(-1)
    if t < 0 or t >= c:
        cuda.atomic.min(bad, 0, i)
        return np.int64(-1)
    return t


@cuda.jit
def _pick_rows(x, s0, s1, c, target, ts, weight, ws, ignore_index, losses, picked, bad):
    """``losses[i] = -x[i, t] * weight[t]`` and ``picked[i] = weight[t]`` (both 0 where ignored or
    out of bounds); ``bad[0]`` becomes the first row whose target is out of bounds."""
    i = cuda.grid(1)
    if i < losses.shape[0]:
        losses[i] = 0
        picked[i] = 0
        t = _row_target(target, i, ts, ignore_index, c, bad)
        if t < 0:
            return
        w = weight[t * ws]
        losses[i] = -(x[i * s0 + t * s1] * w)
        picked[i] = w


@cuda.jit
def _scatter_rows(n, c, target, ts, weight, ws, ignore_index, g, gs, tw, mean, out, bad):
    """``out[i, t] = -weight[t] * g[i]`` (over ``tw[0]`` for a mean) into the zeroed flat (N, C)
    ``out``; ``bad[0]`` becomes the first row whose target is out of bounds."""
    i = cuda.grid(1)
    if i < n:
        t = _row_target(target, i, ts, ignore_index, c, bad)
        if t < 0:
            return
        s = g[i * gs]
        if mean:
            s = s / tw[0]
        out[i * c + t] = -weight[t * ws] * s


@functools.cache
def _sum_kernel(acc):
    """The one-block kernel adding the losses and the picked weights in ``acc``; one per dtype."""
    acc_t, zero = from_dtype(acc), acc.type(0)

    @cuda.jit
    def sum_losses(losses, picked, mean, out, total):
        # Both sums in one tree in shared memory, halving; blockDim.x is a power of two.
        t = cuda.threadIdx.x
        s = zero
        w = zero
        j = t
        while j < losses.shape[0]:
            s += losses[j]
            w += picked[j]
            j += cuda.blockDim.x
        ps = cuda.shared.array(MAX_THREADS, acc_t)
        pw = cuda.shared.array(MAX_THREADS, acc_t)
        ps[t] = s
        pw[t] = w
        cuda.syncthreads()
        step = cuda.blockDim.x // 2
        while step > 0:
            if t < step:
                ps[t] += ps[t + step]
                pw[t] += pw[t + step]
            cuda.syncthreads()
            step //= 2
        if t == 0:
            out[0] = ps[0] / pw[0] if mean else ps[0]  # a mean over no target: 0 / 0 is NaN
            total[0] = pw[0]

    return sum_losses


# --- host side ---------------------------------------------------------------------------------


def _flat(arr, dtype):
    """``(flat, stride)``: the elements of ``arr`` in ``dtype`` as element ``i * stride`` of a 1-d
    device array; a 1-d array already in ``dtype`` is read in place."""
    if arr.ndim == 1 and arr.dtype == dtype:
        flat, (stride,) = memory.span(arr)
        return flat, stride
    return memory.flat(contiguous_cast(arr, arr.shape, dtype)), 1


def _weights(weight, dtype):
    if weight is None:
        return memory.from_host(np.ones(1, dtype)), 0  # stride 0: a weight of one for every class
    return _flat(weight, dtype)


def _raise_out_of_bounds(target, ts, bad, n: int) -> None:
    """The CPU kernel's IndexError for the first row whose target is out of bounds, if any."""
    first = int(bad.copy_to_host()[0])
    if first < n:
        check_target_bounds(target, first * ts)


def _as(arr, shape, dtype):
    """The C-contiguous ``arr`` viewed as ``shape``, cast to ``dtype`` (a copy only when it differs)."""
    shape = tuple(shape)
    v = memory.raw_view(arr, arr.dtype, shape, memory.c_strides(shape, arr.dtype.itemsize), 0)
    return v if arr.dtype == dtype else contiguous_cast(v, shape, dtype)
