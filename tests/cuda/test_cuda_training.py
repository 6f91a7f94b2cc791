"""Training on the CUDA device end to end: a small MLP's steps (Linear, ReLU, cross entropy, backward,
each optimizer) and a small CNN's (convolution, batch norm, max pooling) on ``cuda`` give the CPU's
losses and parameters (under NUMBA_ENABLE_CUDASIM=1 without
a GPU; sizes are tiny because the simulator runs every GPU thread in Python)."""

import numpy as np
import pytest

import yaten

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")


def _train(device, optimizer, steps=2):
    yaten.manual_seed(0)
    model = yaten.nn.Sequential(yaten.nn.Linear(4, 6), yaten.nn.ReLU(), yaten.nn.Linear(6, 3)).to(device)
    opt = getattr(yaten.optim, optimizer)(model.parameters(), lr=0.1)
    rng = np.random.default_rng(0)
    x = yaten.from_numpy(rng.standard_normal((5, 4)).astype(np.float32)).to(device)
    y = yaten.tensor([0, 2, 1, 1, 0]).to(device)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = yaten.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, {k: v.detach().cpu().numpy() for k, v in model.state_dict().items()}, model


@pytest.mark.parametrize("optimizer", ["SGD", "Adam", "AdamW"])
def test_mlp_steps_on_cuda_match_cpu(optimizer):
    cpu_losses, cpu_state, _ = _train("cpu", optimizer)
    losses, state, model = _train("cuda", optimizer)
    assert all(p.device == yaten.device("cuda", 0) for p in model.parameters())
    assert all(p.grad.device == yaten.device("cuda", 0) for p in model.parameters())
    np.testing.assert_allclose(losses, cpu_losses, rtol=1e-5)
    for key, value in cpu_state.items():
        np.testing.assert_allclose(state[key], value, rtol=1e-5, atol=1e-6, err_msg=key)


def _train_cnn(device):
    yaten.manual_seed(0)
    nn = yaten.nn
    model = nn.Sequential(
        nn.Conv2d(1, 2, 3, padding=1), nn.BatchNorm2d(2), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(2 * 2 * 2, 3),
    ).to(device)  # fmt: skip
    # SGD: the conv bias before batch norm has a gradient of rounding noise only, which Adam would
    # scale up to a full step whose sign depends on the last bits
    opt = yaten.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x = yaten.from_numpy(np.random.default_rng(0).standard_normal((2, 1, 4, 4)).astype(np.float32)).to(device)
    y = yaten.tensor([0, 2]).to(device)
    losses = []
    for _ in range(2):
        opt.zero_grad()
        loss = yaten.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, {k: v.detach().cpu().numpy() for k, v in model.state_dict().items()}


def test_small_cnn_steps_on_cuda_match_cpu():
    """Convolution, batch norm (running statistics too), max pooling and Linear on the device."""
    cpu_losses, cpu_state = _train_cnn("cpu")
    losses, state = _train_cnn("cuda")
    np.testing.assert_allclose(losses, cpu_losses, rtol=1e-5)
    for key, value in cpu_state.items():
        np.testing.assert_allclose(state[key], value, rtol=1e-4, atol=1e-5, err_msg=key)


def test_checkpoint_of_a_cuda_model_loads_on_the_cpu(tmp_path):
    _, state, model = _train("cuda", "SGD", steps=1)
    path = tmp_path / "model.pt"
    yaten.save(model.state_dict(), path)
    loaded = yaten.load(path, map_location="cpu")
    for key, value in state.items():
        assert loaded[key].device == yaten.device("cpu")
        np.testing.assert_array_equal(loaded[key].numpy(), value)
