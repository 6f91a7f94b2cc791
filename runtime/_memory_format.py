"""Memory formats, as ``torch.contiguous_format`` and friends (kernels receive their names)."""


class memory_format:
    """How a copy lays out its elements.

    >>> import yaten
    >>> yaten.contiguous_format
    yaten.contiguous_format
    """

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"yaten.{self.name}"


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")

_RANK = {"channels_last": 4, "channels_last_3d": 5}


def check_rank(name, ndim: int) -> None:
    """torch's error for a channels-last format named ``name`` asked of a tensor of another rank.

    >>> check_rank("channels_last", 1)
    Traceback (most recent call last):
    RuntimeError: required rank 4 tensor to use channels_last format
    """
    rank = _RANK.get(name)
    if rank is not None and ndim != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {name} format")


# The dims of a channels-last layout from the fastest-varying to the slowest (c10's order).
_CHANNELS_LAST_ORDER = {"channels_last": (1, 3, 2, 0), "channels_last_3d": (1, 4, 3, 2, 0)}


def is_channels_last_contiguous(name: str, shape, strides) -> bool:
    """Whether ``shape``/``strides`` are the dense layout of the channels-last format ``name``, as c10
    computes it (dims of size 1 never matter; another rank is never channels-last).

    >>> is_channels_last_contiguous("channels_last", (2, 3, 4, 5), (60, 1, 15, 3))
    True
    >>> is_channels_last_contiguous("channels_last", (2, 3, 4, 5), (60, 20, 5, 1))
    False
    """
    order = _CHANNELS_LAST_ORDER[name]
    if len(shape) != len(order):
        return False
    expected = 1
    for d in order:
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True
