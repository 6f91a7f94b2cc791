"""gradcheck / gradgradcheck: analytic gradients against central finite differences."""

import numpy as np

from .. import _tensor as T


class GradcheckError(RuntimeError):
    """Raised by gradcheck when an analytical and a numerical Jacobian disagree."""


def _as_tuple(x):
    return (x,) if isinstance(x, T.Tensor) else tuple(x)


def _differentiable_outputs(fn, inputs):
    return [o for o in _as_tuple(fn(*inputs)) if isinstance(o, T.Tensor) and o._rg]


def _outputs_host(fn, inputs):
    return [
        o._host().astype(np.float64).reshape(-1) for o in _as_tuple(fn(*inputs)) if isinstance(o, T.Tensor)
    ]


def _numerical_jacobian(fn, inputs, wrt, eps):
    """Per (input, output): a (numel_in, numel_out) matrix of central differences.

    Each element is perturbed in place in the input's (cpu) array and restored afterwards.
    """
    from .grad_mode import no_grad

    jac = []
    with no_grad():
        for x in wrt:
            data = x._data
            if x._device.type != "cpu":
                raise NotImplementedError("gradcheck runs on cpu tensors")
            rows = None
            for i, idx in enumerate(np.ndindex(data.shape)):
                orig = data[idx]
                data[idx] = orig + eps
                plus = _outputs_host(fn, inputs)
                data[idx] = orig - eps
                minus = _outputs_host(fn, inputs)
                data[idx] = orig
                if rows is None:
                    rows = [np.zeros((data.size, p.size)) for p in plus]
                for r, p, m in zip(rows, plus, minus):
                    r[i] = (p - m) / (2 * eps)
            jac.append(rows or [])
    return jac


def _analytical_jacobian(fn, inputs, wrt):
    import yaten

    outs = [o for o in _as_tuple(fn(*inputs)) if isinstance(o, T.Tensor)]
    jac = [[np.zeros((x.numel(), o.numel())) for o in outs] for x in wrt]
    for j, o in enumerate(outs):
        if not o._rg:
            continue
        for k in range(o.numel()):
            unit = np.zeros(o.numel(), o.dtype.np)
            unit[k] = 1
            g = yaten.as_tensor(unit.reshape(tuple(o.shape)), device=o.device)
            grads = yaten.autograd.grad(o, wrt, g, retain_graph=True, allow_unused=True)
            for i, gi in enumerate(grads):
                if gi is not None:
                    jac[i][j][:, k] = gi.detach().to(yaten.float64).numpy().reshape(-1)
    return jac


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, **_ignored) -> bool:
    """Check the gradients of ``func`` at ``inputs`` against finite differences (use float64).

    >>> import yaten
    >>> x = yaten.tensor([1.0, 2.0], dtype=yaten.float64, requires_grad=True)
    >>> yaten.autograd.gradcheck(lambda t: (t * t).sum(), (x,))
    True
    """
    inputs = _as_tuple(inputs)
    wrt = [x for x in inputs if isinstance(x, T.Tensor) and x._rg]
    if not wrt:
        raise ValueError("gradcheck expects at least one input tensor to require gradient")
    numerical = _numerical_jacobian(func, inputs, wrt, eps)
    analytical = _analytical_jacobian(func, inputs, wrt)
    for i, (num_rows, ana_rows) in enumerate(zip(numerical, analytical)):
        for j, (n, a) in enumerate(zip(num_rows, ana_rows)):
            if not np.allclose(a, n, rtol=rtol, atol=atol, equal_nan=True):
                if not raise_exception:
                    return False
                raise GradcheckError(
                    f"Jacobian mismatch for output {j} with respect to input {i},\n"
                    f"numerical:{n}\nanalytical:{a}\n"
                )
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
                  **_ignored) -> bool:  # fmt: skip
    """Check second derivatives: gradcheck of the function (inputs, v) -> vJP(inputs, v)."""
    import yaten

    inputs = _as_tuple(inputs)
    outs = _differentiable_outputs(func, inputs)
    if grad_outputs is None:
        gen = np.random.default_rng(0)
        grad_outputs = [
            yaten.tensor(gen.standard_normal(tuple(o.shape)), dtype=o.dtype).requires_grad_() for o in outs
        ]
    grad_outputs = list(_as_tuple(grad_outputs))
    n = len(inputs)
    wrt_pos = [i for i, x in enumerate(inputs) if isinstance(x, T.Tensor) and x._rg]

    def vjp(*args):
        xs, vs = args[:n], args[n:]
        os = _differentiable_outputs(func, xs)
        gs = yaten.autograd.grad(os, [xs[i] for i in wrt_pos], vs, create_graph=True, allow_unused=True)
        return tuple(g for g in gs if g is not None)

    return gradcheck(
        vjp, (*inputs, *grad_outputs), eps=eps, atol=atol, rtol=rtol, raise_exception=raise_exception
    )
