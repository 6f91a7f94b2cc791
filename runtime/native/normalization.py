"""Normalization layers as CompositeImplicitAutograd ops: batch_norm, layer_norm, group_norm,
instance_norm, rms_norm.

Each checks its arguments with PyTorch's messages and calls a fused op with its own derivative
(native_batch_norm, native_layer_norm: spec/native_functions.yaml, kernels in kernels/cpu/norm.py).
group_norm is a layer norm of each group of channels followed by a per-channel affine map;
instance_norm a batch norm of the (1, N * C, ...) view, as PyTorch's; rms_norm is a few yaten ops.
"""

import ml_dtypes

import yaten

from .._dims import wrap_dim
from .._factories import not_implemented
from ..kernels.cpu.norm import normalized_shape_checks


def _check_vector(t, name, n):
    if t is not None and t.numel() != n:
        raise RuntimeError(f"{name} should contain {n} elements not {t.numel()}")


def _channel_shape(input):
    """The shape a per-channel (dim 1) vector takes to broadcast against ``input``."""
    return (1, input.shape[1]) + (1,) * (input.ndim - 2)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    channels = input.shape[wrap_dim(1, input.ndim)]
    # ATen's order: each running statistic (present, or required in eval mode), then weight and bias.
    for name, t in (("running_mean", running_mean), ("running_var", running_var)):
        if t is None and not training:
            raise RuntimeError(f"{name} must be defined in evaluation mode")
        _check_vector(t, name, channels)
    for name, t in (("weight", weight), ("bias", bias)):
        _check_vector(t, name, channels)
    if training:
        # The kernel writes the running statistics in place. Count that write before the call: the op's
        # backward node saves them (its formula reads them in eval mode) after the kernel has run, so it
        # must record the version they have after the write.
        for t in (running_mean, running_var):
            if t is not None:
                t._vc[0] += 1
    return yaten.native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)[0]


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    shape = normalized_shape_checks(input, normalized_shape, (("weight", weight), ("bias", bias)), "*, ")
    if not input.dtype.is_floating_point:
        raise not_implemented("LayerNormKernelImpl", input.dtype)
    return yaten.native_layer_norm(input, shape, weight, bias, eps)[0]


def rms_norm(input, normalized_shape, weight=None, eps=None):
    shape = normalized_shape_checks(input, normalized_shape, (("weight", weight),), "*")
    dims = list(range(input.ndim - len(shape), input.ndim))
    # As torch's: half and bfloat16 are normalized in float32 (whose epsilon is the default eps); the
    # weight multiplies the result in the input's dtype.
    work = yaten.float32 if input.dtype in (yaten.float16, yaten.bfloat16) else input.dtype
    eps = float(ml_dtypes.finfo(work.np).eps) if eps is None else eps
    x = input.to(work)
    out = (x * (x.pow(2).mean(dims, keepdim=True) + eps).rsqrt()).to(input.dtype)
    return out if weight is None else out * weight


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    n, channels = input.shape[0], input.shape[wrap_dim(1, input.ndim)]
    if channels % num_groups != 0:
        raise RuntimeError(
            "Expected number of channels in input to be divisible by num_groups, but got input of shape "
            f"{list(input.shape)} and num_groups={num_groups}"
        )
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.ndim != 1 or t.numel() != channels):
            raise RuntimeError(
                f"Expected {name} to be a vector of size equal to the number of channels in input, but got "
                f"{name} of shape {list(t.shape)} and input of shape {list(input.shape)}"
            )
    # Each group normalized as one layer-norm row; the affine transform is per channel.
    grouped = input.reshape((n, num_groups, -1))
    out = yaten.native_layer_norm(grouped, (grouped.shape[-1],), None, None, eps)[0].reshape(input.shape)
    shape = _channel_shape(input)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    if input.dtype in (yaten.bfloat16, yaten.float16) and out.dtype is yaten.float32:
        out = out.to(input.dtype)  # torch's mixed type: low-precision input, float32 weights (autocast's)
    return out


def instance_norm(
    input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled
):
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError(
            "Expected running_mean and running_var to be defined when use_input_stats is false"
        )
    n, channels = input.shape[0], input.shape[wrap_dim(1, input.ndim)]

    def per_instance(t):
        return None if t is None else t.repeat(n)

    # Every (sample, channel) pair is a channel of one batch-norm sample; the running statistics are
    # updated per pair, then averaged over the batch into the caller's tensors.
    mean, var = per_instance(running_mean), per_instance(running_var)
    flat = input.contiguous().view((1, n * channels) + tuple(input.shape[2:]))
    weight, bias = per_instance(weight), per_instance(bias)
    out = yaten.batch_norm(flat, weight, bias, mean, var, use_input_stats, momentum, eps, cudnn_enabled)
    for stats, updated in ((running_mean, mean), (running_var, var)):
        if stats is not None:
            stats.copy_(updated.view(n, channels).mean(0))
    return out.view(input.shape)


def renorm(self, p, dim, maxnorm):
    """Each slice of ``self`` along ``dim`` whose ``p``-norm exceeds ``maxnorm`` scaled down to norm
    ``maxnorm`` (over ``norm + 1e-7``, as ATen's)."""
    if self.ndim < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {self.ndim} dimensions")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    d = dim % self.ndim
    norms = self.norm(p, [k for k in range(self.ndim) if k != d], True)
    factor = yaten.where(norms > maxnorm, maxnorm / (norms + 1e-7), yaten.ones_like(norms))
    return self * factor


def renorm_(self, p, dim, maxnorm):
    return self.copy_(renorm(self, p, dim, maxnorm))


def norm_except_dim(v, pow=2, dim=0):
    """The ``pow``-norm of ``v`` over every dimension but ``dim``, keeping ``dim`` (size 1 elsewhere); the
    whole norm for ``dim=-1`` (weight normalization's, as ATen's)."""
    if dim == -1:
        return v.norm(pow)
    if dim == 0:
        return v.contiguous().view(v.size(0), -1).norm(pow, 1).view(v.size(0), *[1] * (v.dim() - 1))
    if dim == v.dim() - 1:
        return v.contiguous().view(-1, v.size(-1)).norm(pow, 0).view(*[1] * (v.dim() - 1), v.size(-1))
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def weight_norm(v, g, dim=0):
    """``v`` rescaled to the norm ``g`` over every dimension but ``dim``: ``v * (g / ||v||)``."""
    return v * (g / norm_except_dim(v, 2, dim))
