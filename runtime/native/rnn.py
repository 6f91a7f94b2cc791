"""Recurrent cells (torch.lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell) and layers (torch.lstm,
gru, rnn_tanh, rnn_relu: the time loop of nn.RNN/LSTM/GRU, over padded or packed input), over yaten ops.

A step is the hidden state's matrix product plus one node: the fused cell op for LSTM and GRU (the
gates' activations, the new state and their derivative in one kernel, runtime/kernels/*/rnn_cells.py)
or ``addmm`` then tanh/relu for RNN. The input's projection is one matrix product for the whole
sequence and the steps read it through one ``split``, so T steps record about 3T nodes, none per gate.
"""

import yaten

from .._autocast import STATE as _AMP
from .._autocast import call as _autocast


def _check_input(input, w_ih):
    if input.size(1) != w_ih.size(1):
        raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected {w_ih.size(1)}")


def _check_hidden(input, hx, hidden_size, label):
    if input.size(0) != hx.size(0):
        raise RuntimeError(
            f"Input batch size {input.size(0)} doesn't match hidden{label} batch size {hx.size(0)}"
        )
    if hx.size(1) != hidden_size:
        raise RuntimeError(
            f"hidden{label} has inconsistent hidden_size: got {hx.size(1)}, expected {hidden_size}"
        )


def _check_weights(w_ih, w_hh, hidden_size, gates):
    for name, w in (("weight_ih", w_ih), ("weight_hh", w_hh)):
        if w.size(0) != gates * hidden_size:
            raise RuntimeError(
                f"{name} first dim must be {gates} * hidden_size = {gates * hidden_size}, but got {w.size(0)}"
            )


def _cell_checks(input, hidden, w_ih, w_hh, gates):
    hidden_size = w_hh.size(1)
    _check_input(input, w_ih)
    for label, h in enumerate(hidden):
        _check_hidden(input, h, hidden_size, label)
    _check_weights(w_ih, w_hh, hidden_size, gates)


def _gate_inputs(input, hx, w_ih, w_hh, b_ih, b_hh):
    """``(input_gates, hidden_gates, input_bias, hidden_bias)`` of a fused cell: the biases go to the
    fused op when both are given, else (one or none) into the products."""
    if b_ih is not None and b_hh is not None:
        return input.matmul(w_ih.t()), hx.matmul(w_hh.t()), b_ih, b_hh
    linear = yaten.nn.functional.linear
    return linear(input, w_ih, b_ih), linear(hx, w_hh, b_hh), None, None


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """``(h', c')`` of one LSTM step, as ``torch.lstm_cell``: ``hx`` is ``[h, c]``.

    >>> x, h, c = yaten.ones(1, 2), yaten.zeros(1, 1), yaten.ones(1, 1)
    >>> hy, cy = yaten.lstm_cell(x, [h, c], yaten.zeros(4, 2), yaten.zeros(4, 1))
    >>> cy
    tensor([[0.5000]])
    """
    if len(hx) != 2:
        raise RuntimeError("lstm_cell expects two hidden states")
    _cell_checks(input, hx, w_ih, w_hh, 4)
    ig, hg, ib, hb = _gate_inputs(input, hx[0], w_ih, w_hh, b_ih, b_hh)
    hy, cy, _ = yaten._thnn_fused_lstm_cell(ig, hg, hx[1], ib, hb)
    return hy, cy


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """The next hidden state of one GRU step, as ``torch.gru_cell``.

    >>> yaten.gru_cell(yaten.ones(1, 2), yaten.ones(1, 1), yaten.zeros(3, 2), yaten.zeros(3, 1))
    tensor([[0.5000]])
    """
    _cell_checks(input, [hx], w_ih, w_hh, 3)
    ig, hg, ib, hb = _gate_inputs(input, hx, w_ih, w_hh, b_ih, b_hh)
    return yaten._thnn_fused_gru_cell(ig, hg, hx, ib, hb)[0]


def _simple_cell(input, hx, w_ih, w_hh, b_ih, b_hh):
    _cell_checks(input, [hx], w_ih, w_hh, 1)
    linear = yaten.nn.functional.linear
    return linear(input, w_ih, b_ih) + linear(hx, w_hh, b_hh)


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """``tanh(input @ w_ih.T + b_ih + hx @ w_hh.T + b_hh)``, as ``torch.rnn_tanh_cell``.

    >>> yaten.rnn_tanh_cell(yaten.ones(1, 2), yaten.zeros(1, 1), yaten.ones(1, 2), yaten.ones(1, 1))
    tensor([[0.9640]])
    """
    return _simple_cell(input, hx, w_ih, w_hh, b_ih, b_hh).tanh()


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """``relu(input @ w_ih.T + b_ih + hx @ w_hh.T + b_hh)``, as ``torch.rnn_relu_cell``.

    >>> yaten.rnn_relu_cell(yaten.ones(1, 2), yaten.zeros(1, 1), -yaten.ones(1, 2), yaten.ones(1, 1))
    tensor([[0.]])
    """
    return _simple_cell(input, hx, w_ih, w_hh, b_ih, b_hh).relu()


# --- the time loop of the nn.RNN/LSTM/GRU modules ----------------------------------------------------


def _step(mode, gates, h, c, w_hh_t, b_hh, w_hr_t):
    """One step: ``(h', c')`` (``c'`` None but for LSTM) from the input's gates at this step."""
    if mode == "LSTM":
        h, c, _ = yaten._thnn_fused_lstm_cell(gates, h.mm(w_hh_t), c)
        return (h if w_hr_t is None else h.mm(w_hr_t)), c
    if mode == "GRU":
        hidden = h.mm(w_hh_t) if b_hh is None else yaten.addmm(b_hh, h, w_hh_t)
        return yaten._thnn_fused_gru_cell(gates, hidden, h)[0], None
    pre = yaten.addmm(gates, h, w_hh_t)
    return (pre.tanh() if mode == "RNN_TANH" else pre.relu()), None


def _direction(mode, data, batch_sizes, h0, c0, weights, reverse):
    """One direction of one layer over ``data`` (the packed rows of every step, ``batch_sizes[t]`` rows
    at step ``t``, non-increasing): ``(output rows, h_n, c_n)``. Sequences that end early keep the
    state of their last step: the batch narrows (forwards) or widens from ``h0`` (in reverse)."""
    w_ih, w_hh, b_ih, b_hh, w_hr = weights
    # Biases that only add are folded into the input's projection; GRU's hidden bias is scaled by r.
    in_bias = b_ih if b_ih is None or mode == "GRU" else b_ih + b_hh
    projected = data.mm(w_ih.t()) if in_bias is None else yaten.addmm(in_bias, data, w_ih.t())
    steps = projected.split(batch_sizes) if len(batch_sizes) > 1 else [projected]
    # Made contiguous once: BLAS multiplies by a row-major matrix faster than by a transposed one
    # (55 us against 75 us for a (32, 128) x (128, 512) float32 step).
    w_hh_t = w_hh.t().contiguous()
    w_hr_t = None if w_hr is None else w_hr.t().contiguous()
    b_hh = b_hh if mode == "GRU" else None
    outputs = [None] * len(batch_sizes)
    ended = []  # forwards: the states of the sequences that ended, last rows first
    if reverse:
        h, c = h0.narrow(0, 0, batch_sizes[-1]), None if c0 is None else c0.narrow(0, 0, batch_sizes[-1])
    else:
        h, c = h0, c0
    for t in reversed(range(len(batch_sizes))) if reverse else range(len(batch_sizes)):
        n, have = batch_sizes[t], h.size(0)
        if n < have:
            ended.append((h.narrow(0, n, have - n), None if c is None else c.narrow(0, n, have - n)))
            h, c = h.narrow(0, 0, n), None if c is None else c.narrow(0, 0, n)
        elif n > have:
            h = yaten.cat([h, h0.narrow(0, have, n - have)])
            c = None if c is None else yaten.cat([c, c0.narrow(0, have, n - have)])
        h, c = _step(mode, steps[t], h, c, w_hh_t, b_hh, w_hr_t)
        outputs[t] = h
    if ended:
        h = yaten.cat([h] + [e[0] for e in reversed(ended)])
        c = None if c is None else yaten.cat([c] + [e[1] for e in reversed(ended)])
    return yaten.cat(outputs) if len(outputs) > 1 else outputs[0], h, c


def _layers(mode, data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional):
    """The stacked layers over ``data`` (each step's rows one after the other, ``batch_sizes[t]`` at
    step ``t``): ``(output rows, h_n)``, or ``(output rows, h_n, c_n)`` for LSTM. ``params`` is torch's
    flat list, ``w_ih, w_hh[, b_ih, b_hh][, w_hr]`` per layer and direction (``w_hr`` when the LSTM's
    h and c sizes differ). Dropout follows every layer but the last in training."""
    lstm = mode == "LSTM"
    h0, c0 = hx if lstm else (hx, None)
    has_proj = lstm and h0.size(2) != c0.size(2)
    per = 2 + 2 * has_biases + has_proj
    directions = 2 if bidirectional else 1
    hs, cs = [], []
    for layer in range(num_layers):
        outs = []
        for d in range(directions):
            k = layer * directions + d
            w = params[k * per : (k + 1) * per]
            weights = (w[0], w[1], w[2] if has_biases else None, w[3] if has_biases else None,
                       w[-1] if has_proj else None)  # fmt: skip
            out, h, c = _direction(
                mode, data, batch_sizes, h0[k], None if c0 is None else c0[k], weights, d == 1
            )
            outs.append(out)
            hs.append(h)
            cs.append(c)
        data = outs[0] if directions == 1 else yaten.cat(outs, 1)
        if dropout and train and layer < num_layers - 1:
            data = yaten.nn.functional.dropout(data, dropout, True)
    return (data, yaten.stack(hs), yaten.stack(cs)) if lstm else (data, yaten.stack(hs))


def _padded(mode, input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first):
    if mode == "LSTM" and _AMP.active and _AMP.entered is not _padded and hx[0].shape[-1] == hx[1].shape[-1]:
        # torch's CPU LSTM without projections runs oneDNN's layer, on its autocast list: all in bfloat16
        args = dict(
            mode=mode, input=input, hx=hx, params=params, has_biases=has_biases, num_layers=num_layers
        )
        args.update(dropout=dropout, train=train, bidirectional=bidirectional, batch_first=batch_first)
        return _autocast(_padded, {"cpu": "lower_precision_fp"}, args)
    if batch_first:
        input = input.transpose(0, 1)
    steps, batch = input.size(0), input.size(1)
    rows = input.reshape(steps * batch, input.size(2))
    out, *hidden = _layers(mode, rows, [batch] * steps, hx, params, has_biases, num_layers, dropout, train,
                           bidirectional)  # fmt: skip
    out = out.view(steps, batch, out.size(1))
    return (out.transpose(0, 1) if batch_first else out, *hidden)


def _packed(mode, data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional):
    sizes = [int(n) for n in batch_sizes.tolist()]
    return _layers(mode, data, sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional)


def _padded_function(mode, name, module, state):
    """``torch.<name>``'s ``.input`` overload (padded), behind nn.``module`` (``state(batch)``: the source
    of an initial state, for the example)."""

    def padded(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first):
        return _padded(
            mode, input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first
        )

    padded.__name__ = padded.__qualname__ = f"{name}_input"
    padded.__doc__ = f"""``(output, h_n{", c_n" if mode == "LSTM" else ""})`` of nn.{module}'s stacked layers over a padded
    ``(T, B, input)`` sequence (``(B, T, input)`` with ``batch_first``), as ``torch.{name}``; ``params``
    is the module's ``_flat_weights``.

    >>> out, *state = yaten.{name}(yaten.ones(4, 1, 3), {state(1)}, yaten.nn.{module}(3, 2)._flat_weights, True, 1,
    ...                            0.0, False, False, False)
    >>> tuple(out.shape), tuple(state[0].shape), yaten.equal(out[-1], state[0][0])
    ((4, 1, 2), (1, 1, 2), True)
    """
    return padded


def _packed_function(mode, name, module, state):
    """``torch.<name>``'s ``.data`` overload (packed), as _padded_function's."""

    def packed(data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional):
        return _packed(
            mode, data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional
        )

    packed.__name__ = packed.__qualname__ = f"{name}_data"
    packed.__doc__ = f"""``torch.{name}`` over a PackedSequence's ``data`` and ``batch_sizes``.

    >>> out, *state = yaten.{name}(yaten.ones(3, 3), yaten.tensor([2, 1]), {state(2)},
    ...                            yaten.nn.{module}(3, 2)._flat_weights, True, 1, 0.0, False, False)
    >>> yaten.equal(out[2], state[0][0, 0]), yaten.equal(out[1], state[0][0, 1])
    (True, True)
    """
    return packed


def _zeros_state(batch):
    return f"yaten.zeros(1, {batch}, 2)"


def _lstm_state(batch):
    return f"[{_zeros_state(batch)}] * 2"


lstm_input = _padded_function("LSTM", "lstm", "LSTM", _lstm_state)
lstm_data = _packed_function("LSTM", "lstm", "LSTM", _lstm_state)
gru_input = _padded_function("GRU", "gru", "GRU", _zeros_state)
gru_data = _packed_function("GRU", "gru", "GRU", _zeros_state)
rnn_tanh_input = _padded_function("RNN_TANH", "rnn_tanh", "RNN", _zeros_state)
rnn_tanh_data = _packed_function("RNN_TANH", "rnn_tanh", "RNN", _zeros_state)
rnn_relu_input = _padded_function("RNN_RELU", "rnn_relu", "RNN", _zeros_state)
rnn_relu_data = _packed_function("RNN_RELU", "rnn_relu", "RNN", _zeros_state)
