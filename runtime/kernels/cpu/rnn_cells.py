"""Fused recurrent cells over host arrays: _thnn_fused_lstm_cell, _thnn_fused_gru_cell and their backwards.

One step of an LSTM or GRU is two matrix products (done by the caller: the input's projection, often
for a whole sequence at once, and the hidden state's) and this one op: the biases added, the gate
activations, the new state, and a ``workspace`` of what the backward reads, as PyTorch's CUDA kernels
keep it. Half precision is computed in float32 and cast back.

The activations (exp, tanh) run as NumPy's ufuncs over whole gate blocks, in place: their SIMD loops
took 20 us for a (32, 512) float32 block where a Numba loop, calling the scalar ``exp``/``tanh`` per
element (Numba's SVML is not available), took 360 us. The backwards are one Numba pass of plain
arithmetic over the gates (the workspace holds the activated gates; ``tanh(cy)`` comes from NumPy),
which LLVM vectorizes, in parallel above a size threshold (kernels/cpu/threads.py).

Gate layout, as torch's weights: LSTM ``[i, f, g, o]`` (4 hidden-size chunks), GRU ``[r, z, n]``.
"""

import numpy as np
from numba import prange

from .convert import compute_dtype
from .threads import parallel_njit

# A step of a recurrent net is small; parallel pays only for a large batch times hidden size.
_PARALLEL_FROM = 1 << 17


def _sigmoid_(a):
    """``a`` replaced by its logistic sigmoid, through NumPy's SIMD ``exp`` (``exp(-a)`` overflows to
    infinity for very negative ``a``, giving 0, as it should)."""
    np.negative(a, out=a)
    np.exp(a, out=a)
    a += 1
    np.reciprocal(a, out=a)


@parallel_njit(parallel_from=_PARALLEL_FROM)
def _lstm_backward(ghy, gcy, cx, tanh_cy, ws, gates, gcx):  # pragma: no cover (compiled)
    b, h = cx.shape
    for r in prange(b):
        for j in range(h):
            i, f, g, o = ws[r, j], ws[r, h + j], ws[r, 2 * h + j], ws[r, 3 * h + j]
            t = tanh_cy[r, j]
            gh = ghy[r, j]
            gc = gh * o * (1.0 - t * t) + gcy[r, j]
            gates[r, j] = gc * g * i * (1.0 - i)
            gates[r, h + j] = gc * cx[r, j] * f * (1.0 - f)
            gates[r, 2 * h + j] = gc * i * (1.0 - g * g)
            gates[r, 3 * h + j] = gh * t * o * (1.0 - o)
            gcx[r, j] = gc * f


@parallel_njit(parallel_from=_PARALLEL_FROM)
def _gru_backward(ghy, ws, gi, gh, ghx):  # pragma: no cover (compiled)
    b, h = ghy.shape
    for row in prange(b):
        for j in range(h):
            r, z, n = ws[row, j], ws[row, h + j], ws[row, 2 * h + j]
            prev, h_n = ws[row, 3 * h + j], ws[row, 4 * h + j]
            g = ghy[row, j]
            gn = g * (1.0 - z) * (1.0 - n * n)
            gz = g * (prev - n) * z * (1.0 - z)
            gr = gn * h_n * r * (1.0 - r)
            gi[row, j] = gr
            gi[row, h + j] = gz
            gi[row, 2 * h + j] = gn
            gh[row, j] = gr
            gh[row, h + j] = gz
            gh[row, 2 * h + j] = gn * r
            ghx[row, j] = g * z


def _arg(i, name):
    return f"argument #{i} '{name}'"


def fused_cell_checks(op, input_gates, hidden_gates, prev, input_bias, hidden_bias, factor):
    """PyTorch's checks of a fused cell's operands (its ``checkSizes``), with its messages; arrays of
    either device. ``factor`` is the number of gates per hidden unit (4 for LSTM, 3 for GRU)."""
    where = f" (while checking arguments for {op})"
    for i, name, t in ((1, "input_gates", input_gates), (3, "cx" if factor == 4 else "hx", prev)):
        if t.ndim != 2:
            raise RuntimeError(
                f"Expected 2-dimensional tensor, but got {t.ndim}-dimensional tensor for {_arg(i, name)}{where}"
            )
    if tuple(input_gates.shape) != tuple(hidden_gates.shape):
        raise RuntimeError(
            f"Expected tensor for {_arg(1, 'input_gates')} to have same size as tensor for "
            f"{_arg(2, 'hidden_gates')}; but {list(input_gates.shape)} does not equal "
            f"{list(hidden_gates.shape)}{where}"
        )
    batch, gates = input_gates.shape
    if input_bias is not None:
        if input_bias.ndim != 1:
            raise RuntimeError(
                f"Expected 1-dimensional tensor, but got {input_bias.ndim}-dimensional tensor for "
                f"{_arg(4, 'input_bias')}{where}"
            )
        if input_bias.size != gates:
            raise RuntimeError(
                f"Expected tensor for {_arg(4, 'input_bias')} to have {gates} elements; but it actually has "
                f"{input_bias.size} elements{where}"
            )
        if hidden_bias is None or tuple(hidden_bias.shape) != tuple(input_bias.shape):
            got = [] if hidden_bias is None else list(hidden_bias.shape)
            raise RuntimeError(
                f"Expected tensor for {_arg(4, 'input_bias')} to have same size as tensor for "
                f"{_arg(5, 'hidden_bias')}; but {list(input_bias.shape)} does not equal {got}{where}"
            )
    if gates % factor or prev.size != batch * gates // factor:
        raise RuntimeError(
            f"Expected tensor for {_arg(3, 'cx' if factor == 4 else 'hx')} to have {batch * gates // factor} "
            f"elements; but it actually has {prev.size} elements{where}"
        )


def cell_dtype(input_gates, hidden_gates, prev):
    """The dtype of a fused cell's results: its operands' promoted dtype, as torch's composite cells
    give it (an autocast region's bfloat16 gates with a float32 state make float32 states).

    >>> import ml_dtypes
    >>> cell_dtype(np.zeros(1, ml_dtypes.bfloat16), np.zeros(1, ml_dtypes.bfloat16), np.zeros(1, np.float32))
    dtype('float32')
    """
    dtypes = {np.dtype(a.dtype) for a in (input_gates, hidden_gates, prev)}
    if len(dtypes) == 1:
        return dtypes.pop()
    return np.dtype(np.float64 if np.dtype(np.float64) in dtypes else np.float32)  # low ones meet at float32


def _c(a, dtype):
    return np.ascontiguousarray(a, dtype=dtype)


def _gate_sums(input_gates, hidden_gates, input_bias, hidden_bias, dtype):
    """A new ``input_gates + hidden_gates (+ input_bias + hidden_bias)`` in ``dtype``."""
    total = np.add(input_gates, hidden_gates, dtype=dtype)
    if input_bias is not None:
        total += input_bias.astype(dtype, copy=False)
        total += hidden_bias.astype(dtype, copy=False)
    return total


def fused_lstm_cell(input_gates, hidden_gates, cx, input_bias, hidden_bias):
    """``(hy, cy, workspace)`` of one LSTM step from the gate pre-activations ``input_gates`` and
    ``hidden_gates`` (``(batch, 4 * hidden)``, gate order i, f, g, o), the cell state ``cx`` and the
    optional biases; ``workspace`` holds the activated gates for the backward.

    >>> hy, cy, ws = fused_lstm_cell(np.zeros((1, 4)), np.zeros((1, 4)), np.ones((1, 1)), None, None)
    >>> cy, ws
    (array([[0.5]]), array([[0.5, 0.5, 0. , 0.5]]))
    """
    fused_cell_checks("_thnn_fused_lstm_cell", input_gates, hidden_gates, cx, input_bias, hidden_bias, 4)
    out = cell_dtype(input_gates, hidden_gates, cx)
    dtype = compute_dtype(out)
    h = input_gates.shape[1] // 4
    ws = _gate_sums(input_gates, hidden_gates, input_bias, hidden_bias, dtype)
    g = np.tanh(ws[:, 2 * h : 3 * h])
    _sigmoid_(ws)
    ws[:, 2 * h : 3 * h] = g
    cy = ws[:, h : 2 * h] * cx.reshape(g.shape).astype(dtype, copy=False)
    cy += ws[:, :h] * g
    hy = np.tanh(cy)
    hy *= ws[:, 3 * h :]
    return hy.astype(out, copy=False), cy.astype(out, copy=False), ws.astype(out, copy=False)


def fused_lstm_cell_backward_impl(grad_hy, grad_cy, cx, cy, workspace, has_bias):
    """``(grad_gates, grad_cx, grad_bias)`` of _thnn_fused_lstm_cell from its saved ``cy`` and
    ``workspace``: the gradient of the gate pre-activations (the same for the input and the hidden
    gates), of the cell state, and of each bias (the gates' gradient summed over the batch; empty
    without ``has_bias``). A missing ``grad_hy``/``grad_cy`` counts as zeros.

    >>> hy, cy, ws = fused_lstm_cell(np.zeros((1, 4)), np.zeros((1, 4)), np.ones((1, 1)), None, None)
    >>> g, gcx, gb = fused_lstm_cell_backward_impl(None, np.ones((1, 1)), np.ones((1, 1)), cy, ws, False)
    >>> g, gcx, gb.shape
    (array([[0.  , 0.25, 0.5 , 0.  ]]), array([[0.5]]), (0,))
    """
    dtype = compute_dtype(workspace.dtype)
    shape = tuple(cx.shape)
    zeros = np.zeros(shape, dtype)
    ghy = zeros if grad_hy is None else _c(grad_hy, dtype)
    gcy = zeros if grad_cy is None else _c(grad_cy, dtype)
    gates = np.empty(workspace.shape, dtype)
    gcx = np.empty(shape, dtype)
    _lstm_backward(ghy, gcy, _c(cx, dtype), np.tanh(_c(cy, dtype)), _c(workspace, dtype), gates, gcx)
    gbias = gates.sum(0) if has_bias else np.empty(0, dtype)
    out = workspace.dtype
    return gates.astype(out, copy=False), gcx.astype(out, copy=False), gbias.astype(out, copy=False)


def fused_gru_cell(input_gates, hidden_gates, hx, input_bias, hidden_bias):
    """``(hy, workspace)`` of one GRU step from the gate pre-activations (``(batch, 3 * hidden)``, gate
    order r, z, n), the hidden state ``hx`` and the optional biases; ``workspace`` (``(batch,
    5 * hidden)``) holds r, z, n, hx and the hidden part of n's pre-activation for the backward.

    >>> hy, ws = fused_gru_cell(np.zeros((1, 3)), np.zeros((1, 3)), np.ones((1, 1)), None, None)
    >>> hy, ws
    (array([[0.5]]), array([[0.5, 0.5, 0. , 1. , 0. ]]))
    """
    fused_cell_checks("_thnn_fused_gru_cell", input_gates, hidden_gates, hx, input_bias, hidden_bias, 3)
    out = cell_dtype(input_gates, hidden_gates, hx)
    dtype = compute_dtype(out)
    batch, gates = input_gates.shape
    h = gates // 3
    prev = hx.reshape(batch, h).astype(dtype, copy=False)
    # Contiguous temporaries: NumPy's SIMD loops run 5x slower over the workspace's strided blocks.
    rz = np.add(input_gates[:, : 2 * h], hidden_gates[:, : 2 * h], dtype=dtype)
    h_n = hidden_gates[:, 2 * h :].astype(dtype)
    n = input_gates[:, 2 * h :].astype(dtype)
    if input_bias is not None:
        rz += input_bias[: 2 * h] + hidden_bias[: 2 * h]
        n += input_bias[2 * h :]
        h_n += hidden_bias[2 * h :]
    _sigmoid_(rz)
    n += rz[:, :h] * h_n
    np.tanh(n, out=n)
    hy = prev - n
    hy *= rz[:, h:]
    hy += n
    ws = np.concatenate([rz, n, prev, h_n], axis=1)
    return hy.astype(out, copy=False), ws.astype(out, copy=False)


def fused_gru_cell_backward(grad_hy, workspace, has_bias):
    """``(grad_input_gates, grad_hidden_gates, grad_hx, grad_input_bias, grad_hidden_bias)`` of
    _thnn_fused_gru_cell from its ``workspace``; the bias gradients are the gates' summed over the batch
    (empty without ``has_bias``).

    >>> hy, ws = fused_gru_cell(np.zeros((1, 3)), np.zeros((1, 3)), np.ones((1, 1)), None, None)
    >>> gi, gh, ghx, gib, ghb = fused_gru_cell_backward(np.ones((1, 1)), ws, False)
    >>> gi, gh, ghx
    (array([[0.  , 0.25, 0.5 ]]), array([[0.  , 0.25, 0.25]]), array([[0.5]]))
    """
    dtype = compute_dtype(workspace.dtype)
    batch, h = grad_hy.shape
    gi = np.empty((batch, 3 * h), dtype)
    gh = np.empty_like(gi)
    ghx = np.empty((batch, h), dtype)
    _gru_backward(_c(grad_hy, dtype), _c(workspace, dtype), gi, gh, ghx)
    out = workspace.dtype
    gib = gi.sum(0) if has_bias else np.empty(0, dtype)
    ghb = gh.sum(0) if has_bias else np.empty(0, dtype)
    return tuple(a.astype(out, copy=False) for a in (gi, gh, ghx, gib, ghb))
