"""Instance normalization layers, as ``torch.nn.InstanceNorm1d/2d/3d`` and their ``Lazy`` forms."""

from ..._user_warning import warn_user
from .. import functional as F
from .batchnorm import _LazyNormBase, _NormBase

__all__ = [
    "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "LazyInstanceNorm1d", "LazyInstanceNorm2d",
    "LazyInstanceNorm3d",
]  # fmt: skip


class _InstanceNorm(_NormBase):
    """Each channel of every sample normalized over its spatial dims. Unlike batch norm, no affine
    parameters and no running statistics by default; with ``track_running_stats`` the running ones are
    used in eval mode."""

    _batched_dims: int  # of the batched input: 3 for InstanceNorm1d's (N, C, L)

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False,
                 device=None, dtype=None, *, bias=True):  # fmt: skip
        super().__init__(
            num_features, eps, momentum, affine, track_running_stats, device=device, dtype=dtype, bias=bias
        )

    def _get_no_batch_dim(self):
        return self._batched_dims - 1

    def _check_input_dim(self, input):
        batched = self._batched_dims
        if input.dim() not in (batched - 1, batched):
            raise ValueError(f"expected {batched - 1}D or {batched}D input (got {input.dim()}D input)")

    def _apply_instance_norm(self, input):
        return F.instance_norm(
            input,
            self.running_mean,
            self.running_var,
            self.weight,
            self.bias,
            self.training or not self.track_running_stats,
            self.momentum if self.momentum is not None else 0.0,
            self.eps,
        )

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):  # fmt: skip
        # A checkpoint from before 0.4.0 (no version) has running statistics the layer no longer keeps by
        # default: torch reports them and drops them.
        version = local_metadata.get("version", None)
        if version is None and not self.track_running_stats:
            keys = [prefix + name for name in ("running_mean", "running_var") if prefix + name in state_dict]
            if keys:
                klass = self.__class__.__name__
                names = " and ".join(f'"{k}"' for k in keys)
                error_msgs.append(
                    f"Unexpected running stats buffer(s) {names} for {klass} with track_running_stats=False. "
                    f"If state_dict is a checkpoint saved before 0.4.0, this may be expected because {klass} "
                    "does not track running stats by default since 0.4.0. Please remove these keys from "
                    "state_dict. If the running stats are actually needed, instead set "
                    f"track_running_stats=True in {klass} to enable them. See the documentation of {klass} "
                    "for details."
                )
                for key in keys:
                    state_dict.pop(key)
        super()._load_from_state_dict(
            state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
        )

    def forward(self, input):
        self._check_input_dim(input)
        feature_dim = input.dim() - self._get_no_batch_dim()
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(
                    f"expected input's size at dim={feature_dim} to match num_features"
                    f" ({self.num_features}), but got: {input.size(feature_dim)}."
                )
            warn_user(
                f"input's size at dim={feature_dim} does not match num_features. You can silence this "
                "warning by not passing in num_features, which is not used because affine=False"
            )
        if input.dim() == self._get_no_batch_dim():
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization of a (N, C, L) or unbatched (C, L) input over L, per sample and channel.

    >>> import yaten
    >>> m = yaten.nn.InstanceNorm1d(2, affine=True)
    >>> m
    InstanceNorm1d(2, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=False)
    >>> m(yaten.tensor([[0.0, 2.0], [1.0, 5.0]]))
    tensor([[-1.0000,  1.0000],
            [-1.0000,  1.0000]], grad_fn=<SqueezeBackward1>)
    """

    _batched_dims = 3


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization of a (N, C, H, W) or unbatched (C, H, W) input over H and W, per sample and
    channel.

    >>> import yaten
    >>> m = yaten.nn.InstanceNorm2d(3, track_running_stats=True)
    >>> y = m(yaten.arange(24.0).view(2, 3, 2, 2))
    >>> m.running_mean
    tensor([0.7500, 1.1500, 1.5500])
    >>> list(m.state_dict())
    ['running_mean', 'running_var', 'num_batches_tracked']
    """

    _batched_dims = 4


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization of a (N, C, D, H, W) or unbatched (C, D, H, W) input over D, H and W, per
    sample and channel.

    >>> import yaten
    >>> yaten.nn.InstanceNorm3d(3)(yaten.randn(2, 3, 2, 2, 2)).shape
    yaten.Size([2, 3, 2, 2, 2])
    """

    _batched_dims = 5


class LazyInstanceNorm1d(_LazyNormBase, _InstanceNorm):
    """An ``InstanceNorm1d`` whose ``num_features`` comes from its first input. As PyTorch's, it is
    affine and tracks running statistics by default (the lazy norm base's defaults).

    >>> import yaten
    >>> m = yaten.nn.LazyInstanceNorm1d()
    >>> m
    LazyInstanceNorm1d(0, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    >>> m(yaten.randn(2, 3, 5)).shape, type(m).__name__
    (yaten.Size([2, 3, 5]), 'InstanceNorm1d')
    """

    cls_to_become = InstanceNorm1d
    _batched_dims = 3


class LazyInstanceNorm2d(_LazyNormBase, _InstanceNorm):
    """An ``InstanceNorm2d`` whose ``num_features`` comes from its first input.

    >>> import yaten
    >>> yaten.nn.LazyInstanceNorm2d()(yaten.randn(2, 3, 4, 4)).shape
    yaten.Size([2, 3, 4, 4])
    """

    cls_to_become = InstanceNorm2d
    _batched_dims = 4


class LazyInstanceNorm3d(_LazyNormBase, _InstanceNorm):
    """An ``InstanceNorm3d`` whose ``num_features`` comes from its first input.

    >>> import yaten
    >>> yaten.nn.LazyInstanceNorm3d()(yaten.randn(2, 3, 2, 2, 2)).shape
    yaten.Size([2, 3, 2, 2, 2])
    """

    cls_to_become = InstanceNorm3d
    _batched_dims = 5
