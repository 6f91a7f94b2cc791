"""nn.RNN/LSTM/GRU and their cells against torch with the same weights: outputs, final states, the
gradients of the input, the initial states and every parameter; packed input; state_dict keys, repr,
errors; and the fused cell ops (gradcheck, the backward kernels)."""

import warnings

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_close

RNG = np.random.default_rng(0)


def _pair(make, *args, **kwargs):
    """The module in both libraries, yaten's with torch's weights (loaded through its state_dict)."""
    t = make(torch, *args, **kwargs)
    y = make(yaten, *args, **kwargs)
    y.load_state_dict({k: yaten.from_numpy(v.detach().numpy().copy()) for k, v in t.state_dict().items()})
    return t, y


def _leaf(lib, a):
    return lib.from_numpy(a.copy()).requires_grad_()


def _flat(out):
    if isinstance(out, (tuple, list)):
        return [x for o in out for x in _flat(o)]
    if hasattr(out, "data") and hasattr(out, "batch_sizes"):  # a PackedSequence
        return [out.data]
    return [out]


def _compare(t_mod, y_mod, t_args, y_args, call=None):
    """Forward both, compare every output; backward a random weighting of them, compare the gradients of
    the inputs that require grad and of every parameter."""
    call = call or (lambda mod, args: mod(*args))
    t_out, y_out = _flat(call(t_mod, t_args)), _flat(call(y_mod, y_args))
    assert len(t_out) == len(y_out)
    for i, (t, y) in enumerate(zip(t_out, y_out)):
        assert tuple(y.shape) == tuple(t.shape), f"output {i}"
        assert_close(y, t, f"output {i}")
    weights = [RNG.standard_normal(tuple(t.shape)) for t in t_out]
    sum((o * torch.from_numpy(w).to(o.dtype)).sum() for o, w in zip(t_out, weights)).backward()
    sum((o * yaten.from_numpy(w).to(o.dtype)).sum() for o, w in zip(y_out, weights)).backward()
    for i, (t, y) in enumerate(zip(_flat(t_args), _flat(y_args))):
        if isinstance(t, torch.Tensor) and t.requires_grad:
            assert_close(y.grad, t.grad, f"grad of input {i}")
    for (name, tp), (yname, yp) in zip(t_mod.named_parameters(), y_mod.named_parameters()):
        assert name == yname
        assert_close(yp.grad, tp.grad, f"grad of {name}")


def _rnn(lib, mode, *args, **kwargs):
    if mode == "LSTM":
        return lib.nn.LSTM(*args, **kwargs)
    if mode == "GRU":
        return lib.nn.GRU(*args, **kwargs)
    return lib.nn.RNN(*args, nonlinearity=mode, **kwargs)


MODES = ["tanh", "relu", "LSTM", "GRU"]
CONFIGS = [
    {},
    {"num_layers": 2, "bidirectional": True},
    {"batch_first": True, "bias": False},
    {"num_layers": 2, "batch_first": True, "bidirectional": True, "bias": False},
]


def _state(lib, mode, shape, arrays):
    if mode == "LSTM":
        return tuple(_leaf(lib, a) for a in arrays)
    return _leaf(lib, arrays[0])


@pytest.mark.parametrize(
    "config", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default"
)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("with_state", [False, True], ids=["zeros", "h0"])
def test_module_matches_torch(mode, config, with_state):
    t_mod, y_mod = _pair(_rnn, mode, 3, 4, **config)
    layers = config.get("num_layers", 1) * (2 if config.get("bidirectional") else 1)
    x = RNG.standard_normal((2, 5, 3) if config.get("batch_first") else (5, 2, 3)).astype(np.float32)
    states = [RNG.standard_normal((layers, 2, 4)).astype(np.float32) for _ in range(2)]
    t_args, y_args = [_leaf(torch, x)], [_leaf(yaten, x)]
    if with_state:
        t_args.append(_state(torch, mode, None, states))
        y_args.append(_state(yaten, mode, None, states))
    _compare(t_mod, y_mod, t_args, y_args)


@pytest.mark.parametrize("bidirectional", [False, True])
def test_lstm_proj_size_matches_torch(bidirectional):
    t_mod, y_mod = _pair(_rnn, "LSTM", 3, 5, num_layers=2, proj_size=2, bidirectional=bidirectional)
    d = 2 if bidirectional else 1
    x = RNG.standard_normal((4, 2, 3))
    h0, c0 = RNG.standard_normal((2 * d, 2, 2)), RNG.standard_normal((2 * d, 2, 5))
    t_mod.double(), y_mod.double()
    _compare(t_mod, y_mod, [_leaf(torch, x), (_leaf(torch, h0), _leaf(torch, c0))],
             [_leaf(yaten, x), (_leaf(yaten, h0), _leaf(yaten, c0))])  # fmt: skip
    assert [n for n, _ in y_mod.named_parameters()] == [n for n, _ in t_mod.named_parameters()]


@pytest.mark.parametrize("mode", MODES)
def test_unbatched_input(mode):
    t_mod, y_mod = _pair(_rnn, mode, 3, 4, num_layers=2, bidirectional=True)
    x = RNG.standard_normal((5, 3)).astype(np.float32)
    states = [RNG.standard_normal((4, 4)).astype(np.float32) for _ in range(2)]
    _compare(t_mod, y_mod, [_leaf(torch, x), _state(torch, mode, None, states)],
             [_leaf(yaten, x), _state(yaten, mode, None, states)])  # fmt: skip


@pytest.mark.parametrize("enforce_sorted", [True, False])
@pytest.mark.parametrize("mode", MODES)
def test_packed_input_matches_torch(mode, enforce_sorted):
    t_mod, y_mod = _pair(_rnn, mode, 3, 4, num_layers=2, bidirectional=True)
    lengths = [5, 3, 2] if enforce_sorted else [2, 5, 3]
    x = RNG.standard_normal((5, 3, 3)).astype(np.float32)
    states = [RNG.standard_normal((4, 3, 4)).astype(np.float32) for _ in range(2)]

    def call(lib):
        def run(mod, args):
            packed = lib.nn.utils.rnn.pack_padded_sequence(args[0], lengths, enforce_sorted=enforce_sorted)
            out, hidden = mod(packed, args[1])
            assert isinstance(out, lib.nn.utils.rnn.PackedSequence)
            padded, out_lengths = lib.nn.utils.rnn.pad_packed_sequence(out)
            assert out_lengths.tolist() == lengths
            return padded, hidden

        return run

    t_args = [_leaf(torch, x), _state(torch, mode, None, states)]
    y_args = [_leaf(yaten, x), _state(yaten, mode, None, states)]
    t_out, y_out = call(torch)(t_mod, t_args), call(yaten)(y_mod, y_args)
    for t, y in zip(_flat(t_out), _flat(y_out)):
        assert_close(y, t)
    _compare(
        t_mod,
        y_mod,
        t_args,
        y_args,
        call=lambda mod, args: (call(torch) if mod is t_mod else call(yaten))(mod, args),
    )


def test_dropout_between_layers_in_training_only():
    lstm = yaten.nn.LSTM(3, 4, num_layers=2, dropout=0.5)
    x = yaten.randn(6, 2, 3)
    lstm.eval()
    assert yaten.equal(lstm(x)[0], lstm(x)[0])
    lstm.train()
    yaten.manual_seed(0)
    a = lstm(x)[0]
    yaten.manual_seed(1)
    assert not yaten.equal(a, lstm(x)[0])
    yaten.nn.LSTM(3, 4, num_layers=1).train()(x)  # no dropout: deterministic, no warning


def test_dropout_warning_and_argument_errors():
    for lib in (torch, yaten):
        with pytest.warns(
            UserWarning, match="dropout option adds dropout after all but last recurrent layer"
        ):
            lib.nn.GRU(3, 4, dropout=0.2)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            lib.nn.GRU(3, 4, num_layers=2, dropout=0.2)
    bad = [
        ((3, 4), {"dropout": 1.5}, ValueError, "dropout should be a number in range"),
        ((3, 4), {"bias": 1}, TypeError, "bias should be of type bool, got: int"),
        ((3, 0), {}, ValueError, "hidden_size must be greater than zero"),
        ((3, 4), {"num_layers": 0}, ValueError, "num_layers must be greater than zero"),
        ((3, 4), {"proj_size": 4}, ValueError, "proj_size has to be smaller than hidden_size"),
        ((3.0, 4), {}, TypeError, "input_size should be of type int, got: float"),
    ]
    for args, kwargs, exc, msg in bad:
        for lib in (torch, yaten):
            with pytest.raises(exc, match=msg):
                lib.nn.LSTM(*args, **kwargs)
    for lib in (torch, yaten):
        with pytest.raises(ValueError, match="proj_size argument is only supported for LSTM"):
            lib.nn.GRU(3, 4, proj_size=2)
        with pytest.raises(ValueError, match="Unknown nonlinearity 'sigmoid'"):
            lib.nn.RNN(3, 4, nonlinearity="sigmoid")


def _make(lib, spec):
    """A zeros tensor of the shape ``spec``, or a tuple of them for a tuple of shapes."""
    return tuple(lib.zeros(*s) for s in spec) if isinstance(spec[0], tuple) else lib.zeros(*spec)


def _error(lib, mode, args):
    try:
        _rnn(lib, mode, 3, 4)(*[_make(lib, a) for a in args])
    except (RuntimeError, ValueError) as e:
        return type(e), str(e)
    return None


@pytest.mark.parametrize(
    "mode, args",
    [
        ("LSTM", [(2, 3, 3, 3)]),
        ("GRU", [(5, 2, 4)]),
        ("tanh", [(5, 2, 3), (2, 2, 4)]),
        ("tanh", [(5, 3), (1, 2, 4)]),
        ("tanh", [(5, 2, 3), (1, 4)]),
        ("GRU", [(5, 2, 3), (1, 3, 4)]),
        ("LSTM", [(5, 2, 3), ((1, 2, 4), (1, 2, 5))]),
        ("LSTM", [(5, 2, 3), ((1, 2, 4), (2, 4))]),
        ("LSTM", [(5, 3), ((1, 2, 4), (1, 2, 4))]),
    ],
)
def test_forward_errors_match_torch(mode, args):
    want = _error(torch, mode, args)
    assert want is not None
    assert _error(yaten, mode, args) == want


def test_dtype_mismatch_message():
    for lib in (torch, yaten):
        with pytest.raises(ValueError, match=r"RNN input dtype \(.*float64\) does not match weight dtype"):
            lib.nn.GRU(3, 4)(lib.zeros(5, 2, 3, dtype=lib.float64))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("config", [{"num_layers": 2, "bidirectional": True, "bias": False},
                                    {"proj_size": 2, "num_layers": 2}])  # fmt: skip
def test_state_dict_keys_repr_and_torch_checkpoint(mode, config, tmp_path):
    if "proj_size" in config and mode != "LSTM":
        return
    t_mod = _rnn(torch, mode, 3, 4, **config)
    y_mod = _rnn(yaten, mode, 3, 4, **config)
    assert list(y_mod.state_dict()) == list(t_mod.state_dict())
    assert repr(y_mod) == repr(t_mod)
    assert [[tuple(w.shape) for w in ws] for ws in y_mod.all_weights] == [
        [tuple(w.shape) for w in ws] for ws in t_mod.all_weights
    ]
    assert [tuple(w.shape) for w in y_mod._flat_weights] == [tuple(w.shape) for w in t_mod._flat_weights]
    torch.save(t_mod.state_dict(), tmp_path / "rnn.pt")
    y_mod.load_state_dict(yaten.load(tmp_path / "rnn.pt"))
    assert_close(y_mod.weight_ih_l0, t_mod.weight_ih_l0)
    y_mod.flatten_parameters()


def test_init_is_uniform_in_plus_minus_one_over_sqrt_hidden():
    lstm = yaten.nn.LSTM(8, 16, num_layers=2)
    values = np.concatenate([p.detach().numpy().ravel() for p in lstm.parameters()])
    assert np.abs(values).max() <= 0.25 and np.abs(values).max() > 0.24
    cell = yaten.nn.GRUCell(3, 4)
    assert cell.weight_ih.shape == (12, 3) and np.abs(cell.bias_hh.detach().numpy()).max() <= 0.5


def test_reassigned_weight_is_used():
    rnn = yaten.nn.RNN(2, 3)
    rnn.weight_hh_l0 = yaten.nn.Parameter(yaten.zeros(3, 3))
    rnn.weight_ih_l0 = yaten.nn.Parameter(yaten.zeros(3, 2))
    rnn.bias_ih_l0 = yaten.nn.Parameter(yaten.zeros(3))
    rnn.bias_hh_l0 = yaten.nn.Parameter(yaten.zeros(3))
    assert rnn._flat_weights[1] is rnn.weight_hh_l0
    assert not rnn(yaten.randn(4, 1, 2))[0].detach().numpy().any()


# --- cells ---------------------------------------------------------------------------------------


def _cell(lib, kind, *args, **kwargs):
    if kind in ("tanh", "relu"):
        return lib.nn.RNNCell(*args, nonlinearity=kind, **kwargs)
    return getattr(lib.nn, f"{kind}Cell")(*args, **kwargs)


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("kind", ["tanh", "relu", "LSTM", "GRU"])
def test_cells_match_torch(kind, batched, bias):
    t_mod, y_mod = _pair(_cell, kind, 3, 4, bias=bias)
    lead = (2,) if batched else ()
    x = RNG.standard_normal((*lead, 3)).astype(np.float32)
    h = [RNG.standard_normal((*lead, 4)).astype(np.float32) for _ in range(2)]
    _compare(t_mod, y_mod, [_leaf(torch, x), _state(torch, kind, None, h)],
             [_leaf(yaten, x), _state(yaten, kind, None, h)])  # fmt: skip
    _compare(t_mod, y_mod, [_leaf(torch, x)], [_leaf(yaten, x)])
    assert repr(y_mod) == repr(t_mod)
    assert list(y_mod.state_dict()) == list(t_mod.state_dict())


def test_cell_errors_match_torch():
    cases = [
        (lambda lib: lib.nn.LSTMCell(3, 4)(lib.zeros(2, 2, 3)), ValueError),
        (lambda lib: lib.nn.GRUCell(3, 4)(lib.zeros(2, 3), lib.zeros(2, 2, 4)), ValueError),
        (lambda lib: lib.nn.RNNCell(3, 4)(lib.zeros(2, 5)), RuntimeError),
        (lambda lib: lib.nn.LSTMCell(3, 4)(lib.zeros(2, 3), (lib.zeros(3, 4), lib.zeros(3, 4))), RuntimeError),
        (lambda lib: lib.lstm_cell(lib.zeros(2, 3), [lib.zeros(2, 4)], lib.zeros(16, 3), lib.zeros(16, 4)),
         RuntimeError),
        (lambda lib: lib.gru_cell(lib.zeros(2, 3), lib.zeros(2, 5), lib.zeros(12, 3), lib.zeros(12, 4)),
         RuntimeError),
        (lambda lib: lib.rnn_tanh_cell(lib.zeros(2, 3), lib.zeros(2, 4), lib.zeros(5, 3), lib.zeros(4, 4)),
         RuntimeError),
    ]  # fmt: skip
    for fn, exc in cases:
        with pytest.raises(exc) as want:
            fn(torch)
        with pytest.raises(exc) as got:
            fn(yaten)
        assert str(got.value) == str(want.value)


# --- the fused cell ops --------------------------------------------------------------------------


def _f64(*shape):
    return yaten.from_numpy(RNG.standard_normal(shape)).requires_grad_()


@pytest.mark.parametrize("bias", [True, False])
def test_fused_cells_gradcheck(bias):
    cx = _f64(3, 2)
    lstm = [_f64(3, 8), _f64(3, 8), cx] + ([_f64(8), _f64(8)] if bias else [])
    gru = [_f64(3, 6), _f64(3, 6), cx] + ([_f64(6), _f64(6)] if bias else [])
    for fn, inputs in ((lambda *a: yaten._thnn_fused_lstm_cell(*a)[:2], lstm),
                       (lambda *a: yaten._thnn_fused_gru_cell(*a)[0], gru)):  # fmt: skip
        assert yaten.autograd.gradcheck(fn, tuple(inputs))
        assert yaten.autograd.gradgradcheck(fn, tuple(inputs))


def test_fused_backward_kernels_match_torch_differentiable_backward():
    ig, hg, cx, ib, hb = (RNG.standard_normal(s) for s in ((3, 8), (3, 8), (3, 2), (8,), (8,)))
    ghy, gcy = RNG.standard_normal((3, 2)), RNG.standard_normal((3, 2))
    y = [yaten.from_numpy(a) for a in (ig, hg, cx, ib, hb)]
    _, cy, ws = yaten._thnn_fused_lstm_cell(*y)
    got = yaten._thnn_fused_lstm_cell_backward_impl(
        yaten.from_numpy(ghy), yaten.from_numpy(gcy), y[2], cy, ws, True
    )
    t = [torch.from_numpy(a) for a in (ig, hg, cx, ib, hb)]
    want = torch.ops.aten._thnn_differentiable_lstm_cell_backward(
        torch.from_numpy(ghy),
        torch.from_numpy(gcy),
        t[0],
        t[1],
        t[3],
        t[4],
        t[2],
        torch.from_numpy(cy.numpy()),
    )
    assert_close(got[0], want[0], "grad_gates")
    assert_close(got[1], want[2], "grad_cx")
    assert_close(got[2], want[3], "grad_bias")
    ig3, hg3, ib3, hb3 = (RNG.standard_normal(s) for s in ((3, 6), (3, 6), (6,), (6,)))
    _, ws = yaten._thnn_fused_gru_cell(*(yaten.from_numpy(a) for a in (ig3, hg3, cx, ib3, hb3)))
    got = yaten._thnn_fused_gru_cell_backward(yaten.from_numpy(ghy), ws, True)
    want = torch.ops.aten._thnn_differentiable_gru_cell_backward(
        torch.from_numpy(ghy), *(torch.from_numpy(a) for a in (ig3, hg3, cx, ib3, hb3))
    )
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, f"gru grad {i}")


def test_fused_cell_checks_match_torch_messages():
    with pytest.raises(RuntimeError, match=r"Expected tensor for argument #1 'input_gates' to have same size as "
                                           r"tensor for argument #2 'hidden_gates'; but \[2, 8\] does not equal \[2, 4\]"):  # fmt: skip
        yaten._thnn_fused_lstm_cell(yaten.zeros(2, 8), yaten.zeros(2, 4), yaten.zeros(2, 2))
    with pytest.raises(RuntimeError, match="Expected tensor for argument #3 'hx' to have 4 elements"):
        yaten._thnn_fused_gru_cell(yaten.zeros(2, 6), yaten.zeros(2, 6), yaten.zeros(2, 3))


def test_one_lstm_step_records_one_node_for_its_gates():
    lstm = yaten.nn.LSTM(3, 4)
    out, _ = lstm(yaten.randn(7, 2, 3))
    seen, stack = set(), [out.grad_fn]
    names = []
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.append(type(node).__name__)
        stack.extend(f for f, _ in node.next_functions)
    assert names.count("ThnnFusedLstmCellBackward0") == 7
    assert len(names) < 7 * 4 + 12, sorted(names)
