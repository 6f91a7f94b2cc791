"""``GradScaler`` (torch.amp.GradScaler): loss scaling for mixed-precision training, as torch's.

The loss is multiplied by the scale before backward; ``step`` unscales the gradients
(``_amp_foreach_non_finite_check_and_unscale_``) and skips the optimizer's step when one of them holds
an inf or a NaN; ``update`` backs the scale off after such a step and grows it after
``growth_interval`` clean ones (``_amp_update_scale_``).
"""

import warnings
from collections import abc, defaultdict
from enum import Enum

import yaten

__all__ = ["GradScaler", "OptState"]

_NOT_SCALED_HINT = (
    "This may indicate your script did not use scaler.scale(loss or outputs) earlier in the iteration."
)
# state_dict keys (torch's) and the attributes that hold them when no iteration has started.
_TUNABLES = ("growth_factor", "backoff_factor", "growth_interval")


class OptState(Enum):
    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _new_optimizer_record() -> dict:
    # torch's per-optimizer bookkeeping, under torch's keys (some training loops read them).
    return {"stage": OptState.READY, "found_inf_per_device": {}}


class _DeviceCopies(dict):
    """device -> a copy of ``source`` there, made the first time that device is asked for."""

    def __init__(self, source) -> None:
        super().__init__()
        self.source = source

    def __missing__(self, device):
        copy = self[device] = self.source.to(device=device, copy=True)
        return copy


def _grads_by_device_and_dtype(optimizer, allow_fp16: bool) -> dict:
    """(device, dtype) -> the gradients of ``optimizer``'s parameters of that kind."""
    buckets = defaultdict(list)
    for group in optimizer.param_groups:
        for param in group["params"]:
            if not isinstance(param, yaten.Tensor):
                raise AssertionError(f"expected param to be torch.Tensor, got {type(param).__name__}")
            grad = param.grad
            if grad is None:
                continue
            if grad.dtype == yaten.float16 and not allow_fp16:
                raise ValueError("Attempting to unscale FP16 gradients.")
            buckets[(grad.device, grad.dtype)].append(grad)
    return buckets


class GradScaler:
    """Scales the loss so that low-precision gradients do not underflow, and unscales them before the
    optimizer's step, skipping steps whose gradients are not finite. ``enabled=False`` makes every
    method a pass-through. For ``device="cuda"`` without CUDA it warns and disables itself, as torch's.

    >>> import yaten
    >>> w = yaten.nn.Parameter(yaten.ones(2))
    >>> opt = yaten.optim.SGD([w], lr=0.1)
    >>> scaler = yaten.amp.GradScaler("cpu", init_scale=4.0, growth_interval=1)
    >>> scaler.scale((w * 3).sum()).backward()
    >>> scaler.step(opt); scaler.update()
    >>> w.detach(), scaler.get_scale()
    (tensor([0.7000, 0.7000]), 8.0)
    """

    def __init__(self, device: str = "cuda", init_scale: float = 2.0**16, growth_factor: float = 2.0,
                 backoff_factor: float = 0.5, growth_interval: int = 2000, enabled: bool = True) -> None:  # fmt: skip
        self._device = device
        self._enabled = enabled and not (device == "cuda" and not yaten.cuda.is_available())
        if enabled and not self._enabled:
            warnings.warn(
                "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.", stacklevel=2
            )
        if not self._enabled:
            return
        if growth_factor <= 1.0:
            raise AssertionError("The growth factor must be > 1.0.")
        if backoff_factor >= 1.0:
            raise AssertionError("The backoff factor must be < 1.0.")
        # The scale and the growth tracker are tensors made on the device of the first scaled output;
        # until then (and in pickles) their values wait in _init_scale / _init_growth_tracker.
        self._init_scale, self._scale = init_scale, None
        self._init_growth_tracker, self._growth_tracker = 0, None
        self._growth_factor = growth_factor
        self._backoff_factor = backoff_factor
        self._growth_interval = growth_interval
        self._per_optimizer_states = defaultdict(_new_optimizer_record)

    def _scale_tensor(self, device):
        """The scale tensor, created on ``device`` (with the growth tracker) at first use."""
        if self._scale is None:
            self._scale = yaten.full((), self._init_scale, dtype=yaten.float32, device=device)
            self._growth_tracker = yaten.full((), self._init_growth_tracker, dtype=yaten.int32, device=device)
        return self._scale

    def _require_scaled(self, action: str) -> None:
        for attr in ("_scale", "_growth_tracker"):
            if getattr(self, attr) is None:
                raise AssertionError(f"Attempted {action} but {attr} is None.  " + _NOT_SCALED_HINT)

    def scale(self, outputs):
        """``outputs`` (a tensor, or an iterable of them, nested) multiplied by the scale."""
        if not self._enabled:
            return outputs
        copies = None

        def scaled(value):
            nonlocal copies
            if isinstance(value, yaten.Tensor):
                if copies is None:
                    copies = _DeviceCopies(self._scale_tensor(value.device))
                return value * copies[value.device]
            if isinstance(value, (list, tuple)):
                return type(value)(map(scaled, value))
            if isinstance(value, abc.Iterable):
                return map(scaled, value)
            raise ValueError("outputs must be a Tensor or an iterable of Tensors")

        return scaled(outputs)

    def _unscale_grads_(self, optimizer, inv_scale, found_inf, allow_fp16: bool) -> dict:
        """Multiplies ``optimizer``'s gradients by ``inv_scale`` in place; returns device -> a flag tensor
        set to 1 when a gradient on that device is not finite."""
        inv_scales, flags = _DeviceCopies(inv_scale), _DeviceCopies(found_inf)
        with yaten.no_grad():
            for (device, _), grads in _grads_by_device_and_dtype(optimizer, allow_fp16).items():
                yaten._amp_foreach_non_finite_check_and_unscale_(grads, flags[device], inv_scales[device])
        return dict(flags)

    def unscale_(self, optimizer) -> None:
        """Divides ``optimizer``'s gradients by the scale in place (before gradient clipping, say),
        noting whether any is inf or NaN. At most once per optimizer between two ``update`` calls."""
        if not self._enabled:
            return
        self._require_scaled("unscale_")
        record = self._per_optimizer_states[id(optimizer)]
        stage = record["stage"]
        if stage is OptState.UNSCALED:
            raise RuntimeError(
                "unscale_() has already been called on this optimizer since the last update()."
            )
        if stage is OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        # The reciprocal in double, as torch, so that a power-of-two scale unscales exactly.
        inv_scale = self._scale.double().reciprocal().float()
        no_inf = yaten.zeros((), dtype=yaten.float32, device=self._scale.device)
        record["found_inf_per_device"] = self._unscale_grads_(optimizer, inv_scale, no_inf, False)
        record["stage"] = OptState.UNSCALED

    def step(self, optimizer, *args, **kwargs):
        """Unscales the gradients (unless ``unscale_`` did) and runs ``optimizer.step(*args, **kwargs)``
        only when they are all finite; returns what it returned, or None for a skipped step."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        self._require_scaled("step")
        record = self._per_optimizer_states[id(optimizer)]
        if record["stage"] is OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if record["stage"] is OptState.READY:
            self.unscale_(optimizer)
        flags = record["found_inf_per_device"].values()
        if not flags:
            raise AssertionError("No inf checks were recorded for this optimizer.")
        finite = not any(flag.item() for flag in flags)
        result = optimizer.step(*args, **kwargs) if finite else None
        record["stage"] = OptState.STEPPED
        return result

    def update(self, new_scale=None) -> None:
        """The scale for the next iteration: ``new_scale`` when given (a float or a one-element tensor),
        else backed off after a skipped step or grown after ``growth_interval`` clean ones."""
        if not self._enabled:
            return
        self._require_scaled("update")
        if new_scale is None:
            self._grow_or_back_off()
        elif isinstance(new_scale, float):
            self._scale.fill_(new_scale)
        elif new_scale.device.type != self._device or new_scale.numel() != 1 or new_scale.requires_grad:
            raise AssertionError(
                "new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
                "torch.FloatTensor with requires_grad=False."
            )
        else:
            self._scale.copy_(new_scale)
        self._per_optimizer_states = defaultdict(_new_optimizer_record)

    def _grow_or_back_off(self) -> None:
        flags = [
            flag.to(device=self._scale.device)
            for record in self._per_optimizer_states.values()
            for flag in record["found_inf_per_device"].values()
        ]
        if not flags:
            raise AssertionError("No inf checks were recorded prior to update.")
        any_inf = yaten.stack(flags).sum()
        yaten._amp_update_scale_(
            self._scale, self._growth_tracker, any_inf, self._growth_factor, self._backoff_factor,
            self._growth_interval,
        )  # fmt: skip

    def get_scale(self) -> float:
        """The current scale (1.0 when disabled)."""
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else self._scale.item()

    def _get_growth_tracker(self) -> int:
        if not self._enabled:
            return 0
        return self._init_growth_tracker if self._growth_tracker is None else self._growth_tracker.item()

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def set_growth_factor(self, new_factor: float) -> None:
        self._growth_factor = new_factor

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def set_backoff_factor(self, new_factor: float) -> None:
        self._backoff_factor = new_factor

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def set_growth_interval(self, new_interval: int) -> None:
        self._growth_interval = new_interval

    def is_enabled(self) -> bool:
        """Whether this scaler scales (False when built with ``enabled=False`` or disabled for lack of CUDA)."""
        return self._enabled

    def state_dict(self) -> dict:
        """``scale``, ``growth_factor``, ``backoff_factor``, ``growth_interval`` and ``_growth_tracker``,
        as torch's (an empty dict when disabled)."""
        if not self._enabled:
            return {}
        tunables = {key: getattr(self, "_" + key) for key in _TUNABLES}
        return {"scale": self.get_scale(), **tunables, "_growth_tracker": self._get_growth_tracker()}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restores what ``state_dict`` returned."""
        if not self._enabled:
            return
        if not state_dict:
            raise RuntimeError(
                "The source state dict is empty, possibly because it was saved from a disabled instance of GradScaler."
            )
        self._init_scale = state_dict["scale"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        for key in _TUNABLES:
            setattr(self, "_" + key, state_dict[key])
        for live, value in (
            (self._scale, self._init_scale),
            (self._growth_tracker, self._init_growth_tracker),
        ):
            if live is not None:
                live.fill_(value)

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        if not self._enabled:
            return state
        if self._per_optimizer_states:
            raise AssertionError(
                "A GradScaler instance may only be pickled at the beginning of an iteration, "
                "or at the end after scaler.update()."
            )
        # Pickle the values, not the device tensors: the unpickled scaler recreates them where it is used.
        state.update(_init_scale=self.get_scale(), _init_growth_tracker=self._get_growth_tracker())
        state.update(_scale=None, _growth_tracker=None)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
