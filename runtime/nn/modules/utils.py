"""What the layers share to normalize their arguments (``_single``/``_pair``/``_triple``: an int or a
sequence made a tuple), and ``consume_prefix_in_state_dict_if_present``, as ``torch.nn.modules.utils``."""

import collections.abc
from itertools import repeat

__all__ = ["consume_prefix_in_state_dict_if_present"]


def _ntuple(n, name="parse"):
    def parse(x):
        if isinstance(x, collections.abc.Iterable):
            return tuple(x)
        return tuple(repeat(x, n))

    parse.__name__ = name
    return parse


_single = _ntuple(1, "_single")
_pair = _ntuple(2, "_pair")
_triple = _ntuple(3, "_triple")
_quadruple = _ntuple(4, "_quadruple")


def _reverse_repeat_tuple(t, n):
    """``t`` reversed with each element repeated ``n`` times: a module's padding as ``F.pad`` takes it."""
    return tuple(x for x in reversed(t) for _ in range(n))


def consume_prefix_in_state_dict_if_present(state_dict, prefix: str) -> None:
    """Strip ``prefix`` from the keys (and metadata keys) of ``state_dict`` in place, if present: a
    ``DataParallel``/DDP checkpoint (``module.``) then loads into the bare model.

    >>> import yaten
    >>> sd = {"module.w": yaten.ones(1), "b": yaten.zeros(1)}
    >>> yaten.nn.modules.utils.consume_prefix_in_state_dict_if_present(sd, "module.")
    >>> sorted(sd)
    ['b', 'w']
    """
    for key in list(state_dict.keys()):
        if key.startswith(prefix):
            state_dict[key[len(prefix) :]] = state_dict.pop(key)
    if hasattr(state_dict, "_metadata"):
        for key in list(state_dict._metadata.keys()):
            if len(key) == 0:
                continue
            if key == prefix.replace(".", "") or key.startswith(prefix):
                state_dict._metadata[key[len(prefix) :]] = state_dict._metadata.pop(key)
