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

    __slots__ = ("_buf", "device")

    def __init__(self, buf, device=_device.CPU):
        self._buf = buf  # a flat uint8 array of the device's backend
        self.device = device

    def nbytes(self) -> int:
        return self._buf.shape[0]

    def size(self) -> int:
        return self._buf.shape[0]

    __len__ = size

    def data_ptr(self) -> int:
        return backend(self.device).data_ptr(self._buf)

    def __getitem__(self, i):
        return int(backend(self.device).to_host(self._buf[i : i + 1])[0]) if isinstance(i, int) else None

    def tolist(self) -> list:
        return backend(self.device).to_host(self._buf).tolist()

    def __repr__(self) -> str:
        return f"UntypedStorage(nbytes={self.nbytes()}, device={self.device})"
