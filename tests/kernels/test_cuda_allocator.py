"""The caching device allocator: its pool's bookkeeping and the Numba plugin around it, with stand-in
driver blocks (no GPU needed), and yaten.cuda's memory statistics read from it."""

import gc
import threading

import yaten
from yaten.kernels.cuda import allocator
from yaten.kernels.cuda.allocator import BlockPool, rounded


class _Block:
    """A stand-in for an owned device pointer."""

    def __init__(self, n):
        self.size = n
        self.device_pointer = id(self)


def test_a_freed_block_serves_the_next_request_of_its_rounded_size():
    pool = BlockPool()
    made = []
    new = lambda n: made.append(n) or _Block(n)
    a = pool.take(1000, new)
    pool.give(1000, a)
    assert pool.take(1010, new) is a  # both round to 1024
    b = pool.take(2000, new)  # another size: a new block
    assert b is not a and made == [1024, 2048]
    s = pool.stats()
    assert s["allocated_bytes.all.current"] == 1024 + 2048 == s["reserved_bytes.all.current"]
    assert s["allocation.all.allocated"] == 3 and s["allocation.all.freed"] == 1


def test_peaks_release_and_reset():
    pool = BlockPool()
    blocks = [pool.take(512 * k, _Block) for k in (1, 2, 3)]
    for k, block in zip((1, 2, 3), blocks):
        pool.give(512 * k, block)
    s = pool.stats()
    assert s["allocated_bytes.all.current"] == 0 and s["allocated_bytes.all.peak"] == 512 * 6
    in_use = pool.take(512, _Block)  # a cached block, so nothing new is reserved
    freed = []
    pool.release(freed.append)  # the two other cached blocks go back to the driver
    assert len(freed) == 2 and in_use not in freed
    assert pool.stats()["reserved_bytes.all.current"] == 512
    pool.reset_peaks()
    assert pool.stats()["allocated_bytes.all.peak"] == pool.stats()["allocated_bytes.all.current"] == 512


def test_pool_counts_stay_consistent_across_threads():
    pool = BlockPool()

    def work():
        for _ in range(200):
            pool.give(700, pool.take(700, _Block))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    s = pool.stats()
    assert s["allocated_bytes.all.current"] == 0
    assert s["allocation.all.allocated"] == s["allocation.all.freed"] == 800
    assert s["reserved_bytes.all.current"] <= 4 * rounded(700)


def test_numba_plugin_hands_out_pooled_blocks(monkeypatch):
    manager = allocator.caching_memory_manager()(context=None)
    assert manager.interface_version == 1
    monkeypatch.setattr(manager, "context", _Block(0))  # any object a weak proxy can point at
    monkeypatch.setattr(manager._driver, "memalloc", _Block)
    before = yaten.cuda.memory_allocated()
    first = manager.memalloc(3000)
    address = first.device_pointer
    assert yaten.cuda.memory_allocated() - before == rounded(3000)
    del first
    gc.collect()
    assert yaten.cuda.memory_allocated() == before  # the pointer's finalizer returned the block
    second = manager.memalloc(3000)
    assert second.device_pointer == address  # ... and the next request of that size got it back
    del second
    gc.collect()


def test_statistics_read_zero_before_any_device_memory():
    stats = yaten.cuda.memory_stats()
    assert set(stats) >= {"allocated_bytes.all.current", "reserved_bytes.all.peak"}
    assert yaten.cuda.max_memory_allocated() >= yaten.cuda.memory_allocated() >= 0
    assert yaten.cuda.max_memory_reserved() >= yaten.cuda.memory_reserved() >= 0
    yaten.cuda.reset_peak_memory_stats()
    yaten.cuda.empty_cache()
