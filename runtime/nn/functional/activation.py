"""Activation functions of ``torch.nn.functional``."""

import warnings

import yaten as _yaten

from ..._factories import tensor_arg


def relu(input, inplace=False):
    """max(0, x) elementwise; in place with ``inplace=True``.

    >>> import yaten
    >>> yaten.nn.functional.relu(yaten.tensor([-1.0, 2.0]))
    tensor([0., 2.])
    """
    return _yaten.relu_(input) if inplace else _yaten.relu(input)


def relu_(input):
    """In-place ``relu``."""
    return _yaten.relu_(input)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """x for x > 0, else ``negative_slope * x``.

    >>> import yaten
    >>> yaten.nn.functional.leaky_relu(yaten.tensor([-1.0, 2.0]), 0.1)
    tensor([-0.1000,  2.0000])
    """
    return _yaten.leaky_relu_(input, negative_slope) if inplace else _yaten.leaky_relu(input, negative_slope)


def leaky_relu_(input, negative_slope=0.01):
    """In-place ``leaky_relu``."""
    return _yaten.leaky_relu_(input, negative_slope)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Randomized leaky ReLU: in training each negative element is scaled by its own slope drawn from
    U(lower, upper); otherwise by their mean, ``(lower + upper) / 2``.

    >>> import yaten
    >>> yaten.nn.functional.rrelu(yaten.tensor([-3.0, 2.0]), 0.2, 0.4)
    tensor([-0.9000,  2.0000])
    """
    if not training:
        return leaky_relu(input, (lower + upper) / 2, inplace)
    slope = _yaten.empty_like(input).uniform_(lower, upper)
    noise = _yaten.where(input >= 0, _yaten.ones_like(input), slope)
    return input.mul_(noise) if inplace else input * noise


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    """In-place ``rrelu``."""
    return rrelu(input, lower, upper, training, inplace=True)


def elu(input, alpha=1.0, inplace=False):
    """x for x > 0, else ``alpha * (exp(x) - 1)``.

    >>> import yaten
    >>> yaten.nn.functional.elu(yaten.tensor([0.0, 2.0]))
    tensor([0., 2.])
    """
    return _yaten.elu_(input, alpha) if inplace else _yaten.elu(input, alpha)


def elu_(input, alpha=1.0):
    """In-place ``elu``."""
    return _yaten.elu_(input, alpha)


def gelu(input, approximate="none"):
    """x * Phi(x) (``approximate='tanh'``: the tanh approximation).

    >>> import yaten
    >>> yaten.nn.functional.gelu(yaten.tensor([0.0]))
    tensor([0.])
    """
    return _yaten.gelu(input, approximate=approximate)


def silu(input, inplace=False):
    """x * sigmoid(x).

    >>> import yaten
    >>> yaten.nn.functional.silu(yaten.tensor([0.0]))
    tensor([0.])
    """
    return _yaten.silu_(input) if inplace else _yaten.silu(input)


def sigmoid(input):
    """1 / (1 + exp(-x)).

    >>> import yaten
    >>> yaten.nn.functional.sigmoid(yaten.tensor([0.0]))
    tensor([0.5000])
    """
    return input.sigmoid()  # as torch's: a non-tensor raises AttributeError


def tanh(input):
    """Hyperbolic tangent.

    >>> import yaten
    >>> yaten.nn.functional.tanh(yaten.tensor([0.0]))
    tensor([0.])
    """
    return input.tanh()  # as torch's: a non-tensor raises AttributeError


def _softmax_dim(name, ndim, stacklevel):
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an argument.",
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """exp(x) / sum(exp(x)) along ``dim`` (PyTorch's implicit dim, with its warning, when it is None).

    >>> import yaten
    >>> yaten.nn.functional.softmax(yaten.tensor([0.0, 0.0]), dim=0)
    tensor([0.5000, 0.5000])
    """
    if dim is None:
        dim = _softmax_dim("softmax", input.ndim, _stacklevel)
    return input.softmax(dim) if dtype is None else input.softmax(dim, dtype=dtype)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-x) along ``dim``: weights that favour the smallest values.

    >>> import yaten
    >>> yaten.nn.functional.softmin(yaten.tensor([1.0, 1.0]), dim=0)
    tensor([0.5000, 0.5000])
    """
    if dim is None:
        dim = _softmax_dim("softmin", input.ndim, _stacklevel)
    return (-input).softmax(dim) if dtype is None else (-input).softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """log(softmax(x)) along ``dim``, computed stably.

    >>> import yaten
    >>> yaten.nn.functional.log_softmax(yaten.tensor([0.0, 0.0]), dim=0)
    tensor([-0.6931, -0.6931])
    """
    if dim is None:
        dim = _softmax_dim("log_softmax", input.ndim, _stacklevel)
    return input.log_softmax(dim) if dtype is None else input.log_softmax(dim, dtype=dtype)


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta x)) / beta, and x itself where ``beta * x > threshold``.

    >>> import yaten
    >>> yaten.nn.functional.softplus(yaten.tensor([0.0, 30.0]))
    tensor([ 0.6931, 30.0000])
    """
    return _yaten.softplus(input, beta, threshold)


def _int_bounds(input, min_val, max_val):
    # An integer tensor is clamped to integer bounds (PyTorch converts them to the input's type).
    if input.dtype.is_floating_point:
        return min_val, max_val
    return int(min_val), int(max_val)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """x clamped to [min_val, max_val].

    >>> import yaten
    >>> yaten.nn.functional.hardtanh(yaten.tensor([-2.0, 0.5, 2.0]))
    tensor([-1.0000,  0.5000,  1.0000])
    """
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    tensor_arg("hardtanh_" if inplace else "hardtanh", "input", 1, input)
    if input.dtype is _yaten.bool:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    lo, hi = _int_bounds(input, min_val, max_val)
    return _yaten.hardtanh_(input, lo, hi) if inplace else _yaten.hardtanh(input, lo, hi)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    """In-place ``hardtanh``."""
    tensor_arg("hardtanh_", "input", 1, input)  # torch's hardtanh_ is the op itself: its parser checks first
    return hardtanh(input, min_val, max_val, inplace=True)


def logsigmoid(input):
    """log(sigmoid(x)), computed without overflow.

    >>> import yaten
    >>> yaten.nn.functional.logsigmoid(yaten.tensor([0.0]))
    tensor([-0.6931])
    """
    return _yaten.log_sigmoid(input)


def hardswish(input, inplace=False):
    """x * relu6(x + 3) / 6.

    >>> import yaten
    >>> yaten.nn.functional.hardswish(yaten.tensor([-4.0, 0.0, 4.0]))
    tensor([-0., 0., 4.])
    """
    return _yaten.hardswish_(input) if inplace else _yaten.hardswish(input)


def hardsigmoid(input, inplace=False):
    """relu6(x + 3) / 6.

    >>> import yaten
    >>> yaten.nn.functional.hardsigmoid(yaten.tensor([-4.0, 0.0, 4.0]))
    tensor([0.0000, 0.5000, 1.0000])
    """
    return _yaten.hardsigmoid_(input) if inplace else _yaten.hardsigmoid(input)


def relu6(input, inplace=False):
    """min(max(0, x), 6): ``hardtanh(x, 0, 6)``, as PyTorch's.

    >>> import yaten
    >>> yaten.nn.functional.relu6(yaten.tensor([-1.0, 3.0, 9.0]))
    tensor([0., 3., 6.])
    """
    return hardtanh(input, 0.0, 6.0, inplace)


def mish(input, inplace=False):
    """x * tanh(softplus(x)).

    >>> import yaten
    >>> yaten.nn.functional.mish(yaten.tensor([0.0]))
    tensor([0.])
    """
    return _yaten.mish_(input) if inplace else _yaten.mish(input)


def softsign(input):
    """x / (1 + |x|).

    >>> import yaten
    >>> yaten.nn.functional.softsign(yaten.tensor([-1.0, 3.0]))
    tensor([-0.5000,  0.7500])
    """
    return input / (input.abs() + 1)


def celu(input, alpha=1.0, inplace=False):
    """x for x > 0, else ``alpha * (exp(x / alpha) - 1)``.

    >>> import yaten
    >>> yaten.nn.functional.celu(yaten.tensor([0.0, 2.0]))
    tensor([0., 2.])
    """
    return _yaten.celu_(input, alpha) if inplace else _yaten.celu(input, alpha)


def celu_(input, alpha=1.0):
    """In-place ``celu``."""
    return _yaten.celu_(input, alpha)


def selu(input, inplace=False):
    """scale * elu(x, alpha) with the self-normalising constants.

    >>> import yaten
    >>> yaten.nn.functional.selu(yaten.tensor([0.0, 1.0]))
    tensor([0.0000, 1.0507])
    """
    return _yaten.selu_(input) if inplace else _yaten.selu(input)


def selu_(input):
    """In-place ``selu``."""
    return _yaten.selu_(input)


def threshold(input, threshold, value, inplace=False):
    """x where x > threshold, else ``value``.

    >>> import yaten
    >>> yaten.nn.functional.threshold(yaten.tensor([0.5, 2.0]), 1.0, -1.0)
    tensor([-1.,  2.])
    """
    return (
        _yaten.threshold_(input, threshold, value) if inplace else _yaten.threshold(input, threshold, value)
    )


def threshold_(input, threshold, value):
    """In-place ``threshold``."""
    return _yaten.threshold_(input, threshold, value)


def hardshrink(input, lambd=0.5):
    """0 where |x| <= lambd, else x.

    >>> import yaten
    >>> yaten.nn.functional.hardshrink(yaten.tensor([0.2, -0.7]))
    tensor([ 0.0000, -0.7000])
    """
    return _yaten.hardshrink(input, lambd)


def softshrink(input, lambd=0.5):
    """x shrunk towards 0 by lambd, and 0 where |x| <= lambd.

    >>> import yaten
    >>> yaten.nn.functional.softshrink(yaten.tensor([0.2, -0.7]))
    tensor([ 0.0000, -0.2000])
    """
    return _yaten.softshrink(input, lambd)


def tanhshrink(input):
    """x - tanh(x).

    >>> import yaten
    >>> yaten.nn.functional.tanhshrink(yaten.tensor([0.0]))
    tensor([0.])
    """
    return input - input.tanh()
