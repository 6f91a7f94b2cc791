"""The autograd Functions of layers that torch implements in Python with their own backward
(``torch.nn.modules._functions``): ``CrossMapLRN2d``, the legacy Lua cross-channel LRN."""

import numpy as np

import yaten

from ...autograd.function import Function


def _window(channels: int, size: int, backward: bool) -> np.ndarray:
    """The (C, C) 0/1 matrix of which channels each channel's sum reads. The forward one replays the
    legacy running sum (channel 0 is never subtracted again, as in torch's loop); the backward one is
    torch's backward window, centred ``size - (size - 1) / 2`` channels on."""
    m = np.zeros((channels, channels))
    if backward:
        shift = int(size - (size - 1) / 2)
        for c in range(channels):
            m[c, max(0, c - shift) : max(0, min(channels, c + size - shift))] = 1
        return m
    pre_pad = int((size - 1) / 2 + 1)
    m[0, : min(pre_pad, channels)] = 1
    for c in range(1, channels):
        m[c] = m[c - 1]
        if c < channels - pre_pad + 1:
            m[c, c + pre_pad - 1] += 1
        if c > pre_pad:
            m[c, c - pre_pad] -= 1
    return m


def _channel_sums(window: np.ndarray, t):
    """``sum_j window[c, j] * t[:, j]`` for every channel c of a (N, C, H, W) tensor."""
    n, c, h, w = t.shape
    matrix = yaten.from_numpy(window).to(dtype=t.dtype, device=t.device)
    return (matrix @ t.reshape(n, c, h * w)).reshape(n, c, h, w)


class CrossMapLRN2d(Function):
    """``x / (k + alpha / size * sum of x² over neighbouring channels) ** beta`` of a 4-d input, with
    torch's legacy window and backward formula."""

    @staticmethod
    def forward(ctx, input, size, alpha=1e-4, beta=0.75, k=1):
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead.")
        ctx.size, ctx.alpha, ctx.beta, ctx.k = size, alpha, beta, k
        scale = _channel_sums(_window(input.size(1), size, False), input * input) * (alpha / size) + k
        output = scale.pow(-beta) * input
        ctx.scale = scale
        ctx.save_for_backward(input, output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, output = ctx.saved_tensors
        ratio = grad_output * output / ctx.scale
        accum = _channel_sums(_window(input.size(1), ctx.size, True), ratio)
        grad_input = (
            ctx.scale.pow(-ctx.beta) * grad_output - (2 * ctx.alpha * ctx.beta / ctx.size) * input * accum
        )
        return grad_input, None, None, None, None
