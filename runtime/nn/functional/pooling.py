"""Pooling functions of ``torch.nn.functional``."""

import collections.abc

import yaten as _yaten

from ..._dtype import LEGACY_NAME


def _max_pool(dims, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices):
    op = f"max_pool{dims}d_with_indices" if return_indices else f"max_pool{dims}d"
    return getattr(_yaten, op)(
        input, kernel_size, [] if stride is None else stride, padding, dilation, ceil_mode
    )


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):  # fmt: skip
    """2-d max pooling: ``(values, indices)``, the indices into each flattened (H, W) plane.

    >>> import yaten
    >>> v, i = yaten.nn.functional.max_pool2d_with_indices(yaten.arange(16.0).reshape(1, 1, 4, 4), 2)
    >>> v.tolist(), i.tolist()
    ([[[[5.0, 7.0], [13.0, 15.0]]]], [[[[5, 7], [13, 15]]]])
    """
    return _max_pool(2, input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """2-d max pooling; ``return_indices=True`` also gives the argmax positions (for ``max_unpool2d``).

    >>> import yaten
    >>> yaten.nn.functional.max_pool2d(yaten.arange(16.0).reshape(1, 1, 4, 4), 2).tolist()
    [[[[5.0, 7.0], [13.0, 15.0]]]]
    """
    return _max_pool(2, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):  # fmt: skip
    """2-d average pooling.

    >>> import yaten
    >>> yaten.nn.functional.avg_pool2d(yaten.arange(16.0).reshape(1, 1, 4, 4), 2).tolist()
    [[[[2.5, 4.5], [10.5, 12.5]]]]
    """
    return _yaten.avg_pool2d(input, kernel_size, [] if stride is None else stride, padding, ceil_mode,
                             count_include_pad, divisor_override)  # fmt: skip


def adaptive_avg_pool2d(input, output_size):
    """Average pooling to an output of ``output_size`` (an int, or a pair whose None entries keep the input's size).

    >>> import yaten
    >>> yaten.nn.functional.adaptive_avg_pool2d(yaten.arange(16.0).reshape(1, 1, 4, 4), (1, None)).tolist()
    [[[[6.0, 7.0, 8.0, 9.0]]]]
    """
    return _yaten.adaptive_avg_pool2d(input, _list_with_default(output_size, input.size()))


def _list_with_default(output_size, sizes):
    """torch's ``_list_with_default``: None entries of ``output_size`` keep the input's size."""
    if isinstance(output_size, int):
        return output_size
    if len(sizes) <= len(output_size):
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
    defaults = sizes[-len(output_size) :]
    return [d if v is None else v for v, d in zip(output_size, defaults)]


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """1-d average pooling over (N, C, L) or (C, L) inputs.

    >>> import yaten
    >>> yaten.nn.functional.avg_pool1d(yaten.arange(6.0).reshape(1, 1, 6), 2).tolist()
    [[[0.5, 2.5, 4.5]]]
    """
    return _yaten.avg_pool1d(input, kernel_size, [] if stride is None else stride, padding, ceil_mode,
                             count_include_pad)  # fmt: skip


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):  # fmt: skip
    """1-d max pooling: ``(values, indices)``.

    >>> import yaten
    >>> v, i = yaten.nn.functional.max_pool1d_with_indices(yaten.tensor([[[1.0, 3.0, 2.0, 0.0]]]), 2)
    >>> v.tolist(), i.tolist()
    ([[[3.0, 2.0]]], [[[1, 2]]])
    """
    return _max_pool(1, input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """1-d max pooling; ``return_indices=True`` also gives the argmax positions.

    >>> import yaten
    >>> yaten.nn.functional.max_pool1d(yaten.tensor([[[1.0, 3.0, 2.0, 0.0]]]), 2).tolist()
    [[[3.0, 2.0]]]
    """
    return _max_pool(1, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def adaptive_avg_pool1d(input, output_size):
    """Average pooling of (N, C, L) or (C, L) inputs to length ``output_size``.

    >>> import yaten
    >>> yaten.nn.functional.adaptive_avg_pool1d(yaten.arange(6.0).reshape(1, 1, 6), 2).tolist()
    [[[1.0, 4.0]]]
    """
    return _yaten.adaptive_avg_pool1d(input, output_size)


def adaptive_avg_pool3d(input, output_size):
    """Average pooling of (N, C, D, H, W) or (C, D, H, W) inputs to ``output_size`` (None keeps a size).

    >>> import yaten
    >>> yaten.nn.functional.adaptive_avg_pool3d(yaten.ones(1, 2, 4, 4, 4), (1, None, 2)).shape
    yaten.Size([1, 2, 1, 4, 2])
    """
    return _yaten.adaptive_avg_pool3d(input, _list_with_default(output_size, input.size()))


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    """Adaptive 1-d max pooling: ``(values, indices)``.

    >>> import yaten
    >>> yaten.nn.functional.adaptive_max_pool1d_with_indices(yaten.tensor([[[1.0, 3.0, 2.0, 0.0]]]), 2)[1]
    tensor([[[1, 2]]])
    """
    return _yaten.adaptive_max_pool1d(input, output_size)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """Max pooling of (N, C, L) or (C, L) inputs to length ``output_size``.

    >>> import yaten
    >>> yaten.nn.functional.adaptive_max_pool1d(yaten.tensor([[[1.0, 3.0, 2.0, 0.0]]]), 2)
    tensor([[[3., 2.]]])
    """
    # As torch's boolean dispatch: ``return_indices`` is read first (a tensor there is ambiguous).
    if return_indices:
        return adaptive_max_pool1d_with_indices(input, output_size)
    return adaptive_max_pool1d_with_indices(input, output_size)[0]


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    """Adaptive 2-d max pooling: ``(values, indices)``, the indices into each flattened (H, W) plane.

    >>> import yaten
    >>> yaten.nn.functional.adaptive_max_pool2d_with_indices(yaten.arange(16.0).reshape(1, 1, 4, 4), 1)[1]
    tensor([[[[15]]]])
    """
    return _yaten.adaptive_max_pool2d(input, _list_with_default(output_size, input.size()))


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Max pooling to an output of ``output_size`` (an int, or a pair whose None entries keep the input's size).

    >>> import yaten
    >>> yaten.nn.functional.adaptive_max_pool2d(yaten.arange(16.0).reshape(1, 1, 4, 4), (2, 1)).tolist()
    [[[[7.0], [15.0]]]]
    """
    if return_indices:  # read first, as adaptive_max_pool1d's
        return adaptive_max_pool2d_with_indices(input, output_size)
    return adaptive_max_pool2d_with_indices(input, output_size)[0]


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    """Adaptive 3-d max pooling: ``(values, indices)``, the indices into each flattened (D, H, W) volume.

    >>> import yaten
    >>> yaten.nn.functional.adaptive_max_pool3d_with_indices(yaten.arange(8.0).reshape(1, 1, 2, 2, 2), 1)[1]
    tensor([[[[[7]]]]])
    """
    return _yaten.adaptive_max_pool3d(input, _list_with_default(output_size, input.size()))


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Max pooling of (N, C, D, H, W) or (C, D, H, W) inputs to ``output_size`` (None keeps a size).

    >>> import yaten
    >>> yaten.nn.functional.adaptive_max_pool3d(yaten.arange(8.0).reshape(1, 1, 2, 2, 2), 1).flatten().tolist()
    [7.0]
    """
    if return_indices:  # read first, as adaptive_max_pool1d's
        return adaptive_max_pool3d_with_indices(input, output_size)
    return adaptive_max_pool3d_with_indices(input, output_size)[0]


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):  # fmt: skip
    """3-d max pooling: ``(values, indices)``, the indices into each flattened (D, H, W) volume.

    >>> import yaten
    >>> yaten.nn.functional.max_pool3d_with_indices(yaten.arange(8.0).reshape(1, 1, 2, 2, 2), 2)[1]
    tensor([[[[[7]]]]])
    """
    return _max_pool(3, input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """3-d max pooling over (N, C, D, H, W) or (C, D, H, W) inputs.

    >>> import yaten
    >>> yaten.nn.functional.max_pool3d(yaten.arange(8.0).reshape(1, 1, 2, 2, 2), 2).flatten().tolist()
    [7.0]
    """
    return _max_pool(3, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):  # fmt: skip
    """3-d average pooling over (N, C, D, H, W) or (C, D, H, W) inputs.

    >>> import yaten
    >>> yaten.nn.functional.avg_pool3d(yaten.arange(8.0).reshape(1, 1, 2, 2, 2), 2).flatten().tolist()
    [3.5]
    """
    return _yaten.avg_pool3d(input, kernel_size, [] if stride is None else stride, padding, ceil_mode,
                             count_include_pad, divisor_override)  # fmt: skip


def _ntuple(value, n):
    return tuple(value) if isinstance(value, collections.abc.Iterable) else (value,) * n


def _lp_pool(dims, input, norm_type, kernel_size, stride, ceil_mode):
    """``(sum over each window of x ** p) ** (1 / p)``: an average pooling of ``x ** p`` times the window's
    size (negative sums, possible for odd ``p``, give 0 before the root, as torch's)."""
    if dims == 1:
        size = kernel_size
    elif dims == 2:  # unpacked first, as torch's: a bad kernel_size fails here, before the input is read
        kh, kw = _ntuple(kernel_size, 2)
        size = kh * kw
    else:
        kd, kh, kw = _ntuple(kernel_size, 3)
        size = kd * kh * kw
    pool = (avg_pool1d, _yaten.avg_pool2d, avg_pool3d)[dims - 1]
    out = pool(input.pow(norm_type), kernel_size, [] if stride is None else stride, 0, ceil_mode)
    return (out.sign() * out.abs().relu()).mul(size).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling over (N, C, L) inputs: the ``norm_type``-norm of each window.

    >>> import yaten
    >>> yaten.nn.functional.lp_pool1d(yaten.tensor([[[3.0, 4.0]]]), 2, 2)
    tensor([[[5.]]])
    """
    return _lp_pool(1, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling over (N, C, H, W) inputs: the ``norm_type``-norm of each window.

    >>> import yaten
    >>> yaten.nn.functional.lp_pool2d(yaten.full((1, 1, 2, 2), 2.0), 2, 2)
    tensor([[[[4.]]]])
    """
    return _lp_pool(2, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling over (N, C, D, H, W) inputs: the ``norm_type``-norm of each window.

    >>> import yaten
    >>> yaten.nn.functional.lp_pool3d(yaten.ones(1, 1, 2, 2, 2), 1, 2)
    tensor([[[[[8.]]]]])
    """
    return _lp_pool(3, input, norm_type, kernel_size, stride, ceil_mode)


def _unpool_size(input, kernel_size, stride, padding, output_size):
    """torch's ``_unpool_output_size``: the pooled input's size by default, or ``output_size`` (with or
    without its batch and channel dims) when it is within a stride of that."""
    dims = len(kernel_size)
    default = [
        (input.shape[-dims + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d] for d in range(dims)
    ]
    if output_size is None:
        return default
    output_size = list(output_size)
    if len(output_size) == dims + 2:
        output_size = output_size[2:]
    if len(output_size) != dims:
        raise ValueError(
            f"output_size should be a sequence containing {dims} or {dims + 2} elements, but it has a length of "
            f"'{len(output_size)}'"
        )
    for d in range(dims):
        low, high = default[d] - stride[d], default[d] + stride[d]
        if not low < output_size[d] < high:
            raise ValueError(
                f'invalid output_size "{tuple(output_size)}" (dim {d} must be between {low} and {high})'
            )
    return output_size


def _max_unpool(dims, input, indices, kernel_size, stride, padding, output_size):
    """Each value of a max pooling's output written back at its index (flat over the spatial dims, as
    ``max_pool*d(return_indices=True)`` gives them) of zeros of the unpooled size."""
    kernel = _ntuple(kernel_size, dims)
    size = _unpool_size(input, kernel, kernel if stride is None else _ntuple(stride, dims), _ntuple(padding, dims),
                        output_size)  # fmt: skip
    if indices.dtype is not _yaten.int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: {LEGACY_NAME[indices.dtype]}")
    lead = tuple(input.shape[:-dims])
    plane = 1
    for n in size:
        plane *= n
    out = input.new_zeros((*lead, plane))
    out = out.scatter(-1, indices.flatten(-dims), input.flatten(-dims))
    return out.reshape(*lead, *size)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The partial inverse of ``max_pool1d``: maxima back at their places, zeros elsewhere.

    >>> import yaten
    >>> out, idx = yaten.nn.functional.max_pool1d(yaten.tensor([[[1.0, 3.0, 2.0, 0.0]]]), 2, return_indices=True)
    >>> yaten.nn.functional.max_unpool1d(out, idx, 2)
    tensor([[[0., 3., 2., 0.]]])
    """
    return _max_unpool(1, input, indices, kernel_size, stride, padding, output_size)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The partial inverse of ``max_pool2d``: maxima back at their places, zeros elsewhere.

    >>> import yaten
    >>> x = yaten.tensor([[[[1.0, 2.0], [4.0, 3.0]]]])
    >>> out, idx = yaten.nn.functional.max_pool2d(x, 2, return_indices=True)
    >>> yaten.nn.functional.max_unpool2d(out, idx, 2)
    tensor([[[[0., 0.],
              [4., 0.]]]])
    """
    return _max_unpool(2, input, indices, kernel_size, stride, padding, output_size)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The partial inverse of ``max_pool3d``: maxima back at their places, zeros elsewhere.

    >>> import yaten
    >>> out, idx = yaten.nn.functional.max_pool3d(yaten.arange(8.0).reshape(1, 1, 2, 2, 2), 2, return_indices=True)
    >>> yaten.nn.functional.max_unpool3d(out, idx, 2).flatten().tolist()
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 7.0]
    """
    return _max_unpool(3, input, indices, kernel_size, stride, padding, output_size)


def _fractional_max_pool(dims, input, kernel_size, output_size, output_ratio, _random_samples):
    name = f"fractional_max_pool{dims}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if dims == 2 and len(output_ratio) > 2:
            raise ValueError(f"{name} requires output_ratio to either be a single Int or tuple of Ints.")
        ratio = _ntuple(output_ratio, dims)
        output_size = [int(input.size(d - dims) * ratio[d]) for d in range(dims)]
    if _random_samples is None:
        n_batch = 1 if input.dim() == dims + 1 else input.size(0)
        _random_samples = _yaten.rand(
            n_batch, input.size(-dims - 1), dims, dtype=input.dtype, device=input.device
        )
    return getattr(_yaten, name)(input, kernel_size, output_size, _random_samples)


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                                       _random_samples=None):  # fmt: skip
    """Fractional max pooling over (N, C, H, W) or (C, H, W): windows of ``kernel_size`` at pseudo-random
    increasing starts (``_random_samples``, one U(0, 1) per plane and dim, drawn when not given) giving
    ``output_size`` (or ``output_ratio`` of the input's) outputs; ``(values, indices)``.

    >>> import yaten
    >>> x = yaten.arange(25.0).view(1, 1, 5, 5)
    >>> v, i = yaten.nn.functional.fractional_max_pool2d_with_indices(
    ...     x, 2, output_size=2, _random_samples=yaten.full((1, 1, 2), 0.5))
    >>> v.tolist(), i.tolist()
    ([[[[6.0, 9.0], [21.0, 24.0]]]], [[[[6, 9], [21, 24]]]])
    """
    return _fractional_max_pool(2, input, kernel_size, output_size, output_ratio, _random_samples)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):  # fmt: skip
    """Fractional max pooling over (N, C, H, W) or (C, H, W): the values, or with ``return_indices``
    ``(values, indices)`` (see ``fractional_max_pool2d_with_indices``).

    >>> import yaten
    >>> yaten.nn.functional.fractional_max_pool2d(yaten.randn(1, 3, 8, 8), 2, output_ratio=(0.5, 0.5)).shape
    yaten.Size([1, 3, 4, 4])
    """
    result = _fractional_max_pool(2, input, kernel_size, output_size, output_ratio, _random_samples)
    return result if return_indices else result[0]


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                                       _random_samples=None):  # fmt: skip
    """Fractional max pooling over (N, C, T, H, W) or (C, T, H, W); ``(values, indices)``.

    >>> import yaten
    >>> v, i = yaten.nn.functional.fractional_max_pool3d_with_indices(yaten.randn(2, 5, 5, 5), 2, output_size=3)
    >>> v.shape, i.dtype
    (yaten.Size([2, 3, 3, 3]), yaten.int64)
    """
    return _fractional_max_pool(3, input, kernel_size, output_size, output_ratio, _random_samples)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):  # fmt: skip
    """Fractional max pooling over (N, C, T, H, W) or (C, T, H, W): the values, or with
    ``return_indices`` ``(values, indices)``.

    >>> import yaten
    >>> yaten.nn.functional.fractional_max_pool3d(yaten.randn(1, 2, 8, 8, 8), 2, output_ratio=(0.5, 0.5, 0.5)).shape
    yaten.Size([1, 2, 4, 4, 4])
    """
    result = _fractional_max_pool(3, input, kernel_size, output_size, output_ratio, _random_samples)
    return result if return_indices else result[0]
