"""yaten.random: ``torch.random``, the default generator's seed and state functions and ``fork_rng``.

>>> import yaten
>>> _ = yaten.random.manual_seed(0)
>>> with yaten.random.fork_rng():
...     inside = yaten.rand(2)
>>> yaten.equal(inside, yaten.rand(2))
True
"""

import contextlib
import warnings

from ._random import default_generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state

__all__ = [
    "default_generator",
    "fork_rng",
    "get_rng_state",
    "initial_seed",
    "manual_seed",
    "seed",
    "set_rng_state",
]

_WARNED = [False]


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type=None):
    """Restore the CPU generator (and the listed CUDA devices' generators; by default every CUDA
    device there is) to their states at entry when the block ends. ``enabled=False`` forks nothing."""
    if device_type == "meta" or not enabled:
        yield
        return
    device_type = device_type or "cuda"
    if device_type != "cuda":
        raise RuntimeError(
            f"torch has no module of `{device_type}`, you should register "
            "a module by `torch._register_device_module`."
        )
    from . import cuda as device_mod

    if devices is None:
        num_devices = device_mod.device_count()
        if num_devices > 1 and not _WARNED[0]:
            warnings.warn(
                f"CUDA reports that you have {num_devices} available devices, and you have used {_caller} "
                f"without explicitly specifying which devices are being used. Set the '{_devices_kw}' keyword "
                f"argument to `range(torch.cuda.device_count())` to initialize all devices and suppress "
                "this warning.",
                stacklevel=3,
            )
            _WARNED[0] = True
        devices = list(range(num_devices))
    else:
        devices = list(devices)
    cpu_state = get_rng_state()
    device_states = [device_mod.get_rng_state(device) for device in devices]
    try:
        yield
    finally:
        set_rng_state(cpu_state)
        for device, state in zip(devices, device_states):
            device_mod.set_rng_state(state, device)
