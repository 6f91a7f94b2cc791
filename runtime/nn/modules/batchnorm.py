"""Batch normalization layers, as ``torch.nn.BatchNorm1d/2d/3d``, their ``Lazy`` forms and
``SyncBatchNorm``."""

import yaten

from .. import functional as F
from .. import init
from ..parameter import Parameter, UninitializedBuffer, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module

__all__ = [
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d",
    "SyncBatchNorm",
]  # fmt: skip


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


class _LazyNormBase(LazyModuleMixin, _NormBase):
    """A norm layer whose ``num_features`` is its first input's dim 1: weight, bias and running
    statistics stay uninitialized until then (``num_batches_tracked`` is a real 0 from the start)."""

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None, *,
                 bias=True):  # fmt: skip
        # affine, bias and track_running_stats False: no tensors that the uninitialized ones would replace.
        super().__init__(0, eps, momentum, False, False, device=device, dtype=dtype, bias=False)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if self.affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(device=device, dtype=dtype)
        if self.track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = yaten.tensor(0, dtype=yaten.long, device=device)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:
        if self.has_uninitialized_params():
            self.num_features = input.shape[1]
            if self.affine:
                self.weight.materialize((self.num_features,))
                if self.bias is not None:
                    self.bias.materialize((self.num_features,))
            if self.track_running_stats:
                self.running_mean.materialize((self.num_features,))
                self.running_var.materialize((self.num_features,))
            self.reset_parameters()


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


class LazyBatchNorm1d(_LazyNormBase, _BatchNorm):
    """A ``BatchNorm1d`` whose ``num_features`` comes from its first input; it becomes a ``BatchNorm1d``.

    >>> import yaten
    >>> bn = yaten.nn.LazyBatchNorm1d()
    >>> bn
    LazyBatchNorm1d(0, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    >>> _ = bn(yaten.tensor([[0.0, 1.0], [2.0, 3.0]]))
    >>> bn.running_mean, type(bn).__name__
    (tensor([0.1000, 0.2000]), 'BatchNorm1d')
    """

    cls_to_become = BatchNorm1d
    _check_input_dim = BatchNorm1d._check_input_dim


class LazyBatchNorm2d(_LazyNormBase, _BatchNorm):
    """A ``BatchNorm2d`` whose ``num_features`` comes from its first input; it becomes a ``BatchNorm2d``.

    >>> import yaten
    >>> bn = yaten.nn.LazyBatchNorm2d()
    >>> bn(yaten.randn(2, 3, 4, 4)).shape, bn.weight.shape
    (yaten.Size([2, 3, 4, 4]), yaten.Size([3]))
    """

    cls_to_become = BatchNorm2d
    _check_input_dim = BatchNorm2d._check_input_dim


class LazyBatchNorm3d(_LazyNormBase, _BatchNorm):
    """A ``BatchNorm3d`` whose ``num_features`` comes from its first input; it becomes a ``BatchNorm3d``.

    >>> import yaten
    >>> yaten.nn.LazyBatchNorm3d()(yaten.randn(2, 3, 2, 2, 2)).shape
    yaten.Size([2, 3, 2, 2, 2])
    """

    cls_to_become = BatchNorm3d
    _check_input_dim = BatchNorm3d._check_input_dim


class SyncBatchNorm(_BatchNorm):
    """Batch normalization of a (N, C, *) input whose statistics would be synchronized across the
    processes of ``process_group``. With no initialized process group (yaten runs one process) it is
    exactly the batch norm of its input, as torch's falls back to when there is nothing to sync.

    >>> import yaten
    >>> net = yaten.nn.Sequential(yaten.nn.Conv2d(3, 4, 1), yaten.nn.BatchNorm2d(4))
    >>> net = yaten.nn.SyncBatchNorm.convert_sync_batchnorm(net)
    >>> net[1]
    SyncBatchNorm(4, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
    >>> net(yaten.randn(2, 3, 5, 5)).shape
    yaten.Size([2, 4, 5, 5])
    """

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 process_group=None, device=None, dtype=None, *, bias=True):  # fmt: skip
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device=device, dtype=dtype,
                         bias=bias)  # fmt: skip
        self.process_group = process_group

    def _check_input_dim(self, input):
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")

    def _check_non_zero_input_channels(self, input):
        if input.size(1) == 0:
            raise ValueError("SyncBatchNorm number of input channels should be non-zero")

    def forward(self, input):
        self._check_input_dim(input)
        self._check_non_zero_input_channels(input)
        return super().forward(input)  # the batch norm itself: no process group to synchronize with

    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None):
        """``module`` with every ``BatchNorm*d`` (itself included) replaced by a ``SyncBatchNorm`` that
        shares its parameters, buffers and training flag, as torch's."""
        module_output = module
        if isinstance(module, _BatchNorm):
            module_output = SyncBatchNorm(module.num_features, module.eps, module.momentum, module.affine,
                                          module.track_running_stats, process_group,
                                          bias=module.bias is not None)  # fmt: skip
            if module.affine:
                with yaten.no_grad():
                    module_output.weight = module.weight
                    module_output.bias = module.bias
            module_output.running_mean = module.running_mean
            module_output.running_var = module.running_var
            module_output.num_batches_tracked = module.num_batches_tracked
            module_output.training = module.training
            if hasattr(module, "qconfig"):
                module_output.qconfig = module.qconfig
        for name, child in module.named_children():
            module_output.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        del module
        return module_output
