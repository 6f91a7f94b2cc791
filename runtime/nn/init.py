"""Parameter initialisation, as ``torch.nn.init``: each function fills a tensor in place, without
recording autograd history, and returns it. Random fills draw from yaten's generators
(``generator=`` or the default one), so a seed gives the same weights on every run.
"""

import math
import warnings

import numpy as np

import yaten

from .._random import fill_normal_, fill_uniform_

__all__ = [
    "calculate_gain", "constant", "constant_", "dirac", "dirac_", "eye", "eye_", "kaiming_normal",
    "kaiming_normal_", "kaiming_uniform", "kaiming_uniform_", "normal", "normal_", "ones_", "orthogonal",
    "orthogonal_", "sparse", "sparse_", "trunc_normal_", "uniform", "uniform_", "xavier_normal",
    "xavier_normal_", "xavier_uniform", "xavier_uniform_", "zeros_",
]  # fmt: skip

_LINEAR_FNS = (
    "linear",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
)


def calculate_gain(nonlinearity, param=None):
    """The recommended gain for a nonlinearity (the factor ``std`` is scaled by).

    >>> from yaten.nn import init
    >>> init.calculate_gain("relu"), init.calculate_gain("tanh"), round(init.calculate_gain("leaky_relu", 0.2), 4)
    (1.4142135623730951, 1.6666666666666667, 1.3868)
    """
    if nonlinearity in _LINEAR_FNS or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif (not isinstance(param, bool) and isinstance(param, int)) or isinstance(param, float):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    """(fan_in, fan_out) of a weight: dim 1 and dim 0, times the receptive field (dims 2 and on)."""
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive_field_size = 1
    for s in tensor.shape[2:]:
        receptive_field_size *= s
    return tensor.shape[1] * receptive_field_size, tensor.shape[0] * receptive_field_size


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def _write(tensor, values):
    with yaten.no_grad():
        tensor.copy_(yaten.from_numpy(np.ascontiguousarray(values)).to(tensor.device))
    return tensor


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    """Fill ``tensor`` with samples from U(a, b).

    >>> import yaten
    >>> w = yaten.nn.init.uniform_(yaten.empty(3, 5), -0.1, 0.1)
    >>> bool(((w >= -0.1) & (w < 0.1)).all())
    True
    """
    with yaten.no_grad():
        return fill_uniform_(tensor, a, b, generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    """Fill ``tensor`` with samples from N(mean, std²).

    >>> import yaten
    >>> yaten.nn.init.normal_(yaten.empty(3, 5), 0.0, 0.02).shape
    yaten.Size([3, 5])
    """
    with yaten.no_grad():
        return fill_normal_(tensor, mean, std, generator)


def _erfinv(y):
    """erf⁻¹ of a float64 array in (-1, 1): Giles' approximation, then Newton steps with yaten's erf."""
    w = -np.log((1.0 - y) * (1.0 + y))
    small = w < 5.0
    ws, wl = w - 2.5, np.sqrt(w) - 3.0
    ps = np.polyval([2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                     -0.00125372503, -0.00417768164, 0.246640727, 1.50140941], ws)  # fmt: skip
    pl = np.polyval([-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                     -0.0076224613, 0.00943887047, 1.00167406, 2.83297682], wl)  # fmt: skip
    x = np.where(small, ps, pl) * y
    for _ in range(2):
        err = yaten.from_numpy(x).erf().numpy() - y
        x = x - err / (2.0 / math.sqrt(math.pi) * np.exp(-x * x))
    return x


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Fill ``tensor`` with samples from N(mean, std²) truncated to [a, b] (inverse-CDF sampling).

    >>> import yaten
    >>> w = yaten.nn.init.trunc_normal_(yaten.empty(1000), std=1.0, a=-0.5, b=0.5)
    >>> bool(((w >= -0.5) & (w <= 0.5)).all())
    True
    """
    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of values may be "
            "incorrect.",
            stacklevel=2,
        )

    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    lo, hi = norm_cdf((a - mean) / std), norm_cdf((b - mean) / std)
    u = yaten.empty(tuple(tensor.shape), dtype=yaten.float64)
    fill_uniform_(u, 2 * lo - 1, 2 * hi - 1, generator)
    # erf⁻¹ of -1 or 1 is infinite; the clip below brings those draws back to the bounds, as PyTorch's clamp.
    y = np.clip(u.numpy(), np.nextafter(-1.0, 0.0), np.nextafter(1.0, 0.0))
    values = np.clip(_erfinv(y) * (std * math.sqrt(2.0)) + mean, a, b)
    return _write(tensor, values)


def constant_(tensor, val):
    """Fill ``tensor`` with ``val``.

    >>> import yaten
    >>> yaten.nn.init.constant_(yaten.empty(2), 0.5)
    tensor([0.5000, 0.5000])
    """
    with yaten.no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    """Fill ``tensor`` with ones.

    >>> import yaten
    >>> yaten.nn.init.ones_(yaten.empty(2))
    tensor([1., 1.])
    """
    return constant_(tensor, 1.0)


def zeros_(tensor):
    """Fill ``tensor`` with zeros.

    >>> import yaten
    >>> yaten.nn.init.zeros_(yaten.empty(2))
    tensor([0., 0.])
    """
    with yaten.no_grad():
        return tensor.zero_()


def eye_(tensor):
    """Fill a 2-D ``tensor`` with the identity matrix (ones on the diagonal of a non-square one too).

    >>> import yaten
    >>> yaten.nn.init.eye_(yaten.empty(2, 3))
    tensor([[1., 0., 0.],
            [0., 1., 0.]])
    """
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _write(tensor, np.eye(*tensor.shape))


def dirac_(tensor, groups=1):
    """Fill a 3, 4 or 5-D ``tensor`` with the Dirac delta: a convolution with it keeps its input's channels
    (per group).

    >>> import yaten
    >>> yaten.nn.init.dirac_(yaten.empty(2, 2, 3))[:, :, 1]
    tensor([[1., 0.],
            [0., 1.]])
    """
    dimensions = tensor.ndimension()
    if dimensions not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tuple(tensor.shape)
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_chans_per_grp = sizes[0] // groups
    min_dim = min(out_chans_per_grp, sizes[1])
    values = np.zeros(sizes)
    centre = tuple(s // 2 for s in sizes[2:])
    for g in range(groups):
        for d in range(min_dim):
            values[(g * out_chans_per_grp + d, d, *centre)] = 1
    return _write(tensor, values)


def xavier_uniform_(tensor, gain=1.0, generator=None):
    """Glorot's uniform fill: U(-a, a) with a = gain·√(6 / (fan_in + fan_out)).

    >>> import yaten
    >>> w = yaten.nn.init.xavier_uniform_(yaten.empty(4, 2))
    >>> bool((w.abs() <= 1.0).all())
    True
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    """Glorot's normal fill: N(0, std²) with std = gain·√(2 / (fan_in + fan_out)).

    >>> import yaten
    >>> yaten.nn.init.xavier_normal_(yaten.empty(4, 2)).shape
    yaten.Size([4, 2])
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def _kaiming_std(tensor, a, mode, nonlinearity):
    fan = _calculate_correct_fan(tensor, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He's uniform fill: U(-bound, bound) with bound = gain·√(3 / fan), fan chosen by ``mode``.

    >>> import yaten
    >>> w = yaten.nn.init.kaiming_uniform_(yaten.empty(4, 6), nonlinearity="relu")
    >>> bool((w.abs() <= 1.0).all())
    True
    """
    if 0 in tuple(tensor.shape):
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He's normal fill: N(0, std²) with std = gain / √fan, fan chosen by ``mode``.

    >>> import yaten
    >>> yaten.nn.init.kaiming_normal_(yaten.empty(4, 6), mode="fan_out").shape
    yaten.Size([4, 6])
    """
    if 0 in tuple(tensor.shape):
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    return normal_(tensor, 0.0, _kaiming_std(tensor, a, mode, nonlinearity), generator)


def orthogonal_(tensor, gain=1, generator=None):
    """Fill ``tensor`` (2 or more dims, flattened to rows x rest) with a (semi-)orthogonal matrix times
    ``gain``: the Q of a normal sample's QR, signs fixed by R's diagonal.

    >>> import yaten
    >>> w = yaten.nn.init.orthogonal_(yaten.empty(3, 3, dtype=yaten.float64))
    >>> bool(((w @ w.t()) - yaten.eye(3, dtype=yaten.float64)).abs().max() < 1e-12)
    True
    """
    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    sample = yaten.empty((rows, cols), dtype=yaten.float64)
    flattened = fill_normal_(sample, 0.0, 1.0, generator).numpy()
    if rows < cols:
        flattened = flattened.T
    q, r = np.linalg.qr(flattened)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    return _write(tensor, q.reshape(tuple(tensor.shape)) * gain)


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """Fill the 2-d ``tensor`` from N(0, std²), then zero ``ceil(sparsity * rows)`` random rows of each
    column (Martens, 2010), as torch's.

    >>> import yaten
    >>> w = yaten.nn.init.sparse_(yaten.empty(4, 3), sparsity=0.5)
    >>> (w == 0).sum(dim=0).tolist()
    [2, 2, 2]
    """
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)
    with yaten.no_grad():
        tensor.normal_(0, std, generator=generator)
        for col_idx in range(cols):
            zero_indices = yaten.randperm(rows)[:num_zeros]
            tensor[zero_indices, col_idx] = 0
    return tensor


def _make_deprecate(meth):
    """The old name of ``meth`` (``normal`` for ``normal_``): warns as torch's, then calls it."""
    new_name = meth.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn(
            f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.",
            FutureWarning,
            stacklevel=2,
        )
        return meth(*args, **kwargs)

    deprecated_init.__doc__ = f"Deprecated: use ``nn.init.{new_name}``."
    deprecated_init.__name__ = deprecated_init.__qualname__ = old_name
    return deprecated_init


uniform = _make_deprecate(uniform_)
normal = _make_deprecate(normal_)
constant = _make_deprecate(constant_)
eye = _make_deprecate(eye_)
dirac = _make_deprecate(dirac_)
xavier_uniform = _make_deprecate(xavier_uniform_)
xavier_normal = _make_deprecate(xavier_normal_)
kaiming_uniform = _make_deprecate(kaiming_uniform_)
kaiming_normal = _make_deprecate(kaiming_normal_)
orthogonal = _make_deprecate(orthogonal_)
sparse = _make_deprecate(sparse_)
