"""Activation layers, as ``torch.nn.ReLU``, ``LeakyReLU``, ``ELU``, ``GELU``, ``SiLU``, ``Sigmoid``,
``Tanh``, ``Softmax``, ``LogSoftmax``, ``Softplus``, ``Hardtanh``, ``ReLU6``, ``Hardswish``, ``Hardsigmoid``,
``Mish``, ``SELU``, ``CELU``, ``Softsign``, ``LogSigmoid``, ``Threshold``, ``Hardshrink``, ``Softshrink``,
``Tanhshrink``, ``GLU``, ``Softmin``, ``Softmax2d``, ``RReLU`` and ``PReLU`` (the one with a learned slope):
each calls its functional form."""

import yaten

from .. import functional as F
from .. import init
from ..parameter import Parameter
from .linear import NonDynamicallyQuantizableLinear
from .module import Module

__all__ = ["CELU", "ELU", "GELU", "GLU", "SELU", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh", "LeakyReLU",
           "LogSigmoid", "LogSoftmax", "Mish", "MultiheadAttention", "PReLU", "RReLU", "ReLU", "ReLU6", "SiLU", "Sigmoid", "Softmax",
           "Softmax2d", "Softmin", "Softplus", "Softshrink", "Softsign", "Tanh", "Tanhshrink",
           "Threshold"]  # fmt: skip


class ReLU(Module):
    """max(0, x) elementwise.

    >>> import yaten
    >>> yaten.nn.ReLU()(yaten.tensor([-1.0, 2.0]))
    tensor([0., 2.])
    """

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    """x for x > 0, else ``negative_slope * x``.

    >>> import yaten
    >>> yaten.nn.LeakyReLU(0.1)
    LeakyReLU(negative_slope=0.1)
    """

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class ELU(Module):
    """x for x > 0, else ``alpha * (exp(x) - 1)``.

    >>> import yaten
    >>> yaten.nn.ELU()
    ELU(alpha=1.0)
    """

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class GELU(Module):
    """x * Phi(x), or its tanh approximation (``approximate='tanh'``).

    >>> import yaten
    >>> yaten.nn.GELU()
    GELU(approximate='none')
    """

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class SiLU(Module):
    """x * sigmoid(x).

    >>> import yaten
    >>> yaten.nn.SiLU()(yaten.tensor([0.0]))
    tensor([0.])
    """

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Sigmoid(Module):
    """1 / (1 + exp(-x)).

    >>> import yaten
    >>> yaten.nn.Sigmoid()(yaten.tensor([0.0]))
    tensor([0.5000])
    """

    def forward(self, input):
        return F.sigmoid(input)


class Tanh(Module):
    """Hyperbolic tangent.

    >>> import yaten
    >>> yaten.nn.Tanh()(yaten.tensor([0.0]))
    tensor([0.])
    """

    def forward(self, input):
        return F.tanh(input)


class _SoftmaxAlongDim(Module):
    """What Softmax, Softmin and LogSoftmax keep: the ``dim`` (None in a pickle from before it existed)."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "dim"):
            self.dim = None

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmax(_SoftmaxAlongDim):
    """Softmax along ``dim`` (None: PyTorch's implicit choice, with its deprecation warning).

    >>> import yaten
    >>> yaten.nn.Softmax(dim=1)
    Softmax(dim=1)
    """

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)


class Softmin(_SoftmaxAlongDim):
    """softmax(-x) along ``dim`` (None: PyTorch's implicit choice, with its deprecation warning).

    >>> import yaten
    >>> m = yaten.nn.Softmin(dim=0)
    >>> m, m(yaten.tensor([0.0, 0.0]))
    (Softmin(dim=0), tensor([0.5000, 0.5000]))
    """

    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)


class Softmax2d(Module):
    """Softmax over the channels (dim -3) of a (N, C, H, W) or (C, H, W) input, at every location.

    >>> import yaten
    >>> yaten.nn.Softmax2d()(yaten.zeros(2, 1, 1)).flatten()
    tensor([0.5000, 0.5000])
    """

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3, _stacklevel=5)


class LogSoftmax(_SoftmaxAlongDim):
    """log(softmax(x)) along ``dim``.

    >>> import yaten
    >>> yaten.nn.LogSoftmax(dim=1)
    LogSoftmax(dim=1)
    """

    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)


class Softplus(Module):
    """log(1 + exp(beta x)) / beta, linear above ``threshold``.

    >>> import yaten
    >>> yaten.nn.Softplus()
    Softplus(beta=1.0, threshold=20.0)
    """

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class Hardtanh(Module):
    """x clamped to [min_val, max_val].

    >>> import yaten
    >>> yaten.nn.Hardtanh()
    Hardtanh(min_val=-1.0, max_val=1.0)
    """

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError(f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})")

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        return f"min_val={self.min_val}, max_val={self.max_val}" + (", inplace=True" if self.inplace else "")


class ReLU6(Hardtanh):
    """min(max(0, x), 6): a ``Hardtanh(0, 6)``, as PyTorch's.

    >>> import yaten
    >>> yaten.nn.ReLU6()(yaten.tensor([-1.0, 7.0]))
    tensor([0., 6.])
    """

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class _InplaceActivation(Module):
    """An activation whose only argument is ``inplace`` (shown in the repr where PyTorch shows it)."""

    _function = None
    _repr_inplace = True

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return type(self)._function(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace and self._repr_inplace else ""


class Hardswish(_InplaceActivation):
    """x * relu6(x + 3) / 6.

    >>> import yaten
    >>> yaten.nn.Hardswish()(yaten.tensor([4.0]))
    tensor([4.])
    """

    _function = F.hardswish
    _repr_inplace = False


class Hardsigmoid(_InplaceActivation):
    """relu6(x + 3) / 6.

    >>> import yaten
    >>> yaten.nn.Hardsigmoid()(yaten.tensor([0.0]))
    tensor([0.5000])
    """

    _function = F.hardsigmoid
    _repr_inplace = False


class Mish(_InplaceActivation):
    """x * tanh(softplus(x)).

    >>> import yaten
    >>> yaten.nn.Mish(inplace=True)
    Mish(inplace=True)
    """

    _function = F.mish


class SELU(_InplaceActivation):
    """scale * elu(x, alpha) with the self-normalising constants.

    >>> import yaten
    >>> yaten.nn.SELU()(yaten.tensor([0.0]))
    tensor([0.])
    """

    _function = F.selu


class Softsign(Module):
    """x / (1 + |x|).

    >>> import yaten
    >>> yaten.nn.Softsign()(yaten.tensor([1.0]))
    tensor([0.5000])
    """

    def forward(self, input):
        return F.softsign(input)


class LogSigmoid(Module):
    """log(sigmoid(x)).

    >>> import yaten
    >>> yaten.nn.LogSigmoid()(yaten.tensor([0.0]))
    tensor([-0.6931])
    """

    def forward(self, input):
        return F.logsigmoid(input)


class CELU(Module):
    """x for x > 0, else ``alpha * (exp(x / alpha) - 1)``.

    >>> import yaten
    >>> yaten.nn.CELU(0.5)
    CELU(alpha=0.5)
    """

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class Threshold(Module):
    """x where x > threshold, else ``value``.

    >>> import yaten
    >>> yaten.nn.Threshold(0.1, 20.0)
    Threshold(threshold=0.1, value=20.0)
    """

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        return f"threshold={self.threshold}, value={self.value}" + (", inplace=True" if self.inplace else "")


class Hardshrink(Module):
    """0 where |x| <= lambd, else x.

    >>> import yaten
    >>> yaten.nn.Hardshrink(0.3)
    Hardshrink(0.3)
    """

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.hardshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """x shrunk towards 0 by lambd, and 0 where |x| <= lambd.

    >>> import yaten
    >>> yaten.nn.Softshrink()
    Softshrink(0.5)
    """

    def forward(self, input):
        return F.softshrink(input, self.lambd)


class Tanhshrink(Module):
    """x - tanh(x).

    >>> import yaten
    >>> yaten.nn.Tanhshrink()(yaten.tensor([0.0]))
    tensor([0.])
    """

    def forward(self, input):
        return F.tanhshrink(input)


class GLU(Module):
    """The gated linear unit: ``a * sigmoid(b)`` of the two halves ``a``, ``b`` of the input along ``dim``.

    >>> import yaten
    >>> m = yaten.nn.GLU()
    >>> m, m(yaten.tensor([2.0, 0.0]))
    (GLU(dim=-1), tensor([1.]))
    """

    def __init__(self, dim: int = -1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class RReLU(Module):
    """Randomized leaky ReLU: in training each negative element gets a slope drawn from U(lower, upper),
    in eval mode their mean.

    >>> import yaten
    >>> m = yaten.nn.RReLU(0.1, 0.3).eval()
    >>> m, m(yaten.tensor([-1.0, 2.0]))
    (RReLU(lower=0.1, upper=0.3), tensor([-0.2000,  2.0000]))
    """

    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3, inplace: bool = False):
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"lower={self.lower}, upper={self.upper}{inplace_str}"


class PReLU(Module):
    """max(0, x) + weight * min(0, x), with a learned ``weight``: one slope, or one per channel (dim 1)
    when ``num_parameters`` is the number of channels; every slope starts at ``init``.

    >>> import yaten
    >>> m = yaten.nn.PReLU(3, init=0.1)
    >>> m, list(m.state_dict())
    (PReLU(num_parameters=3), ['weight'])
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device=None, dtype=None):
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(yaten.empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.constant_(self.weight, self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class MultiheadAttention(Module):
    """Attention from ``query`` to ``key``/``value`` in ``num_heads`` parallel heads of size
    ``embed_dim // num_heads``; inputs are (L, N, E), or (N, L, E) with ``batch_first``, or unbatched (L, E).

    >>> import yaten
    >>> mha = yaten.nn.MultiheadAttention(8, 2, batch_first=True)
    >>> mha
    MultiheadAttention(
      (out_proj): NonDynamicallyQuantizableLinear(in_features=8, out_features=8, bias=True)
    )
    >>> x = yaten.randn(3, 5, 8)
    >>> out, weights = mha(x, x, x)
    >>> out.shape, weights.shape
    (yaten.Size([3, 5, 8]), yaten.Size([3, 5, 5]))
    """

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):  # fmt: skip
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(
                f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and "
                f"num_heads={num_heads} instead"
            )
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if not self._qkv_same_embed_dim:
            # Keys and values of other sizes than the queries': one projection weight each.
            self.q_proj_weight = Parameter(yaten.empty((embed_dim, embed_dim), **factory))
            self.k_proj_weight = Parameter(yaten.empty((embed_dim, self.kdim), **factory))
            self.v_proj_weight = Parameter(yaten.empty((embed_dim, self.vdim), **factory))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = Parameter(yaten.empty((3 * embed_dim, embed_dim), **factory))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(yaten.empty(3 * embed_dim, **factory))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, **factory)
        if add_bias_kv:
            self.bias_k = Parameter(yaten.empty((1, 1, embed_dim), **factory))
            self.bias_v = Parameter(yaten.empty((1, 1, embed_dim), **factory))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            init.xavier_uniform_(self.q_proj_weight)
            init.xavier_uniform_(self.k_proj_weight)
            init.xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            init.xavier_normal_(self.bias_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):  # fmt: skip
        """(output, attention weights): weights averaged over heads (N, L, S), per head (N, H, L, S) when
        ``average_attn_weights`` is False, None when ``need_weights`` is False."""
        is_batched = query.dim() == 3
        if self.batch_first and is_batched:
            query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        separate = not self._qkv_same_embed_dim
        out, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias,
            self.bias_k, self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight, self.out_proj.bias,
            training=self.training, key_padding_mask=key_padding_mask, need_weights=need_weights,
            attn_mask=attn_mask, use_separate_proj_weight=separate, q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight, v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights, is_causal=is_causal,
        )  # fmt: skip
        if self.batch_first and is_batched:
            return out.transpose(1, 0), weights
        return out, weights
