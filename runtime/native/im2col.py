"""``im2col`` and ``col2im`` (``nn.functional.unfold``/``fold``) as CompositeImplicitAutograd ops.

``im2col`` pads the input and gathers every sliding block with ``gather_windows`` (block ``(y, x)``,
kernel offset ``(i, j)`` reads padded position ``(y s + i d, x s + j d)``); ``col2im`` is its
adjoint, an ``index_add`` of every column entry into its padded position, then a crop. Autograd and
CUDA come through ``constant_pad_nd``, ``index_select`` and ``index_add``.
"""

import numpy as np

import yaten

from .padding import constant_pad_nd
from .pooling import gather_windows


def _blocks(size, kernel, dilation, padding, stride):
    return (size + 2 * padding - (dilation * (kernel - 1) + 1)) // stride + 1


def _check_args(kernel_size, dilation, padding, stride):
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = kernel_size, dilation, padding, stride
    if kh <= 0 or kw <= 0:
        raise RuntimeError(
            f"kernel size should be greater than zero, but got kernel_height: {kh} kernel_width: {kw}"
        )
    if dh <= 0 or dw <= 0:
        raise RuntimeError(
            f"dilation should be greater than zero, but got dilation_height: {dh} dilation_width: {dw}"
        )
    if ph < 0 or pw < 0:
        raise RuntimeError(f"padding should be non-negative, but got pad_height: {ph} pad_width: {pw}")
    if sh <= 0 or sw <= 0:
        raise RuntimeError(
            f"stride should be greater than zero, but got stride_height: {sh} stride_width: {sw}"
        )


def _tables(out, kernel, dilation, stride):
    return [
        np.arange(o)[:, None] * s + np.arange(k)[None, :] * d
        for o, k, d, s in zip(out, kernel, dilation, stride)
    ]


def _fmt(values):
    return f"({values[0]}, {values[1]})"


def im2col(self, kernel_size, dilation, padding, stride):
    _check_args(kernel_size, dilation, padding, stride)
    if self.ndim not in (3, 4) or any(s == 0 for s in self.shape[-3:]):
        raise RuntimeError(
            "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions "
            f"for input, but got: {list(self.shape)}"
        )
    x = self if self.ndim == 4 else self.unsqueeze(0)
    n, c, h, w = x.shape
    out = [_blocks(s, *args) for s, args in zip((h, w), zip(kernel_size, dilation, padding, stride))]
    if out[0] < 1 or out[1] < 1:
        raise RuntimeError(
            f"Given input with spatial size {_fmt((h, w))}, kernel_size={_fmt(kernel_size)}, "
            f"dilation={_fmt(dilation)}, padding={_fmt(padding)}, calculated shape of the array of sliding "
            f"blocks as {_fmt(out)}, but its components must be at least one."
        )
    ph, pw = padding
    x = constant_pad_nd(x, [pw, pw, ph, ph])
    cols = gather_windows(x, 2, _tables(out, kernel_size, dilation, stride))  # (n, c, oh, kh, ow, kw)
    cols = cols.permute(0, 1, 3, 5, 2, 4).reshape(n, c * kernel_size[0] * kernel_size[1], out[0] * out[1])
    return cols if self.ndim == 4 else cols.squeeze(0)


def col2im(self, output_size, kernel_size, dilation, padding, stride):
    _check_args(kernel_size, dilation, padding, stride)
    (kh, kw), (h, w), (ph, pw) = kernel_size, output_size, padding
    if self.ndim not in (2, 3) or any(s == 0 for s in self.shape[-2:]):
        raise RuntimeError(
            "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions "
            f"for input, but got: {list(self.shape)}"
        )
    x = self if self.ndim == 3 else self.unsqueeze(0)
    n, ck, length = x.shape
    if ck % (kh * kw) != 0:
        raise RuntimeError(
            "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got "
            f"input.size(1)={ck} and kernel_size={_fmt(kernel_size)}."
        )
    out = [_blocks(s, *args) for s, args in zip((h, w), zip(kernel_size, dilation, padding, stride))]
    if out[0] * out[1] != length:
        raise RuntimeError(
            f"Given output_size={_fmt(output_size)}, kernel_size={_fmt(kernel_size)}, dilation={_fmt(dilation)}, "
            f"padding={_fmt(padding)}, stride={_fmt(stride)}, expected size of input's dimension 2 to match the "
            f"calculated number of sliding blocks {out[0]} * {out[1]} = {out[0] * out[1]}, but got "
            f"input.size(2)={length}."
        )
    rows, cols = _tables(out, kernel_size, dilation, stride)
    wp = w + 2 * pw
    # padded flat position of (i, j, y, x): rows[y, i] * wp + cols[x, j], in the column layout's order
    flat = rows.T[:, None, :, None] * wp + cols.T[None, :, None, :]
    c = ck // (kh * kw)
    zeros = yaten.zeros(n, c, (h + 2 * ph) * wp, dtype=x.dtype, device=x.device)
    index = yaten.tensor(flat.reshape(-1), device=x.device)
    summed = zeros.index_add(2, index, x.reshape(n, c, -1)).reshape(n, c, h + 2 * ph, wp)
    result = summed[:, :, ph : ph + h, pw : pw + w]
    return result if self.ndim == 3 else result.squeeze(0)
