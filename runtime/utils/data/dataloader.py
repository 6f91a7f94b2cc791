"""DataLoader, as ``torch.utils.data.DataLoader``: batches from a dataset, in this process or in workers."""

import itertools
import math
import multiprocessing
import os
import queue
import time
import warnings

from ... import _dtype as D
from ... import _random
from . import _worker
from ._collate import default_collate, default_convert
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader"]

# How often the main process, waiting for a batch with no timeout, checks that its workers live.
_WORKER_CHECK_S = 1.0


class _InfiniteConstantSampler(Sampler):
    """The sampler of an IterableDataset: ``None`` forever (the dataset decides when to stop)."""

    def __iter__(self):
        while True:
            yield None


class DataLoader:
    """Iterate over ``dataset`` in batches, as ``torch.utils.data.DataLoader``.

    ``num_workers > 0`` fetches batches in that many worker processes (``multiprocessing``); they
    come back in the order ``num_workers=0`` gives. Workers start by the platform's default method
    (fork on Linux), as torch's, and compute on one thread (``kernels/cpu/threads.py``: why a forked
    worker is safe after parallel kernels ran here).
    ``pin_memory`` is accepted and does nothing (yaten's host memory is what a copy to the GPU
    reads from); ``in_order=False`` is accepted and batches still come in order.

    >>> import yaten
    >>> from yaten.utils.data import DataLoader, TensorDataset
    >>> ds = TensorDataset(yaten.arange(5), yaten.arange(5) * 10)
    >>> [x.tolist() for x, y in DataLoader(ds, batch_size=2)]
    [[0, 1], [2, 3], [4]]
    >>> len(DataLoader(ds, batch_size=2, drop_last=True))
    2
    """

    _initialized = False

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None,
                 persistent_workers=False, pin_memory_device="", in_order=True) -> None:  # fmt: skip
        if num_workers < 0:
            raise ValueError(
                "num_workers option should be non-negative; use num_workers=0 to disable multiprocessing."
            )
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError(
                "prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 to enable "
                "multiprocessing, otherwise set prefetch_factor to None."
            )
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")

        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order

        if isinstance(dataset, IterableDataset):
            self._dataset_kind = "iterable"
            if isinstance(dataset, IterableDataset) and shuffle not in {False, None}:
                raise ValueError(
                    f"DataLoader with IterableDataset: expected unspecified shuffle option, but got shuffle={shuffle}"
                )
            if sampler is not None:
                raise ValueError(
                    f"DataLoader with IterableDataset: expected unspecified sampler option, but got sampler={sampler}"
                )
            if batch_sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified batch_sampler option, but got "
                    f"batch_sampler={batch_sampler}"
                )
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = "map"

        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError(
                    "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last"
                )
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError(
                "batch_size=None option disables auto-batching and is mutually exclusive with drop_last"
            )

        if sampler is None:
            if self._dataset_kind == "iterable":
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)

        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._iterator = None
        self._IterableDataset_len_called = None
        self._initialized = True
        self._check_worker_number_rationality()

    def _check_worker_number_rationality(self) -> None:
        """PyTorch's warning when there are more workers than CPUs this process may use."""
        if not self.num_workers:
            return
        cpuset_checked = hasattr(os, "sched_getaffinity")
        cpus = len(os.sched_getaffinity(0)) if cpuset_checked else os.cpu_count()
        if cpus is not None and self.num_workers <= cpus:
            return
        if cpus is None:
            suggested = (
                "DataLoader is not able to compute a suggested max number of worker in current system."
            )
        else:
            suggested = (
                f"Our suggested max number of worker in current system is {cpus}"
                f"{'' if cpuset_checked else ' (`cpuset` is not taken into account)'}, which is smaller than what "
                "this DataLoader is going to create."
            )
        warnings.warn(
            f"This DataLoader will create {self.num_workers} worker processes in total. {suggested} Please be aware "
            "that excessive worker creation might get DataLoader running slow or even freeze, lower the worker "
            "number to avoid potential slowness/freeze if necessary.",
            stacklevel=3,
        )

    def __setattr__(self, attr, val) -> None:
        if self._initialized and attr in (
            "batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers",
        ):  # fmt: skip
            raise ValueError(f"{attr} attribute should not be set after {type(self).__name__} is initialized")
        super().__setattr__(attr, val)

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self):
        if self.num_workers == 0:
            return _SingleProcessIter(self)
        if not self.persistent_workers:
            return _MultiProcessingIter(self)
        if self._iterator is None or self._iterator._shutdown:  # (workers stop after a timeout or a death)
            self._iterator = _MultiProcessingIter(self)
        else:
            self._iterator._reset(self)
        return self._iterator

    def __len__(self) -> int:
        if self._dataset_kind == "iterable":
            # May raise TypeError: the dataset decides whether it has a length.
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else math.ceil(length / self.batch_size)
            return length
        return len(self._index_sampler)


def _base_seed(loader: DataLoader) -> int:
    # Drawn from the loader's generator at each iter(), by both iterators: so shuffling gives the
    # same batches with and without workers, and each epoch's workers get new seeds.
    g = loader.generator
    return int(_random.randint(-(2**63), 2**63 - 1, (), dtype=D.int64, generator=g).item())


class _BaseIter:
    """What both iterators share: ``__next__`` counts batches and warns, as PyTorch, when an
    IterableDataset gives more than the length it reported."""

    def __init__(self, loader: DataLoader) -> None:
        self._loader = loader
        self._iterable = loader._dataset_kind == "iterable"
        self._num_yielded = 0

    def __iter__(self):
        return self

    def __len__(self) -> int:
        return len(self._loader)

    def __next__(self):
        data = self._next_data()
        self._num_yielded += 1
        reported = self._loader._IterableDataset_len_called
        if self._iterable and reported is not None and self._num_yielded > reported:
            message = (
                f"Length of IterableDataset {self._loader.dataset} was reported to be {reported}(when accessing "
                f"len(dataloader)), but {self._num_yielded} samples have been fetched. "
            )
            if self._loader.num_workers > 0:
                message += (
                    "For multiprocessing data-loading, this could be caused by not properly configuring the "
                    "IterableDataset replica at each worker. Please see "
                    "https://pytorch.org/docs/stable/data.html#torch.utils.data.IterableDataset for examples."
                )
            warnings.warn(message, stacklevel=2)
        return data


class _SingleProcessIter(_BaseIter):
    def __init__(self, loader: DataLoader) -> None:
        super().__init__(loader)
        self._base_seed = _base_seed(loader)
        self._sampler_iter = iter(loader._index_sampler)
        self._dataset_iter = iter(loader.dataset) if self._iterable else None
        self._ended = False

    def _next_data(self):
        if self._ended:
            raise StopIteration
        ld = self._loader
        index = next(self._sampler_iter)
        try:
            if self._iterable:
                return _worker._fetch_iterable(
                    self._dataset_iter, ld.batch_size, ld._auto_collation, ld.collate_fn, ld.drop_last
                )
            return _worker._fetch_map(ld.dataset, index, ld._auto_collation, ld.collate_fn)
        except StopIteration:
            self._ended = True
            raise


class _MultiProcessingIter(_BaseIter):
    """Tasks (a batch's indices) go round-robin to the workers, at most ``prefetch_factor`` each in
    flight; results are put back in task order."""

    def __init__(self, loader: DataLoader) -> None:
        ctx = loader.multiprocessing_context
        if ctx is None:
            ctx = multiprocessing.get_context()
        elif isinstance(ctx, str):
            ctx = multiprocessing.get_context(ctx)
        n = loader.num_workers
        super().__init__(loader)
        self._epoch = 0
        self._shutdown = False
        self._base_seed = _base_seed(loader)
        self._data_queue = ctx.Queue()
        self._index_queues, self._workers = [], []
        for worker_id in range(n):
            index_queue = ctx.Queue()
            index_queue.cancel_join_thread()  # exiting never waits for tasks nobody will take
            args = (
                loader.dataset, self._iterable, index_queue, self._data_queue, loader.collate_fn,
                loader._auto_collation, loader.batch_size, loader.drop_last, self._base_seed + worker_id,
                loader.worker_init_fn, worker_id, n,
            )  # fmt: skip
            w = ctx.Process(target=_worker.worker_loop, args=args, daemon=True)
            w.start()
            self._index_queues.append(index_queue)
            self._workers.append(w)
        self._start_epoch(loader)

    def _reset(self, loader: DataLoader) -> None:
        """A new epoch on persistent workers: results of the old one still in flight are dropped."""
        self._epoch += 1
        self._num_yielded = 0
        self._base_seed = _base_seed(loader)
        for q in self._index_queues:
            q.put(_worker.Resume(self._epoch))
        self._start_epoch(loader)

    def _start_epoch(self, loader: DataLoader) -> None:
        n = loader.num_workers
        self._sampler_iter = iter(loader._index_sampler)
        self._send_idx = self._rcvd_idx = 0
        self._tasks = {}  # task index -> [worker id] while in flight, [worker id, data] once here
        self._active = [True] * n
        self._cycle = itertools.cycle(range(n))
        for _ in range(loader.prefetch_factor * n):
            self._try_put_index()

    def _try_put_index(self) -> None:
        try:
            index = next(self._sampler_iter)
        except StopIteration:
            return
        for _ in range(len(self._workers)):
            worker_id = next(self._cycle)
            if self._active[worker_id]:
                break
        else:
            return  # every worker's iterable is exhausted
        self._index_queues[worker_id].put((self._epoch, self._send_idx, index))
        self._tasks[self._send_idx] = [worker_id]
        self._send_idx += 1

    def _get(self):
        """The next result from any worker; checks every second that the workers are alive."""
        timeout = self._loader.timeout
        deadline = time.monotonic() + timeout if timeout > 0 else None
        while True:
            wait = _WORKER_CHECK_S if deadline is None else min(_WORKER_CHECK_S, deadline - time.monotonic())
            try:
                return self._data_queue.get(timeout=max(wait, 0.0))
            except queue.Empty:
                pass
            dead = [w for w in self._workers if not w.is_alive()]
            if dead:
                pids = ", ".join(str(w.pid) for w in dead)
                self._shutdown_workers(graceful=False)
                raise RuntimeError(f"DataLoader worker (pid(s) {pids}) exited unexpectedly")
            if deadline is not None and time.monotonic() >= deadline:
                self._shutdown_workers(graceful=False)  # a stuck worker would not take an exit request
                raise RuntimeError(f"DataLoader timed out after {timeout} seconds")

    def _next_data(self):
        if self._shutdown:
            raise StopIteration
        while True:
            # Skip tasks of workers whose iterable ended: their answers will say so, and be dropped.
            while self._rcvd_idx < self._send_idx:
                info = self._tasks[self._rcvd_idx]
                if len(info) == 2 or self._active[info[0]]:
                    break
                del self._tasks[self._rcvd_idx]
                self._rcvd_idx += 1
            else:
                if not self._loader.persistent_workers:
                    self._shutdown_workers()
                raise StopIteration
            info = self._tasks[self._rcvd_idx]
            if len(info) == 2:
                del self._tasks[self._rcvd_idx]
                self._rcvd_idx += 1
                return self._process(info[1])
            epoch, idx, data = self._get()
            if epoch != self._epoch or idx not in self._tasks:
                continue
            if isinstance(data, _worker.IterableEnd):
                self._active[data.worker_id] = False  # its tasks still in flight are skipped above
                self._try_put_index()
                continue
            if idx != self._rcvd_idx:
                self._tasks[idx].append(data)
                continue
            del self._tasks[idx]
            self._rcvd_idx += 1
            return self._process(data)

    def _process(self, data):
        self._try_put_index()
        if isinstance(data, _worker.ExceptionWrapper):
            data.reraise()
        return data

    def _shutdown_workers(self, graceful: bool = True) -> None:
        """Stop the workers: ask them to exit (``graceful``) and wait a while, else terminate them."""
        if self._shutdown:
            return
        self._shutdown = True
        if graceful:
            for q in self._index_queues:
                q.put(None)
        for w in self._workers:
            if graceful:
                w.join(timeout=5.0)
            if w.is_alive():
                w.terminate()
                w.join(timeout=5.0)
        for q in self._index_queues:
            q.cancel_join_thread()
            q.close()
        self._data_queue.cancel_join_thread()
        self._data_queue.close()

    def __del__(self) -> None:
        # Not graceful: when a reference cycle (a traceback) is collected, the queues' own
        # finalizers may already have closed them, so an exit request would never arrive. The
        # workers hold nothing worth finishing: their results would be dropped anyway.
        if getattr(self, "_workers", None) is not None:
            self._shutdown_workers(graceful=False)
