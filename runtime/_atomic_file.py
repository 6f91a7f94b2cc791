"""Atomic file writes: a file under its final name is complete or absent, never half written."""

import contextlib
import os
import secrets


def atomic_write(path: str, write) -> None:
    """``write(file)`` into a new file beside ``path``, fsync it, then rename it onto ``path``: a
    crash or an error midway leaves ``path`` as it was and no temporary file behind.

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
    while True:
        tmp = os.path.join(directory, f".{base}.{secrets.token_hex(4)}.tmp")
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
