"""A caching allocator for device memory, plugged into Numba as its external memory manager (EMM).

Without it every device array is a ``cuMemAlloc`` and, once Numba's deferred frees run, a
``cuMemFree``: both synchronize the device, per op. Here a freed block goes back to a pool keyed by
its rounded size, and the next request of that size takes it, so a training loop that makes the same
arrays every step stops allocating after its first one (PyTorch's CUDA caching allocator does the
same). ``yaten.cuda.empty_cache`` hands the cached blocks back to the driver.

``BlockPool`` is the bookkeeping, device-neutral; ``CachingMemoryManager`` is the Numba plugin that
feeds it real allocations. The plugin is installed when yaten first uses CUDA on a GPU (kernels/cuda/
memory.py), unless the user chose a memory manager (``NUMBA_CUDA_MEMORY_MANAGER``). Numba's CUDA
simulator has no driver to plug into: there the pool stays empty and the statistics read zero.
"""

import threading
import weakref
from collections import defaultdict

_ROUND = 512  # bytes: request sizes are rounded up to a multiple, as CuPy's and PyTorch's pools do


def rounded(size: int) -> int:
    """The block size a request of ``size`` bytes takes.

    >>> rounded(1), rounded(512), rounded(513)
    (512, 512, 1024)
    """
    return max(1, -(-size // _ROUND)) * _ROUND


class BlockPool:
    """Blocks by size: those handed out and those cached for reuse, with PyTorch's statistics
    (``allocated``: in use; ``reserved``: held from the driver, in use or cached; and their peaks).

    ``take(size, new)`` returns a cached block of that rounded size or ``new(rounded_size)``;
    ``give(size, block)`` caches it again; ``release(free)`` passes every cached block to ``free``.

    >>> pool = BlockPool()
    >>> a = pool.take(100, lambda n: ["block", n])
    >>> pool.give(100, a)
    >>> pool.take(200, lambda n: ["another", n]) is a  # same rounded size: the cached block
    True
    >>> pool.stats()["reserved_bytes.all.current"], pool.stats()["allocated_bytes.all.current"]
    (512, 512)
    """

    def __init__(self):
        self._cached = defaultdict(list)
        self._lock = threading.Lock()
        self.allocated = self.reserved = self.peak_allocated = self.peak_reserved = 0
        self.allocations = self.frees = 0

    def take(self, size: int, new):
        n = rounded(size)
        with self._lock:
            cached = self._cached[n]
            block = cached.pop() if cached else None
        if block is None:
            block = new(n)  # outside the lock: the driver may take its time
            with self._lock:
                self.reserved += n
                self.peak_reserved = max(self.peak_reserved, self.reserved)
        with self._lock:
            self.allocated += n
            self.peak_allocated = max(self.peak_allocated, self.allocated)
            self.allocations += 1
        return block

    def give(self, size: int, block) -> None:
        n = rounded(size)
        with self._lock:
            self._cached[n].append(block)
            self.allocated -= n
            self.frees += 1

    def release(self, free) -> None:
        with self._lock:
            blocks = [(n, b) for n, cached in self._cached.items() for b in cached]
            self._cached.clear()
            self.reserved -= sum(n for n, _ in blocks)
        for _, block in blocks:
            free(block)

    def reset_peaks(self) -> None:
        with self._lock:
            self.peak_allocated, self.peak_reserved = self.allocated, self.reserved

    def stats(self) -> dict:
        """A subset of ``torch.cuda.memory_stats()``, under PyTorch's key names."""
        with self._lock:
            return {
                "allocated_bytes.all.current": self.allocated,
                "allocated_bytes.all.peak": self.peak_allocated,
                "reserved_bytes.all.current": self.reserved,
                "reserved_bytes.all.peak": self.peak_reserved,
                "allocation.all.allocated": self.allocations,
                "allocation.all.freed": self.frees,
            }


POOL = BlockPool()


def caching_memory_manager():
    """The EMM plugin class (built on first use: it subclasses Numba's driver classes, which the
    simulator lacks)."""
    from numba.cuda.cudadrv.driver import (
        GetIpcHandleMixin,
        HostOnlyCUDAMemoryManager,
        MemoryPointer,
        NumbaCUDAMemoryManager,
    )

    class CachingMemoryManager(GetIpcHandleMixin, HostOnlyCUDAMemoryManager):
        """Device allocations from ``POOL``; the raw blocks come from Numba's own manager."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._driver = NumbaCUDAMemoryManager(*args, **kwargs)

        def initialize(self):
            super().initialize()
            self._driver.initialize()

        def memalloc(self, size):
            block = POOL.take(size, self._driver.memalloc)  # an owned pointer, freed when dropped
            ctx = weakref.proxy(self.context)
            return MemoryPointer(ctx, block.device_pointer, size, finalizer=lambda: POOL.give(size, block))

        def get_memory_info(self):
            return self._driver.get_memory_info()

        def reset(self):
            POOL.release(lambda block: None)  # dropping the owned pointers frees the memory
            self._driver.reset()

        @property
        def interface_version(self):
            return 1

    return CachingMemoryManager


def install() -> bool:
    """Make the caching manager Numba's (before the first CUDA context exists); False where the user
    chose another one with ``NUMBA_CUDA_MEMORY_MANAGER``."""
    from numba import config, cuda

    if config.CUDA_MEMORY_MANAGER != "default":
        return False
    cuda.set_memory_manager(caching_memory_manager())
    return True
