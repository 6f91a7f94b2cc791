"""yaten.distributed: importable, with torch's answers for a build without distributed support.

yaten's distributed package (MPI through mpi4py, DistributedDataParallel) is not built yet, so
``is_available()`` is False, as torch's on a build without it, and nothing has been initialised. Its
other names are absent: a program that calls ``init_process_group`` fails with an error naming it
(under ``yaten.run``: ``yaten has no torch.distributed.init_process_group yet``) instead of a
collective that pretends to communicate.

>>> import yaten
>>> yaten.distributed.is_available(), yaten.distributed.is_initialized()
(False, False)
"""

import os

__all__ = ["is_available", "is_gloo_available", "is_initialized", "is_mpi_available", "is_nccl_available",
           "is_torchelastic_launched"]  # fmt: skip


def is_available() -> bool:
    """Whether yaten's distributed package is built: not yet."""
    return False


def is_initialized() -> bool:
    """Whether a default process group exists: never, without distributed support."""
    return False


def is_mpi_available() -> bool:
    """Whether the MPI backend can be used: not until yaten's distributed package is built."""
    return False


def is_nccl_available() -> bool:
    """Whether the NCCL backend can be used: never (yaten does not use NCCL)."""
    return False


def is_gloo_available() -> bool:
    """Whether the Gloo backend can be used: not until yaten's distributed package is built."""
    return False


def is_torchelastic_launched() -> bool:
    """Whether this process was started by torchelastic (``torchrun``): its ``TORCHELASTIC_RUN_ID`` is set."""
    return os.getenv("TORCHELASTIC_RUN_ID") is not None
