"""Fractional max pooling (Graham, 2014), ``fractional_max_pool2d``/``3d`` as ATen's: per sample and
plane, ``random_samples`` (one value in [0, 1) per spatial dim) place the pooling windows at
pseudo-random, increasing starts; each output is the maximum of its window and its index the flat
position of that maximum in the plane.

The window starts are computed on the host (a handful of integers per plane) with ATen's formula in
the input's dtype; the values are then gathered with ``gather``, so the gradient (the output's grad
added at each index) and the CUDA path come from that op.
"""

import numpy as np

import yaten

from .. import _dtype as D
from ..autograd.record import not_differentiable

# ATen's names for the error messages, by spatial rank.
_NAMES = {
    2: ("fractional_max_pool2d", "fractional_max_pool2d()", ("height", "width"), "two"),
    3: ("fractional_max_pool3d", "fractional_max_pool3d_out()", ("time", "height", "width"), "three"),
}


def _intervals(samples: np.ndarray, input_size: int, output_size: int, pool_size: int) -> np.ndarray:
    """ATen's ``generate_intervals`` for every plane at once: ``samples`` (N, C) in the input's dtype,
    the (N, C, output_size) window starts. The arithmetic stays in that dtype, as ATen's ``scalar_t``."""
    dt = samples.dtype.type
    starts = np.empty((*samples.shape, output_size), dtype=np.int64)
    if output_size > 1:
        alpha = dt(input_size - pool_size) / dt(output_size - 1)
        steps = np.arange(output_size - 1).astype(samples.dtype)
        scaled = ((steps + samples[..., None]) * alpha).astype(np.int64)
        starts[..., :-1] = scaled - (samples * alpha).astype(np.int64)[..., None]
    if output_size > 0:
        starts[..., -1] = input_size - pool_size
    return starts


def _check(self, kernel_size, output_size, random_samples, rank):
    name, prefix, dims, count = _NAMES[rank]
    if len(kernel_size) != rank:
        single = "" if rank == 2 else f" of {count}"
        raise RuntimeError(f"{name}: kernel_size must either be a single Int or tuple{single} Ints")
    if len(output_size) != rank:
        single = "" if rank == 2 else f" of {count}"
        raise RuntimeError(f"{name}: output_size must either be a single Int or tuple{single} Ints")
    if self.dim() not in (rank + 1, rank + 2):
        raise RuntimeError(
            f"{prefix}: Expected {rank + 1}D or {rank + 2}D tensor, but got: {list(self.shape)}"
        )
    for i in range(1, self.dim()):
        if self.size(i) <= 0:
            raise RuntimeError(
                f"{prefix}: Expected input to have non-zero size for non-batch dimensions, but got"
                f"{list(self.shape)} with dimension {i} being empty."
            )
    spatial = self.shape[-rank:]
    for dim_name, out, pool, size in zip(dims, output_size, kernel_size, spatial):
        # ATen's 3-d check is strict (a window may not end on the last element), its 2-d one is not.
        if out + pool - 1 > size or (rank == 3 and out + pool - 1 == size):
            raise RuntimeError(
                f"{prefix}: pool {dim_name} {pool} too large relative to input {dim_name} {size}"
            )
    if random_samples.dtype != self.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if random_samples.dim() != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {random_samples.dim()}")
    batch, channels = (1, self.size(0)) if self.dim() == rank + 1 else (self.size(0), self.size(1))
    if batch > random_samples.size(0):
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if channels != random_samples.size(1):
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if random_samples.size(2) != rank:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {rank}; got {random_samples.size(2)}.")
    if not self.is_floating_point():
        raise NotImplementedError(f"\"{name}_out_frame\" not implemented for '{D.LEGACY_NAME[self.dtype]}'")
    if random_samples.requires_grad and yaten.is_grad_enabled():
        not_differentiable(name, "random_samples")  # the windows' placement has no derivative


def _fractional_max_pool(self, kernel_size, output_size, random_samples, rank):
    _check(self, kernel_size, output_size, random_samples, rank)
    x = self if self.dim() == rank + 2 else self.unsqueeze(0)
    n, c, spatial = x.size(0), x.size(1), tuple(x.shape[2:])
    samples = random_samples.detach()[:n]._host()  # (N, C, rank) in its dtype (bfloat16 too), ATen's order
    # 2-d: sample 0 drives the width and 1 the height; 3-d: 0, 1, 2 drive time, height and width.
    order = (1, 0) if rank == 2 else (0, 1, 2)
    starts = [_intervals(samples[..., k], size, out, pool)
              for k, size, out, pool in zip(order, spatial, output_size, kernel_size)]  # fmt: skip
    # Flat in-plane index of every window element, windows scanned as ATen does (last dim fastest).
    strides = np.cumprod((1, *spatial[::-1]))[:-1][::-1]
    flat = np.zeros((n, c, *output_size, *kernel_size), dtype=np.int64)
    for d in range(rank):
        shape = [n, c] + [1] * (2 * rank)
        shape[2 + d] = output_size[d]
        offsets_shape = [1] * (2 + 2 * rank)
        offsets_shape[2 + rank + d] = kernel_size[d]
        flat = (
            flat + (starts[d].reshape(shape) + np.arange(kernel_size[d]).reshape(offsets_shape)) * strides[d]
        )
    window = int(np.prod(kernel_size))
    index = yaten.from_numpy(flat.reshape(n, c, -1, window)).to(x.device)
    planes = x.reshape(n, c, -1)
    values = planes.gather(2, index.reshape(n, c, -1)).reshape(n, c, -1, window)
    # ATen keeps the first maximum, but a NaN always wins (the last one).
    nan = values.isnan()
    order_key = nan.long() * yaten.arange(1, window + 1, device=x.device)
    pick = yaten.where(nan.any(-1), order_key.argmax(-1), values.argmax(-1))
    indices = index.gather(3, pick.unsqueeze(-1)).reshape(n, c, *output_size)
    output = planes.gather(2, indices.reshape(n, c, -1)).reshape(n, c, *output_size)
    if self.dim() == rank + 1:
        return output.squeeze(0), indices.squeeze(0)
    return output, indices


def fractional_max_pool2d(self, kernel_size, output_size, random_samples):
    return _fractional_max_pool(self, tuple(kernel_size), tuple(output_size), random_samples, 2)


def fractional_max_pool3d(self, kernel_size, output_size, random_samples):
    return _fractional_max_pool(self, tuple(kernel_size), tuple(output_size), random_samples, 3)
