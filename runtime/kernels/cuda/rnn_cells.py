"""Fused recurrent cells over device arrays (numba.cuda): _thnn_fused_lstm_cell, _thnn_fused_gru_cell
and their backwards.

Same signatures, checks (imported from ``kernels/cpu/rnn_cells.py``), workspace layout and results as
the CPU kernels. Operands are gathered into C-contiguous arrays in the compute dtype (float32 for
half); one thread computes one hidden unit of one batch row, all of its gates; the bias gradients
are the reduction kernel's column sums.
"""

import numpy as np
from numba import cuda

from ..cpu.convert import compute_dtype
from ..cpu.rnn_cells import cell_dtype, fused_cell_checks
from . import memory
from .copy import contiguous_cast, launch
from .reduce import sum_dim
from .scalar import sigmoid, tanh


@cuda.jit
def _lstm_forward(ig, hg, cx, ib, hb, has_bias, h, hy, cy, ws):
    k = cuda.grid(1)
    if k >= cy.size:
        return
    r, j = k // h, k % h
    base = r * 4 * h + j
    pi, pf = ig[base] + hg[base], ig[base + h] + hg[base + h]
    pg, po = ig[base + 2 * h] + hg[base + 2 * h], ig[base + 3 * h] + hg[base + 3 * h]
    if has_bias:
        pi += ib[j] + hb[j]
        pf += ib[h + j] + hb[h + j]
        pg += ib[2 * h + j] + hb[2 * h + j]
        po += ib[3 * h + j] + hb[3 * h + j]
    i, f, g, o = sigmoid(pi), sigmoid(pf), tanh(pg), sigmoid(po)
    c_new = f * cx[k] + i * g
    cy[k] = c_new
    hy[k] = o * tanh(c_new)
    ws[base] = i
    ws[base + h] = f
    ws[base + 2 * h] = g
    ws[base + 3 * h] = o


@cuda.jit
def _lstm_backward(ghy, gcy, cx, cy, ws, h, gates, gcx):
    k = cuda.grid(1)
    if k >= cx.size:
        return
    r, j = k // h, k % h
    base = r * 4 * h + j
    i, f, g, o = ws[base], ws[base + h], ws[base + 2 * h], ws[base + 3 * h]
    t = tanh(cy[k])
    gc = ghy[k] * o * (1.0 - t * t) + gcy[k]
    gates[base] = gc * g * i * (1.0 - i)
    gates[base + h] = gc * cx[k] * f * (1.0 - f)
    gates[base + 2 * h] = gc * i * (1.0 - g * g)
    gates[base + 3 * h] = ghy[k] * t * o * (1.0 - o)
    gcx[k] = gc * f


@cuda.jit
def _gru_forward(ig, hg, hx, ib, hb, has_bias, h, hy, ws):
    k = cuda.grid(1)
    if k >= hy.size:
        return
    row, j = k // h, k % h
    base = row * 3 * h + j
    ir, iz, i_n = ig[base], ig[base + h], ig[base + 2 * h]
    hr, hz, h_n = hg[base], hg[base + h], hg[base + 2 * h]
    if has_bias:
        ir += ib[j] + hb[j]
        iz += ib[h + j] + hb[h + j]
        i_n += ib[2 * h + j]
        h_n += hb[2 * h + j]
    r = sigmoid(ir + hr)
    z = sigmoid(iz + hz)
    n = tanh(i_n + r * h_n)
    prev = hx[k]
    hy[k] = n + z * (prev - n)
    w = row * 5 * h + j
    ws[w] = r
    ws[w + h] = z
    ws[w + 2 * h] = n
    ws[w + 3 * h] = prev
    ws[w + 4 * h] = h_n


@cuda.jit
def _gru_backward(ghy, ws, h, gi, gh, ghx):
    k = cuda.grid(1)
    if k >= ghy.size:
        return
    row, j = k // h, k % h
    w = row * 5 * h + j
    r, z, n, prev, h_n = ws[w], ws[w + h], ws[w + 2 * h], ws[w + 3 * h], ws[w + 4 * h]
    g = ghy[k]
    gn = g * (1.0 - z) * (1.0 - n * n)
    gz = g * (prev - n) * z * (1.0 - z)
    gr = gn * h_n * r * (1.0 - r)
    base = row * 3 * h + j
    gi[base] = gr
    gi[base + h] = gz
    gi[base + 2 * h] = gn
    gh[base] = gr
    gh[base + h] = gz
    gh[base + 2 * h] = gn * r
    ghx[k] = g * z


def _flat(a, shape, dtype):
    return memory.flat(contiguous_cast(a, tuple(shape), dtype))


def _bias(b, dtype):
    return memory.empty((0,), dtype) if b is None else _flat(b, b.shape, dtype)


def _shaped(a, shape, dtype):
    """The flat C-contiguous ``a`` with ``shape``, cast to ``dtype``."""
    a = memory.raw_view(a, a.dtype, tuple(shape), memory.c_strides(tuple(shape), a.dtype.itemsize), 0)
    return contiguous_cast(a, a.shape, dtype)


def _bias_grad(gates, has_bias, shape, dtype):
    if not has_bias:
        return memory.empty((0,), dtype)
    return contiguous_cast(sum_dim(_shaped(gates, shape, gates.dtype), (0,), False, None), (shape[1],), dtype)


def fused_lstm_cell(input_gates, hidden_gates, cx, input_bias, hidden_bias):
    """``(hy, cy, workspace)`` of one LSTM step, as the CPU kernel's.

    >>> z = memory.from_host(np.zeros((1, 4)))
    >>> hy, cy, ws = fused_lstm_cell(z, z, memory.from_host(np.ones((1, 1))), None, None)
    >>> memory.to_host(cy), memory.to_host(ws)
    (array([[0.5]]), array([[0.5, 0.5, 0. , 0.5]]))
    """
    fused_cell_checks("_thnn_fused_lstm_cell", input_gates, hidden_gates, cx, input_bias, hidden_bias, 4)
    out = cell_dtype(input_gates, hidden_gates, cx)
    dtype = compute_dtype(out)
    batch, gates = input_gates.shape
    h = gates // 4
    hy, cy, ws = (
        memory.empty((batch * h,), dtype),
        memory.empty((batch * h,), dtype),
        memory.empty((batch * gates,), dtype),
    )
    launch(
        _lstm_forward, batch * h, _flat(input_gates, (batch, gates), dtype), _flat(hidden_gates, (batch, gates), dtype),
        _flat(cx, cx.shape, dtype), _bias(input_bias, dtype), _bias(hidden_bias, dtype), input_bias is not None, h,
        hy, cy, ws,
    )  # fmt: skip
    return _shaped(hy, (batch, h), out), _shaped(cy, (batch, h), out), _shaped(ws, (batch, gates), out)


def fused_lstm_cell_backward_impl(grad_hy, grad_cy, cx, cy, workspace, has_bias):
    """``(grad_gates, grad_cx, grad_bias)`` of _thnn_fused_lstm_cell, as the CPU kernel's.

    >>> z = memory.from_host(np.zeros((1, 4)))
    >>> one = memory.from_host(np.ones((1, 1)))
    >>> hy, cy, ws = fused_lstm_cell(z, z, one, None, None)
    >>> g, gcx, gb = fused_lstm_cell_backward_impl(None, one, one, cy, ws, False)
    >>> memory.to_host(g), memory.to_host(gcx)
    (array([[0.  , 0.25, 0.5 , 0.  ]]), array([[0.5]]))
    """
    dtype = compute_dtype(workspace.dtype)
    shape = tuple(cx.shape)
    batch, h = shape
    zeros = memory.from_host(np.zeros(batch * h, dtype))
    ghy = zeros if grad_hy is None else _flat(grad_hy, shape, dtype)
    gcy = zeros if grad_cy is None else _flat(grad_cy, shape, dtype)
    gates, gcx = memory.empty((batch * 4 * h,), dtype), memory.empty((batch * h,), dtype)
    launch(
        _lstm_backward, batch * h, ghy, gcy, _flat(cx, shape, dtype), _flat(cy, shape, dtype),
        _flat(workspace, workspace.shape, dtype), h, gates, gcx,
    )  # fmt: skip
    out = workspace.dtype
    return (
        _shaped(gates, (batch, 4 * h), out),
        _shaped(gcx, shape, out),
        _bias_grad(gates, has_bias, (batch, 4 * h), out),
    )


def fused_gru_cell(input_gates, hidden_gates, hx, input_bias, hidden_bias):
    """``(hy, workspace)`` of one GRU step, as the CPU kernel's.

    >>> z = memory.from_host(np.zeros((1, 3)))
    >>> hy, ws = fused_gru_cell(z, z, memory.from_host(np.ones((1, 1))), None, None)
    >>> memory.to_host(hy), memory.to_host(ws)
    (array([[0.5]]), array([[0.5, 0.5, 0. , 1. , 0. ]]))
    """
    fused_cell_checks("_thnn_fused_gru_cell", input_gates, hidden_gates, hx, input_bias, hidden_bias, 3)
    out = cell_dtype(input_gates, hidden_gates, hx)
    dtype = compute_dtype(out)
    batch, gates = input_gates.shape
    h = gates // 3
    hy, ws = memory.empty((batch * h,), dtype), memory.empty((batch * 5 * h,), dtype)
    launch(
        _gru_forward, batch * h, _flat(input_gates, (batch, gates), dtype), _flat(hidden_gates, (batch, gates), dtype),
        _flat(hx, hx.shape, dtype), _bias(input_bias, dtype), _bias(hidden_bias, dtype), input_bias is not None, h,
        hy, ws,
    )  # fmt: skip
    return _shaped(hy, (batch, h), out), _shaped(ws, (batch, 5 * h), out)


def fused_gru_cell_backward(grad_hy, workspace, has_bias):
    """The five gradients of _thnn_fused_gru_cell, as the CPU kernel's.

    >>> z = memory.from_host(np.zeros((1, 3)))
    >>> hy, ws = fused_gru_cell(z, z, memory.from_host(np.ones((1, 1))), None, None)
    >>> gi, gh, ghx, gib, ghb = fused_gru_cell_backward(memory.from_host(np.ones((1, 1))), ws, False)
    >>> memory.to_host(gi), memory.to_host(gh), memory.to_host(ghx)
    (array([[0.  , 0.25, 0.5 ]]), array([[0.  , 0.25, 0.25]]), array([[0.5]]))
    """
    dtype = compute_dtype(workspace.dtype)
    batch, h = grad_hy.shape
    gi, gh = memory.empty((batch * 3 * h,), dtype), memory.empty((batch * 3 * h,), dtype)
    ghx = memory.empty((batch * h,), dtype)
    launch(
        _gru_backward, batch * h, _flat(grad_hy, (batch, h), dtype), _flat(workspace, workspace.shape, dtype), h,
        gi, gh, ghx,
    )  # fmt: skip
    out, shape = workspace.dtype, (batch, 3 * h)
    return (
        _shaped(gi, shape, out), _shaped(gh, shape, out), _shaped(ghx, (batch, h), out),
        _bias_grad(gi, has_bias, shape, out), _bias_grad(gh, has_bias, shape, out),
    )  # fmt: skip
