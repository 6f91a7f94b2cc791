"""The Python-level signatures of torch.functional: functions that take their tensors as varargs
(``torch.meshgrid(x, y)``) or a ``dims`` in several forms, over the generated bindings that take a
list. These replace the generated names in the ``yaten`` namespace."""

from ._generated import functions as _f

__all__ = [
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "block_diag",
    "broadcast_tensors",
    "cartesian_prod",
    "cdist",
    "chain_matmul",
    "einsum",
    "meshgrid",
    "tensordot",
    "unravel_index",
]


def _tensors(args):
    """``f(a, b)`` and ``f([a, b])`` / ``f((a, b))`` both name the tensors a and b (where torch's f
    takes both: einsum, meshgrid, atleast_*d; the others take varargs only, as torch's)."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return list(args[0])
    return list(args)


def einsum(equation, *operands):
    """Sums the product of the operands' elements over the indices the equation leaves out.

    >>> import yaten as torch
    >>> a, b = torch.ones(2, 3), torch.ones(3, 4)
    >>> torch.einsum("ij,jk->ik", a, b).shape
    yaten.Size([2, 4])
    >>> torch.einsum("...i,...i", a, a)
    tensor([3., 3.])
    """
    return _f.einsum(equation, _tensors(operands))


def meshgrid(*tensors, indexing=None):
    """Coordinate grids of 1-d tensors; ``indexing`` is ``"ij"`` (matrix) or ``"xy"`` (Cartesian).

    >>> import yaten as torch
    >>> xs, ys = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy")
    >>> xs
    tensor([[0, 1, 2],
            [0, 1, 2]])
    """
    if indexing is None:
        return _f.meshgrid(_tensors(tensors))
    return _f.meshgrid(_tensors(tensors), indexing=indexing)


def broadcast_tensors(*tensors):
    """The tensors expanded to their common broadcast shape (views).

    >>> import yaten as torch
    >>> [t.shape for t in torch.broadcast_tensors(torch.ones(3, 1), torch.ones(4))]
    [yaten.Size([3, 4]), yaten.Size([3, 4])]
    """
    return _f.broadcast_tensors(list(tensors))


def block_diag(*tensors):
    """A block-diagonal matrix of the given blocks.

    >>> import yaten as torch
    >>> torch.block_diag(torch.ones(1, 2), torch.tensor(2.))
    tensor([[1., 1., 0.],
            [0., 0., 2.]])
    """
    return _f.block_diag(list(tensors))


def cartesian_prod(*tensors):
    """The Cartesian product of 1-d tensors, one row per combination.

    >>> import yaten as torch
    >>> torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4]))
    tensor([[1, 3],
            [1, 4],
            [2, 3],
            [2, 4]])
    """
    return _f.cartesian_prod(list(tensors))


_CDIST_MODES = {"use_mm_for_euclid_dist_if_necessary": None, "use_mm_for_euclid_dist": 1,
                "donot_use_mm_for_euclid_dist": 2}  # fmt: skip


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distance between each pair of rows of x1 and x2 (batched). For p = 2 above 25 rows
    (or always, with ``compute_mode="use_mm_for_euclid_dist"``) it goes through one matrix product.

    >>> import yaten as torch
    >>> torch.cdist(torch.tensor([[0.0, 0.0]]), torch.tensor([[3.0, 4.0], [0.0, 1.0]]))
    tensor([[5., 1.]])
    """
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    return _f.cdist(x1, x2, p, _CDIST_MODES[compute_mode])


def chain_matmul(*matrices):
    """The matrix product of two or more matrices (deprecated in torch for ``linalg.multi_dot``).

    >>> import yaten as torch
    >>> torch.chain_matmul(torch.ones(2, 3), torch.ones(3, 4), torch.ones(4, 1))
    tensor([[12.],
            [12.]])
    """
    return _f.chain_matmul(list(matrices))


def _at_least(binding, tensors):
    if len(tensors) == 1 and not isinstance(tensors[0], (list, tuple)):
        return binding(tensors[0])
    return binding(_tensors(tensors))


def atleast_1d(*tensors):
    """Each tensor viewed with at least one dimension (a tuple for several tensors).

    >>> import yaten as torch
    >>> torch.atleast_1d(torch.tensor(1.))
    tensor([1.])
    """
    return _at_least(_f.atleast_1d, tensors)


def atleast_2d(*tensors):
    """Each tensor viewed with at least two dimensions (a tuple for several tensors).

    >>> import yaten as torch
    >>> torch.atleast_2d(torch.tensor([1., 2.])).shape
    yaten.Size([1, 2])
    """
    return _at_least(_f.atleast_2d, tensors)


def atleast_3d(*tensors):
    """Each tensor viewed with at least three dimensions (a tuple for several tensors).

    >>> import yaten as torch
    >>> torch.atleast_3d(torch.ones(2, 3)).shape
    yaten.Size([2, 3, 1])
    """
    return _at_least(_f.atleast_3d, tensors)


def tensordot(a, b, dims=2, out=None):
    """Contracts ``dims`` dimensions: the last ``dims`` of a with the first of b, or the listed pairs.

    >>> import yaten as torch
    >>> torch.tensordot(torch.ones(2, 3, 4), torch.ones(3, 4, 5)).shape
    yaten.Size([2, 5])
    >>> torch.tensordot(torch.ones(2, 3), torch.ones(3, 2), dims=([1], [0])).shape
    yaten.Size([2, 2])
    """
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.ndim, b.ndim):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        pair = (list(range(a.ndim - dims, a.ndim)), list(range(dims)))
    elif hasattr(dims, "tolist"):  # a tensor: an int, or the two lists
        return tensordot(a, b, dims.tolist(), out)
    else:
        pair = [[d] if isinstance(d, int) else list(d) for d in dims]
        if len(pair) != 2:
            raise RuntimeError("tensordot expects dims to be a pair of lists or an int")
    if out is None:
        return _f.tensordot(a, b, pair[0], pair[1])
    return _f.tensordot(a, b, pair[0], pair[1], out=out)


def unravel_index(indices, shape):
    """The coordinates in an array of ``shape`` of flat (row-major) ``indices``, one int64 tensor per dim
    (indices outside the array wrap around, as torch's).

    >>> import yaten
    >>> yaten.unravel_index(yaten.tensor([4, 1]), (2, 3))
    (tensor([1, 0]), tensor([1, 1]))
    """
    import yaten

    if not isinstance(indices, yaten.Tensor):
        indices = yaten.tensor(indices)
    if indices.dtype.kind != "i":
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    for n in shape:
        if not isinstance(n, int):
            raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(n)}")
    if any(n < 0 for n in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    device = indices.device
    coords = (
        indices.to(yaten.int64)
        .unsqueeze(-1)
        .floor_divide(yaten.tensor(strides, dtype=yaten.int64, device=device))
    )
    return tuple((coords % yaten.tensor(shape, dtype=yaten.int64, device=device)).unbind(-1))
