"""device objects: ``yaten.device('cuda:0')``."""

import builtins


class device:
    """Where a tensor's storage lives, as ``torch.device``.

    >>> import yaten
    >>> yaten.device("cuda:1").index, yaten.device("cpu").type
    (1, 'cpu')
    """

    __slots__ = ("index", "type")
    sparse = False  # a strided tensor's device; a sparse COO tensor's is a SparseDevice

    def __init__(self, type, index: int | None = None):
        if isinstance(type, device):
            self.type, self.index = type.type, type.index
            return
        if isinstance(type, int):
            type, index = "cuda", type
        if not isinstance(type, str):
            got = builtins.type(type).__name__
            raise TypeError(
                f"device() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                " * (yaten.device device)\n"
                f"      didn't match because some of the arguments have invalid types: (!{got}!)\n"
                " * (str type, int index = -1)\n"
            )
        if index is not None and not isinstance(index, int):
            raise TypeError(
                f"device(): argument 'index' (position 2) must be int, not {builtins.type(index).__name__}"
            )
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        if ":" in type:
            if index is not None:
                raise RuntimeError(
                    f"type (string) must not include an index because index was passed explicitly: {type}"
                )
            type, _, idx = type.partition(":")
            if not idx.isdigit() or (idx.startswith("0") and idx != "0"):
                raise RuntimeError(f"Invalid device string: '{type}:{idx}'")
            index = int(idx)
        if type not in ("cpu", "cuda", "meta"):
            raise RuntimeError(
                f"Expected one of cpu, cuda, meta device type at start of device string: {type}"
            )
        self.type = type
        self.index = index

    def __eq__(self, other) -> bool:
        # As torch.device: equal only to a device (``device("cpu") == "cpu"`` is False).
        if not isinstance(other, device):
            return NotImplemented
        return self.type == other.type and self.index == other.index

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


class SparseDevice(device):
    """The device of a sparse COO tensor: equal to (and hashed as) the plain device it lives on, but its
    dispatch key (``SparseCPU``/``SparseCUDA``) routes the generated ops to the spec's sparse kernels."""

    __slots__ = ()
    sparse = True

    @property
    def key(self) -> str:
        return "SparseCPU" if self.type == "cpu" else "SparseCUDA"

    @property
    def plain(self) -> device:
        """The device itself, as strided tensors on it have it."""
        return CPU if self.type == "cpu" else CUDA0


CPU = device("cpu")
CUDA0 = device("cuda", 0)
SPARSE_CPU = SparseDevice("cpu")
SPARSE_CUDA0 = SparseDevice("cuda", 0)


def sparse_of(d: device) -> SparseDevice:
    """The sparse dispatch device of plain device ``d``."""
    return SPARSE_CPU if d.type == "cpu" else SPARSE_CUDA0


def canonical(d) -> device:
    """A tensor's device: cpu, or cuda with an explicit index."""
    if d is None:
        return CPU
    d = d if isinstance(d, device) else device(d)
    if d.type == "cuda" and d.index is None:
        return CUDA0
    if d.type == "cuda" and d.index != 0:
        raise RuntimeError(f"CUDA error: invalid device ordinal {d.index}")
    if d.type == "meta":
        raise NotImplementedError("yaten has no 'meta' device yet: tensors live on 'cpu' or 'cuda'")
    return CPU if d.type == "cpu" else (CUDA0 if d.sparse else d)
