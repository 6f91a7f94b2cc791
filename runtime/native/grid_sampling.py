"""Spatial transformers as CompositeImplicitAutograd ops: ``affine_grid_generator`` (a base grid of
normalised coordinates times each affine matrix) and ``grid_sampler`` over 2-d inputs (bilinear or
nearest; zeros, border or reflection padding), with ATen's coordinate formulas
(``grid_sampler_compute_source_index``). Values are gathered from the flattened planes with
``gather``; the gradient reaches the grid through the bilinear weights, as ATen's does.
"""

import yaten

from .._dtype import LEGACY_NAME


def _linspace(n, align_corners, like):
    """The normalised coordinates of ``n`` pixels: -1..1 at the corners or at the pixel centres."""
    if n <= 1:
        return yaten.zeros(max(n, 0), dtype=like.dtype, device=like.device)
    steps = yaten.linspace(-1, 1, n, dtype=like.dtype, device=like.device)
    return steps if align_corners else steps * ((n - 1) / n)


def affine_grid_generator(theta, size, align_corners):
    spatial = list(size[2:])
    coords = [_linspace(s, align_corners, theta) for s in reversed(spatial)]  # x (width) first
    mesh = yaten.meshgrid(*reversed(coords), indexing="ij")[::-1]  # each shaped like the spatial dims
    ones = yaten.ones(spatial, dtype=theta.dtype, device=theta.device)
    base = yaten.stack([*mesh, ones], -1).reshape(1, -1, len(spatial) + 1)
    grid = base.matmul(theta.transpose(1, 2))
    return grid.reshape(size[0], *spatial, len(spatial))


def _unnormalize(coord, size, align_corners):
    if align_corners:
        return (coord + 1) / 2 * (size - 1)
    return ((coord + 1) * size - 1) / 2


def _reflect(coord, twice_low, twice_high):
    if twice_low == twice_high:
        return yaten.zeros_like(coord)
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    coord = (coord - low).abs()
    extra = coord.fmod(span)
    flips = (coord / span).floor()
    return yaten.where(flips.remainder(2) == 0, extra + low, span - extra + low)


def _source(coord, size, padding_mode, align_corners):
    coord = _unnormalize(coord, size, align_corners)
    if padding_mode == 2:
        low, high = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        coord = _reflect(coord, low, high)
    if padding_mode >= 1:
        coord = coord.clamp(0, size - 1)
    return coord


def _check(input, grid, interpolation_mode):
    if input.device != grid.device:
        raise RuntimeError(
            "grid_sampler(): expected input and grid to be on same device, but input is on "
            f"{input.device} and grid is on {grid.device}"
        )
    if input.dtype is not grid.dtype:
        raise RuntimeError(
            f"expected scalar type {LEGACY_NAME[input.dtype]} but found {LEGACY_NAME[grid.dtype]}"
        )
    if input.ndim != grid.ndim:
        raise RuntimeError(
            "grid_sampler(): expected grid and input to have same number of dimensions, but got input with sizes "
            f"{list(input.shape)} and grid with sizes {list(grid.shape)}"
        )
    if input.ndim not in (4, 5):
        raise RuntimeError(
            f"grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, but got input "
            f"with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}"
        )
    if input.shape[0] != grid.shape[0]:
        raise RuntimeError(
            "grid_sampler(): expected grid and input to have same batch size, but got input with sizes "
            f"{list(input.shape)} and grid with sizes {list(grid.shape)}"
        )
    if grid.shape[-1] != input.ndim - 2:
        raise RuntimeError(
            f"grid_sampler(): expected grid to have size {input.ndim - 2} in last dimension, but got grid with "
            f"sizes {list(grid.shape)}"
        )
    if input.ndim == 5 or interpolation_mode == 2:
        what = "3-d inputs" if input.ndim == 5 else "mode='bicubic'"
        raise NotImplementedError(f"yaten has no torch.nn.functional.grid_sample with {what} yet")


def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    _check(input, grid, interpolation_mode)
    n, c, h, w = input.shape
    ho, wo = grid.shape[1], grid.shape[2]
    ix = _source(grid[..., 0], w, padding_mode, align_corners).reshape(n, 1, ho * wo)
    iy = _source(grid[..., 1], h, padding_mode, align_corners).reshape(n, 1, ho * wo)
    planes = input.reshape(n, c, h * w)

    def corner(x, y):
        inside = (x >= 0) & (x <= w - 1) & (y >= 0) & (y <= h - 1)
        flat = (y.clamp(0, h - 1) * w + x.clamp(0, w - 1)).to(yaten.int64)
        return planes.gather(2, flat.expand(n, c, ho * wo)) * inside

    if interpolation_mode == 1:
        x, y = ix.round(), iy.round()
        # PyTorch's nearest mode gives the grid a zero gradient: keep it in the graph through round's
        out = corner(x, y) + (x + y) * 0
    else:
        x0, y0 = ix.floor(), iy.floor()
        x1, y1 = x0 + 1, y0 + 1
        out = (
            corner(x0, y0) * ((x1 - ix) * (y1 - iy))
            + corner(x1, y0) * ((ix - x0) * (y1 - iy))
            + corner(x0, y1) * ((x1 - ix) * (iy - y0))
            + corner(x1, y1) * ((ix - x0) * (iy - y0))
        )
    return out.reshape(n, c, ho, wo)
