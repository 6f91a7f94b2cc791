"""``spawn`` / ``start_processes``: run ``fn(i, *args)`` in ``nprocs`` processes, as torch.multiprocessing's.

If a process fails, the others are terminated and the parent raises ``ProcessRaisedException`` (the
child raised: its traceback is in the message) or ``ProcessExitedException`` (it exited with a
non-zero code or was killed by a signal), with torch's messages and attributes.
"""

import logging
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import sys
import tempfile
import time
import traceback
import warnings

__all__ = [
    "ProcessContext", "ProcessException", "ProcessExitedException", "ProcessRaisedException", "SpawnContext",
    "spawn", "start_processes",
]  # fmt: skip

log = logging.getLogger(__name__)

_DEFAULT_KILL_WAIT = 30.0  # seconds between SIGTERM and SIGKILL when join() has no grace_period


class ProcessException(Exception):
    """A process started by ``spawn`` failed; ``error_index`` and ``error_pid`` say which."""

    def __init__(self, msg: str, error_index: int, error_pid: int):
        super().__init__(msg)
        self.msg, self.error_index, self.error_pid = msg, error_index, error_pid

    def _init_args(self) -> tuple:
        return self.msg, self.error_index, self.error_pid

    def __reduce__(self):
        # Rebuilt from the constructor's arguments, so the exception crosses process boundaries whole.
        return type(self), self._init_args()


class ProcessRaisedException(ProcessException):
    """The process's function raised; the message carries the child's traceback."""


class ProcessExitedException(ProcessException):
    """The process ended with a non-zero ``exit_code``, or was killed (``signal_name`` says by what)."""

    def __init__(
        self, msg: str, error_index: int, error_pid: int, exit_code: int, signal_name: str | None = None
    ):
        super().__init__(msg, error_index, error_pid)
        self.exit_code, self.signal_name = exit_code, signal_name

    def _init_args(self) -> tuple:
        return (*super()._init_args(), self.exit_code, self.signal_name)


def _run_child(fn, index, args, error_file):
    """The target of every started process."""
    with _ReportFailure(error_file):
        fn(index, *args)


class _ReportFailure:
    """Around the child's ``fn``: an Exception's traceback goes to ``error_file`` for the parent and the child
    exits with 1; a KeyboardInterrupt (the parent stopping it) ends it quietly; anything else propagates."""

    def __init__(self, error_file: str) -> None:
        self.error_file = error_file

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, value, tb) -> bool:
        if kind is None or not issubclass(kind, (Exception, KeyboardInterrupt)):
            return False
        if issubclass(kind, KeyboardInterrupt):
            return True
        with open(self.error_file, "wb") as fh:
            pickle.dump("".join(traceback.format_exception(kind, value, tb)), fh)
        sys.exit(1)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"<Unknown signal {number}>"


class ProcessContext:
    """The processes ``start_processes`` started; ``join()`` waits for them and raises the first failure."""

    def __init__(self, processes, error_files):
        # torch's attribute names: callers read .processes and .error_files.
        self.processes = processes
        self.error_files = error_files
        self.sentinels = {proc.sentinel: rank for rank, proc in enumerate(processes)}

    def pids(self):
        return [int(proc.pid) for proc in self.processes]

    def join(self, timeout: float | None = None, grace_period: float | None = None) -> bool:
        """Wait (up to ``timeout``) for processes to end; True once all ended well. When one failed, stop the
        others (after ``grace_period``: SIGTERM, then SIGKILL) and raise its ``ProcessException``."""
        if not self.sentinels:
            return True
        ended = multiprocessing.connection.wait(list(self.sentinels), timeout=timeout)
        failed = self._reap(ended)
        if failed is None:
            return not self.sentinels
        self._stop_all(grace_period)
        raise self._failure(failed)

    def _reap(self, ended) -> int | None:
        """Forget the ended processes, up to and including the first that failed; that one's index."""
        for sentinel in ended:
            rank = self.sentinels.pop(sentinel)
            proc = self.processes[rank]
            proc.join()
            if proc.exitcode != 0:
                return rank
        return None

    def _wait_all(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        for proc in self.processes:
            proc.join(max(0.0, deadline - time.monotonic()))

    def _stop_all(self, grace_period: float | None) -> None:
        if grace_period is not None:
            self._wait_all(grace_period)
        for proc in self.processes:
            if proc.is_alive():
                log.warning("Terminating process %s via signal SIGTERM", proc.pid)
                proc.terminate()
        self._wait_all(_DEFAULT_KILL_WAIT if grace_period is None else grace_period)
        for proc in self.processes:
            if proc.is_alive():
                log.warning(
                    "Unable to shutdown process %s via SIGTERM , forcefully exiting via SIGKILL", proc.pid
                )
                proc.kill()
            proc.join()

    def _failure(self, rank: int) -> ProcessException:
        proc, report = self.processes[rank], self.error_files[rank]
        if os.access(report, os.R_OK):
            with open(report, "rb") as fh:
                child_traceback = pickle.load(fh)
            header = f"\n\n-- Process {rank:d} terminated with the following error:\n"
            return ProcessRaisedException(header + child_traceback, rank, proc.pid)
        code = proc.exitcode
        if code >= 0:
            return ProcessExitedException(
                f"process {rank:d} terminated with exit code {code:d}", rank, proc.pid, code
            )
        name = _signal_name(-code)
        return ProcessExitedException(
            f"process {rank:d} terminated with signal {name}", rank, proc.pid, code, name
        )


class SpawnContext(ProcessContext):
    """The old name of ``ProcessContext`` (warns)."""

    def __init__(self, processes, error_files):
        warnings.warn("SpawnContext is renamed to ProcessContext since 1.4 release.", stacklevel=2)
        super().__init__(processes, error_files)


def _fresh_report_path() -> str:
    """A unique temporary path that does not exist yet: a child creates it only to report an error."""
    handle, path = tempfile.mkstemp(prefix="yaten-errorfile-", suffix=".pickle")
    os.close(handle)
    os.unlink(path)
    return path


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """Start ``nprocs`` processes running ``fn(i, *args)`` with ``start_method`` (``spawn``, ``fork`` or
    ``forkserver``); join them (``join=True``) or return their ``ProcessContext``."""
    ctx = multiprocessing.get_context(start_method)
    reports = [_fresh_report_path() for _ in range(nprocs)]
    procs = []
    for rank, report in enumerate(reports):
        proc = ctx.Process(target=_run_child, args=(fn, rank, args, report), daemon=daemon)
        proc.start()
        procs.append(proc)
    context = ProcessContext(procs, reports)
    if join:
        while not context.join():
            pass
        return None
    return context


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """Spawn ``nprocs`` processes that run ``fn(i, *args)``, ``i`` the process index, as torch's.

    If one of them fails, the others are terminated and the failure is raised here: the child's
    traceback in a ``ProcessRaisedException``, an exit code or signal in a ``ProcessExitedException``.
    ``fn`` must be defined at the top level of a module (multiprocessing pickles it). Returns None,
    or the ``ProcessContext`` with ``join=False``. Other start methods: ``start_processes``.

    >>> import yaten.multiprocessing as mp
    >>> mp.spawn(print, args=("hello",), nprocs=1)  # doctest: +SKIP
    """
    if start_method != "spawn":
        warnings.warn(
            f"This method only supports start_method=spawn (got: {start_method}).\n"
            "To use a different start_method use:\n\t\t torch.multiprocessing.start_processes(...)",
            FutureWarning,
            stacklevel=2,
        )
    return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")
