"""CompositeImplicitAutograd ops: a few lines of yaten calls each; autograd comes through them.

The ones on a training step's path (reshape, flatten, linear) call the generated op functions
directly: their arguments are already parsed, so the public bindings' parsing would be spent twice.
"""

import yaten

from .._dims import wrap_dim
from .._dtype import LEGACY_NAME
from .._generated import ops as _ops  # (this module is imported while ops loads; ops is used at call time)
from .._memory_format import check_rank
from .._promotion import infer_size


def reshape(self, shape):
    try:
        return _ops.view(self, shape)
    except RuntimeError as e:
        if "view size is not compatible" not in str(e):
            raise
        return _ops.view(_ops.clone(self, memory_format=yaten.contiguous_format), shape)


def flatten(self, start_dim=0, end_dim=-1):
    if self.ndim == 0:
        return self.reshape((1,))
    s, e = wrap_dim(start_dim, self.ndim), wrap_dim(end_dim, self.ndim)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    shape = self._data.shape
    n = 1
    for d in range(s, e + 1):
        n *= shape[d]
    return reshape(self, shape[:s] + (n,) + shape[e + 1 :])


def unflatten(self, dim, sizes):
    d = wrap_dim(dim, self.ndim)
    return self.view(tuple(self.shape[:d]) + tuple(sizes) + tuple(self.shape[d + 1 :]))


def expand_as(self, other):
    return self.expand(other.shape)


def is_floating_point(self):
    return self.is_floating_point()


def is_complex(self):
    return self.is_complex()


def view_as(self, other):
    return self.view(other.shape)


def reshape_as(self, other):
    return self.reshape(other.shape)


def narrow(self, dim, start, length):
    if self.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, self.ndim)
    size = self.shape[d]
    if not -size <= start <= size:
        raise IndexError(
            f"start out of range (expected to be in range of [{-size}, {size}], but got {start})"
        )
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    begin = start + size if start < 0 else start
    if begin + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return self.slice(d, begin, begin + length)


def narrow_tensor(self, dim, start, length):
    if start.ndim != 0 or start.dtype.is_floating_point or start.dtype.is_complex:
        raise RuntimeError("start must be an 0-dim integral Tensor.")
    return narrow(self, dim, int(start.item()), length)


def split_sizes(self, split_size, dim=0):
    return self.split_with_sizes(split_size, dim)


def chunk(self, chunks, dim=0):
    if self.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    size = self.shape[wrap_dim(dim, self.ndim)]
    if size == 0:  # torch: `chunks` empty chunks
        return self.split_with_sizes([0] * chunks, dim)
    return self.split(-(-size // chunks), dim)


def movedim(self, source, destination):
    src = [wrap_dim(d, self.ndim) for d in ((source,) if isinstance(source, int) else source)]
    dst = [wrap_dim(d, self.ndim) for d in ((destination,) if isinstance(destination, int) else destination)]
    if len(src) != len(dst):
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({list(src)} dims) should contain the same number "
            f"of dims as destination ({list(dst)} dims)"
        )
    order = [None] * self.ndim
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(self.ndim) if d not in src)
    return self.permute([o if o is not None else next(rest) for o in order])


def contiguous(self, memory_format=None):
    if memory_format is not None:
        check_rank(memory_format.name, self.ndim)
    return self if self.is_contiguous() else self.clone(memory_format=yaten.contiguous_format)


def clamp(self, min=None, max=None):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    out = self
    if min is not None:
        out = out.clamp_min(min)
    if max is not None:
        out = out.clamp_max(max)
    return out


def clamp_(self, min=None, max=None):
    return self.copy_(clamp(self, min, max))


def round_decimals(self, decimals):
    # torch's formula: round half to even at 10**decimals, in the tensor's own dtype.
    if not self.is_floating_point():
        raise NotImplementedError(f"\"round_cpu\" not implemented for '{LEGACY_NAME[self.dtype]}'")
    if decimals == 0:
        return self.round()
    ten = 10.0 ** abs(decimals)
    return (self / ten).round() * ten if decimals < 0 else (self * ten).round() / ten


def square(self):
    return self.pow(2) if self.dtype is not yaten.bool else self.to(yaten.int64).pow(2)


def square_(self):
    return self.pow_(2)


def scalar_tensor(s, dtype=None, layout=None, device=None, pin_memory=None):
    """A 0-d tensor holding ``s``, in the default float dtype unless ``dtype`` is given (a number's own
    type does not choose it, unlike ``tensor``)."""
    return yaten.full((), s, dtype=dtype or yaten.get_default_dtype(), device=device)


def gelu(self, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return yaten._gelu_tanh(self) if approximate == "tanh" else yaten._gelu_erf(self)


def matmul(self, other):
    a, b = self.ndim, other.ndim
    if a == 0 or b == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {a}D and {b}D")
    if a == 1 and b == 1:
        return self.dot(other)
    if a == 2 and b == 1:
        return self.mv(other)
    if a == 1 and b == 2:
        return self.unsqueeze(0).mm(other).squeeze(0)
    if a == 2 and b == 2:
        return self.mm(other)
    # Batched: broadcast the batch dims, fold them into one, bmm, unfold.
    x = self.unsqueeze(0) if a == 1 else self
    y = other.unsqueeze(-1) if b == 1 else other
    batch = infer_size(tuple(x.shape[:-2]), tuple(y.shape[:-2]))
    n, k = x.shape[-2], x.shape[-1]
    k2, m = y.shape[-2], y.shape[-1]
    if k != k2:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{_prod(batch)}, {k}] but got: "
            f"[{_prod(batch)}, {k2}]."
        )
    xb = x.expand(tuple(batch) + (n, k)).reshape((-1, n, k))
    yb = y.expand(tuple(batch) + (k, m)).reshape((-1, k, m))
    out = xb.bmm(yb).reshape(tuple(batch) + (n, m))
    if a == 1:
        out = out.squeeze(-2)
    if b == 1:
        out = out.squeeze(-1)
    return out


def _prod(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def norm_str(self, p="fro", dim=None, keepdim=False):
    if p != "fro":  # torch's "nuc" (a matrix norm) is not supported either
        raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
    return self.norm(2, list(range(self.ndim)) if dim is None else dim, keepdim)


def outer(self, vec2):
    for name, t in (("self", self), ("vec2", vec2)):
        if t.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t.ndim}-D")
    return self.unsqueeze(1) * vec2.unsqueeze(0)


def linear(input, weight, bias=None):
    if input.ndim == 2 and bias is not None:
        return _ops.addmm(bias, input, _ops.t(weight))
    out = input.matmul(weight.t())
    return out if bias is None else out + bias


def stack(tensors, dim=0):
    if len(tensors) == 0:
        raise RuntimeError("stack expects a non-empty TensorList")
    first = tensors[0].shape
    for i, t in enumerate(tensors):
        if t.shape != first:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {list(first)} at entry 0 and {list(t.shape)} "
                f"at entry {i}"
            )
    d = wrap_dim(dim, len(first) + 1)
    return yaten.cat([t.unsqueeze(d) for t in tensors], d)


def div_mode(self, other, rounding_mode=None):
    if rounding_mode is None:
        return yaten.div(self, other)
    if rounding_mode == "floor":
        return yaten.floor_divide(self, other)
    if rounding_mode == "trunc":
        if yaten.result_type(self, other).is_floating_point:
            return yaten.div(self, other).trunc()
        # Exact on integers (no float64 round trip) and a zero divisor raises as torch's: the
        # dividend less its C remainder is a multiple of the divisor.
        return yaten.floor_divide(self - yaten.fmod(self, other), other)
    raise RuntimeError(
        f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{rounding_mode}'"
    )
