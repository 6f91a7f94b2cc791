"""yaten.cuda: what ``torch.cuda`` offers about the GPU, backed by numba.cuda.

Nothing is imported until a function needs it, so ``import yaten`` stays fast and works on a machine
without CUDA. Numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1`` before Numba is imported) counts
as one device, so CUDA code paths can be tested without a GPU.
"""

_SEED = [None]  # the seed given to manual_seed, for yaten's CUDA generator to pick up


def _numba_cuda():
    """numba.cuda, or None where Numba itself cannot be imported."""
    try:
        from numba import cuda
    except ImportError:
        return None
    return cuda


def _simulator() -> bool:
    from numba import config

    return bool(config.ENABLE_CUDASIM)


def is_available() -> bool:
    """Whether a CUDA device (or Numba's CUDA simulator) can run yaten's kernels; never raises.

    >>> import yaten
    >>> isinstance(yaten.cuda.is_available(), bool)
    True
    """
    cuda = _numba_cuda()
    return bool(cuda is not None and cuda.is_available())


def device_count() -> int:
    """How many CUDA devices there are (0 without CUDA, 1 under the simulator).

    >>> import yaten
    >>> yaten.cuda.device_count() >= 0
    True
    """
    if not is_available():
        return 0
    return len(_numba_cuda().gpus)


def _require() -> None:
    if not is_available():
        raise RuntimeError("No CUDA GPUs are available")


def current_device() -> int:
    """The index of the current CUDA device; RuntimeError without one.

    >>> import yaten
    >>> yaten.cuda.current_device() if yaten.cuda.is_available() else 0
    0
    """
    _require()
    if _simulator():
        return 0
    return int(_numba_cuda().get_current_device().id)


def synchronize(device=None) -> None:
    """Wait until every kernel launched on the current device has finished.

    >>> import yaten
    >>> yaten.cuda.synchronize() if yaten.cuda.is_available() else None
    """
    _require()
    _numba_cuda().synchronize()


def get_device_name(device=None) -> str:
    """The name of the current CUDA device (``"Numba CUDA simulator"`` under the simulator).

    >>> import yaten
    >>> isinstance(yaten.cuda.get_device_name(), str) if yaten.cuda.is_available() else True
    True
    """
    _require()
    if _simulator():
        return "Numba CUDA simulator"
    name = _numba_cuda().get_current_device().name
    return name.decode() if isinstance(name, bytes) else str(name)


def manual_seed(seed) -> None:
    """Seed the random numbers generated on the CUDA device; works (and is kept) without one.

    >>> import yaten
    >>> yaten.cuda.manual_seed(0)
    >>> yaten.cuda.initial_seed()
    0
    """
    _SEED[0] = int(seed)


manual_seed_all = manual_seed


def initial_seed() -> int:
    """The seed last given to ``manual_seed`` (0 if none was)."""
    return 0 if _SEED[0] is None else _SEED[0]
