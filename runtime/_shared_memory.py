"""Bytes that several processes map at once: the memory behind ``UntypedStorage.share_memory_()``.

As torch's two sharing strategies (``yaten.multiprocessing.set_sharing_strategy``):

- ``file_descriptor`` (the default on Linux): an anonymous memory file (``memfd_create``). Another
  process gets it as a file descriptor passed over a Unix socket (``multiprocessing.reduction.DupFd``),
  so nothing is left behind when every process holding it is gone.
- ``file_system``: a named file in ``/dev/shm``. Another process opens it by name; the process that
  made it removes the name when its buffer is garbage collected.

A process keeps one ``SharedBuffer`` per file (looked up by the file's device and inode) and one
storage per buffer (``storage``), so a storage sent back and forth between processes is the same
storage again.
"""

import contextlib
import mmap
import os
import secrets
import weakref

import numpy as np

_SHM_DIR = "/dev/shm"
STRATEGIES = ("file_descriptor", "file_system")
_strategy = ["file_descriptor"]  # the process's sharing strategy (yaten.multiprocessing sets it)
_by_key: "weakref.WeakValueDictionary[tuple[int, int], SharedBuffer]" = weakref.WeakValueDictionary()


def sharing_strategy() -> str:
    return _strategy[0]


def set_sharing_strategy(strategy: str) -> None:
    if strategy not in STRATEGIES:  # torch's error, which prints the set
        raise AssertionError(f"invalid sharing strategy {strategy!r}, expected one of {set(STRATEGIES)}")
    _strategy[0] = strategy


class SharedBuffer:
    """A shared memory file mapped into this process; ``array`` is its bytes (a flat uint8 array)."""

    __slots__ = ("__weakref__", "_storage", "array", "fd", "key", "name")

    def __init__(self, fd: int, nbytes: int, name: str | None, owner: bool) -> None:
        self.fd, self.name = fd, name
        self._storage = None  # a weak reference to the UntypedStorage over these bytes in this process
        st = os.fstat(fd)
        self.key = (st.st_dev, st.st_ino)
        if nbytes:
            self.array = np.frombuffer(mmap.mmap(fd, nbytes), np.uint8)
        else:  # mmap can't map zero bytes; an empty storage shares nothing
            self.array = np.empty(0, np.uint8)
        weakref.finalize(self, _release, fd, name if owner else None)
        _by_key[self.key] = self

    def storage(self):
        """The ``UntypedStorage`` over these bytes in this process (made on first use)."""
        from ._storage import UntypedStorage

        storage = self._storage() if self._storage is not None else None
        if storage is None:
            storage = UntypedStorage(self.array, shm=self)
            self._storage = weakref.ref(storage)
        return storage

    def adopt(self, storage) -> None:
        """Record ``storage`` (whose bytes just moved here) as the storage over these bytes."""
        self._storage = weakref.ref(storage)

    @classmethod
    def create(cls, nbytes: int, strategy: str) -> "SharedBuffer":
        """New shared memory of ``nbytes`` (zeros) for the sharing strategy ``strategy``."""
        if strategy == "file_system":
            name = os.path.join(_SHM_DIR, f"yaten_{os.getpid()}_{secrets.token_hex(8)}")
            fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        else:
            name, fd = None, os.memfd_create("yaten_shared_storage", os.MFD_CLOEXEC)
        os.ftruncate(fd, nbytes)
        return cls(fd, nbytes, name, owner=True)

    @classmethod
    def attach(cls, fd: int, nbytes: int, name: str | None = None) -> "SharedBuffer":
        """The buffer of a descriptor received from another process, or of a ``file_system`` file opened by
        ``name`` (this process now owns ``fd``): the one this process has already, if it has it."""
        st = os.fstat(fd)
        known = _by_key.get((st.st_dev, st.st_ino))
        if known is not None:
            os.close(fd)
            return known
        return cls(fd, nbytes, name, owner=False)


def _release(fd: int, name: str | None) -> None:
    os.close(fd)
    if name is not None:
        with contextlib.suppress(FileNotFoundError):  # the name is gone already: nothing to remove
            os.unlink(name)
