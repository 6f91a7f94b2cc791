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
