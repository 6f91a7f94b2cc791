"""Saved-tensor hooks: ``pack`` runs when a Backward node saves a tensor, ``unpack`` when it reads it.

The hooks form a per-thread stack; only the innermost pair applies, as in PyTorch.
"""

import threading


class _State(threading.local):
    def __init__(self):
        self.stack = []  # (pack, unpack) pairs, innermost last
        self.disabled = None  # the error message while disable_saved_tensors_hooks is active


STATE = _State()


def current():
    """The innermost ``(pack, unpack)`` pair, or None."""
    stack = STATE.stack
    return stack[-1] if stack else None


class saved_tensors_hooks:
    """Run ``pack_hook(tensor)`` whenever the graph saves a tensor, and ``unpack_hook(packed)`` when
    backward (or a ``_saved_*`` property) reads it back.

    ``pack_hook`` may return any object; ``unpack_hook`` must return a tensor equal in value to the
    one packed. The packed object lives as long as the graph that saved it.

    >>> import yaten
    >>> packed = []
    >>> def pack(t):
    ...     packed.append(t.clone())
    ...     return len(packed) - 1
    >>> x = yaten.tensor([1.0, 2.0], requires_grad=True)
    >>> with yaten.autograd.graph.saved_tensors_hooks(pack, lambda i: packed[i]):
    ...     y = x.sin()
    >>> y.sum().backward()
    >>> x.grad
    tensor([ 0.5403, -0.4161])
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if STATE.disabled is not None:
            raise RuntimeError(STATE.disabled)
        STATE.stack.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc):
        STATE.stack.pop()


class save_on_cpu(saved_tensors_hooks):
    """Keep the tensors the graph saves in host memory, copying them back to their device in backward.

    >>> import yaten
    >>> x = yaten.tensor([0.0, 1.0], requires_grad=True)
    >>> with yaten.autograd.graph.save_on_cpu():
    ...     y = x.exp()
    >>> y.grad_fn._saved_result
    tensor([1.0000, 2.7183], grad_fn=<ExpBackward0>)
    """

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda"):
        def pack(t):
            return t.device, t.cpu()

        def unpack(packed):
            device, host = packed
            return host.to(device, non_blocking=pin_memory)

        super().__init__(pack, unpack)


class disable_saved_tensors_hooks:
    """Within this block, registering saved-tensor hooks raises ``RuntimeError(error_message)``.

    >>> import yaten
    >>> with yaten.autograd.graph.disable_saved_tensors_hooks("not here"):
    ...     yaten.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__()
    Traceback (most recent call last):
    ...
    RuntimeError: not here
    """

    def __init__(self, error_message: str):
        self.error_message = error_message

    def __enter__(self):
        self._prev = STATE.disabled
        STATE.disabled = self.error_message
        return self

    def __exit__(self, *exc):
        STATE.disabled = self._prev
