"""yaten.multiprocessing: Python's multiprocessing, with tensors shared between processes, as torch.multiprocessing.

Every name of the standard ``multiprocessing`` is here (``Process``, ``Queue``, ``Pipe``, ``Pool``,
``get_context``, ``set_start_method``, ...), and importing this module registers yaten's reductions
(``reductions.py``): a tensor, Parameter or storage put on a Queue, sent through a Pipe or passed to a
``spawn``/``forkserver`` Process goes by shared memory, not by copy, so the receiver's in-place updates
are the sender's (call ``model.share_memory()`` before starting ``fork`` workers, whose arguments are
not pickled). ``spawn``/``start_processes`` run a function in several processes and raise a child's
failure in the parent (``spawn.py``). ``set_sharing_strategy`` picks how shared memory is passed:
``file_descriptor`` (the default) or ``file_system``. CUDA tensors can't be sent (no CUDA IPC).

>>> import yaten, yaten.multiprocessing as mp
>>> mp.get_sharing_strategy(), sorted(mp.get_all_sharing_strategies())
('file_descriptor', ['file_descriptor', 'file_system'])
>>> q = mp.get_context("fork").SimpleQueue()
>>> x = yaten.zeros(2)
>>> q.put(x); y = q.get()
>>> _ = y.add_(1); x  # the same memory
tensor([1., 1.])
"""

import multiprocessing
from multiprocessing import *  # noqa: F403 - the standard names, as torch.multiprocessing re-exports them

from .. import _shared_memory
from . import reductions  # noqa: F401 - torch.multiprocessing.reductions
from .reductions import init_reductions
from .spawn import (  # noqa: F401 - torch.multiprocessing's names
    ProcessContext,
    ProcessException,
    ProcessExitedException,
    ProcessRaisedException,
    SpawnContext,
    spawn,
    start_processes,
)

__all__ = [
    "set_sharing_strategy",
    "get_sharing_strategy",
    "get_all_sharing_strategies",
    *multiprocessing.__all__,
]


def set_sharing_strategy(new_strategy: str) -> None:
    """Set how cpu tensors are shared with other processes: ``file_descriptor`` or ``file_system``."""
    _shared_memory.set_sharing_strategy(new_strategy)


def get_sharing_strategy() -> str:
    """The current strategy for sharing cpu tensors."""
    return _shared_memory.sharing_strategy()


def get_all_sharing_strategies() -> set:
    """The sharing strategies this system supports."""
    return set(_shared_memory.STRATEGIES)


init_reductions()
