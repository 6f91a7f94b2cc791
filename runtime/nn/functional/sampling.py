"""Sampling functions of ``torch.nn.functional``: ``affine_grid`` and ``grid_sample`` (spatial
transformers) and ``gumbel_softmax``."""

import warnings

import yaten as _yaten

_ALIGN_WARNING = (
    "Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. Please specify "
    "align_corners=True if the old behavior is desired. See the documentation of grid_sample for details."
)


def affine_grid(theta, size, align_corners=None):
    """The sampling grid (N, H, W, 2) (or (N, D, H, W, 3)) of the affine maps ``theta`` (N, 2, 3) (or (N, 3, 4))
    over an output of ``size``, in -1..1 coordinates.

    >>> import yaten
    >>> theta = yaten.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
    >>> yaten.nn.functional.affine_grid(theta, [1, 1, 1, 2], align_corners=False).tolist()
    [[[[-0.5, 0.0], [0.5, 0.0]]]]
    """
    if align_corners is None:
        warnings.warn(_ALIGN_WARNING, stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(
                f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. Got {theta.shape}."
            )
        spatial = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(
                f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. Got {theta.shape}."
            )
        spatial = size[-3:]
    else:
        raise NotImplementedError(
            "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, respectively. "
            f"Got size {size}."
        )
    if align_corners and min(spatial) == 1:
        warnings.warn(
            "Since version 1.3.0, affine_grid behavior has changed for unit-size grids when align_corners=True. "
            "This is not an intended use case of affine_grid. See the documentation of affine_grid for details.",
            stacklevel=2,
        )
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return _yaten.affine_grid_generator(theta, list(size), align_corners)


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Sample ``input`` (N, C, H, W) at the -1..1 locations of ``grid`` (N, Ho, Wo, 2).

    >>> import yaten
    >>> x = yaten.tensor([[[[1.0, 3.0]]]])
    >>> yaten.nn.functional.grid_sample(x, yaten.tensor([[[[0.0, 0.0]]]]), align_corners=True)
    tensor([[[[2.]]]])
    """
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(
            "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: "
            f"'{mode}'"
        )
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(
            "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or 'reflection', but "
            f"got: '{padding_mode}'"
        )
    if align_corners is None:
        warnings.warn(_ALIGN_WARNING, stacklevel=2)
        align_corners = False
    mode_enum = ("bilinear", "nearest", "bicubic").index(mode)
    padding_enum = ("zeros", "border", "reflection").index(padding_mode)
    return _yaten.grid_sampler(input, grid, mode_enum, padding_enum, align_corners)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """A sample of the Gumbel-softmax distribution of ``logits`` (one-hot with ``hard``, its gradient the
    soft sample's).

    >>> import yaten
    >>> y = yaten.nn.functional.gumbel_softmax(yaten.zeros(2, 3), hard=True)
    >>> y.sum(-1).tolist()
    [1.0, 1.0]
    """
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    # Exponential(1) samples by inversion (1 - U lies in (0, 1]); their -log is Gumbel(0, 1)
    exponential = -_yaten.log1p(-_yaten.rand_like(logits))
    gumbels = (logits - exponential.log()) / tau
    y_soft = gumbels.softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = _yaten.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft
