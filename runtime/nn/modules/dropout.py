"""``torch.nn.Dropout``, the channel dropouts ``Dropout1d``/``2d``/``3d`` and the SELU-preserving
``AlphaDropout``/``FeatureAlphaDropout``: zero (or, for the alpha ones, set to SELU's saturation value)
elements or whole channels with probability ``p`` while training, identity in eval mode."""

from .. import functional as F
from .module import Module

__all__ = ["AlphaDropout", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "FeatureAlphaDropout"]


class _DropoutNd(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """Zero each element with probability ``p`` (scaling the rest by 1 / (1 - p)) in training mode.

    >>> import yaten
    >>> m = yaten.nn.Dropout()
    >>> m
    Dropout(p=0.5, inplace=False)
    >>> x = yaten.ones(3)
    >>> m.eval()(x) is x
    True
    """

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    """Zero whole channels of (N, C, L) or (C, L) inputs with probability ``p`` in training mode.

    >>> import yaten
    >>> yaten.nn.Dropout1d(0.2)
    Dropout1d(p=0.2, inplace=False)
    """

    def forward(self, input):
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """Zero whole channels of (N, C, H, W) inputs with probability ``p`` in training mode.

    >>> import yaten
    >>> x = yaten.ones(1, 2, 2, 2)
    >>> yaten.nn.Dropout2d().eval()(x) is x
    True
    """

    def forward(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    """Zero whole channels of (N, C, D, H, W) or (C, D, H, W) inputs with probability ``p`` in training mode.

    >>> import yaten
    >>> yaten.nn.Dropout3d(1.0)(yaten.ones(1, 2, 1, 1, 1)).sum().item()
    0.0
    """

    def forward(self, input):
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    """Dropout that keeps a SELU network's zero mean and unit variance: dropped elements take SELU's
    negative saturation value, then an affine map restores the statistics (training mode only).

    >>> import yaten
    >>> m = yaten.nn.AlphaDropout(0.2)
    >>> m
    AlphaDropout(p=0.2, inplace=False)
    >>> x = yaten.ones(3)
    >>> m.eval()(x) is x
    True
    """

    def forward(self, input):
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    """``AlphaDropout`` of whole channels (dim 1 of a batched input).

    >>> import yaten
    >>> yaten.nn.FeatureAlphaDropout(0.5)
    FeatureAlphaDropout(p=0.5, inplace=False)
    """

    def forward(self, input):
        return F.feature_alpha_dropout(input, self.p, self.training)
