"""``torch.nn.Flatten`` and ``torch.nn.Unflatten``."""

from .module import Module

__all__ = ["Flatten", "Unflatten"]


class Flatten(Module):
    """Flatten dims ``start_dim`` to ``end_dim`` into one (by default all but the batch dim).

    >>> import yaten
    >>> yaten.nn.Flatten()(yaten.ones(2, 3, 4)).shape
    yaten.Size([2, 12])
    """

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dim ``dim`` into ``unflattened_size``.

    >>> import yaten
    >>> yaten.nn.Unflatten(1, (3, 4))(yaten.ones(2, 12)).shape
    yaten.Size([2, 3, 4])
    """

    def __init__(self, dim, unflattened_size):
        super().__init__()
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError(
                f"unflattened_size must be a tuple of ints, but found type {type(unflattened_size).__name__}"
            )
        for idx, elem in enumerate(unflattened_size):
            if not isinstance(elem, int):
                raise TypeError(
                    f"unflattened_size must be tuple of ints, but found element of type {type(elem).__name__} "
                    f"at pos {idx}"
                )
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
