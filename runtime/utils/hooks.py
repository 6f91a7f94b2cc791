"""RemovableHandle: what every hook registration returns."""

import itertools

_ids = itertools.count()


class RemovableHandle:
    """Removes one registered hook; also a context manager that removes it on exit.

    >>> import yaten
    >>> x = yaten.ones(2, requires_grad=True)
    >>> with x.register_hook(lambda g: g * 2):
    ...     (x * 1).sum().backward()
    >>> x.grad
    tensor([2., 2.])
    """

    def __init__(self, hooks_dict: dict, hook, *, extra_dict=None):
        self.id = next(_ids)
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

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
