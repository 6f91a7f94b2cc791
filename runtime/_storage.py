"""UntypedStorage: the flat bytes a tensor and all its views look into."""

from . import _device
from ._backend import backend


class UntypedStorage:
    """A flat byte buffer on a device, as ``torch.UntypedStorage``.

    >>> import yaten
    >>> x = yaten.zeros(3)
    >>> x.untyped_storage().nbytes()
    12
    """

    __slots__ = ("__weakref__", "_buf", "_shm", "device")

    def __init__(self, buf, device=_device.CPU, shm=None):
        self._buf = buf  # a flat uint8 array of the device's backend
        self.device = device
        self._shm = shm  # the _shared_memory.SharedBuffer whose bytes _buf is, once shared

    def share_memory_(self) -> "UntypedStorage":
        """Move the bytes into shared memory that other processes map (``yaten.multiprocessing`` sends
        such a storage by reference, not by copy); a no-op when shared already and on cuda, as torch.

        The storage object stays the same, but its bytes move: tensors made over it afterwards (and the
        tensor whose ``share_memory_`` moved it) see the shared bytes, other tensors already over it keep
        the old ones. Share a tensor before taking views of it.

        >>> import yaten
        >>> s = yaten.arange(3.0).untyped_storage()
        >>> s.is_shared(), s.share_memory_() is s, s.is_shared()
        (False, True, True)
        """
        if self._shm is None and self.device.type == "cpu":
            from ._shared_memory import SharedBuffer, sharing_strategy

            shm = SharedBuffer.create(self.nbytes(), sharing_strategy())
            shm.array[:] = self._buf
            self._buf, self._shm = shm.array, shm
            shm.adopt(self)
        return self

    def is_shared(self) -> bool:
        """Whether the bytes are in shared memory (cuda storages always count as shared, as torch's)."""
        return self._shm is not None or self.device.type == "cuda"

    def nbytes(self) -> int:
        return self._buf.shape[0]

    def size(self) -> int:
        return self._buf.shape[0]

    __len__ = size

    def data_ptr(self) -> int:
        return backend(self.device).data_ptr(self._buf)

    def element_size(self) -> int:
        return 1

    def __getitem__(self, i):
        """A byte as an int, or (for a slice) a storage sharing these bytes, as torch.

        >>> import yaten
        >>> s = yaten.arange(3, dtype=yaten.uint8).untyped_storage()
        >>> s[-1], s[0:2].tolist()
        (2, [0, 1])
        """
        n = self._buf.shape[0]
        if isinstance(i, slice):
            start, stop, step = i.indices(n)
            if step != 1:
                raise RuntimeError("slicing a storage with a step is not supported")
            return UntypedStorage(self._buf[start : max(start, stop)], self.device)
        if not isinstance(i, int) or isinstance(i, bool):
            raise TypeError(f"can't index a yaten.UntypedStorage with {type(i).__name__}")
        if not -n <= i < n:
            raise IndexError(f"index {i} out of range for storage of size {n}")
        i %= n
        return int(backend(self.device).to_host(self._buf[i : i + 1])[0])

    def tolist(self) -> list:
        return backend(self.device).to_host(self._buf).tolist()

    def __repr__(self) -> str:
        return f"UntypedStorage(nbytes={self.nbytes()}, device={self.device})"
