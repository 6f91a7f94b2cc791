"""Upsampling as CompositeImplicitAutograd ops, ATen's ``upsample_*.vec`` family: nearest, nearest-exact,
(bi/tri)linear and bicubic over 1-3 spatial dimensions.

Every mode is separable: each spatial dimension in turn is resampled by ``index_select`` of the input
rows its output positions read, weighted and summed (one row for nearest, two for linear, four for
cubic). The source positions and weights are computed in NumPy with ATen's formulas
(``area_pixel_compute_source_index``, ``nearest_idx``, the cubic convolution with A = -0.75) in
ATen's accumulation type (float for float16/float32, double for float64), so the rows and weights
are the ones PyTorch uses. Autograd and CUDA come through ``index_select``, ``mul`` and ``add``.
"""

import numpy as np

import yaten

_CUBIC_A = -0.75
_DIM_NAMES = ("D", "H", "W")


def _acc(dtype):
    return np.float64 if dtype is yaten.float64 else np.float32


def _output_size(name, input, output_size, scale_factors, dims):
    """ATen's ``upsample::compute_output_size`` and the spatial-size checks of ``upsample_*``."""
    if (output_size is None) == (scale_factors is None):
        raise RuntimeError("Must specify exactly one of output_size and scale_factors")
    if input.ndim != dims + 2:
        raise RuntimeError(
            f"It is expected input_size equals to {dims + 2}, but got size {input.ndim}"
            if input.ndim > 1
            else f"Expected {dims + 2}D input for {name}, but got {input.ndim}D"
        )
    spatial = list(input.shape[2:])
    if output_size is not None:
        if len(output_size) != dims:
            raise RuntimeError(
                f"It is expected output_size equals to {dims}, but got size {len(output_size)}"
            )
        sizes, scales = list(output_size), [None] * dims
    else:
        if len(scale_factors) != dims:
            raise RuntimeError(
                f"It is expected scale_factors equals to {dims}, but got size {len(scale_factors)}"
            )
        sizes = [int(s * f) for s, f in zip(spatial, scale_factors)]
        scales = list(scale_factors)
    if any(s <= 0 for s in spatial) or any(o <= 0 for o in sizes):
        names = _DIM_NAMES[3 - dims :]
        given = ", ".join(f"{n}: {s}" for n, s in zip(names, spatial))
        wanted = ", ".join(f"{n}: {o}" for n, o in zip(names, sizes))
        raise RuntimeError(
            f"Input and output sizes should be greater than 0, but got input ({given}) output ({wanted})"
        )
    return sizes, scales


def _nearest_index(in_size, out_size, scale, exact, acc):
    dst = np.arange(out_size, dtype=acc)
    if not exact and out_size == in_size:
        return dst.astype(np.int64)
    if not exact and out_size == 2 * in_size:
        return np.arange(out_size) >> 1
    step = acc(1.0 / scale) if scale is not None and scale > 0 else acc(in_size) / acc(out_size)
    src = np.floor((dst + acc(0.5)) * step) if exact else np.floor(dst * step)
    return np.minimum(src.astype(np.int64), in_size - 1)


def _source(in_size, out_size, scale, align_corners, cubic, acc):
    """ATen's ``area_pixel_compute_source_index`` for every output position."""
    dst = np.arange(out_size, dtype=acc)
    if align_corners:
        step = acc(in_size - 1) / acc(out_size - 1) if out_size > 1 else acc(0)
        return dst * step
    step = acc(1.0 / scale) if scale is not None and scale > 0 else acc(in_size) / acc(out_size)
    src = step * (dst + acc(0.5)) - acc(0.5)
    return src if cubic else np.maximum(src, acc(0))


def _linear_taps(in_size, out_size, scale, align_corners, acc):
    src = _source(in_size, out_size, scale, align_corners, False, acc)
    i0 = src.astype(np.int64)
    i1 = np.where(i0 < in_size - 1, i0 + 1, i0)
    l1 = src - i0.astype(acc)
    return [(i0, acc(1) - l1), (i1, l1)]


def _cubic_taps(in_size, out_size, scale, align_corners, acc):
    src = _source(in_size, out_size, scale, align_corners, True, acc)
    base = np.floor(src)
    t = src - base
    a = acc(_CUBIC_A)

    def near(x):  # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):  # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    weights = [far(t + 1), near(t), near(1 - t), far(2 - t)]
    base = base.astype(np.int64)
    return [(np.clip(base + k - 1, 0, in_size - 1), w) for k, w in enumerate(weights)]


def _resample(out, dim, taps):
    """``sum_k out.index_select(dim, index_k) * weight_k`` (the weight broadcast along ``dim``)."""
    shape = [1] * out.ndim
    shape[dim] = -1
    result = None
    for index, weight in taps:
        rows = out.index_select(dim, yaten.tensor(index, device=out.device))
        if weight is not None:
            rows = rows * yaten.tensor(weight, device=out.device).to(out.dtype).reshape(shape)
        result = rows if result is None else result + rows
    return result


def _nearest(name, input, output_size, scale_factors, dims, exact):
    sizes, scales = _output_size(name, input, output_size, scale_factors, dims)
    out = input
    for i, (size, scale) in enumerate(zip(sizes, scales)):
        index = _nearest_index(input.shape[2 + i], size, scale, exact, _acc(input.dtype))
        out = _resample(out, 2 + i, [(index, None)])
    return out


def _interpolating(name, input, output_size, align_corners, scale_factors, dims, taps_of):
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"{name}\" not implemented for '{input.dtype.name.capitalize()}'")
    sizes, scales = _output_size(name, input, output_size, scale_factors, dims)
    out = input
    for i, (size, scale) in enumerate(zip(sizes, scales)):
        out = _resample(
            out, 2 + i, taps_of(input.shape[2 + i], size, scale, align_corners, _acc(input.dtype))
        )
    return out


def _nearest_op(name, dims, exact):
    def op(input, output_size=None, scale_factors=None):
        return _nearest(name, input, output_size, scale_factors, dims, exact)

    return op


def _interpolating_op(name, dims, taps_of):
    def op(input, output_size, align_corners, scale_factors):
        return _interpolating(name, input, output_size, align_corners, scale_factors, dims, taps_of)

    return op


upsample_nearest1d = _nearest_op("upsample_nearest1d", 1, False)
upsample_nearest2d = _nearest_op("upsample_nearest2d", 2, False)
upsample_nearest3d = _nearest_op("upsample_nearest3d", 3, False)
upsample_nearest_exact1d = _nearest_op("_upsample_nearest_exact1d", 1, True)
upsample_nearest_exact2d = _nearest_op("_upsample_nearest_exact2d", 2, True)
upsample_nearest_exact3d = _nearest_op("_upsample_nearest_exact3d", 3, True)
upsample_linear1d = _interpolating_op("upsample_linear1d", 1, _linear_taps)
upsample_bilinear2d = _interpolating_op("upsample_bilinear2d", 2, _linear_taps)
upsample_trilinear3d = _interpolating_op("upsample_trilinear3d", 3, _linear_taps)
upsample_bicubic2d = _interpolating_op("upsample_bicubic2d", 2, _cubic_taps)
