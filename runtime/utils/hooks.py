"""RemovableHandle: what every hook registration returns."""

from collections import OrderedDict


class RemovableHandle:
    """Removes one registered hook; also a context manager that removes it on exit.

    >>> import yaten
    >>> x = yaten.ones(2, requires_grad=True)
    >>> with x.register_hook(lambda g: g * 2):
    ...     (x * 1).sum().backward()
    >>> x.grad
    tensor([2., 2.])
    """

    next_id = 0  # as torch's: unpickling a handle moves it past the handle's id

    def __init__(self, hooks_dict: dict, hook, *, extra_dict=None):
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        self._hooks = hooks_dict
        hooks_dict[self.id] = hook
        # Other tables keyed by the hook's id (e.g. which forward hooks take kwargs): cleaned up too.
        self._extra = (
            () if extra_dict is None else (extra_dict,) if isinstance(extra_dict, dict) else tuple(extra_dict)
        )

    def remove(self) -> None:
        self._hooks.pop(self.id, None)
        for extra in self._extra:
            extra.pop(self.id, None)

    def __getstate__(self):
        # torch's pickled form, (hooks dict, id[, extra dicts]): a module pickled by either library keeps
        # its hook handles (a lazy module's, for one) in the other.
        return (self._hooks, self.id, self._extra) if self._extra else (self._hooks, self.id)

    def __setstate__(self, state) -> None:
        self._hooks = OrderedDict() if state[0] is None else state[0]
        self.id = state[1]
        RemovableHandle.next_id = max(RemovableHandle.next_id, self.id + 1)
        self._extra = () if len(state) < 3 or state[2] is None else tuple(state[2])

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
