"""``pixel_shuffle`` and ``pixel_unshuffle`` as CompositeImplicitAutograd ops: one reshape, permute and
reshape each, with PyTorch's checks."""


def _check(self, name, factor, what):
    if self.ndim < 3:
        raise RuntimeError(
            f"{name} expects input to have at least 3 dimensions, but got input with {self.ndim} dimension(s)"
        )
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {what}, but got {factor}")


def pixel_shuffle(self, upscale_factor):
    """(*, C r², H, W) -> (*, C, H r, W r)."""
    r = upscale_factor
    _check(self, "pixel_shuffle", r, "upscale_factor")
    *batch, c, h, w = self.shape
    if c % (r * r) != 0:
        raise RuntimeError(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
            f"upscale_factor, but input.size(-3)={c} is not divisible by {r * r}"
        )
    n = len(batch)
    x = self.reshape(*batch, c // (r * r), r, r, h, w)
    x = x.permute(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return x.reshape(*batch, c // (r * r), h * r, w * r)


def pixel_unshuffle(self, downscale_factor):
    """(*, C, H r, W r) -> (*, C r², H, W)."""
    r = downscale_factor
    _check(self, "pixel_unshuffle", r, "downscale_factor")
    *batch, c, h, w = self.shape
    for size, what, axis in ((h, "height", -2), (w, "width", -1)):
        if size % r != 0:
            raise RuntimeError(
                f"pixel_unshuffle expects {what} to be divisible by downscale_factor, but input.size({axis})="
                f"{size} is not divisible by {r}"
            )
    n = len(batch)
    x = self.reshape(*batch, c, h // r, r, w // r, r)
    x = x.permute(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return x.reshape(*batch, c * r * r, h // r, w // r)


def channel_shuffle(self, groups):
    """The channels (dim 1) regrouped: channel ``g * (C / groups) + k`` moves to ``k * groups + g``."""
    if self.ndim <= 2:
        raise RuntimeError(
            f"channel_shuffle expects input with > 2 dims, but got input with sizes {list(self.shape)}"
        )
    if groups <= 0:
        raise RuntimeError(
            f"Number of groups to divide channels in must be positive. Value of groups:{groups}"
        )
    n, c = self.shape[0], self.shape[1]
    if c % groups:
        raise RuntimeError(
            f"Number of channels must be divisible by groups. Got {c} channels and {groups} groups."
        )
    rest = tuple(self.shape[2:])
    grouped = self.reshape(n, groups, c // groups, *rest).transpose(1, 2)
    return grouped.reshape(self.shape)
