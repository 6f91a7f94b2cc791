"""``torch.nn.PixelShuffle`` and ``torch.nn.PixelUnshuffle``."""

from .. import functional as F
from .module import Module

__all__ = ["PixelShuffle", "PixelUnshuffle"]


class PixelShuffle(Module):
    """Rearrange (*, C r², H, W) into (*, C, H r, W r).

    >>> import yaten
    >>> yaten.nn.PixelShuffle(2)(yaten.ones(1, 4, 2, 2)).shape
    yaten.Size([1, 1, 4, 4])
    """

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """Rearrange (*, C, H r, W r) into (*, C r², H, W).

    >>> import yaten
    >>> yaten.nn.PixelUnshuffle(2)(yaten.ones(1, 1, 4, 4)).shape
    yaten.Size([1, 4, 2, 2])
    """

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"
