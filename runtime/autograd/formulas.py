"""Helpers that derivative formulas in spec/derivatives.yaml call (PyTorch's FunctionsManual).

Everything here is written with yaten ops, so gradients of gradients come for free.
"""

import numbers

import yaten

from .._promotion import infer_size
from .complex_formulas import *  # noqa: F403 - the complex ops' helpers (polar, angle)
from .fft_formulas import *  # noqa: F403 - torch.fft's primitives' helpers
from .linalg_formulas import *  # noqa: F403 - torch.linalg's helpers, in their own file
from .rnn_formulas import *  # noqa: F403 - the fused recurrent cells' helpers
from .sparse_formulas import *  # noqa: F403 - the sparse COO layout's helpers
from .sparse_formulas import embedding_sparse_backward


def zeros_for(meta):
    """A zero gradient for an output no gradient reached (``meta`` is a TensorMeta)."""
    return yaten.zeros(meta.shape, dtype=meta.dtype, device=meta.device)


def sum_to(grad, shape):
    """Sum ``grad`` over the dims that broadcasting added to reach it from ``shape``."""
    shape = tuple(shape)
    if tuple(grad.shape) == shape:
        return grad
    lead = grad.ndim - len(shape)
    inner = [lead + i for i, n in enumerate(shape) if n == 1 and grad.shape[lead + i] != 1]
    if lead and not inner:
        return grad.sum(list(range(lead)))  # a bias's gradient: one reduction gives the shape
    if inner:
        grad = grad.sum(list(range(lead)) + inner, keepdim=True)
    if lead:
        grad = grad.reshape(shape)
    return grad


def conj_of(x):
    """The complex conjugate of a tensor or of a number (a scalar_of op's, ``x * 2``'s 2); real values
    are their own, at no cost."""
    return x.conjugate() if isinstance(x, numbers.Number) else x.conj()


def sgn_backward(grad, self, result):
    """PyTorch's: (g - sgn(z)^2 conj(g)) / (2|z|), and 0 at z = 0 (0 everywhere on real inputs)."""
    if not self.dtype.is_complex:
        return yaten.zeros_like(grad)
    abs_ = self.abs()
    return yaten.where(abs_ == 0, 0.0, (grad - result * result * grad.conj()) / (2 * abs_))


def maybe_multiply(grad, scale):
    return grad if scale == 1 else grad * scale


def _restore_dims(grad, shape, dim, keepdim):
    if keepdim or len(shape) == 0:
        return grad
    dims = range(len(shape)) if dim is None or len(dim) == 0 else sorted(d % len(shape) for d in dim)
    for d in dims:
        grad = grad.unsqueeze(d)
    return grad


def sum_backward(grad, shape, dim, keepdim):
    return _restore_dims(grad, shape, dim, keepdim).expand(shape)


def mean_backward(grad, shape, dim, keepdim):
    dims = range(len(shape)) if not dim else [d % len(shape) for d in dim]
    n = 1
    for d in dims:
        n *= shape[d]
    return sum_backward(grad, shape, dim, keepdim) / n


def pow_backward_self(grad, self, exponent):
    """d x^e / dx = e x^(e-1), and 0 where e is 0 (so 0^0 has gradient 0, not 0 * 0^-1 = nan)."""
    if isinstance(exponent, numbers.Number):
        if exponent == 0:
            return yaten.zeros_like(self)
        return grad * (self.pow(exponent - 1) * exponent).conj()
    return yaten.where(exponent == 0, 0.0, grad * (exponent * self.pow(exponent - 1)).conj())


def pow_backward_exponent(grad, self, exponent, result):
    base = self if isinstance(self, yaten.Tensor) else yaten.tensor(self, dtype=result.dtype)
    nonnegative = (exponent.imag == 0) & (exponent.real >= 0) if exponent.dtype.is_complex else exponent >= 0
    return grad * yaten.where((base == 0) & nonnegative, yaten.zeros_like(result), result * base.log()).conj()


def value_selecting_reduction_backward(grad, dim, indices, shape, keepdim):
    if not keepdim and len(shape) > 0:
        grad = grad.unsqueeze(dim)
        indices = indices.unsqueeze(dim)
    return yaten.zeros(shape, dtype=grad.dtype, device=grad.device).scatter(dim, indices, grad)


def evenly_distribute_backward(grad, self, value):
    mask = (self == value) | (self.isnan() & value.isnan())
    return mask * (grad / mask.sum())


def amax_amin_backward(grad, self, result, dim, keepdim):
    r = _restore_dims(result, self.shape, dim, keepdim)
    g = _restore_dims(grad, self.shape, dim, keepdim)
    mask = self == r
    count = mask.sum(tuple(dim) if dim else None, keepdim=True)
    return g * mask / count


def var_backward(grad, self, dim, correction, keepdim):
    n = self.numel() if not dim else 1
    if dim:
        for d in dim:
            n *= self.shape[d]
    c = 1 if correction is None else correction
    g = _restore_dims(grad, self.shape, dim, keepdim)
    mean = self.mean(tuple(dim) if dim else None, keepdim=True)
    return g * (self - mean) * (2.0 / max(n - c, 0)) if n - c > 0 else g * (self - mean) * float("inf")


def std_backward(result, grad, self, dim, correction, keepdim):
    g = grad / (2 * result)
    g = yaten.where(result == 0, yaten.zeros_like(g), g)
    return var_backward(g, self, dim, correction, keepdim)


def logsumexp_backward(grad, self, result, dim, keepdim):
    g = _restore_dims(grad, self.shape, dim, keepdim)
    r = _restore_dims(result, self.shape, dim, keepdim)
    return g * (self - r).exp().conj()


def softmax_double_backward(grad, grad_output, dim, output):
    """The gradient of ``_softmax_backward_data`` with respect to ``output`` (PyTorch's formula)."""
    return (
        grad_output * grad
        - (output * grad_output).sum(dim, keepdim=True) * grad
        - grad_output * (output * grad).sum(dim, keepdim=True)
    )


def _prod_of_others(x, dim):
    """Along ``dim``, the product of every element but the one at each position, without dividing.

    Row i of an (n, n) matrix holds x with x_i replaced by 1; its product is prod_{k != i} x_k. That is
    O(n^2) but a polynomial of x, so it differentiates again where x has zeros (PyTorch's
    ``prod_safe_zeros_backward`` reaches the same with exclusive cumprods, which yaten lacks).
    """
    xm = x.movedim(dim, -1)
    n = xm.shape[-1]
    eye = yaten.eye(n, dtype=yaten.bool, device=x.device)
    rows = yaten.where(eye, 1.0, xm.unsqueeze(-2).expand(*xm.shape[:-1], n, n))
    return rows.prod(-1).movedim(-1, dim)


def prod_backward(grad, self, result, dim, keepdim):
    """d prod / d x_i: the product of the other elements, computed without dividing by zero; times the
    gradient's conjugate, conjugated, on complex inputs (grad * conj(d) is conj(conj(grad) * d))."""
    if self.dtype.is_complex:
        return _prod_backward(grad.conj(), self, result, dim, keepdim).conj()
    return _prod_backward(grad, self, result, dim, keepdim)


def _prod_backward(grad, self, result, dim, keepdim):
    if self.ndim == 0:
        return grad
    if yaten.is_grad_enabled() and bool((self == 0).any()):
        # create_graph with zeros in the input: the masked formula below is right but constant in the
        # zero's neighbours, so its own derivative would be wrong; use the division-free product.
        if dim is None:
            return grad * _prod_of_others(self.reshape(-1), 0).reshape(self.shape)
        return _restore_dims(grad, self.shape, (dim,), keepdim) * _prod_of_others(self, dim)
    if dim is None:
        g, r = grad, result
        nz = self == 0
        count = nz.sum()
        rest = yaten.where(nz, yaten.ones_like(self), self).prod()
    else:
        g = _restore_dims(grad, self.shape, (dim,), keepdim)
        r = _restore_dims(result, self.shape, (dim,), keepdim)
        nz = self == 0
        count = nz.sum(dim, keepdim=True)
        rest = yaten.where(nz, yaten.ones_like(self), self).prod(dim, keepdim=True)
    safe = yaten.where(nz, yaten.ones_like(self), self)
    one_zero = yaten.where(nz, g * rest, yaten.zeros_like(self)) * (count == 1)
    return yaten.where(count == 0, g * r / safe, one_zero)


def norm_backward(grad, self, p, result, dim, keepdim):
    """PyTorch's norm_backward, case by case, so the kinks match: 0 where the norm is 0 and at zero
    entries for p < 2, the gradient spread over ties (and NaNs) for p = +-inf, none at all for p = 0."""
    p = 2.0 if p is None else float(p)
    if p == 0:
        return None  # the count of non-zeros is piecewise constant: PyTorch returns an undefined grad
    g = _restore_dims(grad, self.shape, dim, keepdim) if self.ndim else grad
    r = _restore_dims(result, self.shape, dim, keepdim) if self.ndim else result
    if p == 1:
        return self.sgn() * g
    if p == 2:
        return g * yaten.where(r == 0, 0.0, self / r)
    if p == float("inf") or p == float("-inf"):
        a = self.abs()
        mask = (a == r) | a.isnan()
        return self.sgn() * (g / mask.sum(tuple(dim) if dim else None, keepdim=True) * mask)
    if p < 1:
        scaled = self.sgn() * yaten.where(self == 0, 0.0, self.abs().pow(p - 1))
        return scaled * g * r.pow(1 - p)
    scaled = self.sgn() * self.abs().pow(p - 1) if p < 2 else self * self.abs().pow(p - 2)
    return scaled * yaten.where(r == 0, 0.0, g / r.pow(p - 1))


def reciprocal_or_zero(x):
    """1 / x, and 0 where x is 0: atan2's backward at the origin gives 0 there, as PyTorch's."""
    return yaten.where(x == 0, 0.0, x.reciprocal())


def relu_backward(grad, result):
    """``grad`` where relu's ``result`` is positive or NaN, else 0: PyTorch's
    ``threshold_backward(grad, result, 0)``. A result is never negative, so ``!= 0`` is that test in
    one compare (and keeps NaN's gradient, which ``> 0`` would drop).

    PyTorch's gradient also depends on ``result``, with derivative 0, so under create_graph a second
    grad through relu gives zeros instead of "does not require grad". ``sign(result) * 0`` adds that
    edge: it is exactly 0 (sign is -1, 0 or 1, even for inf and NaN) and its gradient is 0. First-order
    backward (grad mode off) skips it.
    """
    out = grad * (result != 0)
    if yaten.is_grad_enabled() and result.requires_grad and not out.requires_grad:
        out = out + result.sign() * 0
    return out


def cumsum_backward(grad, dim):
    return grad.flip(dim).cumsum(dim).flip(dim)


def cumprod_backward(grad, self, dim, result):
    """cumprod's gradient: input k gets ``sum_{j >= k} grad_j * prod_{i <= j, i != k} self_i``.

    Without zeros that is the reversed cumsum of ``grad * result`` over ``self``. With a zero the
    division is undefined, so each input's products are the cumprods of its row with ``self_k``
    replaced by 1 (quadratic in the length of ``dim``, only then).
    """
    if self.dim() == 0 or self.numel() == 0:
        return grad
    if self.dtype.is_complex:  # grad * conj(d) is conj(conj(grad) * d), as prod_backward
        return _cumprod_backward(grad.conj(), self, dim, result).conj()
    return _cumprod_backward(grad, self, dim, result)


def _cumprod_backward(grad, self, dim, result):
    if not bool((self == 0).any()):
        return cumsum_backward(grad * result, dim) / self
    x, g = self.movedim(dim, -1), grad.movedim(dim, -1)
    n = x.shape[-1]
    eye = yaten.eye(n, dtype=yaten.bool, device=x.device)
    later = yaten.ones(n, n, dtype=yaten.bool, device=x.device).triu()  # [k, j]: j >= k
    partial = yaten.where(eye, 1, x.unsqueeze(-2)).cumprod(-1)  # [..., k, j]
    return yaten.where(later, partial * g.unsqueeze(-2), 0).sum(-1).movedim(-1, dim)


def cummaxmin_backward(grad, self, indices, dim):
    """cummax/cummin's gradient: each output's gradient goes to the input it was taken from."""
    if self.numel() == 0:
        return grad
    return yaten.zeros_like(self).scatter_add(dim, indices, grad)


def logcumsumexp_backward(grad, self, result, dim):
    """logcumsumexp's gradient, ``exp(self_k) * sum_{j >= k} grad_j * exp(-result_j)``, summed in log
    space separately for the positive and the negative gradients so that nothing overflows (PyTorch's
    formulation)."""
    if self.numel() == 0:
        return grad
    lowest = yaten.finfo(grad.dtype).min

    def reverse_logcumsumexp(t):
        return t.flip(dim).logcumsumexp(dim).flip(dim)

    log_abs = grad.abs().log()
    pos = yaten.where(grad > 0, log_abs, lowest)
    neg = yaten.where(grad < 0, log_abs, lowest)
    positive = (reverse_logcumsumexp(pos - result) + self).exp()
    return positive - (reverse_logcumsumexp(neg - result) + self).exp()


def permute_backward(grad, dims):
    inverse = [0] * len(dims)
    for i, d in enumerate(dims):
        inverse[d % len(dims)] = i
    return grad.permute(inverse)


def select_backward(grad, shape, dim, index):
    out = yaten.zeros(shape, dtype=grad.dtype, device=grad.device)
    out.select(dim, index).copy_(grad)
    return out


def slice_backward(grad, shape, dim, start, end, step):
    out = yaten.zeros(shape, dtype=grad.dtype, device=grad.device)
    out.slice(dim, start, end, step).copy_(grad)
    return out


def as_strided_backward(grad, geometry, size, stride, storage_offset):
    """``geometry`` is the input's (shape, strides, storage offset, storage size)."""
    shape, strides, offset, numel = geometry
    start = offset if storage_offset is None else storage_offset
    flat = yaten.zeros(numel, dtype=grad.dtype, device=grad.device)
    if _self_overlapping(size, stride):  # windows (unfold): elements sharing an address add up
        index = yaten.full((), start, dtype=yaten.int64, device=grad.device)
        for d, (n, st) in enumerate(zip(size, stride)):
            shape_d = [1] * len(size)
            shape_d[d] = n
            index = index + (yaten.arange(n, device=grad.device) * st).reshape(shape_d)
        flat.index_put_((index.expand(size).reshape(-1),), grad.reshape(-1), True)
    else:
        flat.as_strided(size, stride, start).add_(grad)
    return flat.as_strided(shape, strides, offset)


def _self_overlapping(size, stride) -> bool:
    """Whether two elements of a (size, stride) view share an address."""
    extent = 1
    for st, n in sorted((st, n) for n, st in zip(size, stride) if n > 1):
        if st < extent:  # a step that lands inside the addresses the smaller steps reach
            return True
        extent += (n - 1) * st
    return False


def split_backward(grads, dim):
    """The gradient of a split: the pieces' gradients (zeros where none came) joined again."""
    return yaten.cat(list(grads), dim)


def unbind_backward(grads, dim):
    return yaten.stack(list(grads), dim)


def cat_backward(grad, tensors, dim):
    out, start = [], 0
    for t in tensors:
        if t.ndim == 1 and t.shape[0] == 0:
            out.append(yaten.zeros_like(t))
            continue
        d = dim % grad.ndim
        n = t.shape[d]
        out.append(grad.narrow(d, start, n))
        start += n
    return out


def repeat_backward(grad, repeats, shape):
    lead = len(repeats) - len(shape)
    shape = (1,) * lead + tuple(shape)
    split = []
    for r, n in zip(repeats, shape):
        split += [r, n]
    g = grad.reshape(split)
    g = g.sum(tuple(range(0, 2 * len(shape), 2)))
    return g.reshape(shape[lead:]) if lead else g


def index_select_backward(grad, shape, dim, index):
    """PyTorch's ``zeros(shape).index_add_(dim, index, grad)``, as a scatter_add of ``grad`` along
    ``dim`` with ``index`` broadcast to grad's shape (ops every device has)."""
    if not len(shape):
        return grad.sum().reshape(())
    d = dim % len(shape)
    view = [1] * len(shape)
    view[d] = index.numel()
    out = yaten.zeros(shape, dtype=grad.dtype, device=grad.device)
    return out.scatter_add(d, index.reshape(view).expand(grad.shape), grad)


def gather_backward(grad, shape, dim, index):
    return yaten.zeros(shape, dtype=grad.dtype, device=grad.device).scatter_add(dim, index, grad)


def index_backward(grad, shape, indices):
    return yaten.zeros(shape, dtype=grad.dtype, device=grad.device).index_put(indices, grad, True)


def masked_select_backward(grad, self, mask):
    shape = infer_size(self.shape, mask.shape)
    out = yaten.zeros(shape, dtype=grad.dtype, device=grad.device)
    return sum_to(out.index_put([mask.expand(shape)], grad, True), self.shape)


def _column_major(shape, strides) -> bool:
    return len(shape) == 2 and strides[0] == 1 and strides[1] == shape[0]


def mm_mat1_backward(grad, mat2, mat1_shape, mat1_strides):
    """``grad @ mat2.H``, made in mat1's layout when mat1 is column-major (as PyTorch does)."""
    if _column_major(mat1_shape, mat1_strides):
        return mat2.conj().mm(grad.t()).t()
    return grad.mm(mat2.t().conj())


def mm_mat2_backward(grad, mat1, mat2_shape, mat2_strides):
    """``mat1.H @ grad``, made in mat2's layout when mat2 is column-major, as PyTorch does: a Linear's
    ``weight.t()`` then gets a gradient that is row-major again, like the weight."""
    if _column_major(mat2_shape, mat2_strides):
        return grad.t().mm(mat1.conj()).t()
    return mat1.t().conj().mm(grad)


def gelu_backward(grad, self, approximate):
    if approximate == "tanh":
        k = 0.7978845608028654
        inner = k * (self + 0.044715 * self.pow(3))
        t = inner.tanh()
        d_inner = k * (1 + 3 * 0.044715 * self.pow(2))
        return grad * (0.5 * (1 + t) + 0.5 * self * (1 - t * t) * d_inner)
    cdf = 0.5 * (1 + (self * 0.7071067811865476).erf())
    pdf = (-0.5 * self * self).exp() * 0.3989422804014327
    return grad * (cdf + self * pdf)


def zeros_like(t):
    return yaten.zeros_like(t)


def ones_like(t):
    return yaten.ones_like(t)


def index_put_values_backward(grad, indices, values):
    return sum_to(yaten._generated.ops.index_Tensor(grad, indices), values.shape)


def to_copy_backward(grad, self):
    return grad.to(device=self.device, dtype=self.dtype)


# --- nn: activations, linear, dropout, embedding, losses ---
def _depends_on(out, self):
    """``out`` with a zero-valued edge to ``self`` when create_graph would otherwise cut it off.

    A backward built from a mask of ``self`` (leaky_relu, hardtanh) has derivative 0 in ``self``; PyTorch's
    still reads ``self``, so a second grad through it gives zeros, not "does not require grad" (see
    ``relu_backward``). First-order backward (grad mode off) skips the extra op.
    """
    if yaten.is_grad_enabled() and self.requires_grad and not out.requires_grad:
        out = out + self.sign() * 0
    return out


def leaky_relu_backward(grad, self, negative_slope):
    """``grad`` where ``self > 0``, else ``grad * negative_slope`` (so the kink at 0 takes the slope)."""
    return _depends_on(yaten.where(self > 0, grad, grad * negative_slope), self)


def elu_backward(grad, self, alpha):
    """1 for ``self > 0``, ``alpha * exp(self)`` at and below 0 (PyTorch's kink); exp of a clamped input,
    so a large positive ``self`` cannot put inf * 0 = nan into a second derivative."""
    return yaten.where(self <= 0, grad * alpha * self.clamp_max(0).exp(), grad)  # NaN takes the x > 0 side


def softplus_backward(grad, self, beta, threshold):
    """sigmoid(beta * self), and 1 where softplus returns ``self`` itself (``beta * self > threshold``)."""
    z = self * beta
    return yaten.where(z > threshold, grad, grad * z.sigmoid())


def hardtanh_backward(grad, self, min_val, max_val):
    """``grad`` strictly inside (min_val, max_val), 0 on and outside the bounds (NaN passes, as PyTorch)."""
    return _depends_on(yaten.where((self <= min_val) | (self >= max_val), 0.0, grad), self)


def embedding_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq, sparse=False):
    """Scatter-add of the rows of ``grad`` into a (num_weights, dim) zero matrix at ``indices``; rows whose
    index is ``padding_idx`` add nothing; with ``scale_grad_by_freq`` each row is divided by how often its
    index occurs in the batch. Written with yaten ops, so it differentiates again (in ``grad``). With
    ``sparse``, the rows as a sparse COO gradient (torch's ``embedding_sparse_backward``)."""
    if sparse:
        return embedding_sparse_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq)
    idx = indices.reshape(-1)
    g = grad.reshape(idx.shape[0], grad.shape[-1])
    if padding_idx is not None and padding_idx >= 0:
        g = g * (idx != padding_idx).unsqueeze(1).to(g.dtype)
    if scale_grad_by_freq:
        counts = yaten.zeros(num_weights, dtype=g.dtype, device=g.device)
        counts = counts.index_put([idx], yaten.ones(idx.shape, dtype=g.dtype, device=g.device), True)
        g = g / counts.index_select(0, idx).unsqueeze(1)
    out = yaten.zeros((num_weights, g.shape[1]), dtype=g.dtype, device=g.device)
    return out.index_put([idx], g, True)


def _loss_grad(grad, self, reduction):
    """A reduced loss's ``grad`` spread over ``self``'s elements (divided by their count for a mean)."""
    if reduction == 0:
        return grad
    g = grad.expand(self.shape)
    return g / max(self.numel(), 1) if reduction == 1 else g


def binary_cross_entropy_backward(grad, self, target, weight, reduction):
    """PyTorch's: ``(x - t) / max(x (1 - x), 1e-12)``, finite at x = 0 and 1 where the clamped logs are flat."""
    out = _loss_grad(grad, self, reduction) * (self - target) / (self * (1 - self)).clamp_min(1e-12)
    return out if weight is None else out * weight


def binary_cross_entropy_target_backward(grad, self, target, weight, reduction):
    # Unclamped, as PyTorch's: +-inf at inputs of exactly 0 or 1.
    out = _loss_grad(grad, self, reduction) * ((-self).log1p() - self.log())
    return out if weight is None else out * weight


# --- nn: convolution and pooling ---


def convolution_backward_masked(grad, input, weight, bias, stride, padding, dilation, transposed, output_padding,
                                groups, grad_input_mask):  # fmt: skip
    """convolution's gradients: convolution_backward for the inputs in ``grad_input_mask``, None for the
    others (the kernel's empty placeholders are PyTorch's undefined tensors, not gradients)."""
    bias_sizes = None if bias is None else list(bias.shape)
    outs = yaten.convolution_backward(grad, input, weight, bias_sizes, stride, padding, dilation, transposed,
                                      output_padding, groups, list(grad_input_mask))  # fmt: skip
    return tuple(o if m else None for o, m in zip(outs, grad_input_mask))


def convolution_double_backward(grads, grad_output, input, weight, stride, padding, dilation, transposed,
                                output_padding, groups, output_mask, grad_input_mask):  # fmt: skip
    """PyTorch's ``_convolution_double_backward``: convolution_backward's gradients, from the gradients
    ``(ggI, ggW, ggb)`` of its outputs. Each output of convolution_backward is linear in two of its inputs,
    so every term is a convolution or a convolution_backward again (and differentiates once more).
    Outputs left out of ``output_mask`` were never computed; their (materialized) gradients are ignored.
    """
    ggi, ggw, ggb = (g if m and g.numel() else None for g, m in zip(grads, output_mask))
    args = (stride, padding, dilation, transposed, output_padding, groups)
    gg_out = g_input = g_weight = None
    if grad_input_mask[0]:
        if ggi is not None:
            gg_out = yaten.convolution(ggi, weight, None, *args)
        if ggw is not None:
            term = yaten.convolution(input, ggw, None, *args)
            gg_out = term if gg_out is None else gg_out + term
        if ggb is not None:
            term = ggb.reshape([1, -1] + [1] * (grad_output.ndim - 2)).expand(grad_output.shape)
            gg_out = term if gg_out is None else gg_out + term
        if gg_out is None:
            gg_out = yaten.zeros_like(grad_output)
    if grad_input_mask[1]:
        if ggw is not None:
            grads_in = yaten.convolution_backward(grad_output, input, ggw, None, *args, [True, False, False])
            g_input = grads_in[0]
        else:
            g_input = yaten.zeros_like(input)
    if grad_input_mask[2]:
        if ggi is not None:
            grads_w = yaten.convolution_backward(grad_output, ggi, weight, None, *args, [False, True, False])
            g_weight = grads_w[1]
        else:
            g_weight = yaten.zeros_like(weight)
    return gg_out, g_input, g_weight


def max_pool_double_backward(grad, indices):
    """The gradient of max pooling's backward w.r.t. its grad_output: ``grad`` read at the indices."""
    flat = grad.flatten(-2)
    return flat.gather(-1, indices.flatten(-2)).reshape(indices.shape)


def zeros_of_shape(grad, shape):
    """Zeros of ``shape`` in ``grad``'s dtype and device: a pooling backward's gradient w.r.t. the input
    it read only the shape (and, for max, positions) of."""
    return yaten.zeros(shape, dtype=grad.dtype, device=grad.device)


# --- nn: normalization and attention ---


def _normalized_input_grad(g, xhat, rstd, dims):
    """The gradient through ``xhat = (x - mean(x)) * rstd(x)`` over ``dims``, of ``g`` (the upstream gradient
    times the weight)."""
    return rstd * (g - g.mean(dims, keepdim=True) - xhat * (g * xhat).mean(dims, keepdim=True))


def layer_norm_backward(grad, input, normalized_shape, weight, mean, rstd, eps, grad_input_mask):
    """Gradients of native_layer_norm for (input, weight, bias): the fused kernel from the saved
    ``mean``/``rstd`` for a first-order backward; under create_graph, yaten ops with the statistics
    recomputed from ``input``, so that the second derivative sees them depend on it."""
    if not yaten.is_grad_enabled():  # first order: the fused kernel
        grads = yaten.native_layer_norm_backward(grad, input, normalized_shape, mean, rstd, weight, None,
                                                 grad_input_mask)  # fmt: skip
        return tuple(g if need else None for g, need in zip(grads, grad_input_mask))
    k = len(normalized_shape)
    dims = list(range(input.ndim - k, input.ndim))
    lead = list(range(input.ndim - k))
    mean = input.mean(dims, keepdim=True)
    rstd = (input.var(dims, correction=0, keepdim=True) + eps).rsqrt()
    xhat = (input - mean) * rstd
    grad_input = grad_weight = grad_bias = None
    if grad_input_mask[0]:
        g = grad * weight if weight is not None else grad
        grad_input = _normalized_input_grad(g, xhat, rstd, dims)
    if grad_input_mask[1]:
        grad_weight = (grad * xhat).sum(lead) if lead else grad * xhat
    if grad_input_mask[2]:
        grad_bias = grad.sum(lead) if lead else grad
    return grad_input, grad_weight, grad_bias


def batch_norm_backward(grad, input, weight, running_mean, running_var, training, save_mean, save_invstd, eps,
                        grad_input_mask):  # fmt: skip
    """Gradients of native_batch_norm for (input, weight, bias): through the batch statistics in
    training, through a fixed affine map (the running statistics) in eval. First order uses the fused
    kernel; under create_graph, yaten ops with the batch statistics recomputed from ``input``."""
    if not yaten.is_grad_enabled():  # first order: the fused kernel
        grads = yaten.native_batch_norm_backward(grad, input, weight, running_mean, running_var, save_mean,
                                                 save_invstd, training, eps, grad_input_mask)  # fmt: skip
        return tuple(g if need else None for g, need in zip(grads, grad_input_mask))
    dims = [0, *range(2, input.ndim)]
    shape = (1, input.shape[1]) + (1,) * (input.ndim - 2)
    if training:
        mean = input.mean(dims, keepdim=True)
        invstd = (input.var(dims, correction=0, keepdim=True) + eps).rsqrt()
    else:
        mean, invstd = running_mean.reshape(shape), (running_var + eps).rsqrt().reshape(shape)
    xhat = (input - mean) * invstd
    grad_input = grad_weight = grad_bias = None
    if grad_input_mask[0]:
        g = grad * weight.reshape(shape) if weight is not None else grad
        grad_input = _normalized_input_grad(g, xhat, invstd, dims) if training else g * invstd
    if grad_input_mask[1]:
        grad_weight = (grad * xhat).sum(dims)
    if grad_input_mask[2]:
        grad_bias = grad.sum(dims)
    return grad_input, grad_weight, grad_bias


def sinc_backward(grad, self):
    """d sinc(x)/dx = (pi x cos(pi x) - sin(pi x)) / (pi x^2), and 0 at x = 0, as PyTorch's."""
    pix = self * 3.141592653589793
    slope = (pix * pix.cos() - pix.sin()) / (pix * self)
    return (slope.conj() * grad).masked_fill(self == 0, 0.0)


def copysign_backward(grad, self, result):
    """PyTorch's copysign_tensor_self_backward: grad * result / self, and 0 where self is 0."""
    ratio = result / self
    return (grad * ratio).masked_fill(self == 0, 0.0)


def mish_backward(grad, self):
    """PyTorch's: grad * (tanh(softplus(x)) + x * sigmoid(x) * (1 - tanh(softplus(x))^2))."""
    t = yaten.nn.functional.softplus(self).tanh()
    return grad * (t + self * self.sigmoid() * (1 - t * t))


def logit_backward(grad, self, eps):
    """grad / (x (1 - x)) inside the domain; outside it NaN (no eps) or 0 (clamped by eps), as PyTorch's."""
    lo, hi = (0.0, 1.0) if eps is None else (eps, 1 - eps)
    outside = (self < lo) | (self > hi)
    slope = grad / (self * (1 - self))
    return slope.masked_fill(outside, float("nan") if eps is None else 0.0)


def special_i1(self):
    """torch.special.i1 (a yaten.special op, which formulas name as ATen's do): the derivative of i0."""
    return yaten.special.i1(self)


def not_implemented(what: str):
    """torch's ``not_implemented(...)`` formula: the input has no derivative, and a backward that reaches it
    raises torch's NotImplementedError (the forward and the other inputs' gradients work)."""
    raise NotImplementedError(f"the derivative for '{what}' is not implemented.")
