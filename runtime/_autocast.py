"""Autocast's per-thread state and the casts an autocast op makes (torch's Autocast dispatch keys).

An op whose spec entry has ``autocast:`` (its kind per device type, read by codegen) starts with
``if _AMP.active and _AMP.entered is not op: return _autocast(op, kinds, args)``: one attribute read
while autocast is off. When some device's autocast is on, ``call`` casts the op's floating tensors as
torch's autocast wrappers do (``lower_precision_fp``: to the region's dtype; ``fp32``: to float32;
``promote``: to the widest type among them; ``fp32_set_opt_dtype``: a ``dtype=float32`` argument when
none is given; ``banned``: torch's error) and runs the op with autocast off inside, as torch excludes
its autocast key. float64 tensors are never cast. Casts of float32 leaf weights that require grad are
cached until the outermost autocast region exits.

The torch-namespace functions (``is_autocast_enabled``, ``get_autocast_dtype``, ...) are here too; the
context manager is ``yaten.amp.autocast``.
"""

import threading
import warnings

from . import _dtype as D
from .autograd.grad_mode import STATE as _GRAD

# The device types torch's device strings name, in torch's order (its error message lists them).
_DEVICE_TYPES = (
    "cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia", "xla",
    "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone",
)  # fmt: skip
# The device types torch has autocast for, with their default lower-precision dtype.
_DEFAULT_DTYPE = {
    "cpu": D.bfloat16, "cuda": D.float16, "xpu": D.float16, "mps": D.float16, "hpu": D.bfloat16,
    "xla": D.bfloat16, "ipu": D.float16, "mtia": D.float16, "maia": D.float16, "privateuseone": D.float16,
}  # fmt: skip


_UNSAFE_BCE = (
    "torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast.\n"
    "Many models use a sigmoid layer right before the binary cross entropy layer.\n"
    "In this case, combine the two layers using torch.nn.functional.binary_cross_entropy_with_logits\n"
    "or torch.nn.BCEWithLogitsLoss.  binary_cross_entropy_with_logits and BCEWithLogits are\n"
    "safe to autocast."
)


class _State(threading.local):
    active = False  # some device type's autocast is on in this thread (and no autocast op is running)
    entered = None  # the op ``call`` runs uncast (not listed for its device type): its check lets it in

    def __init__(self):
        self.enabled = set()  # device types whose autocast is on
        self.dtype = dict(_DEFAULT_DTYPE)
        self.cache_enabled = True
        self.nesting = 0
        self.cache = {}  # id(weight) -> (weight, its cast)


STATE = _State()


def _device_type(fn: str, device_type) -> str:
    if not isinstance(device_type, str):
        raise TypeError(
            f"{fn}(): argument 'device_type' (position 1) must be str, not {type(device_type).__name__}"
        )
    kind = device_type.split(":", 1)[0]
    if kind not in _DEVICE_TYPES:
        raise RuntimeError(
            f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start of device string: {device_type}"
        )
    return kind


def _bool(fn: str, name: str, position: int, value) -> bool:
    if not isinstance(value, bool):
        raise TypeError(
            f"{fn}(): argument '{name}' (position {position}) must be bool, not {type(value).__name__}"
        )
    return value


def is_autocast_available(device_type: str) -> bool:
    """Whether autocast exists for ``device_type`` (``"cpu"``, ``"cuda"``, ...).

    >>> import yaten
    >>> yaten.amp.is_autocast_available("cpu")
    True
    """
    return _device_type("_is_autocast_available", device_type) in _DEFAULT_DTYPE


def is_autocast_enabled(device_type: str = "cuda") -> bool:
    """Whether autocast is on for ``device_type`` in this thread (no argument: CUDA's, as torch's).

    >>> import yaten
    >>> with yaten.autocast("cpu"):
    ...     yaten.is_autocast_enabled("cpu"), yaten.is_autocast_enabled()
    (True, False)
    """
    return _device_type("is_autocast_enabled", device_type) in STATE.enabled


def set_autocast_enabled(*args) -> None:
    """Turns autocast on or off for a device type in this thread: ``(device_type, enabled)``, or
    ``(enabled)`` for CUDA's. ``yaten.autocast`` is the usual way.

    >>> import yaten
    >>> yaten.set_autocast_enabled("cpu", True); yaten.is_autocast_enabled("cpu")
    True
    >>> yaten.set_autocast_enabled("cpu", False)
    """
    if len(args) == 1:
        device_type, enabled = "cuda", _bool("set_autocast_enabled", "enabled", 1, args[0])
    else:
        device_type, enabled = args
        device_type = _device_type("set_autocast_enabled", device_type)
        _bool("set_autocast_enabled", "enabled", 2, enabled)
    if enabled:
        STATE.enabled.add(device_type)
    else:
        STATE.enabled.discard(device_type)
    STATE.active = bool(STATE.enabled)


def get_autocast_dtype(device_type: str):
    """The dtype autocast lowers to on ``device_type`` in this thread (CPU: bfloat16, CUDA: float16).

    >>> import yaten
    >>> yaten.get_autocast_dtype("cpu"), yaten.get_autocast_dtype("cuda")
    (yaten.bfloat16, yaten.float16)
    """
    kind = _device_type("get_autocast_dtype", device_type)
    if kind not in STATE.dtype:
        raise RuntimeError("unsupported scalarType")
    return STATE.dtype[kind]


def set_autocast_dtype(device_type: str, dtype) -> None:
    """Sets the dtype autocast lowers to on ``device_type`` in this thread.

    >>> import yaten
    >>> yaten.set_autocast_dtype("cpu", yaten.float16); yaten.get_autocast_dtype("cpu")
    yaten.float16
    >>> yaten.set_autocast_dtype("cpu", yaten.bfloat16)
    """
    STATE.dtype[_device_type("set_autocast_dtype", device_type)] = dtype


def _legacy(device_type: str, kind: str):
    """torch's deprecated per-device form ``<kind>`` of a state function (``is_autocast_cpu_enabled``,
    ``set_autocast_gpu_dtype``, ...): it warns, then does what the device-type form does."""
    word = "gpu" if device_type == "cuda" else device_type
    old, new, call = {
        "is_enabled": (f"is_autocast_{word}_enabled()", f"is_autocast_enabled('{device_type}')",
                       lambda: device_type in STATE.enabled),
        "set_enabled": (f"set_autocast_{word}_enabled(enabled)", f"set_autocast_enabled('{device_type}', enabled)",
                        lambda enabled: set_autocast_enabled(device_type, enabled)),
        "get_dtype": (f"get_autocast_{word}_dtype()", f"get_autocast_dtype('{device_type}')",
                      lambda: STATE.dtype[device_type]),
        "set_dtype": (f"set_autocast_{word}_dtype(dtype)", f"set_autocast_dtype('{device_type}', dtype)",
                      lambda dtype: STATE.dtype.__setitem__(device_type, dtype)),
    }[kind]  # fmt: skip

    def legacy(*args):
        warnings.warn(
            f"torch.{old} is deprecated. Please use torch.{new} instead.", DeprecationWarning, stacklevel=2
        )
        return call(*args)

    legacy.__name__ = legacy.__qualname__ = old.split("(")[0]
    legacy.__doc__ = f"Deprecated form of ``{new}``."
    return legacy


is_autocast_cpu_enabled = _legacy("cpu", "is_enabled")
set_autocast_cpu_enabled = _legacy("cpu", "set_enabled")
get_autocast_cpu_dtype = _legacy("cpu", "get_dtype")
set_autocast_cpu_dtype = _legacy("cpu", "set_dtype")
get_autocast_gpu_dtype = _legacy("cuda", "get_dtype")
set_autocast_gpu_dtype = _legacy("cuda", "set_dtype")
is_autocast_ipu_enabled = _legacy("ipu", "is_enabled")
set_autocast_ipu_enabled = _legacy("ipu", "set_enabled")
get_autocast_ipu_dtype = _legacy("ipu", "get_dtype")
set_autocast_ipu_dtype = _legacy("ipu", "set_dtype")
is_autocast_xla_enabled = _legacy("xla", "is_enabled")
set_autocast_xla_enabled = _legacy("xla", "set_enabled")
get_autocast_xla_dtype = _legacy("xla", "get_dtype")
set_autocast_xla_dtype = _legacy("xla", "set_dtype")


def is_autocast_cache_enabled() -> bool:
    """Whether autocast caches the casts of weights (this thread's setting; on by default).

    >>> import yaten
    >>> yaten.is_autocast_cache_enabled()
    True
    """
    return STATE.cache_enabled


def set_autocast_cache_enabled(enabled: bool) -> None:
    """Turns the cache of weight casts on or off in this thread."""
    STATE.cache_enabled = _bool("set_autocast_cache_enabled", "enabled", 1, enabled)


def clear_autocast_cache() -> None:
    """Drops the cached weight casts of this thread (the outermost autocast region does on exit)."""
    STATE.cache.clear()


def autocast_increment_nesting() -> int:
    """One more autocast region entered in this thread; returns how many are open.

    >>> import yaten
    >>> yaten.autocast_increment_nesting(), yaten.autocast_decrement_nesting()
    (1, 0)
    """
    STATE.nesting += 1
    return STATE.nesting


def autocast_decrement_nesting() -> int:
    """One autocast region left in this thread; returns how many are still open."""
    STATE.nesting -= 1
    return STATE.nesting


def _first_device_type(values) -> str | None:
    for v in values:
        if isinstance(v, (list, tuple)):
            for t in v:
                if hasattr(t, "_device"):
                    return t._device.type
        elif hasattr(v, "_device"):
            return v._device.type
    return None


def _eligible(t, device_type: str) -> bool:
    return (
        hasattr(t, "_dtype")
        and t._dtype.is_floating_point
        and t._dtype is not D.float64
        and (t._device.type == device_type)
    )


def _cast(t, to, device_type: str):
    """``t`` cast to ``to`` when autocast casts it: a float32 leaf weight's cast is cached."""
    if not _eligible(t, device_type) or t._dtype is to:
        return t
    # Not under no_grad: a cast made there has no history and must not serve a later recorded op.
    cacheable = (
        _GRAD.enabled and STATE.cache_enabled and to is STATE.dtype[device_type] and t._dtype is D.float32
        and t.requires_grad and t.grad_fn is None and t._base is None
    )  # fmt: skip
    if not cacheable:
        return t.to(to)
    hit = STATE.cache.get(id(t))
    if hit is None or hit[0] is not t:
        hit = STATE.cache[id(t)] = (t, t.to(to))
    return hit[1]


def _promoted(values, device_type: str):
    """torch's autocast ``promote``: float32 when any eligible tensor is, else the region's dtype."""
    lower = STATE.dtype[device_type]
    current = lower
    for v in values:
        for t in v if isinstance(v, (list, tuple)) else (v,):
            if not _eligible(t, device_type):
                continue
            if current is D.float32 or t._dtype is D.float32:
                current = D.float32
            elif t._dtype is not lower:
                raise RuntimeError("Unexpected floating ScalarType in at::autocast::prioritize")
    return current


def call(op, kinds: dict, args: dict):
    """Runs ``op(**args)`` as torch's autocast wrapper of kind ``kinds[device type]`` does, with
    autocast off inside (the op's own calls are not cast again); an op not listed for its inputs'
    device type (or whose device type's autocast is off) runs uncast, autocast on inside."""
    device_type = _first_device_type(args.values())
    kind = kinds.get(device_type) if device_type in STATE.enabled else None
    if kind is None:  # not on this device type's list: the op runs as it is, the ops it calls autocast
        outer, STATE.entered = STATE.entered, op
        try:
            return op(**args)
        finally:
            STATE.entered = outer
    if kind == "banned":  # torch bans one op, binary_cross_entropy, from CUDA autocast
        raise RuntimeError(_UNSAFE_BCE)
    if kind == "fp32_set_opt_dtype":
        first = next(iter(args.values()))
        if args.get("dtype") is None and _eligible(first, device_type):
            args = {**args, "dtype": D.float32}
    else:
        to = {"lower_precision_fp": STATE.dtype[device_type], "fp32": D.float32}.get(kind)
        if to is None:
            to = _promoted(args.values(), device_type)
        args = {
            name: [_cast(t, to, device_type) for t in v]
            if isinstance(v, (list, tuple))
            else _cast(v, to, device_type)
            for name, v in args.items()
        }
    STATE.active = False
    try:
        return op(**args)
    finally:
        STATE.active = True
