"""Every nn layer, loss, optimizer and gradient-clipping utility on the CUDA device: a module moved with
``.to("cuda")`` gives the CPU module's outputs, input gradients and parameter gradients, and an
optimizer step on cuda gives the CPU's parameters (under NUMBA_ENABLE_CUDASIM=1 without a GPU; the
inputs are tiny because the simulator runs every GPU thread in Python)."""

import copy

import numpy as np
import pytest

import yaten
from yaten import nn

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")

CUDA = yaten.device("cuda", 0)


def _floats(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


# (name, module factory, inputs as host arrays); every layer is built on the CPU, then copied to cuda.
LAYERS = [
    ("linear", lambda: nn.Linear(4, 3), [_floats(2, 4)]),
    ("bilinear", lambda: nn.Bilinear(3, 2, 4), [_floats(2, 3), _floats(2, 2, seed=1)]),
    ("conv1d", lambda: nn.Conv1d(2, 3, 3, padding=1), [_floats(2, 2, 5)]),
    ("conv2d-groups", lambda: nn.Conv2d(4, 2, 2, stride=2, groups=2), [_floats(1, 4, 4, 4)]),
    ("conv-transpose1d", lambda: nn.ConvTranspose1d(2, 2, 3, stride=2), [_floats(1, 2, 3)]),
    ("conv-transpose2d", lambda: nn.ConvTranspose2d(2, 1, 2, stride=2), [_floats(1, 2, 2, 2)]),
    ("batchnorm1d", lambda: nn.BatchNorm1d(3), [_floats(4, 3)]),
    ("batchnorm2d-eval", lambda: nn.BatchNorm2d(2).eval(), [_floats(2, 2, 2, 2)]),
    ("layernorm", lambda: nn.LayerNorm([3]), [_floats(2, 3)]),
    ("groupnorm", lambda: nn.GroupNorm(2, 4), [_floats(2, 4, 3)]),
    ("rmsnorm", lambda: nn.RMSNorm(3), [_floats(2, 3)]),
    (
        "instancenorm1d-tracked",
        lambda: nn.InstanceNorm1d(2, affine=True, track_running_stats=True),
        [_floats(2, 2, 3)],
    ),
    ("instancenorm2d-unbatched", lambda: nn.InstanceNorm2d(2), [_floats(2, 2, 2)]),
    ("local-response-norm", lambda: nn.LocalResponseNorm(2), [_floats(1, 3, 2, 2)]),
    ("lstm-bidirectional", lambda: nn.LSTM(2, 2, bidirectional=True), [_floats(3, 2, 2)]),
    ("lstm-proj", lambda: nn.LSTM(2, 3, proj_size=1), [_floats(2, 2, 2)]),
    ("gru-2-layers", lambda: nn.GRU(2, 2, num_layers=2), [_floats(3, 2, 2)]),
    ("rnn-relu", lambda: nn.RNN(2, 2, nonlinearity="relu"), [_floats(3, 2, 2)]),
    ("lstmcell", lambda: nn.LSTMCell(2, 3), [_floats(2, 2)]),
    ("grucell", lambda: nn.GRUCell(2, 3), [_floats(2, 2)]),
    ("maxpool2d", lambda: nn.MaxPool2d(2), [_floats(1, 2, 4, 4)]),
    ("avgpool2d", lambda: nn.AvgPool2d(2, padding=1), [_floats(1, 1, 4, 4)]),
    ("adaptive-avgpool2d", lambda: nn.AdaptiveAvgPool2d((2, 3)), [_floats(1, 2, 3, 5)]),
    ("flatten", lambda: nn.Flatten(), [_floats(2, 2, 3)]),
    ("unflatten", lambda: nn.Unflatten(1, (2, 3)), [_floats(2, 6)]),
    ("dropout-eval", lambda: nn.Dropout(0.5).eval(), [_floats(2, 3)]),
    ("multihead-attention", lambda: nn.MultiheadAttention(4, 2), [_floats(3, 1, 4)] * 3),
    ("relu", nn.ReLU, [_floats(5)]),
    ("leaky-relu", lambda: nn.LeakyReLU(0.1), [_floats(5)]),
    ("elu", nn.ELU, [_floats(5)]),
    ("gelu-tanh", lambda: nn.GELU("tanh"), [_floats(5)]),
    ("silu", nn.SiLU, [_floats(5)]),
    ("sigmoid", nn.Sigmoid, [_floats(5)]),
    ("tanh", nn.Tanh, [_floats(5)]),
    ("softmax", lambda: nn.Softmax(1), [_floats(2, 3)]),
    ("log-softmax", lambda: nn.LogSoftmax(0), [_floats(2, 3)]),
    ("softplus", lambda: nn.Softplus(2.0), [_floats(5)]),
    ("hardtanh", nn.Hardtanh, [_floats(5)]),
]


def _run(module, inputs, device):
    module = copy.deepcopy(module).to(device)
    xs = [yaten.from_numpy(a.copy()).to(device).requires_grad_() for a in inputs]
    out = module(*xs)
    out = out[0] if isinstance(out, tuple) else out
    (out * yaten.linspace(-1.0, 1.0, out.numel()).to(device).view(out.shape)).sum().backward()
    grads = [x.grad for x in xs] + [p.grad for p in module.parameters()]
    return out, grads, module


def _same(got, want, tol=1e-5):
    assert got.device == CUDA and got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.detach().numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("make, inputs", [pytest.param(m, i, id=n) for n, m, i in LAYERS])
def test_layer_on_cuda_matches_cpu(make, inputs):
    yaten.manual_seed(0)
    module = make()
    want, want_grads, cpu_module = _run(module, inputs, "cpu")
    got, got_grads, cuda_module = _run(module, inputs, "cuda")
    _same(got, want)
    for g, w in zip(got_grads, want_grads, strict=True):
        assert (g is None) == (w is None)
        if w is not None:
            _same(g, w)
    for (name, b), (_, w) in zip(cuda_module.named_buffers(), cpu_module.named_buffers(), strict=True):
        assert b.device == CUDA, name  # running statistics stay on the device
        np.testing.assert_allclose(b.cpu().numpy(), w.numpy(), rtol=1e-5, atol=1e-6, err_msg=name)


def test_embedding_on_cuda_matches_cpu():
    yaten.manual_seed(0)
    module = nn.Embedding(5, 3, padding_idx=1)
    idx = np.array([[0, 1, 4], [4, 4, 2]])
    outs = {}
    for device in ("cpu", "cuda"):
        m = copy.deepcopy(module).to(device)
        out = m(yaten.from_numpy(idx).to(device))
        out.pow(2).sum().backward()
        outs[device] = (out, m.weight.grad)
    for g, w in zip(outs["cuda"], outs["cpu"]):
        _same(g, w)


LOSSES = [
    ("l1", nn.L1Loss, _floats(2, 3, seed=2)),
    ("mse", nn.MSELoss, _floats(2, 3, seed=2)),
    ("smooth-l1", lambda: nn.SmoothL1Loss(beta=0.5), _floats(2, 3, seed=2)),
    ("huber", lambda: nn.HuberLoss(reduction="sum"), _floats(2, 3, seed=2)),
    ("nll", lambda: nn.NLLLoss(reduction="none"), np.array([2, 0])),
    ("cross-entropy", lambda: nn.CrossEntropyLoss(weight=yaten.tensor([1.0, 2.0, 0.5])), np.array([1, 2])),
    ("cross-entropy-smoothing", lambda: nn.CrossEntropyLoss(label_smoothing=0.1), np.array([0, 2])),
    ("bce", nn.BCELoss, np.array([[0, 1, 1], [1, 0, 0]], np.float32)),
    ("bce-logits", lambda: nn.BCEWithLogitsLoss(pos_weight=yaten.tensor([1.0, 2.0, 3.0])), np.eye(2, 3)),
    ("kl-div", lambda: nn.KLDivLoss(reduction="batchmean"), np.full((2, 3), 1 / 3, np.float32)),
]


@pytest.mark.parametrize("make, target", [pytest.param(m, t, id=n) for n, m, t in LOSSES])
def test_loss_on_cuda_matches_cpu(make, target):
    x = _floats(2, 3)
    if isinstance(make(), nn.BCELoss):
        x = 1 / (1 + np.exp(-x))
    results = {}
    for device in ("cpu", "cuda"):
        inp = yaten.from_numpy(x.copy()).to(device).requires_grad_()
        t = yaten.from_numpy(np.asarray(target, np.float32 if target.dtype.kind == "f" else None)).to(device)
        loss = make().to(device)(inp, t)
        loss.sum().backward()
        results[device] = (loss, inp.grad)
    for g, w in zip(results["cuda"], results["cpu"]):
        _same(g, w)


OPTIMIZERS = [
    ("sgd-nesterov", lambda p: yaten.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)),
    ("adam-amsgrad", lambda p: yaten.optim.Adam(p, lr=0.01, amsgrad=True)),
    ("adamw", lambda p: yaten.optim.AdamW(p, lr=0.01, weight_decay=0.1)),
    ("rmsprop-centered", lambda p: yaten.optim.RMSprop(p, lr=0.01, momentum=0.5, centered=True)),
    ("adagrad", lambda p: yaten.optim.Adagrad(p, lr=0.1, lr_decay=0.01)),
]


@pytest.mark.parametrize("make", [pytest.param(m, id=n) for n, m in OPTIMIZERS])
def test_optimizer_steps_on_cuda_match_cpu(make):
    start = _floats(3, 2)
    params = {}
    for device in ("cpu", "cuda"):
        w = yaten.from_numpy(start.copy()).to(device).requires_grad_()
        opt = make([w])
        for step in range(3):
            opt.zero_grad()
            ((w - step) ** 2).sum().backward()
            opt.step()
        params[device] = w
        # the buffers live with the parameter; "step" stays a CPU scalar, as torch keeps it (not capturable)
        assert all(v.device == w.device for k, v in opt.state[w].items() if k != "step")
    _same(params["cuda"], params["cpu"])


@pytest.mark.parametrize("norm_type", [2.0, 1.0, float("inf")])
def test_gradient_clipping_on_cuda_matches_cpu(norm_type):
    results = {}
    for device in ("cpu", "cuda"):
        ps = [yaten.from_numpy(_floats(3, seed=s)).to(device).requires_grad_() for s in (3, 4)]
        for p in ps:
            (p * 10).sum().backward()
        total = nn.utils.clip_grad_norm_(ps, 1.0, norm_type)
        nn.utils.clip_grad_value_(ps, 0.5)
        results[device] = [total] + [p.grad for p in ps]
    for g, w in zip(results["cuda"], results["cpu"]):
        _same(g, w)
