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
