"""``yaten.utils.checkpoint``: activation checkpointing, as ``torch.utils.checkpoint``.

A checkpointed region keeps none of the tensors its graph would save; backward runs the region again
(with the random state it had in forward, so dropout draws the same masks) to get them back.

- ``use_reentrant=False``: the forward runs under saved-tensor hooks whose ``pack`` keeps only a
  position and the tensor's metadata. The first ``unpack`` in backward runs the region again under
  hooks that collect what it saves, in the same order, and each saved tensor is given back from there.
- ``use_reentrant=True``: an ``autograd.Function`` runs the region under ``no_grad`` (no graph, nothing
  saved but the inputs); its backward runs it again with grad and backpropagates through that graph.
"""

import contextlib
import warnings

from .. import _autocast, _random, autograd
from .. import _tensor as T
from ..autograd.saved_hooks import saved_tensors_hooks

__all__ = [
    "CheckpointError",
    "CheckpointFunction",
    "check_backward_validity",
    "checkpoint",
    "checkpoint_sequential",
    "detach_variable",
    "get_device_states",
    "noop_context_fn",
    "set_checkpoint_early_stop",
    "set_device_states",
]


class CheckpointError(RuntimeError):
    """Raised when a region's recomputation does not save what its forward saved."""


_DEBUG_TIP = (  # torch's text
    "\nTip: To see a more detailed error message, either pass `debug=True` to\n"
    "`torch.utils.checkpoint.checkpoint(...)` or wrap the code block\n"
    "with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to\n"
    "enable checkpoint\u2011debug mode globally.\n\n"
    "If this error occurs under torch.compile with automatic_dynamic_shapes enabled,\n"
    "it may be because the recomputation selected a different compiled graph than the\n"
    "forward pass (e.g., a dynamic graph instead of the original static graph).\n"
    "To fix this, either:\n"
    "  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as\n"
    "    dynamic upfront, avoiding the static-to-dynamic transition.\n"
    "  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache\n"
    "    reordering, which can change which graph is checked first between forward\n"
    "    and recompute.\n"
    "See https://github.com/pytorch/pytorch/issues/166926 for more details and\n"
    "workaround examples.\n"
)


_early_stop_override = None  # set by set_checkpoint_early_stop


@contextlib.contextmanager
def set_checkpoint_early_stop(enable: bool):
    """Make the checkpoints run inside the block stop (or not) their recomputation early, whatever their
    ``early_stop`` argument says; only the forward needs to be inside.

    >>> import yaten
    >>> from yaten.utils.checkpoint import checkpoint, set_checkpoint_early_stop
    >>> with set_checkpoint_early_stop(False):
    ...     y = checkpoint(yaten.sin, yaten.ones(1, requires_grad=True), use_reentrant=False)
    >>> y.backward()
    """
    global _early_stop_override
    previous = _early_stop_override
    _early_stop_override = enable
    try:
        yield
    finally:
        _early_stop_override = previous


def noop_context_fn():
    """The default ``context_fn``: no context around the forward nor the recomputation.

    >>> from yaten.utils.checkpoint import noop_context_fn
    >>> len(noop_context_fn())
    2
    """
    return contextlib.nullcontext(), contextlib.nullcontext()


def _defaults(name: str, extra: str, use_reentrant, kwargs) -> tuple:
    """``(use_reentrant, preserve_rng_state)``: torch's default (True, with its warning) for an unset
    ``use_reentrant``, and ``preserve_rng_state`` taken out of ``kwargs``."""
    if use_reentrant is None:
        warnings.warn(
            f"{name}: the use_reentrant parameter should be passed explicitly. {extra}use_reentrant=False is "
            "recommended, but if you need to preserve the current default behavior, you can pass "
            "use_reentrant=True. Refer to docs for more details on the differences between the two variants.",
            stacklevel=4,
        )
        use_reentrant = True
    return use_reentrant, kwargs.pop("preserve_rng_state", True)


def get_device_states(*args) -> tuple:
    """``(device ids, their generators' states)`` for the CUDA tensors among ``args`` (nested in lists,
    tuples, dicts), in order of appearance.

    >>> import yaten
    >>> from yaten.utils.checkpoint import get_device_states
    >>> get_device_states(yaten.ones(1), [3])
    ([], [])
    """
    from ..func._pytree import flatten

    ids = [t.get_device() for t in flatten(args)[0] if isinstance(t, T.Tensor) and t.device.type == "cuda"]
    return ids, _cuda_states(ids)


def _cuda_states(devices) -> list:
    if not devices:
        return []  # no CUDA tensor: the CUDA generator is not touched (nor started)
    from .. import cuda

    return [cuda.get_rng_state(d) for d in devices]


def set_device_states(devices, states, *, device_type=None) -> None:
    """Give the CUDA generators of ``devices`` the ``states`` of ``get_device_states``.

    >>> from yaten.utils.checkpoint import set_device_states
    >>> set_device_states([], [])
    """
    if not devices:
        return
    from .. import cuda

    for device, state in zip(devices, states):
        cuda.set_rng_state(state, device)


class _ForwardState:
    """What the recomputation must see as the forward did: the autocast regions (cpu and cuda), and
    (``preserve_rng_state``) the random state of the CPU generator and of the CUDA generators the
    tensors' devices use."""

    def __init__(self, tensors, preserve_rng: bool):
        self.autocast = [
            (d, _autocast.is_autocast_enabled(d), _autocast.get_autocast_dtype(d)) for d in ("cpu", "cuda")
        ]
        self.autocast_cache = _autocast.is_autocast_cache_enabled()
        self.preserve_rng = preserve_rng
        if preserve_rng:
            self.cpu = _random.get_rng_state()
            self.devices, self.states = get_device_states(*tensors)

    @contextlib.contextmanager
    def replayed(self):
        """Run the block in this state; the generators get their own state back afterwards."""
        from ..amp import autocast

        with contextlib.ExitStack() as stack:
            for device_type, enabled, dtype in self.autocast:
                if enabled or _autocast.is_autocast_enabled(device_type):
                    stack.enter_context(autocast(device_type, dtype, enabled, self.autocast_cache))
            if not self.preserve_rng:
                yield
                return
            now_cpu, now_states = _random.get_rng_state(), _cuda_states(self.devices)
            _random.set_rng_state(self.cpu)
            set_device_states(self.devices, self.states)
            try:
                yield
            finally:
                _random.set_rng_state(now_cpu)
                set_device_states(self.devices, now_states)


def detach_variable(inputs: tuple) -> tuple:
    """``inputs`` with each tensor detached, keeping its ``requires_grad``.

    >>> import yaten
    >>> from yaten.utils.checkpoint import detach_variable
    >>> x = yaten.ones(1, requires_grad=True) * 2
    >>> detach_variable((x, 3))[0].grad_fn is None, detach_variable((x, 3))[0].requires_grad
    (True, True)
    """
    if not isinstance(inputs, tuple):
        raise RuntimeError(
            f"Only tuple of tensors is supported. Got Unsupported input type: {type(inputs).__name__}"
        )
    return tuple(x.detach().requires_grad_(x.requires_grad) if isinstance(x, T.Tensor) else x for x in inputs)


def check_backward_validity(inputs) -> None:
    """Warn, as torch does, when none of ``inputs`` requires grad (a checkpoint's gradients would be None).

    >>> import warnings, yaten
    >>> from yaten.utils.checkpoint import check_backward_validity
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     check_backward_validity((yaten.ones(1), 2))
    >>> str(caught[0].message)
    'None of the inputs have requires_grad=True. Gradients will be None'
    """
    if not any(x.requires_grad for x in inputs if isinstance(x, T.Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", stacklevel=2)


class CheckpointFunction(autograd.Function):
    """The reentrant checkpoint: forward without a graph, backward by running the region again."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        tensors = [a for a in args if isinstance(a, T.Tensor)]
        ctx.state = _ForwardState(tensors, preserve_rng_state)
        ctx.inputs = [None if isinstance(a, T.Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, T.Tensor)]
        ctx.save_for_backward(*tensors)
        with autograd.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        detached = detach_variable(tuple(inputs))
        with ctx.state.replayed(), autograd.enable_grad():
            outputs = ctx.run_function(*detached)
        if isinstance(outputs, T.Tensor):
            outputs = (outputs,)
        pairs = [(o, g) for o, g in zip(outputs, grads) if isinstance(o, T.Tensor) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
        autograd.backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None, *(x.grad if isinstance(x, T.Tensor) else None for x in detached))


def _metadata(t):
    return {"shape": t.shape, "dtype": t.dtype, "device": t.device}


class _StopRecomputation(Exception):
    """Raised in a recomputation once it has saved all the forward saved (``early_stop``)."""


class _Frame:
    """One non-reentrant region: what its forward saved (metadata only) and, once recomputed, the tensors."""

    def __init__(self, recompute, determinism_check: str, early_stop: bool):
        self.recompute = recompute
        self.check = determinism_check == "default"
        self.early_stop = early_stop
        self.metadata = []
        self.recomputed = {}

    def pack(self, t):
        self.metadata.append(_metadata(t))
        return len(self.metadata) - 1

    def unpack(self, index):
        if index not in self.recomputed:
            self._recompute()
        return self.recomputed.pop(index)

    def _recompute(self):
        saved = []

        def keep(t):
            if len(saved) == len(self.metadata):
                raise CheckpointError(
                    "torch.utils.checkpoint: trying to save more tensors during recomputation than during the "
                    f"original forward pass.\n{_DEBUG_TIP}"
                )
            saved.append(t.detach())
            if self.early_stop and len(saved) == len(self.metadata):
                raise _StopRecomputation  # the rest of the region saves nothing backward needs
            return len(saved) - 1

        try:
            with saved_tensors_hooks(keep, lambda i: saved[i]):
                self.recompute()
        except _StopRecomputation:
            pass
        if self.check:
            self._check(saved)
        self.recomputed = dict(enumerate(saved))

    def _check(self, saved):
        if len(saved) != len(self.metadata):
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the original forward and "
                f"recomputation.\nNumber of tensors saved during forward: {len(self.metadata)}\n"
                f"Number of tensors saved during recomputation: {len(saved)}.\n{_DEBUG_TIP}"
            )
        different = [
            (i, m, _metadata(t)) for i, (m, t) in enumerate(zip(self.metadata, saved)) if m != _metadata(t)
        ]
        if different:
            text = "".join(
                f"tensor at position {i}:\nsaved metadata: {m}\nrecomputed metadata: {r}\n"
                for i, m, r in different
            )
            raise CheckpointError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have different metadata than "
                f"during the forward pass.\n{text}.\n{_DEBUG_TIP}"
            )


def _checkpoint_without_reentrant(function, preserve: bool, context_fn, determinism_check: str, early_stop: bool,
                                  args, kwargs):  # fmt: skip
    if determinism_check not in ("default", "none"):
        raise ValueError(
            f"determinism_check should be one of ['default', 'none'], but got {determinism_check}"
        )
    state = _ForwardState([a for a in args if isinstance(a, T.Tensor)], preserve)
    forward_context, recompute_context = context_fn()

    def recompute():
        with state.replayed(), autograd.enable_grad(), recompute_context:
            function(*args, **kwargs)

    frame = _Frame(
        recompute, determinism_check, early_stop if _early_stop_override is None else _early_stop_override
    )
    with saved_tensors_hooks(frame.pack, frame.unpack), forward_context:
        return function(*args, **kwargs)


def checkpoint(function, *args, use_reentrant: bool | None = None, context_fn=noop_context_fn,
               determinism_check: str = "default", debug: bool = False, early_stop: bool = True, **kwargs):  # fmt: skip
    """``function(*args, **kwargs)`` without keeping its activations: backward recomputes them.

    ``use_reentrant`` should be given (torch warns otherwise, and takes True); False is the recommended
    variant (keyword arguments, ``autograd.grad``, ``context_fn``). ``preserve_rng_state=True`` (a
    keyword) replays the random state, so a recomputed dropout draws the forward's mask.
    ``determinism_check="default"`` compares the recomputed tensors' shapes, dtypes and devices with the
    forward's; ``early_stop`` ends a recomputation once it has saved all the forward saved; ``debug`` is
    accepted (yaten's errors carry no operator traces).

    >>> import yaten
    >>> from yaten.utils.checkpoint import checkpoint
    >>> x = yaten.tensor([1.0, 2.0], requires_grad=True)
    >>> y = checkpoint(lambda t: (t.sin() * t).sum(), x, use_reentrant=False)
    >>> y.backward()
    >>> x.grad
    tensor([1.3818, 0.0770])
    """
    use_reentrant, preserve = _defaults(
        "torch.utils.checkpoint",
        "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. ",
        use_reentrant,
        kwargs,
    )
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if not use_reentrant:
        return _checkpoint_without_reentrant(
            function, preserve, context_fn, determinism_check, early_stop, args, kwargs
        )
    if context_fn is not noop_context_fn or debug is not False:
        raise ValueError("Passing `context_fn` or `debug` is only supported when use_reentrant=False.")
    return CheckpointFunction.apply(function, preserve, *args)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Run ``functions`` (an ``nn.Sequential`` or a list of modules/functions) on ``input`` in ``segments``
    chunks, checkpointing all chunks but the last.

    >>> import yaten
    >>> from yaten import nn
    >>> from yaten.utils.checkpoint import checkpoint_sequential
    >>> model = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 1))
    >>> x = yaten.ones(2, 3, requires_grad=True)
    >>> checkpoint_sequential(model, 2, x, use_reentrant=False).shape
    yaten.Size([2, 1])
    """
    use_reentrant, preserve = _defaults(
        "torch.utils.checkpoint.checkpoint_sequential",
        "In version 2.9 we will raise an exception if use_reentrant is not passed. ",
        use_reentrant,
        kwargs,
    )
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))

    def run_function(start, end):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x

        return forward

    from ..nn import Sequential

    if isinstance(functions, Sequential):
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(
            run_function(start, end), input, use_reentrant=use_reentrant, preserve_rng_state=preserve
        )
    return run_function(end + 1, len(functions) - 1)(input)
