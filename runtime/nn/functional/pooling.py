"""Pooling functions of ``torch.nn.functional``."""

import yaten as _yaten


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
