"""yaten.cuda: what ``torch.cuda`` offers about the GPU, backed by numba.cuda.

Nothing is imported until a function needs it, so ``import yaten`` stays fast and works on a machine
without CUDA. Numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1`` before Numba is imported) counts
as one device, so CUDA code paths can be tested without a GPU.
"""

import os

_SEED = [None]  # the seed given to manual_seed where this file runs outside the yaten package


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
    # Numba takes its memory manager when the first CUDA context is made, which the calls that follow
    # may do: yaten's caching allocator must be installed first.
    import contextlib

    with contextlib.suppress(ImportError):  # ImportError: this file loaded on its own, outside yaten
        from ..kernels.cuda import memory  # noqa: F401 - installs the allocator on import


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


def _generator():
    """yaten's default cuda Generator (made on first use; it needs no GPU), or None where this file
    runs on its own, outside the yaten package."""
    try:
        from .. import _device, _random
    except ImportError:
        return None
    return _random.default_generator_for(_device.canonical("cuda"))


def manual_seed(seed) -> None:
    """Seed the random numbers generated on the CUDA device; works (and is kept) without one.

    >>> import yaten
    >>> yaten.cuda.manual_seed(0)
    >>> yaten.cuda.initial_seed()
    0
    """
    seed = int(seed)
    g = _generator()
    if g is None:
        _SEED[0] = seed
    else:
        g.manual_seed(seed)


manual_seed_all = manual_seed


def seed() -> None:
    """Seed the CUDA generator from the operating system's entropy.

    >>> import yaten
    >>> yaten.cuda.seed()
    """
    g = _generator()
    if g is None:
        _SEED[0] = int.from_bytes(os.urandom(8), "little")
    else:
        g.seed()


seed_all = seed


def initial_seed() -> int:
    """The seed the CUDA generator was last started from (outside the yaten package: the seed last given
    to ``manual_seed``, 0 if none was)."""
    g = _generator()
    if g is None:
        return 0 if _SEED[0] is None else _SEED[0]
    return g.initial_seed()


def get_rng_state(device="cuda"):
    """The CUDA generator's state as a uint8 CPU tensor: 16 bytes, its seed and Philox offset.

    >>> import yaten
    >>> state = yaten.cuda.get_rng_state()
    >>> yaten.cuda.set_rng_state(state)
    >>> state.dtype, state.shape
    (yaten.uint8, yaten.Size([16]))
    """
    return _generator().get_state()


def set_rng_state(new_state, device="cuda") -> None:
    """Restore the CUDA generator's state from ``get_rng_state``."""
    _generator().set_state(new_state)


def get_rng_state_all() -> list:
    """``get_rng_state()`` of every device: yaten has one."""
    return [get_rng_state()]


def set_rng_state_all(new_states) -> None:
    """``set_rng_state`` for every device, from ``get_rng_state_all``."""
    for state in new_states:
        set_rng_state(state)


def _pool():
    from ..kernels.cuda.allocator import POOL

    return POOL


def memory_stats(device=None) -> dict:
    """The caching allocator's counters under ``torch.cuda.memory_stats``' key names (current and peak
    bytes allocated and reserved, allocations and frees); zeros without a GPU or in the simulator.

    >>> import yaten
    >>> yaten.cuda.memory_stats()["allocated_bytes.all.current"] >= 0
    True
    """
    return _pool().stats()


def memory_allocated(device=None) -> int:
    """Bytes of device memory held by tensors now (rounded to the allocator's 512-byte blocks)."""
    return memory_stats()["allocated_bytes.all.current"]


def max_memory_allocated(device=None) -> int:
    """The most ``memory_allocated`` has been since the start or ``reset_peak_memory_stats``."""
    return memory_stats()["allocated_bytes.all.peak"]


def memory_reserved(device=None) -> int:
    """Bytes the caching allocator holds from the driver: in use, or cached for reuse."""
    return memory_stats()["reserved_bytes.all.current"]


def max_memory_reserved(device=None) -> int:
    """The most ``memory_reserved`` has been since the start or ``reset_peak_memory_stats``."""
    return memory_stats()["reserved_bytes.all.peak"]


def reset_peak_memory_stats(device=None) -> None:
    """Start the peaks over from the current values."""
    _pool().reset_peaks()


def empty_cache() -> None:
    """Hand the cached (unused) blocks back to the driver; tensors keep theirs.

    >>> import yaten
    >>> yaten.cuda.empty_cache()
    """
    _pool().release(lambda block: None)  # dropping a block's owned pointer frees it


_SUBMODULES = {
    "_device": ("device", "device_of", "get_arch_list", "get_device_capability", "get_device_properties", "init",
                "ipc_collect", "is_bf16_supported", "is_initialized", "is_tf32_supported", "mem_get_info",
                "set_device"),
    "_streams": ("Event", "Stream", "StreamContext", "current_stream", "default_stream", "set_stream", "stream"),
    "_memory": ("max_memory_cached", "memory_cached", "memory_summary", "reset_max_memory_allocated",
                "reset_max_memory_cached"),
}  # fmt: skip
_LEGACY_TYPES = ("BFloat16Tensor", "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor",
                 "HalfTensor", "IntTensor", "LongTensor", "ShortTensor")  # fmt: skip


def __getattr__(name: str):
    # The rest of torch.cuda loads on first use (it needs the yaten package around this file, which
    # tests/cuda/test_cuda_kernels.py loads on its own).
    import importlib

    if name == "amp":  # torch.cuda.amp
        return importlib.import_module(".amp", __name__)
    for module, names in _SUBMODULES.items():
        if name in names:
            value = getattr(importlib.import_module("." + module, __name__), name)
            break
    else:
        if name not in _LEGACY_TYPES:
            raise AttributeError(f"module '{__name__}' has no attribute '{name}'")
        from .._legacy_tensors import cuda_types

        globals().update(cuda_types())
        value = globals()[name]
    globals()[name] = value
    return value
