"""device objects: ``yaten.device('cuda:0')``."""


class device:
    """Where a tensor's storage lives, as ``torch.device``.

    >>> import yaten
    >>> yaten.device("cuda:1").index, yaten.device("cpu").type
    (1, 'cpu')
    """

    __slots__ = ("index", "type")

    def __init__(self, type, index: int | None = None):
        if isinstance(type, device):
            self.type, self.index = type.type, type.index
            return
        if isinstance(type, int):
            type, index = "cuda", type
        if not isinstance(type, str):
            raise TypeError(f"device() received an invalid combination of arguments - got ({type!r})")
        if ":" in type:
            if index is not None:
                raise RuntimeError(
                    f"type (string) must not include an index because index was passed explicitly: {type}"
                )
            type, _, idx = type.partition(":")
            if not idx.isdigit():
                raise RuntimeError(f"Invalid device string: '{type}:{idx}'")
            index = int(idx)
        if type not in ("cpu", "cuda", "meta"):
            raise RuntimeError(
                f"Expected one of cpu, cuda, meta device type at start of device string: {type}"
            )
        self.type = type
        self.index = index

    def __eq__(self, other) -> bool:
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and self.type == other.type and self.index == other.index

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self) -> str:
        return (
            f"device(type='{self.type}')"
            if self.index is None
            else f"device(type='{self.type}', index={self.index})"
        )


CPU = device("cpu")
CUDA0 = device("cuda", 0)


def canonical(d) -> device:
    """A tensor's device: cpu, or cuda with an explicit index."""
    if d is None:
        return CPU
    d = d if isinstance(d, device) else device(d)
    if d.type == "cuda" and d.index is None:
        return CUDA0
    if d.type == "cuda" and d.index != 0:
        raise RuntimeError(f"CUDA error: invalid device ordinal {d.index}")
    return CPU if d.type == "cpu" else d
