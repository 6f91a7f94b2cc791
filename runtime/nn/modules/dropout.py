"""``torch.nn.Dropout``: zero elements with probability ``p`` while training, identity in eval mode."""

from .. import functional as F
from .module import Module

__all__ = ["Dropout"]


class Dropout(Module):
    """Zero each element with probability ``p`` (scaling the rest by 1 / (1 - p)) in training mode.

    >>> import yaten
    >>> m = yaten.nn.Dropout()
    >>> m
    Dropout(p=0.5, inplace=False)
    >>> x = yaten.ones(3)
    >>> m.eval()(x) is x
    True
    """

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"
