"""Running a yaten optimizer and torch's side by side on the same parameters and gradients."""

import numpy as np
import torch

import yaten
from tests.tolerances import assert_close

SHAPES = [(3, 4), (5,), ()]


def make_params(lib, seed=0, dtype="float64"):
    """Leaf tensors of SHAPES with the same values in either library."""
    rng = np.random.default_rng(seed)
    return [lib.tensor(rng.standard_normal(s), dtype=getattr(lib, dtype), requires_grad=True) for s in SHAPES]


def grads_for(step, seed=1):
    rng = np.random.default_rng(seed * 100_003 + step)
    return [rng.standard_normal(s) for s in SHAPES]


def assert_state_equal(y_opt, t_opt, y_params, t_params, **tol):
    for i, (yp, tp) in enumerate(zip(y_params, t_params)):
        ys, ts = y_opt.state.get(yp, {}), t_opt.state.get(tp, {})
        assert sorted(ys) == sorted(ts), f"param {i}: state keys {sorted(ys)} != {sorted(ts)}"
        for k in ts:
            if isinstance(ts[k], torch.Tensor):
                assert isinstance(ys[k], yaten.Tensor), k
                assert str(ys[k].dtype) == str(ts[k].dtype).replace("torch", "yaten"), k
                assert tuple(ys[k].shape) == tuple(ts[k].shape), k
            assert_close(ys[k], ts[k], what=f"param {i} state {k}", **tol)


def set_grads(params, lib, grads, skip=()):
    for i, (p, g) in enumerate(zip(params, grads)):
        if i in skip:
            p.grad = None
        else:
            p.grad = lib.tensor(g, dtype=p.dtype)


def run_parity(y_cls, t_cls, kwargs, steps=50, skip_grad=(), y_opt=None, t_opt=None, params=None, **tol):
    """Step both optimizers ``steps`` times; compare params and state after every step.

    ``skip_grad``: indices of parameters left without a gradient (or a function of the step).
    """
    if params is None:
        y_params, t_params = make_params(yaten), make_params(torch)
    else:
        y_params, t_params = params
    y_opt = y_opt or y_cls(y_params, **kwargs)
    t_opt = t_opt or t_cls(t_params, **kwargs)
    for step in range(steps):
        g = grads_for(step)
        skip = skip_grad(step) if callable(skip_grad) else skip_grad
        set_grads(y_params, yaten, g, skip)
        set_grads(t_params, torch, g, skip)
        y_opt.step()
        t_opt.step()
        for i, (yp, tp) in enumerate(zip(y_params, t_params)):
            assert_close(yp, tp, what=f"step {step} param {i}", **tol)
        assert_state_equal(y_opt, t_opt, y_params, t_params, **tol)
    return y_opt, t_opt, y_params, t_params


DIFFERENTIABLE_GRADS = ([0.5, 0.25, -1.0], [0.1, 0.2, 0.3], [-0.4, 0.0, 0.2])


def differentiable_steps(lib, name, kwargs, grads=DIFFERENTIABLE_GRADS):
    """Step a ``differentiable=True`` optimizer on a non-leaf clone ``w`` of ``w0``, then
    differentiate ``(w * w).sum()`` back to ``w0``. Returns ``(w, w0.grad)``."""
    w0 = lib.tensor([1.0, -2.0, 0.3], dtype=lib.float64, requires_grad=True)
    w = w0.clone()
    opt = getattr(lib.optim, name)([w], differentiable=True, **kwargs)
    for g in grads:
        w.grad = lib.tensor(g, dtype=lib.float64)
        opt.step()
    (w * w).sum().backward()
    return w, w0.grad
