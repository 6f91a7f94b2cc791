"""The data of a sparse COO tensor, held where a strided tensor holds its array.

A sparse COO tensor is a ``Tensor`` whose ``_data`` is a :class:`SparseCOO` (int64 ``indices`` of
sparse_dim x nnz, ``values`` of nnz x dense sizes, the tensor's size, the coalesced flag) and whose
``_device`` is a ``SparseDevice`` (equal to its cpu/cuda device, dispatching to the spec's
``SparseCPU``/``SparseCUDA`` kernels). ``shape``, ``dim()``, ``numel()`` and ``dtype`` read the
``SparseCOO`` as they read an array; anything else a dense kernel would read from it (strides, a
buffer, elements) raises rather than reading absent strided data.
"""

from ._device import sparse_of


class SparseCOO:
    """The parts of a sparse COO tensor: ``indices`` and ``values`` are detached yaten Tensors.

    >>> import yaten
    >>> s = yaten.tensor([[0.0, 2.0], [3.0, 0.0]]).to_sparse()
    >>> s._data.shape, s._data.ndim, s._data.coalesced
    ((2, 2), 2, True)
    """

    __slots__ = ("coalesced", "indices", "shape", "values")

    def __init__(self, indices, values, shape: tuple, coalesced: bool):
        self.indices = indices
        self.values = values
        self.shape = tuple(shape)
        self.coalesced = coalesced

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def dtype(self):
        return self.values._data.dtype

    @property
    def strides(self) -> tuple:
        """Zeros, as torch reports a sparse tensor's strides (``stride()`` reads them)."""
        return (0,) * len(self.shape)

    @property
    def sparse_dim(self) -> int:
        return self.indices.shape[0]

    def __getattr__(self, name: str):
        if name.startswith("__"):  # protocol probes (copy, pickle, NumPy) see a plain object
            raise AttributeError(name)
        raise NotImplementedError(
            f"a sparse COO tensor has no strided data ('{name}' was asked of it): this operation has no sparse "
            "kernel; convert with to_dense() first"
        )


def make_sparse(indices, values, shape, coalesced: bool, requires_grad: bool = False):
    """A new sparse COO tensor over ``indices`` and ``values`` (stored detached, on ``values``' device)."""
    from ._tensor import wrap

    data = SparseCOO(indices.detach(), values.detach(), shape, coalesced)
    return wrap(data, sparse_of(values._device), requires_grad)
