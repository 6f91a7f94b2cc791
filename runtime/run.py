"""Run an unchanged PyTorch program on yaten.

::

    python -m yaten.run PROGRAM.py [ARGS...]     (or: yaten-run PROGRAM.py [ARGS...])
    python -m yaten.run -m MODULE [ARGS...]

The program's ``import torch`` and ``from torch.nn import functional as F`` get yaten's modules
(``runtime/_torch_alias.py``); a piece yaten lacks fails with an error naming it (``yaten has no
torch.onnx.export yet``). The program runs as ``python PROGRAM.py`` would run it: as ``__main__``,
with ``sys.argv == [PROGRAM, *ARGS]`` and its own directory first on ``sys.path``; its exit code and
its exceptions' tracebacks are its own. Processes it forks (DataLoader workers, multiprocessing's
default on Linux) keep the mapping, and processes it starts by spawn install it before they
re-import the program (``_torch_alias.PathEntry``). A forkserver's server is started without it:
there, ``import torch`` in the program gets the real torch, if one is installed.
"""

import importlib.util
import os
import runpy
import sys

from . import _torch_alias

USAGE = "usage: python -m yaten.run PROGRAM.py [ARGS...]\n       python -m yaten.run -m MODULE [ARGS...]"


def _program_frames(tb):
    # An uncaught exception's traceback starts in the runner and runpy, and an error naming a piece
    # yaten lacks ends in the __getattr__ that raised it: keep the program's frames, as python shows.
    start = tb
    while start is not None and start.tb_frame.f_code is not main.__code__:
        start = start.tb_next
    while start is not None and start.tb_frame.f_code is not runpy._run_code.__code__:
        start = start.tb_next
    if start is None or start.tb_next is None:  # the program did not start
        return tb
    last = start = start.tb_next
    while last.tb_next is not None and last.tb_next.tb_next is not None:
        last = last.tb_next
    if last.tb_next is not None and last.tb_next.tb_frame.f_code.co_filename == _torch_alias.__file__:
        last.tb_next = None
    return start


def _unfound(name: str) -> str | None:
    # python -m's message when module ``name`` is not there; finding it imports its parent packages.
    try:
        if importlib.util.find_spec(name) is not None:
            return None
    except ImportError as error:
        return f"Error while finding module specification for {name!r} ({type(error).__name__}: {error})"
    return f"No module named {name}"


def _program_traceback(hook):
    def excepthook(kind, value, tb):
        if tb is not None:
            tb = _program_frames(tb)
            value = value.with_traceback(tb)
        hook(kind, value, tb)

    return excepthook


def main(argv: list[str] | None = None) -> None:
    """Run ``argv`` (default: ``sys.argv[1:]``), a program and its arguments, with torch served by yaten."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] in (["-h"], ["--help"]):
        print(USAGE)
        raise SystemExit(0)
    if not args or args == ["-m"]:
        print(USAGE, file=sys.stderr)
        raise SystemExit(2)
    if args[0] != "-m" and not os.path.exists(args[0]):
        message = f"can't open file {os.path.abspath(args[0])!r}: [Errno 2] No such file or directory"
        print(f"{sys.executable}: {message}", file=sys.stderr)
        raise SystemExit(2)
    _torch_alias.install()
    sys.excepthook = _program_traceback(sys.excepthook)
    if args[0] == "-m":
        sys.path[0] = _torch_alias.PathEntry(os.getcwd())
        unfound = _unfound(args[1])
        if unfound is not None:
            print(f"{sys.executable}: {unfound}", file=sys.stderr)
            raise SystemExit(1)
        sys.argv = args[1:]  # runpy puts the module's file in sys.argv[0], as python -m does
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = list(args)
        directory = args[0] if os.path.isdir(args[0]) else os.path.dirname(os.path.realpath(args[0]))
        sys.path[0] = _torch_alias.PathEntry(directory)
        runpy.run_path(args[0], run_name="__main__")


if __name__ == "__main__":
    main()
