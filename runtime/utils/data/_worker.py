"""The DataLoader's worker processes: ``get_worker_info`` and the loop each worker runs."""

import os
import queue
import random
import sys
import traceback
from dataclasses import dataclass

from ... import int64, tensor
from ._collate import default_collate
from .dataset import TensorDataset

__all__ = ["WorkerInfo", "get_worker_info"]

# How often an idle worker checks that its parent is still alive (seconds).
_POLL_S = 5.0


@dataclass(frozen=True)
class WorkerInfo:
    """What a worker process knows about itself (``get_worker_info()`` in a worker)."""

    id: int
    num_workers: int
    seed: int
    dataset: object


_worker_info = None


def get_worker_info() -> WorkerInfo | None:
    """In a DataLoader worker process, its ``WorkerInfo`` (``id``, ``num_workers``, ``seed``,
    ``dataset``, this worker's copy of it); None in the main process.

    >>> from yaten.utils.data import get_worker_info
    >>> get_worker_info() is None
    True
    """
    return _worker_info


class _KeyErrorMessage(str):
    def __repr__(self) -> str:
        return self


@dataclass
class ExceptionWrapper:
    """An exception raised in a worker, carried to the main process and raised again there."""

    exc_type: type
    message: str

    @classmethod
    def capture(cls, where: str) -> "ExceptionWrapper":
        exc_type = sys.exc_info()[0]
        return cls(exc_type, f"Caught {exc_type.__name__} {where}.\nOriginal {traceback.format_exc()}")

    def reraise(self):
        message = self.message
        if self.exc_type is KeyError:  # KeyError shows the repr of its argument: keep the lines readable
            message = _KeyErrorMessage(message)
        try:
            exc = self.exc_type(message)
        except TypeError:  # an exception type whose constructor wants other arguments
            raise RuntimeError(self.message) from None
        raise exc


@dataclass(frozen=True)
class IterableEnd:
    """A worker's message that its copy of an IterableDataset is exhausted for this epoch."""

    worker_id: int


@dataclass(frozen=True)
class Resume:
    """Main → worker: a persistent worker starts a new epoch (an IterableDataset starts over)."""

    epoch: int


def _fetch_map(dataset, indices, auto_collation: bool, collate_fn):
    if not auto_collation:
        return collate_fn(dataset[indices])
    if (
        collate_fn is default_collate
        and type(dataset) is TensorDataset
        and not any(t.requires_grad for t in dataset.tensors)
    ):
        # What collating the samples one by one gives (each tensor's rows at ``indices``, in a list, as
        # default_collate makes of tuples), with one gather per tensor instead of a select per sample.
        index = tensor(list(indices), dtype=int64)
        return [t[index] for t in dataset.tensors]
    getitems = getattr(dataset, "__getitems__", None)
    data = getitems(indices) if callable(getitems) else [dataset[i] for i in indices]
    return collate_fn(data)


def _fetch_iterable(it, batch_size, auto_collation: bool, collate_fn, drop_last: bool):
    if not auto_collation:
        return collate_fn(next(it))
    data = []
    for _ in range(batch_size):
        try:
            data.append(next(it))
        except StopIteration:
            break
    if not data or (drop_last and len(data) < batch_size):
        raise StopIteration
    return collate_fn(data)


def worker_loop(dataset, is_iterable: bool, index_queue, data_queue, collate_fn, auto_collation: bool,
                batch_size, drop_last: bool, seed: int, init_fn, worker_id: int, num_workers: int) -> None:  # fmt: skip
    """Run in a worker process: take ``(epoch, task, indices)`` from ``index_queue``, put
    ``(epoch, task, batch or ExceptionWrapper)`` on ``data_queue``; None means stop."""
    global _worker_info
    from ... import _random, _threads

    _threads.set_num_threads(1)  # as torch's workers: num_workers processes share the cores
    random.seed(seed)
    _random.manual_seed(seed)
    _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)
    where = f"in DataLoader worker process {worker_id}"
    init_error, it, exhausted = None, None, False
    try:
        if init_fn is not None:
            init_fn(worker_id)
        if is_iterable:
            it = iter(dataset)
    except Exception:  # any error of user code: reported to the main process with the first batch it asks for
        init_error = ExceptionWrapper.capture(where)
    parent = os.getppid()
    while True:
        try:
            task = index_queue.get(timeout=_POLL_S)
        except queue.Empty:
            if os.getppid() != parent:  # the main process died: nobody will ask for more
                return
            continue
        if task is None:
            return
        if isinstance(task, Resume):
            exhausted = False
            if is_iterable and init_error is None:
                try:
                    it = iter(dataset)
                except Exception:  # as above
                    init_error = ExceptionWrapper.capture(where)
            continue
        task_epoch, idx, indices = task
        if init_error is not None:
            data_queue.put((task_epoch, idx, init_error))
            continue
        if exhausted:
            data_queue.put((task_epoch, idx, IterableEnd(worker_id)))
            continue
        try:
            if is_iterable:
                data = _fetch_iterable(it, batch_size, auto_collation, collate_fn, drop_last)
            else:
                data = _fetch_map(dataset, indices, auto_collation, collate_fn)
        except StopIteration:
            exhausted = True
            data = IterableEnd(worker_id)
        except Exception:  # any error of the dataset or collate_fn: raised again in the main process
            data = ExceptionWrapper.capture(where)
        data_queue.put((task_epoch, idx, data))
        del data
