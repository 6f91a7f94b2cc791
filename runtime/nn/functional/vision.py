"""Vision functions of ``torch.nn.functional``: padding, resampling, pixel shuffling."""

import warnings

import yaten as _yaten


def pad(input, pad, mode="constant", value=None):
    """Pad the last ``len(pad) // 2`` dimensions, last first: ``pad = (left, right, top, bottom, ...)``;
    ``mode`` 'constant' (with ``value``, default 0), 'reflect', 'replicate' or 'circular'.

    >>> import yaten
    >>> yaten.nn.functional.pad(yaten.tensor([[1.0, 2.0, 3.0]]), (2, 1), mode="reflect")
    tensor([[3., 2., 1., 2., 3., 2.]])
    """
    return _yaten.pad(input, pad, mode, value)


_OPS = {
    ("nearest", 3): "upsample_nearest1d",
    ("nearest", 4): "upsample_nearest2d",
    ("nearest", 5): "upsample_nearest3d",
    ("nearest-exact", 3): "_upsample_nearest_exact1d",
    ("nearest-exact", 4): "_upsample_nearest_exact2d",
    ("nearest-exact", 5): "_upsample_nearest_exact3d",
    ("area", 3): "adaptive_avg_pool1d",
    ("area", 4): "adaptive_avg_pool2d",
    ("area", 5): "adaptive_avg_pool3d",
    ("linear", 3): "upsample_linear1d",
    ("bilinear", 4): "upsample_bilinear2d",
    ("trilinear", 5): "upsample_trilinear3d",
    ("bicubic", 4): "upsample_bicubic2d",
}
_RANK = {"linear": 3, "bilinear": 4, "trilinear": 5}


def _sizes(input, size, scale_factor, dim):
    """``(output_size, scale_factors)``, one of them None, as ``interpolate`` validates them."""
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if not isinstance(size, (list, tuple)):
            return [size] * dim, None
        if len(size) != dim:
            raise ValueError(
                "Input and output must have the same number of spatial dimensions, but got input with spatial "
                f"dimensions of {list(input.shape[2:])} and output size of {size}. Please provide input tensor "
                "in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format."
            )
        if not all(isinstance(s, int) for s in size):
            raise TypeError(
                "expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, int], but "
                f"got size with types {[type(s) for s in size]}"
            )
        return list(size), None
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if not isinstance(scale_factor, (list, tuple)):
        return None, [scale_factor] * dim
    if len(scale_factor) != dim:
        raise ValueError(
            "Input and scale_factor must have the same number of spatial dimensions, but got input with spatial "
            f"dimensions of {list(input.shape[2:])} and scale_factor of shape {scale_factor}. Please provide "
            "input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format."
        )
    return None, list(scale_factor)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):  # fmt: skip
    """Resample the spatial dimensions of an (N, C, d1, ...) input to ``size`` or by ``scale_factor``;
    ``mode`` 'nearest', 'nearest-exact', 'linear', 'bilinear', 'bicubic', 'trilinear' or 'area'.

    >>> import yaten
    >>> x = yaten.tensor([[[1.0, 3.0]]])
    >>> yaten.nn.functional.interpolate(x, scale_factor=2, mode="linear")
    tensor([[[1.0000, 1.5000, 2.5000, 3.0000]]])
    """
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError(
                "align_corners option can only be set with the interpolating modes: "
                "linear | bilinear | bicubic | trilinear"
            )
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    output_size, scale_factors = _sizes(input, size, scale_factor, dim)
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if recompute_scale_factor or (mode == "area" and output_size is None):
        output_size = [int(input.shape[i + 2] * scale_factors[i]) for i in range(dim)]
        scale_factors = None
    if antialias:
        # PyTorch's anti-aliased kernels (_upsample_bilinear2d_aa, ...) are not in yaten yet
        raise NotImplementedError("yaten has no torch.nn.functional.interpolate(antialias=True) yet")
    op = _OPS.get((mode, input.dim()))
    if op is None:
        if mode in _RANK and input.dim() in (3, 4, 5):
            raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {_RANK[mode]}D input")
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for the modes: nearest "
            f"| linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact (got {mode})"
        )
    if mode == "area":
        return getattr(_yaten, op)(input, output_size)
    if mode in ("nearest", "nearest-exact"):
        return getattr(_yaten, op)(input, output_size, scale_factors)
    return getattr(_yaten, op)(input, output_size, align_corners, scale_factors)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated ``interpolate`` (warns as PyTorch does).

    >>> import warnings, yaten
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     yaten.nn.functional.upsample(yaten.ones(1, 1, 2), scale_factor=2).shape
    yaten.Size([1, 1, 4])
    """
    warnings.warn(
        "`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=2
    )
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated ``interpolate(..., mode='nearest')``.

    >>> import warnings, yaten
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     yaten.nn.functional.upsample_nearest(yaten.ones(1, 1, 2, 2), 3).shape
    yaten.Size([1, 1, 3, 3])
    """
    warnings.warn(
        "`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated ``interpolate(..., mode='bilinear', align_corners=True)``.

    >>> import warnings, yaten
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     yaten.nn.functional.upsample_bilinear(yaten.ones(1, 1, 2, 2), scale_factor=2).shape
    yaten.Size([1, 1, 4, 4])
    """
    warnings.warn(
        "`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def pixel_shuffle(input, upscale_factor):
    """Rearrange (*, C r², H, W) into (*, C, H r, W r).

    >>> import yaten
    >>> yaten.nn.functional.pixel_shuffle(yaten.arange(4.0).reshape(1, 4, 1, 1), 2)
    tensor([[[[0., 1.],
              [2., 3.]]]])
    """
    return _yaten.pixel_shuffle(input, upscale_factor)


def pixel_unshuffle(input, downscale_factor):
    """Rearrange (*, C, H r, W r) into (*, C r², H, W), undoing ``pixel_shuffle``.

    >>> import yaten
    >>> yaten.nn.functional.pixel_unshuffle(yaten.arange(4.0).reshape(1, 1, 2, 2), 2).flatten().tolist()
    [0.0, 1.0, 2.0, 3.0]
    """
    return _yaten.pixel_unshuffle(input, downscale_factor)


def _pair(value):
    return [value, value] if isinstance(value, int) else list(value)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """The sliding blocks of an (N, C, H, W) input as columns: (N, C * kh * kw, blocks).

    >>> import yaten
    >>> yaten.nn.functional.unfold(yaten.arange(4.0).reshape(1, 1, 2, 2), 1)
    tensor([[[0., 1., 2., 3.]]])
    """
    return _yaten.im2col(input, _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sum the columns of (N, C * kh * kw, blocks) back into an (N, C, *output_size) image (``unfold``'s
    adjoint).

    >>> import yaten
    >>> yaten.nn.functional.fold(yaten.ones(1, 4, 4), (3, 3), 2)[0, 0]
    tensor([[1., 2., 1.],
            [2., 4., 2.],
            [1., 2., 1.]])
    """
    return _yaten.col2im(
        input, _pair(output_size), _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    )


def channel_shuffle(input, groups):
    """The channels regrouped: ``groups`` groups of C / groups channels interleaved (ShuffleNet's).

    >>> import yaten
    >>> yaten.nn.functional.channel_shuffle(yaten.arange(4.0).reshape(1, 4, 1), 2).flatten()
    tensor([0., 2., 1., 3.])
    """
    return _yaten.channel_shuffle(input, groups)


native_channel_shuffle = channel_shuffle
