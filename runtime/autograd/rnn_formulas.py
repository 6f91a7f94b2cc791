"""Derivative helpers of the fused recurrent cells (spec/derivatives.yaml's _thnn_fused_* entries).

A first-order backward runs the fused backward kernel on the forward's workspace; under create_graph
the same gradients are written with yaten ops from the cell's inputs (torch's
``_thnn_differentiable_*_cell_backward``), so that they can be differentiated again.
"""

import yaten

__all__ = ["fused_gru_cell_backward", "fused_lstm_cell_backward"]


def _biased_gates(input_gates, hidden_gates, input_bias, hidden_bias):
    gates = input_gates + hidden_gates
    if input_bias is not None:
        gates = gates + input_bias + hidden_bias
    return gates


def _differentiable_lstm(grad_hy, grad_cy, input_gates, hidden_gates, input_bias, hidden_bias, cx):
    i, f, g, o = _biased_gates(input_gates, hidden_gates, input_bias, hidden_bias).chunk(4, 1)
    i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
    tanh_cy = (f * cx + i * g).tanh()
    gc = grad_hy * o * (1 - tanh_cy * tanh_cy) + grad_cy
    gates = yaten.cat(
        [gc * g * i * (1 - i), gc * cx * f * (1 - f), gc * i * (1 - g * g), grad_hy * tanh_cy * o * (1 - o)],
        1,
    )
    return gates, gc * f


def fused_lstm_cell_backward(grads, input_gates, hidden_gates, cx, input_bias, hidden_bias, cy, workspace):
    """The gradients of _thnn_fused_lstm_cell for (input_gates, hidden_gates, cx, input_bias,
    hidden_bias): the gates' gradient serves both gate inputs, its batch sum both biases."""
    has_bias = input_bias is not None
    if not yaten.is_grad_enabled():
        gates, gcx, gbias = yaten._thnn_fused_lstm_cell_backward_impl(
            grads[0], grads[1], cx, cy, workspace, has_bias
        )
    else:
        gates, gcx = _differentiable_lstm(
            grads[0], grads[1], input_gates, hidden_gates, input_bias, hidden_bias, cx
        )
        gbias = gates.sum(0)
    return gates, gates, gcx, gbias if has_bias else None, gbias if has_bias else None


def _differentiable_gru(grad, input_gates, hidden_gates, hx, input_bias, hidden_bias):
    if input_bias is not None:
        input_gates, hidden_gates = input_gates + input_bias, hidden_gates + hidden_bias
    ir, iz, i_n = input_gates.chunk(3, 1)
    hr, hz, h_n = hidden_gates.chunk(3, 1)
    r, z = (ir + hr).sigmoid(), (iz + hz).sigmoid()
    n = (i_n + r * h_n).tanh()
    gn = grad * (1 - z) * (1 - n * n)
    gz = grad * (hx - n) * z * (1 - z)
    gr = gn * h_n * r * (1 - r)
    return yaten.cat([gr, gz, gn], 1), yaten.cat([gr, gz, gn * r], 1), grad * z


def fused_gru_cell_backward(grad, input_gates, hidden_gates, hx, input_bias, hidden_bias, workspace):
    """The gradients of _thnn_fused_gru_cell for (input_gates, hidden_gates, hx, input_bias,
    hidden_bias)."""
    has_bias = input_bias is not None
    if not yaten.is_grad_enabled():
        gi, gh, ghx, gib, ghb = yaten._thnn_fused_gru_cell_backward(grad, workspace, has_bias)
    else:
        gi, gh, ghx = _differentiable_gru(grad, input_gates, hidden_gates, hx, input_bias, hidden_bias)
        gib, ghb = gi.sum(0), gh.sum(0)
    return gi, gh, ghx, gib if has_bias else None, ghb if has_bias else None
