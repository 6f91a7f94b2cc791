"""Atomic file writes: a file under its final name is complete or absent, never half written."""

import contextlib
import os
import secrets
import socket


def atomic_write(path: str, write) -> None:
    """``write(file)`` into a new file beside ``path``, fsync it, then rename it onto ``path``: a
    crash or an error midway leaves ``path`` as it was. An error removes the temporary file; a
    process killed midway can't, so its temporary (``.<name>.yaten-tmp.<host>.<pid>.<random>``) is
    removed by the next write to ``path`` from the same host once no process of that pid is running.

    >>> import os, tempfile
    >>> from yaten._atomic_file import atomic_write
    >>> path = os.path.join(tempfile.mkdtemp(), "x.bin")
    >>> atomic_write(path, lambda f: f.write(b"ok"))
    >>> open(path, "rb").read(), os.listdir(os.path.dirname(path))
    (b'ok', ['x.bin'])
    """
    path = os.path.realpath(path)  # through a symlink: the file it points to is replaced, not the link
    directory = os.path.dirname(path)
    if not os.path.isdir(directory):
        raise RuntimeError(f"Parent directory {directory} does not exist.")
    base = os.path.basename(path)
    _remove_stale_temporaries(directory, base)
    while True:
        tmp = os.path.join(directory, f"{_temporary_prefix(base)}{os.getpid()}.{secrets.token_hex(4)}")
        try:
            # 0o666 before the umask: the file gets the permissions a plain open() would give it.
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _fsync_directory(directory)


def _temporary_prefix(base: str) -> str:
    # The host too: on a shared file system another machine's pids mean nothing here.
    return f".{base}.yaten-tmp.{socket.gethostname()}."


def _remove_stale_temporaries(directory: str, base: str) -> None:
    """Remove the temporaries of this host's writes to ``base`` whose process is gone (killed
    mid-write). A live writer's file (this process's other threads, another process, another host's
    process) is left alone."""
    prefix = _temporary_prefix(base)
    with os.scandir(directory) as entries:
        names = [e.name for e in entries if e.name.startswith(prefix)]
    for name in names:
        pid, _, token = name[len(prefix) :].partition(".")
        if pid.isdigit() and token and not _running(int(pid)):
            with contextlib.suppress(FileNotFoundError):  # another writer removed it first
                os.unlink(os.path.join(directory, name))


def _running(pid: int) -> bool:
    if os.name != "posix":  # elsewhere os.kill(pid, 0) would end the process, not ask about it
        return True
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        return True
    except OverflowError:  # no process has such a pid
        return False
    return True


def _fsync_directory(directory: str) -> None:
    # Makes the rename itself durable. Some file systems refuse to open or fsync a directory.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
