"""torch.func on yaten: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap, functional_call and
stack_module_state, side by side with PyTorch (values, requires_grad, errors)."""

import pytest

from tests.runtime.parity import same


def _x(m):
    return m.tensor([0.5, -1.0, 2.0], dtype=m.float64)


def _f(m):
    return lambda x: (x.sin() * x.exp()).sum()


CASES = {
    "grad": lambda m: m.func.grad(_f(m))(_x(m)),
    "grad of grad": lambda m: m.func.grad(lambda x: m.func.grad(lambda y: (y**3).sum())(x).sum())(_x(m)),
    "grad argnums tuple": lambda m: m.func.grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(_x(m), _x(m) + 1),
    "grad argnums 1": lambda m: m.func.grad(lambda a, b: (a * b.cos()).sum(), argnums=1)(_x(m), _x(m) + 1),
    "grad dict pytree": lambda m: m.func.grad(lambda d: (d["a"] * d["b"][0]).sum())(
        {"a": _x(m), "b": (_x(m),)}
    ),
    "grad has_aux": lambda m: m.func.grad(lambda x: (x.sum(), x * 2), has_aux=True)(_x(m)),
    "grad_and_value": lambda m: m.func.grad_and_value(_f(m))(_x(m)),
    "grad_and_value has_aux": lambda m: m.func.grad_and_value(lambda x: (x.sum(), {"k": x}), has_aux=True)(
        _x(m)
    ),
    "grad kwargs": lambda m: m.func.grad(lambda x, scale=1.0: (x * scale).sum())(_x(m), scale=3.0),
    "grad unused": lambda m: m.func.grad(lambda a, b: a.sum(), argnums=1)(_x(m), _x(m)),
    "grad of input requiring grad": lambda m: m.func.grad(lambda x: (x**2).sum())(_x(m).requires_grad_()),
    "grad error non-scalar": lambda m: m.func.grad(lambda x: x)(_x(m)),
    "grad error tuple out": lambda m: m.func.grad(lambda x: (x.sum(), 1))(_x(m)),
    "grad error aux": lambda m: m.func.grad(lambda x: x.sum(), has_aux=True)(_x(m)),
    "grad error argnum": lambda m: m.func.grad(lambda x: x.sum(), argnums=2)(_x(m)),
    "grad error argnums dup": lambda m: m.func.grad(lambda x: x.sum(), argnums=(0, 0))(_x(m)),
    "grad error argnums type": lambda m: m.func.grad(lambda x: x.sum(), argnums=1.0)(_x(m)),
    "grad error argnums empty": lambda m: m.func.grad(lambda x: x.sum(), argnums=())(_x(m)),
    "grad error float input": lambda m: m.func.grad(lambda x: x.sum())(1.0),
    "vjp": lambda m: (lambda r: (r[0], r[1](m.ones(3, dtype=m.float64))))(
        m.func.vjp(lambda x: x.sin() * 2, _x(m))
    ),
    "vjp tuple out": lambda m: (lambda r: (r[0], r[1]((m.ones(3, dtype=m.float64), _x(m)))))(
        m.func.vjp(lambda x, y: (x * y, x.exp()), _x(m), _x(m) * 2)
    ),
    "vjp has_aux": lambda m: (lambda r: (r[0], r[2], r[1](m.ones(3, dtype=m.float64))))(
        m.func.vjp(lambda x: (x.cos(), x.sum()), _x(m), has_aux=True)
    ),
    "vjp error structure": lambda m: m.func.vjp(lambda x: (x, x), _x(m))[1](_x(m)),
    "vjp error float out": lambda m: m.func.vjp(lambda x: 1.0, _x(m)),
    "vjp error aux": lambda m: m.func.vjp(lambda x: x, _x(m), has_aux=True),
    "jvp": lambda m: m.func.jvp(lambda x: x.sin() * x, (_x(m),), (m.ones(3, dtype=m.float64),)),
    "jvp two inputs": lambda m: m.func.jvp(
        lambda x, y: (x * y, y.exp()), (_x(m), _x(m) + 1), (_x(m), _x(m) * 3)
    ),
    "jvp has_aux": lambda m: m.func.jvp(lambda x: (x**2, x.sum()), (_x(m),), (_x(m),), has_aux=True),
    "jvp error primals": lambda m: m.func.jvp(lambda x: x, _x(m), _x(m)),
    "jvp error structure": lambda m: m.func.jvp(lambda x: x, (_x(m),), [_x(m)]),
    "jvp error shape": lambda m: m.func.jvp(lambda x: x, (_x(m),), (m.ones(2, dtype=m.float64),)),
    "jacrev": lambda m: m.func.jacrev(lambda x: x.sin() * x.sum())(_x(m)),
    "jacrev matrix input": lambda m: m.func.jacrev(lambda x: x @ x)(_x(m).reshape(3, 1) * _x(m)),
    "jacrev argnums": lambda m: m.func.jacrev(lambda a, b: a * b.sum(), argnums=(0, 1))(_x(m), _x(m) * 2),
    "jacrev pytree out": lambda m: m.func.jacrev(lambda x: {"a": x.exp(), "b": (x.sum(),)})(_x(m)),
    "jacrev has_aux": lambda m: m.func.jacrev(lambda x: (x**2, x.sum()), has_aux=True)(_x(m)),
    "jacrev error argnum": lambda m: m.func.jacrev(lambda x: x, argnums=1)(_x(m)),
    "jacfwd": lambda m: m.func.jacfwd(lambda x: x.tanh() * x)(_x(m)),
    "jacfwd error randomness": lambda m: m.func.jacfwd(lambda x: x, randomness="bad")(_x(m)),
    "hessian": lambda m: m.func.hessian(lambda x: (x.sin() * x.roll(1)).sum())(_x(m)),
    "hessian argnums": lambda m: m.func.hessian(lambda a, b: (a * b * b).sum(), argnums=1)(_x(m), _x(m) * 2),
    "vmap": lambda m: m.func.vmap(m.dot)(m.arange(6.0).reshape(3, 2), m.ones(3, 2)),
    "vmap in_dims": lambda m: m.func.vmap(lambda x, y: x * y, in_dims=(1, None))(
        m.arange(6.0).reshape(2, 3), m.ones(2)
    ),
    "vmap out_dims": lambda m: m.func.vmap(lambda x: x * 2, in_dims=1, out_dims=1)(
        m.arange(6.0).reshape(2, 3)
    ),
    "vmap nested": lambda m: m.func.vmap(
        m.func.vmap(lambda a, b: a * b, in_dims=(None, 0)), in_dims=(0, None)
    )(m.arange(3.0), m.arange(4.0)),
    "vmap pytree in/out": lambda m: m.func.vmap(lambda d: (d["a"] + 1, d["a"].sum()), in_dims=({"a": 0},))(
        {"a": m.ones(2, 3)}
    ),
    "vmap out_dims None": lambda m: m.func.vmap(lambda x: (x, 1.0), out_dims=(0, None))(m.ones(2)),
    "vmap per-sample grad": lambda m: m.func.vmap(
        m.func.grad(lambda w, x: (w * x).sin().sum()), in_dims=(None, 0)
    )(_x(m), m.arange(6.0, dtype=m.float64).reshape(2, 3)),
    "vmap randomness same": lambda m: (lambda r: bool(m.equal(r[0], r[1])))(
        m.func.vmap(lambda x: m.rand(2) + x, randomness="same")(m.zeros(2))
    ),
    "vmap randomness different": lambda m: (lambda r: bool(m.equal(r[0], r[1])))(
        m.func.vmap(lambda x: m.rand(2) + x, randomness="different")(m.zeros(2))
    ),
    "vmap error random": lambda m: m.func.vmap(lambda x: m.rand(1) + x)(m.ones(2)),
    "vmap error randomness": lambda m: m.func.vmap(lambda x: x, randomness="foo"),
    "vmap error sizes": lambda m: m.func.vmap(lambda x, y: x + y)(m.ones(2), m.ones(3)),
    "vmap error in_dim range": lambda m: m.func.vmap(lambda x: x, in_dims=1)(m.ones(2)),
    "vmap error in_dims structure": lambda m: m.func.vmap(lambda x: x, in_dims=(0, 0))(m.ones(2)),
    "vmap error in_dims type": lambda m: m.func.vmap(lambda x: x, in_dims=None)(m.ones(2)),
    "vmap error unbatched": lambda m: m.func.vmap(lambda x: x, in_dims=(None,))(m.ones(2)),
    "vmap error no inputs": lambda m: m.func.vmap(lambda: 1)(),
    "vmap error float in": lambda m: m.func.vmap(lambda x: x)(1.0),
    "vmap error float out": lambda m: m.func.vmap(lambda x: 1.0)(m.ones(2)),
    "vmap error out_dims type": lambda m: m.func.vmap(lambda x: x, out_dims="a")(m.ones(2)),
    "vmap error out_dims structure": lambda m: m.func.vmap(lambda x: x, out_dims=(0, 0))(m.ones(2)),
    "vmap error out_dim None batched": lambda m: m.func.vmap(lambda x: x, out_dims=None)(m.arange(2.0)),
    "vmap error chunk_size": lambda m: m.func.vmap(lambda x: x, chunk_size=0),
    "torch.vmap": lambda m: m.vmap(lambda x: x.sum())(m.ones(2, 3)),
    "grad closing over a parameter": lambda m: _penalty(
        m, lambda w, x: m.func.grad(lambda t: (t * w).sin().sum())(x)
    ),
    "vmap of grad closing over a parameter": lambda m: _penalty(
        m, lambda w, x: m.func.vmap(m.func.grad(lambda t: (t * w).sin().sum()))(x.reshape(3, 1).expand(3, 3))
    ),
    "jvp closing over a parameter": lambda m: _penalty(
        m, lambda w, x: m.func.jvp(lambda t: (t * w).exp(), (x,), (x,))[1]
    ),
    "jacrev closing over a parameter": lambda m: _penalty(
        m, lambda w, x: m.func.jacrev(lambda t: (t * w).cos())(x)
    ),
    "grad under no_grad": lambda m: (
        lambda w: _no_grad_call(m, lambda: m.func.grad(lambda t: (t * w).sum())(_x(m)))
    )(_x(m).requires_grad_()),
    "linearize": lambda m: (lambda r: (r[0], r[1](_x(m) * 2), r[1](m.ones(3, dtype=m.float64))))(
        m.func.linearize(lambda x: x.sin() * x, _x(m))
    ),
    "linearize error shape": lambda m: m.func.linearize(m.sin, _x(m))[1](m.ones(2, dtype=m.float64)),
    "functionalize": lambda m: (
        lambda x: (m.func.functionalize(lambda t: (t.mul_(2), t.clone().add_(1))[1])(x), x)
    )(m.ones(2)),
    "functionalize error": lambda m: m.func.functionalize(lambda t: t, remove="x"),
    "debug_unwrap": lambda m: m.func.debug_unwrap(_x(m)),
    "replace batch norm": lambda m: (
        lambda bn: (
            bn.running_mean,
            bn.running_var,
            bn.num_batches_tracked,
            bn.track_running_stats,
            bn(_x(m).float().reshape(3, 1)),
        )
    )(m.func.replace_all_batch_norm_modules_(m.nn.Sequential(m.nn.Linear(1, 1), m.nn.BatchNorm1d(1)))[1]),
}


def _penalty(m, transform):
    """A transform's result built from a parameter the function closes over, and that parameter's gradient
    through it (a gradient penalty): torch's results keep their graph back to the parameter."""
    w = m.tensor([0.3, -0.7, 1.1], dtype=m.float64, requires_grad=True)
    out = transform(w, _x(m))
    requires_grad = out.requires_grad
    if requires_grad:
        (out**2).sum().backward()
    return out.detach(), requires_grad, w.grad


def _no_grad_call(m, fn):
    with m.no_grad():
        out = fn()
    return out, out.requires_grad


@pytest.mark.parametrize("name", CASES)
def test_func_matches_torch(name):
    case = CASES[name]
    same(lambda m: (m.manual_seed(0), case(m))[1])


def _linear(m):
    lin = m.nn.Linear(3, 2).double()
    with m.no_grad():
        lin.weight.copy_(m.arange(6.0).reshape(2, 3) / 7)
        lin.bias.copy_(m.tensor([0.1, -0.2]))
    return lin


def _tied(m):
    class Tied(m.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = _linear(m)
            self.b = _linear(m)
            self.b.weight = self.a.weight
            self.register_buffer("scale", m.tensor(2.0, dtype=m.float64))

        def forward(self, x):
            return self.b(self.a(x[..., :3]).repeat(1, 2)[..., :3]) * self.scale

    return Tied()


_IN = [[1.0, 2.0, -1.0]]

CALLS = {
    "dict": lambda m: m.func.functional_call(
        _linear(m), {"weight": m.ones(2, 3, dtype=m.float64)}, m.tensor(_IN, dtype=m.float64)
    ),
    "tuple of dicts": lambda m: m.func.functional_call(
        _linear(m),
        ({"weight": m.ones(2, 3, dtype=m.float64)}, {"bias": m.zeros(2, dtype=m.float64)}),
        (m.tensor(_IN, dtype=m.float64),),
    ),
    "kwargs": lambda m: m.func.functional_call(_linear(m), {}, (), {"input": m.tensor(_IN, dtype=m.float64)}),
    "restores": lambda m: (
        lambda lin: (
            m.func.functional_call(
                lin, {"bias": m.zeros(2, dtype=m.float64)}, m.tensor(_IN, dtype=m.float64)
            ),
            lin.bias,
        )
    )(_linear(m)),
    "tied": lambda m: m.func.functional_call(
        _tied(m), {"a.weight": m.ones(2, 3, dtype=m.float64)}, m.tensor(_IN, dtype=m.float64)
    ),
    "untied": lambda m: m.func.functional_call(
        _tied(m),
        {"a.weight": m.ones(2, 3, dtype=m.float64)},
        m.tensor(_IN, dtype=m.float64),
        tie_weights=False,
    ),
    "buffer": lambda m: m.func.functional_call(
        _tied(m), {"scale": m.tensor(5.0, dtype=m.float64)}, m.tensor(_IN, dtype=m.float64)
    ),
    "strict ok": lambda m: m.func.functional_call(
        _linear(m), dict(_linear(m).named_parameters()), m.tensor(_IN, dtype=m.float64), strict=True
    ),
    "grad through": lambda m: (
        lambda lin: m.func.grad(lambda p, x: m.func.functional_call(lin, p, (x,)).pow(2).sum())(
            {k: v.detach() for k, v in lin.named_parameters()}, m.tensor(_IN, dtype=m.float64)
        )
    )(_linear(m)),
    "ensemble": lambda m: (
        lambda ps: m.func.vmap(
            lambda p, b: m.func.functional_call(_linear(m), (p, b), (m.tensor(_IN, dtype=m.float64),))
        )(*ps)
    )(m.func.stack_module_state([_linear(m), _linear(m)])),
    "stack_module_state": lambda m: m.func.stack_module_state([_linear(m), _linear(m)]),
    "stateless": lambda m: m.nn.utils.stateless.functional_call(
        _linear(m), {"bias": m.ones(2, dtype=m.float64)}, m.tensor(_IN, dtype=m.float64)
    ),
    "error strict": lambda m: m.func.functional_call(
        _linear(m), {"weight": m.ones(2, 3), "extra": m.ones(1)}, m.ones(1, 3), strict=True
    ),
    "error repeated": lambda m: m.func.functional_call(
        _linear(m), ({"bias": m.ones(2)}, {"bias": m.ones(2)}), m.ones(1, 3)
    ),
    "error not dicts": lambda m: m.func.functional_call(_linear(m), ({"bias": m.ones(2)}, 3), m.ones(1, 3)),
    "error type": lambda m: m.func.functional_call(_linear(m), 3, m.ones(1, 3)),
    "error tied values": lambda m: m.func.functional_call(
        _tied(m),
        {"a.weight": m.ones(2, 3, dtype=m.float64), "b.weight": m.zeros(2, 3, dtype=m.float64)},
        m.ones(1, 3),
    ),
    "error stack empty": lambda m: m.func.stack_module_state([]),
    "error stack modes": lambda m: m.func.stack_module_state([_linear(m), _linear(m).eval()]),
    "error stack classes": lambda m: m.func.stack_module_state([_linear(m), m.nn.Bilinear(3, 2, 1)]),
}


@pytest.mark.parametrize("name", CALLS)
def test_functional_call_matches_torch(name):
    same(CALLS[name])


def test_stateless_warns_as_torch():
    import yaten

    with pytest.warns(FutureWarning, match="torch.func.functional_call"):
        yaten.nn.utils.stateless.functional_call(yaten.nn.Linear(1, 1), {}, yaten.ones(1, 1))
