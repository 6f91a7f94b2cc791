"""``torch.nn.Upsample`` and its deprecated fixed-mode forms ``UpsamplingNearest2d`` and
``UpsamplingBilinear2d``, over ``nn.functional.interpolate``."""

from .. import functional as F
from .module import Module

__all__ = ["Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d"]


class Upsample(Module):
    """Resample the spatial dimensions to ``size`` or by ``scale_factor`` (``interpolate``'s modes).

    >>> import yaten
    >>> yaten.nn.Upsample(scale_factor=2, mode="nearest")(yaten.ones(1, 1, 2, 2)).shape
    yaten.Size([1, 1, 4, 4])
    """

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):  # fmt: skip
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)  # fmt: skip

    def __setstate__(self, state):
        state.setdefault("recompute_scale_factor", True)
        super().__setstate__(state)

    def extra_repr(self) -> str:
        info = (
            f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None else f"size={self.size!r}"
        )
        return f"{info}, mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """Nearest-neighbour 2-d upsampling.

    >>> import yaten
    >>> yaten.nn.UpsamplingNearest2d(size=3)(yaten.ones(1, 1, 2, 2)).shape
    yaten.Size([1, 1, 3, 3])
    """

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """Bilinear 2-d upsampling with ``align_corners=True``.

    >>> import yaten
    >>> yaten.nn.UpsamplingBilinear2d(scale_factor=2)(yaten.ones(1, 1, 2, 2)).shape
    yaten.Size([1, 1, 4, 4])
    """

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
