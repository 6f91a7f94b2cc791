"""Batch normalization layers, as ``torch.nn.BatchNorm1d/2d/3d``."""

import yaten

from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d"]


class _NormBase(Module):
    """Parameters (``weight``, ``bias``) and running statistics (``running_mean``, ``running_var``,
    ``num_batches_tracked``) shared by the batch norm layers."""

    _version = 2

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None, *, bias=True):  # fmt: skip
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = Parameter(yaten.empty(num_features, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(yaten.empty(num_features, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", yaten.zeros(num_features, device=device, dtype=dtype))
            self.register_buffer("running_var", yaten.ones(num_features, device=device, dtype=dtype))
            self.register_buffer("num_batches_tracked", yaten.tensor(0, dtype=yaten.long, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input):
        raise NotImplementedError

    def extra_repr(self) -> str:
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
            f"bias={self.bias is not None}, "
            f"track_running_stats={self.track_running_stats}"
        )

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):  # fmt: skip
        # A state dict saved before num_batches_tracked existed (version < 2) loads with the current count.
        version = local_metadata.get("version", None)
        if (version is None or version < 2) and self.track_running_stats:
            key = prefix + "num_batches_tracked"
            if key not in state_dict:
                state_dict[key] = (
                    self.num_batches_tracked
                    if self.num_batches_tracked is not None
                    else yaten.tensor(0, dtype=yaten.long)
                )
        super()._load_from_state_dict(
            state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
        )


class _BatchNorm(_NormBase):
    def forward(self, input):
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            # momentum=None: a cumulative moving average, each batch weighted 1 / (batches so far).
            factor = 1.0 / float(self.num_batches_tracked.item()) if self.momentum is None else self.momentum
        bn_training = self.training or (self.running_mean is None and self.running_var is None)
        use_stats = not self.training or self.track_running_stats
        return F.batch_norm(
            input,
            self.running_mean if use_stats else None,
            self.running_var if use_stats else None,
            self.weight,
            self.bias,
            bn_training,
            factor,
            self.eps,
        )


class BatchNorm1d(_BatchNorm):
    """Batch normalization of a (N, C) or (N, C, L) input over N (and L), per channel C.

    >>> import yaten
    >>> bn = yaten.nn.BatchNorm1d(2)
    >>> bn
    BatchNorm1d(2, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    >>> y = bn(yaten.tensor([[0.0, 1.0], [2.0, 3.0]]))
    >>> bn.running_mean, bn.num_batches_tracked
    (tensor([0.1000, 0.2000]), tensor(1))
    """

    def _check_input_dim(self, input):
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch normalization of a (N, C, H, W) input over N, H and W, per channel C.

    >>> import yaten
    >>> yaten.nn.BatchNorm2d(3, momentum=None, affine=False)
    BatchNorm2d(3, eps=1e-05, momentum=None, affine=False, bias=False, track_running_stats=True)
    """

    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    """Batch normalization of a (N, C, D, H, W) input over N, D, H and W, per channel C.

    >>> import yaten
    >>> yaten.nn.BatchNorm3d(3)(yaten.randn(2, 3, 2, 2, 2)).shape
    yaten.Size([2, 3, 2, 2, 2])
    """

    def _check_input_dim(self, input):
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")
