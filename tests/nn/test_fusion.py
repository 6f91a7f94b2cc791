"""nn.utils.fusion (conv/linear + batch norm folded, in eval), skip_init and the conv weight memory formats,
side by side with PyTorch."""

import numpy as np
import pytest

from tests.nn._module_parity import same


def _filled(m, module, scale=1.0):
    with m.no_grad():
        for i, p in enumerate([*module.parameters(), *module.buffers()]):
            if p.dtype.is_floating_point:
                p.copy_(m.tensor(np.cos(np.arange(p.numel()) + i).reshape(p.shape) * scale + (i == 3) * 1.5))
    return module


def _bn(m, cls, n, affine=True):
    bn = _filled(m, getattr(m.nn, cls)(n, affine=affine, dtype=m.float64))
    with m.no_grad():
        bn.running_var.abs_().add_(0.5)
    return bn.eval()


def _conv_case(m, conv_cls, bn_cls, x_shape, transpose=False, bias=True, affine=True):
    conv = _filled(m, getattr(m.nn, conv_cls)(2, 3, 2, bias=bias, dtype=m.float64)).eval()
    bn = _bn(m, bn_cls, 3, affine)
    fused = m.nn.utils.fuse_conv_bn_eval(conv, bn, transpose=transpose)
    x = m.tensor(np.linspace(-1, 1, int(np.prod(x_shape))).reshape(x_shape))
    return fused(x), bn(conv(x)), fused.weight, fused.bias, type(fused).__name__


def _linear_case(m, n_bn, bias=True):
    lin = _filled(m, m.nn.Linear(3, 4, bias=bias, dtype=m.float64)).eval()
    bn = _bn(m, "BatchNorm1d", n_bn)
    fused = m.nn.utils.fuse_linear_bn_eval(lin, bn)
    x = m.tensor(np.linspace(-1, 1, 12).reshape(3, 4)[:, :3])
    # A one-feature bn broadcasts over the fused layer's outputs; bn itself can't take the 4 features.
    reference = (
        bn(lin(x))
        if n_bn == 4
        else (lin(x) - bn.running_mean) / (bn.running_var + bn.eps).sqrt() * bn.weight + bn.bias
    )
    return fused(x), reference, fused.weight, fused.bias


CASES = {
    "conv2d": lambda m: _conv_case(m, "Conv2d", "BatchNorm2d", (2, 2, 4, 4)),
    "conv1d no bias": lambda m: _conv_case(m, "Conv1d", "BatchNorm1d", (2, 2, 5), bias=False),
    "conv3d no affine": lambda m: _conv_case(m, "Conv3d", "BatchNorm3d", (1, 2, 3, 3, 3), affine=False),
    "conv transpose": lambda m: _conv_case(m, "ConvTranspose2d", "BatchNorm2d", (1, 2, 3, 3), transpose=True),
    "linear": lambda m: _linear_case(m, 4),
    "linear one feature": lambda m: _linear_case(m, 1, bias=False),
    "weights": lambda m: m.nn.utils.fuse_conv_bn_weights(
        m.ones(3, 2, 1, dtype=m.float32),
        None,
        m.zeros(3, dtype=m.float64),
        m.ones(3, dtype=m.float64),
        1e-5,
        None,
        None,
    ),
    "linear weights": lambda m: m.nn.utils.fuse_linear_bn_weights(
        m.ones(2, 3), m.ones(2), m.zeros(2), m.ones(2) * 4, 0.0, m.tensor([1.0, 2.0]), m.tensor([0.5, 0.0])
    ),
    "error training": lambda m: m.nn.utils.fuse_conv_bn_eval(
        m.nn.Conv2d(2, 3, 1), m.nn.BatchNorm2d(3).eval()
    ),
    "error features": lambda m: m.nn.utils.fuse_linear_bn_eval(
        m.nn.Linear(2, 3).eval(), m.nn.BatchNorm1d(2).eval()
    ),
    "error no stats": lambda m: m.nn.utils.fuse_linear_bn_eval(
        m.nn.Linear(2, 3).eval(), m.nn.BatchNorm1d(3, track_running_stats=False).eval()
    ),
    "skip_init": lambda m: (
        lambda lin: (type(lin).__name__, lin.weight.shape, lin.bias.shape, lin.weight.dtype)
    )(m.nn.utils.skip_init(m.nn.Linear, 5, 2, dtype=m.float64)),
    "skip_init not module": lambda m: m.nn.utils.skip_init(int),
    "skip_init no device": lambda m: m.nn.utils.skip_init(m.nn.ReLU),
    "conv2d memory format": lambda m: (lambda seq: [p for p in seq.parameters()])(
        m.nn.utils.convert_conv2d_weight_memory_format(
            m.nn.Sequential(
                _filled(m, m.nn.Conv2d(2, 3, 2)), m.nn.Sequential(_filled(m, m.nn.ConvTranspose2d(3, 2, 2)))
            ),
            m.channels_last,
        )
    ),
    "conv3d memory format": lambda m: (
        m.nn.utils.convert_conv3d_weight_memory_format(
            _filled(m, m.nn.Conv3d(2, 3, 2)), m.contiguous_format
        ).weight
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_matches_torch(name):
    same(CASES[name])
