"""Softmax and log_softmax, forward and backward-data, over device arrays (numba.cuda).

Same signatures, checks (imported from ``kernels/cpu/reduce.py``), dtype rules and results as the
CPU kernels: half is computed in float32, softmax is taken from ``x - max(x)`` so it cannot
overflow. The input (any layout) is gathered by the copy kernel into a C-contiguous ``(rows, n)``
array in the compute dtype, the softmax dim last (no copy when it already is one). One block then
handles one row: its threads stride through the row, combine their partial max and sum in shared
memory (a tree, halving), and write the row's outputs. The result is gathered back to the input's
dim order and dtype as a new C-contiguous array (again no copy when nothing moves).
"""

import functools
import math

import numpy as np
from numba import cuda, from_dtype

from ..cpu.convert import compute_dtype
from ..cpu.reduce import softmax_backward_checks, softmax_checks
from . import memory
from .copy import gather
from .reduce import MAX_THREADS, block_threads
from .scalar import exp, log


def softmax(self, dim, half_to_float):
    """``exp(x) / sum(exp(x))`` along ``dim``, computed from ``x - max(x)`` so it cannot overflow.

    >>> memory.to_host(softmax(memory.from_host([[0.0, 0.0], [1.0, 1e30]]), 1, False))
    array([[0.5, 0.5],
           [0. , 1. ]])
    """
    d = softmax_checks(self, dim, half_to_float, "softmax")
    return _forward(self, d, logarithm=False)


def log_softmax(self, dim, half_to_float):
    """``x - max(x) - log(sum(exp(x - max(x))))`` along ``dim``.

    >>> memory.to_host(log_softmax(memory.from_host([0.0, 0.0]), 0, False))
    array([-0.69314718, -0.69314718])
    """
    d = softmax_checks(self, dim, half_to_float, "log_softmax")
    return _forward(self, d, logarithm=True)


def softmax_backward_data(grad_output, output, dim, input_dtype):
    """The gradient of softmax at its ``output``: ``output * (grad - sum(grad * output))`` along ``dim``.

    >>> g, y = memory.from_host([1.0, 0.0]), memory.from_host([0.5, 0.5])
    >>> memory.to_host(softmax_backward_data(g, y, 0, np.float64))
    array([ 0.25, -0.25])
    """
    d = softmax_backward_checks(grad_output, output, dim, input_dtype, "softmax_backward_data")
    return _backward(grad_output, output, d, logarithm=False)


def log_softmax_backward_data(grad_output, output, dim, input_dtype):
    """The gradient of log_softmax at its ``output``: ``grad - exp(output) * sum(grad)`` along ``dim``.

    >>> g, y = memory.from_host([1.0, 0.0]), memory.from_host(np.log([0.5, 0.5]))
    >>> memory.to_host(log_softmax_backward_data(g, y, 0, np.float64))
    array([ 0.5, -0.5])
    """
    d = softmax_backward_checks(grad_output, output, dim, input_dtype, "log_softmax_backward_data")
    return _backward(grad_output, output, d, logarithm=True)


# --- block-wide reductions ------------------------------------------------------------------------
# Every thread of the block calls them with its own value and gets the block's result. ``partial``
# is a shared array of at least blockDim.x (a power of two) elements that the block does not write
# again afterwards (every thread reads the result from it): each reduction gets its own, which
# saves the barrier that reusing one would need. Only kernels of this module call them: Numba's
# simulator swaps the ``cuda`` of a device function's module per call, which races when the
# calling kernel's threads come from another module.


@cuda.jit(device=True)
def _block_max(partial, t, v):
    """The largest of the block's ``v``, NaN if any is NaN (as NumPy's and PyTorch's max)."""
    partial[t] = v
    cuda.syncthreads()
    step = cuda.blockDim.x // 2
    while step > 0:
        if t < step:
            b = partial[t + step]
            if b > partial[t] or b != b:
                partial[t] = b
        cuda.syncthreads()
        step //= 2
    return partial[0]


@cuda.jit(device=True)
def _block_sum(partial, t, v):
    """The sum of the block's ``v``."""
    partial[t] = v
    cuda.syncthreads()
    step = cuda.blockDim.x // 2
    while step > 0:
        if t < step:
            partial[t] += partial[t + step]
        cuda.syncthreads()
        step //= 2
    return partial[0]


# --- the kernels: one block per row of the contiguous (rows, n) operands -------------------------


@functools.cache
def _forward_kernel(acc, logarithm: bool):
    """The softmax (or log_softmax) kernel over rows in ``acc``; one compiled kernel per pair."""
    acc_t, zero, lowest = from_dtype(acc), acc.type(0), acc.type(-np.inf)

    @cuda.jit
    def softmax_rows(x, n, out):
        t = cuda.threadIdx.x
        step = cuda.blockDim.x
        base = cuda.blockIdx.x * n
        m = lowest
        j = t
        while j < n:
            v = x[base + j]
            if v > m or v != v:
                m = v
            j += step
        m = _block_max(cuda.shared.array(MAX_THREADS, acc_t), t, m)
        s = zero
        j = t
        while j < n:
            s += exp(x[base + j] - m)
            j += step
        s = _block_sum(cuda.shared.array(MAX_THREADS, acc_t), t, s)
        if logarithm:
            ls = log(s)
            j = t
            while j < n:
                out[base + j] = (x[base + j] - m) - ls
                j += step
        else:
            j = t
            while j < n:
                out[base + j] = exp(x[base + j] - m) / s
                j += step

    return softmax_rows


@functools.cache
def _backward_kernel(acc, logarithm: bool):
    """The softmax (or log_softmax) backward-data kernel over rows in ``acc``."""
    acc_t, zero = from_dtype(acc), acc.type(0)

    @cuda.jit
    def softmax_backward_rows(g, y, n, out):
        t = cuda.threadIdx.x
        step = cuda.blockDim.x
        base = cuda.blockIdx.x * n
        s = zero
        j = t
        while j < n:
            if logarithm:
                s += g[base + j]
            else:
                s += g[base + j] * y[base + j]
            j += step
        s = _block_sum(cuda.shared.array(MAX_THREADS, acc_t), t, s)
        j = t
        while j < n:
            if logarithm:
                out[base + j] = g[base + j] - exp(y[base + j]) * s
            else:
                out[base + j] = g[base + j] * y[base + j] - y[base + j] * s
            j += step

    return softmax_backward_rows


# --- host side: layouts and launches ------------------------------------------------------------


def _forward(a, d: int, logarithm: bool):
    if a.size == 0:
        return memory.empty(a.shape, a.dtype)
    acc = compute_dtype(a.dtype)
    x, rows, n, order = _rows(a, d, acc)
    out = memory.empty((rows * n,), acc)
    _forward_kernel(acc, logarithm)[rows, block_threads(n)](x, n, out)
    return _unrows(out, a.shape, order, a.dtype)


def _backward(grad_output, output, d: int, logarithm: bool):
    if tuple(grad_output.shape) != tuple(output.shape):
        # The CPU kernel reshapes the gradient; here a mismatch would read past its memory.
        raise RuntimeError(
            f"softmax backward: grad_output of shape {list(grad_output.shape)} does not match "
            f"output of shape {list(output.shape)}"
        )
    if output.size == 0:
        return memory.empty(output.shape, grad_output.dtype)
    acc = compute_dtype(output.dtype)
    g, rows, n, order = _rows(grad_output, d, acc)
    y = _rows(output, d, acc)[0]
    out = memory.empty((rows * n,), acc)
    _backward_kernel(acc, logarithm)[rows, block_threads(n)](g, y, n, out)
    return _unrows(out, output.shape, order, grad_output.dtype)


def _rows(a, d: int, dtype):
    """``(x, rows, n, order)``: ``a`` in ``dtype`` as a flat C-contiguous ``(rows, n)`` array with
    dim ``d`` last, its dims in ``order`` (a 0-d array is one row of one)."""
    shape = tuple(a.shape) or (1,)
    strides = memory.span(a)[1] or (1,)
    order = [k for k in range(len(shape)) if k != d] + [d]
    x = gather(a, [shape[k] for k in order], [strides[k] for k in order], dtype)
    n = shape[d]
    return memory.flat(x), math.prod(shape) // n, n, order


def _unrows(flat, shape, order, dtype):
    """The C-contiguous array of ``shape`` and ``dtype`` whose dims ``flat`` holds in ``order``."""
    full = tuple(shape) or (1,)
    moved = memory.c_strides([full[k] for k in order])
    strides = [0] * len(full)
    for i, k in enumerate(order):
        strides[k] = moved[i]
    res = gather(flat, full, strides, dtype)
    dt = np.dtype(dtype)
    return memory.raw_view(res, dt, tuple(shape), memory.c_strides(tuple(shape), dt.itemsize), 0)
