"""Recurrent layers, as ``torch.nn.modules.rnn``: ``RNN``, ``LSTM``, ``GRU`` and the cells ``RNNCell``,
``LSTMCell``, ``GRUCell``.

Parameters, their names (``weight_ih_l0``, ``bias_hh_l1_reverse``, ``weight_hr_l0``), shapes, gate
order and initialization are PyTorch's, so torch checkpoints load. The layers run
``yaten.lstm``/``gru``/``rnn_tanh``/``rnn_relu`` (torch's ``_VF`` functions; runtime/native/rnn.py:
one fused node per LSTM/GRU step) over padded or packed input.
"""

import math
import numbers
import warnings
import weakref

import yaten

from .. import init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .module import Module

__all__ = ["GRU", "LSTM", "RNN", "GRUCell", "LSTMCell", "RNNBase", "RNNCell", "RNNCellBase"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _apply_permutation(tensor, permutation, dim=1):
    return tensor.index_select(dim, permutation)


def _check_arguments(input_size, hidden_size, num_layers, bias, batch_first, dropout, proj_size):
    if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
        raise ValueError(
            "dropout should be a number in range [0, 1] representing the probability of an element being zeroed"
        )
    if dropout > 0 and num_layers == 1:
        warnings.warn(
            "dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
            f"num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
            stacklevel=4,
        )
    for name, value, kind in (("bias", bias, bool), ("batch_first", batch_first, bool),
                              ("input_size", input_size, int)):  # fmt: skip
        if not isinstance(value, kind):
            raise TypeError(f"{name} should be of type {kind.__name__}, got: {type(value).__name__}")
        if name == "input_size" and value <= 0:
            raise ValueError("input_size must be greater than zero")
    if not isinstance(hidden_size, int):
        raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
    if hidden_size <= 0:
        raise ValueError("hidden_size must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")


class RNNBase(Module):
    """The parameters, checks and forward shared by ``RNN``, ``LSTM`` and ``GRU`` (``mode`` is one of
    ``"RNN_TANH"``, ``"RNN_RELU"``, ``"LSTM"``, ``"GRU"``).

    >>> import yaten
    >>> yaten.nn.LSTM(10, 20, num_layers=2, batch_first=True)
    LSTM(10, 20, num_layers=2, batch_first=True)
    """

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):  # fmt: skip
        super().__init__()
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        _check_arguments(input_size, hidden_size, num_layers, bias, batch_first, dropout, proj_size)
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        self._flat_weight_refs = []
        directions = 2 if bidirectional else 1
        gate_size = _GATES[mode] * hidden_size
        real_hidden = proj_size if proj_size > 0 else hidden_size
        factory = {"device": device, "dtype": dtype}
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(directions):
                layer_input = input_size if layer == 0 else real_hidden * directions
                shapes = [("weight_ih", (gate_size, layer_input)), ("weight_hh", (gate_size, real_hidden))]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                if proj_size > 0:
                    shapes.append(("weight_hr", (proj_size, hidden_size)))
                suffix = "_reverse" if direction == 1 else ""
                names = []
                for base, shape in shapes:
                    name = f"{base}_l{layer}{suffix}"
                    setattr(self, name, Parameter(yaten.empty(shape, **factory)))
                    names.append(name)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self._init_flat_weights()
        self.reset_parameters()

    def _init_flat_weights(self):
        self._flat_weights = [
            getattr(self, n) if hasattr(self, n) else None for n in self._flat_weights_names
        ]
        self._flat_weight_refs = [weakref.ref(w) if w is not None else None for w in self._flat_weights]
        self.flatten_parameters()

    def __setattr__(self, attr, value):
        if hasattr(self, "_flat_weights_names") and attr in self._flat_weights_names:
            self._flat_weights[self._flat_weights_names.index(attr)] = value
        super().__setattr__(attr, value)

    def flatten_parameters(self):
        """A no-op, as PyTorch's off cuDNN: the weights are used where they are."""

    def _apply(self, fn, recurse=True):
        self._flat_weight_refs = []
        result = super()._apply(fn, recurse)
        self._init_flat_weights()
        return result

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _update_flat_weights(self):
        for ref, name in zip(self._flat_weight_refs, self._flat_weights_names):
            weight = getattr(self, name) if hasattr(self, name) else None
            if weight is not None and ref is not None and ref() is not weight:
                self._init_flat_weights()
                return

    def __getstate__(self):
        self._update_flat_weights()
        state = self.__dict__.copy()
        del state["_flat_weight_refs"]
        return state

    def __setstate__(self, state):
        super().__setstate__(state)
        self._flat_weight_refs = [weakref.ref(w) if w is not None else None for w in self._flat_weights]

    @property
    def all_weights(self):
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    # --- checks, as PyTorch's -------------------------------------------------------------------

    def check_input(self, input, batch_sizes):
        if input.dtype != self._flat_weights[0].dtype:
            w = self._flat_weights[0].dtype
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype ({w}). "
                f"Convert input: input.to({w}), or convert model: model.to({input.dtype})"
            )
        expected = 2 if batch_sizes is not None else 3
        if input.dim() != expected:
            raise RuntimeError(f"input must have {expected} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(
                f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got {input.size(-1)}"
            )

    def _mini_batch(self, input, batch_sizes):
        if batch_sizes is not None:
            return int(batch_sizes[0])
        return input.size(0) if self.batch_first else input.size(1)

    def get_expected_hidden_size(self, input, batch_sizes):
        directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * directions, self._mini_batch(input, batch_sizes), size)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        if hx.size() != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return _apply_permutation(hx, permutation)

    # --- forward --------------------------------------------------------------------------------

    def _zeros(self, batch, size, input):
        directions = 2 if self.bidirectional else 1
        return yaten.zeros(self.num_layers * directions, batch, size, dtype=input.dtype, device=input.device)

    def _default_hidden(self, batch, input):
        return self._zeros(batch, self.hidden_size, input)

    def _unbatched_hidden(self, hx):
        if hx.dim() != 2:
            raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor")
        return hx.unsqueeze(1)

    def _batched_hidden(self, hx):
        if hx.dim() != 3:
            raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
        return hx

    def _squeeze_hidden(self, hidden):
        return hidden.squeeze(1)

    def _run(self, *args):
        """torch's ``_VF.<mode>`` call: ``args`` is the input (a padded sequence, or a packed one's data
        and batch sizes) and the initial state; returns ``(output, hidden)``."""
        function = {
            "LSTM": yaten.lstm,
            "GRU": yaten.gru,
            "RNN_TANH": yaten.rnn_tanh,
            "RNN_RELU": yaten.rnn_relu,
        }
        packed = len(args) == 3
        options = (self.num_layers, self.dropout, self.training, self.bidirectional)
        result = function[self.mode](*args, self._flat_weights, self.bias, *options,
                                     *(() if packed else (self.batch_first,)))  # fmt: skip
        return result[0], (result[1] if len(result) == 2 else tuple(result[1:]))

    def forward(self, input, hx=None):
        self._update_flat_weights()
        if isinstance(input, PackedSequence):
            data, batch_sizes, sorted_indices, unsorted_indices = input
            if hx is None:
                hx = self._default_hidden(int(batch_sizes[0]), data)
            else:
                hx = self.permute_hidden(hx, sorted_indices)
            self.check_forward_args(data, hx, batch_sizes)
            output, hidden = self._run(data, batch_sizes, hx)
            packed = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
            return packed, self.permute_hidden(hidden, unsorted_indices)
        if input.dim() not in (2, 3):
            raise ValueError(self._dims_message(input))
        batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not batched:
            input = input.unsqueeze(batch_dim)
        if hx is None:
            hx = self._default_hidden(input.size(batch_dim), input)
        else:
            hx = self._batched_hidden(hx) if batched else self._unbatched_hidden(hx)
        self.check_forward_args(input, hx, None)
        output, hidden = self._run(input, hx)
        if not batched:
            return output.squeeze(batch_dim), self._squeeze_hidden(hidden)
        return output, hidden

    def _dims_message(self, input):
        return f"{self._name()}: Expected input to be 2D or 3D, got {input.dim()}D instead"

    def _name(self):
        return type(self).__name__


class RNN(RNNBase):
    """An Elman RNN, ``h_t = tanh(x_t W_ih^T + b_ih + h_(t-1) W_hh^T + b_hh)`` (or relu), as
    ``torch.nn.RNN``.

    >>> import yaten
    >>> rnn = yaten.nn.RNN(4, 3, num_layers=2, nonlinearity="relu")
    >>> out, h = rnn(yaten.randn(5, 2, 4))
    >>> tuple(out.shape), tuple(h.shape), rnn
    ((5, 2, 3), (2, 2, 3), RNN(4, 3, num_layers=2))
    """

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, *args, **kwargs)

    def _dims_message(self, input):
        return f"RNN: Expected input to be 2D or 3D, got {input.dim()}D tensor instead"


class LSTM(RNNBase):
    """A long short-term memory network (optionally with projections, ``proj_size``), as
    ``torch.nn.LSTM``; the state is ``(h, c)``.

    >>> import yaten
    >>> lstm = yaten.nn.LSTM(4, 3, proj_size=2, bidirectional=True)
    >>> out, (h, c) = lstm(yaten.randn(5, 4))
    >>> tuple(out.shape), tuple(h.shape), tuple(c.shape)
    ((5, 4), (2, 2), (2, 3))
    """

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes):
        directions = 2 if self.bidirectional else 1
        return (self.num_layers * directions, self._mini_batch(input, batch_sizes), self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")  # fmt: skip
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")  # fmt: skip

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return _apply_permutation(hx[0], permutation), _apply_permutation(hx[1], permutation)

    def _default_hidden(self, batch, input):
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        return self._zeros(batch, real_hidden, input), self._zeros(batch, self.hidden_size, input)

    def _unbatched_hidden(self, hx):
        if hx[0].dim() != 2 or hx[1].dim() != 2:
            raise RuntimeError(
                "For unbatched 2-D input, hx and cx should also be 2-D but got "
                f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"
            )
        return hx[0].unsqueeze(1), hx[1].unsqueeze(1)

    def _batched_hidden(self, hx):
        if hx[0].dim() != 3 or hx[1].dim() != 3:
            raise RuntimeError(
                f"For batched 3-D input, hx and cx should also be 3-D but got ({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"
            )
        return hx

    def _squeeze_hidden(self, hidden):
        return hidden[0].squeeze(1), hidden[1].squeeze(1)


class GRU(RNNBase):
    """A gated recurrent unit network, as ``torch.nn.GRU``.

    >>> import yaten
    >>> gru = yaten.nn.GRU(4, 3, batch_first=True)
    >>> out, h = gru(yaten.randn(2, 5, 4), yaten.zeros(1, 2, 3))
    >>> tuple(out.shape), tuple(h.shape)
    ((2, 5, 3), (1, 2, 3))
    """

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)


class RNNCellBase(Module):
    """The parameters shared by ``RNNCell``, ``LSTMCell`` and ``GRUCell`` (``num_chunks`` gates)."""

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(yaten.empty((num_chunks * hidden_size, input_size), **factory))
        self.weight_hh = Parameter(yaten.empty((num_chunks * hidden_size, hidden_size), **factory))
        if bias:
            self.bias_ih = Parameter(yaten.empty(num_chunks * hidden_size, **factory))
            self.bias_hh = Parameter(yaten.empty(num_chunks * hidden_size, **factory))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _batched(self, input, states, name, labels):
        """``(input, states, batched)`` with a batch dim added to unbatched operands; ``states`` (a sequence
        of tensors, one per name in ``labels``) zeros when None."""
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        for label, value in zip(labels, states or ()):
            if value.dim() not in (1, 2):
                raise ValueError(f"{name}: Expected {label} to be 1D or 2D, got {value.dim()}D instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if states is None:
            zeros = yaten.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)
            states = [zeros] * len(labels)
        elif not batched:
            states = [s.unsqueeze(0) for s in states]
        return input, tuple(states), batched


class RNNCell(RNNCellBase):
    """One step of an Elman RNN (tanh or relu), as ``torch.nn.RNNCell``.

    >>> import yaten
    >>> cell = yaten.nn.RNNCell(4, 3, nonlinearity="relu")
    >>> tuple(cell(yaten.randn(2, 4)).shape), cell
    ((2, 3), RNNCell(4, 3, nonlinearity=relu))
    """

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, (hx,), batched = self._batched(input, None if hx is None else [hx], "RNNCell", ["hidden"])
        if self.nonlinearity == "tanh":
            cell = yaten.rnn_tanh_cell
        elif self.nonlinearity == "relu":
            cell = yaten.rnn_relu_cell
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        ret = cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return ret if batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step, as ``torch.nn.LSTMCell``: ``(h', c') = cell(x, (h, c))``.

    >>> import yaten
    >>> cell = yaten.nn.LSTMCell(4, 3)
    >>> h, c = cell(yaten.randn(4))
    >>> tuple(h.shape), tuple(c.shape)
    ((3,), (3,))
    """

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, hx, batched = self._batched(input, hx, "LSTMCell", ["hx[0]", "hx[1]"])
        h, c = yaten.lstm_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step, as ``torch.nn.GRUCell``.

    >>> import yaten
    >>> cell = yaten.nn.GRUCell(4, 3, bias=False)
    >>> tuple(cell(yaten.randn(2, 4), yaten.zeros(2, 3)).shape), cell
    ((2, 3), GRUCell(4, 3, bias=False))
    """

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, (hx,), batched = self._batched(input, None if hx is None else [hx], "GRUCell", ["hidden"])
        ret = yaten.gru_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return ret if batched else ret.squeeze(0)
