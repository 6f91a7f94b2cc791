"""nn.utils, torch.func and checkpoint on cuda (the simulator without a GPU): checkpoint replays the CUDA
generator (the same dropout mask in recomputation), parametrizations and func transforms give the CPU's values."""

import numpy as np
import pytest
from compare import assert_same

import yaten
from yaten.utils.checkpoint import checkpoint

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")


@pytest.mark.parametrize("use_reentrant", [False, True])
def test_checkpoint_replays_the_cuda_generator(use_reentrant):
    x = yaten.ones(2, 8, device="cuda", requires_grad=True)
    out = checkpoint(lambda t: yaten.nn.functional.dropout(t, 0.5) * 3, x, use_reentrant=use_reentrant)
    out.sum().backward()
    assert x.grad.device == out.device == yaten.device("cuda", 0)
    assert yaten.equal(x.grad, (out != 0).to(x.dtype) * 6)


def _linear(device):
    lin = yaten.nn.Linear(3, 2).to(device)
    with yaten.no_grad():
        lin.weight.copy_(yaten.tensor(np.cos(np.arange(6.0)).reshape(2, 3), dtype=yaten.float32))
        lin.bias.zero_()
    return yaten.nn.utils.parametrizations.weight_norm(lin)


def test_weight_norm_and_func_on_cuda():
    def run(device):
        lin = _linear(device)
        x = yaten.tensor(np.linspace(-1, 1, 6).reshape(2, 3), dtype=yaten.float32).to(device)
        params = {k: v.detach() for k, v in lin.named_parameters()}
        per_sample = yaten.func.vmap(
            yaten.func.grad(lambda p, xi: yaten.func.functional_call(lin, p, (xi,)).pow(2).sum()),
            in_dims=(None, 0),
        )(params, x)
        return lin.weight, per_sample["parametrizations.weight.original1"]

    for got, want in zip(run("cuda"), run("cpu")):
        assert_same(got, want)
