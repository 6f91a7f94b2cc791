"""Adadelta, Adamax, NAdam, RAdam, ASGD, Rprop and LBFGS on the CUDA device: steps on cuda give the
CPU's parameters, also with ``capturable=True`` (its scalar state lives on the device and the step
keeps it there), under NUMBA_ENABLE_CUDASIM=1 without a GPU (so the tensors are tiny)."""

import numpy as np
import pytest

import yaten

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")

OPTIMIZERS = [
    ("Adadelta", {"lr": 0.5, "weight_decay": 0.1}),
    ("Adamax", {"lr": 0.1, "weight_decay": 0.1}),
    ("NAdam", {"lr": 0.1, "weight_decay": 0.1}),
    ("NAdam", {"lr": 0.1, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("RAdam", {"lr": 0.1, "betas": (0.9, 0.9)}),  # rho_t > 5 from step 2 on: both branches
    ("ASGD", {"lr": 0.1, "t0": 1}),
    ("Rprop", {"lr": 0.1}),
]


def _steps(device, name, kwargs, steps=3):
    w = yaten.from_numpy(np.array([[0.5, -1.0], [2.0, 0.25]], dtype=np.float32)).to(device).requires_grad_()
    opt = getattr(yaten.optim, name)([w], **kwargs)
    for step in range(steps):
        opt.zero_grad()
        ((w - step) ** 2 * (1 + w)).sum().backward()
        opt.step()
    return w, opt.state[w]


@pytest.mark.parametrize("capturable", [False, True])
@pytest.mark.parametrize("name,kwargs", OPTIMIZERS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(OPTIMIZERS)])
def test_steps_on_cuda_match_cpu(name, kwargs, capturable):
    want, cpu_state = _steps("cpu", name, kwargs)
    got, state = _steps("cuda", name, {**kwargs, "capturable": capturable})
    np.testing.assert_allclose(got.cpu().detach().numpy(), want.detach().numpy(), rtol=1e-5, atol=1e-6)
    assert sorted(state) == sorted(cpu_state)
    for key, value in state.items():
        scalar = value.dim() == 0
        on_device = not scalar or capturable or name == "ASGD"  # ASGD keeps its scalars with the param
        assert value.device.type == ("cuda" if on_device else "cpu"), key
        np.testing.assert_allclose(value.cpu().numpy(), cpu_state[key].numpy(), rtol=1e-5, atol=1e-6)


def test_lbfgs_on_cuda_matches_cpu():
    results = []
    for device in ("cpu", "cuda"):
        w = yaten.from_numpy(np.array([1.5, -0.5], dtype=np.float32)).to(device).requires_grad_()
        opt = yaten.optim.LBFGS([w], line_search_fn="strong_wolfe", max_iter=4)

        def closure(w=w, opt=opt):
            opt.zero_grad()
            loss = (1 - w[0]) ** 2 + 10 * (w[1] - w[0] ** 2) ** 2
            loss.backward()
            return loss

        opt.step(closure)
        results.append((w.cpu().detach().numpy(), opt.state[w]["func_evals"]))
    (cpu, cpu_evals), (cuda, cuda_evals) = results
    np.testing.assert_allclose(cuda, cpu, rtol=1e-4, atol=1e-5)
    assert cuda_evals == cpu_evals
