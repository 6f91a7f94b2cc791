"""yaten.compile, Module.compile, yaten._dynamo and yaten.compiler against torch's: the wrapper module
(``_orig_mod``, state_dict keys, repr, attribute pass-through, pickling), the argument checks and
their messages, and the eager results."""

import pickle

import numpy as np
import pytest
import torch
import torch._dynamo

import yaten
import yaten._dynamo
from tests.tolerances import assert_close


@pytest.fixture(autouse=True)
def _torch_distribution_validation_kept():
    # torch.compile switches torch.distributions' default argument validation off for the whole process;
    # put it back, so that tests run after these still compare validation errors with torch's.
    validate = torch.distributions.Distribution._validate_args
    yield
    torch.distributions.Distribution.set_default_validate_args(validate)


def _pair():
    t = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
    y = yaten.nn.Sequential(yaten.nn.Linear(3, 4), yaten.nn.ReLU(), yaten.nn.Linear(4, 2))
    y.load_state_dict({k: yaten.from_numpy(v.detach().numpy().copy()) for k, v in t.state_dict().items()})
    return t, y


def test_compiled_module_is_torchs_wrapper():
    t, y = _pair()
    ct, cy = torch.compile(t, backend="eager"), yaten.compile(y)
    assert type(cy).__name__ == type(ct).__name__ == "OptimizedModule"
    assert type(cy).__module__.replace("yaten", "torch") == type(ct).__module__
    assert list(cy.state_dict()) == list(ct.state_dict())
    assert [n for n, _ in cy.named_parameters()] == [n for n, _ in ct.named_parameters()]
    assert repr(cy) == repr(ct)
    assert cy._orig_mod is y and len(cy) == len(ct) == 3
    x = np.random.default_rng(1).standard_normal((5, 3)).astype(np.float32)
    out_y, out_t = cy(yaten.from_numpy(x)), ct(torch.from_numpy(x))
    assert_close(out_y, out_t)
    out_y.sum().backward()
    out_t.sum().backward()
    assert_close(y[0].weight.grad, t[0].weight.grad)


def test_compiled_module_passes_attributes_through():
    y = yaten.nn.Linear(2, 3)
    c = yaten.compile(y)
    assert c.in_features == 2 and c.weight is y.weight
    c.eval()
    assert y.training is False and c.training is False
    c.extra = 5
    assert y.extra == 5
    del c.extra
    assert not hasattr(y, "extra")
    c.load_state_dict({"_orig_mod.weight": yaten.zeros(3, 2), "_orig_mod.bias": yaten.zeros(3)})
    assert y.weight.abs().sum().item() == 0


def test_compiled_module_pickles_as_itself():
    c = yaten.compile(yaten.nn.Linear(2, 2))
    back = pickle.loads(pickle.dumps(c))
    assert type(back) is type(c) and list(back.state_dict()) == ["_orig_mod.weight", "_orig_mod.bias"]
    assert_close(back(yaten.ones(1, 2)), c(yaten.ones(1, 2)))


def test_compile_function_and_decorator_forms():
    def f(x):
        return x * 2 + 1

    assert yaten.compile(f) is f
    deco = yaten.compile(mode="max-autotune", fullgraph=True, dynamic=False)
    assert deco(f) is f

    @yaten.compile
    def g(x):
        return x.sin()

    assert_close(g(yaten.ones(2)), torch.ones(2).sin())
    assert yaten.compile(f, disable=True) is f
    assert yaten.compile(f, backend=lambda gm, example_inputs: gm) is f


@pytest.mark.parametrize(
    "kwargs",
    [
        {"mode": "bogus"},
        {"mode": "max-autotune", "options": {"a": 1}},
        {"backend": "nope"},
        {"dynamic": "yes"},
    ],
    ids=["mode", "mode_and_options", "backend", "dynamic"],
)
def test_compile_argument_errors_match_torch(kwargs):
    with pytest.raises(Exception) as want:
        torch.compile(torch.nn.Linear(1, 1), **kwargs)
    with pytest.raises(Exception) as got:
        yaten.compile(yaten.nn.Linear(1, 1), **kwargs)
    assert type(got.value).__name__ == type(want.value).__name__
    assert str(got.value) == str(want.value)
    assert isinstance(got.value, RuntimeError) == isinstance(want.value, RuntimeError)


def test_compile_refuses_what_torch_refuses():
    for lib in (torch, yaten):
        with pytest.raises(AssertionError, match="A callable function is expected"):
            lib.compile(3)
        with pytest.raises(RuntimeError, match="Model can't be None"):
            lib.compile()(None)


def test_module_compile_in_place():
    t, y = _pair()
    assert y.compile(mode="reduce-overhead") is None and t.compile(backend="eager") is None
    assert type(y) is yaten.nn.Sequential and list(y.state_dict()) == list(t.state_dict())
    x = np.ones((2, 3), np.float32)
    assert_close(y(yaten.from_numpy(x)), t(torch.from_numpy(x)))
    with pytest.raises(RuntimeError, match="Unrecognized mode"):
        y.compile(mode="fast")
    state = pickle.loads(pickle.dumps(y))
    assert "_compiled_call_impl" not in state.__dict__


def test_dynamo_config_and_helpers():
    for name in ("cache_size_limit", "suppress_errors", "recompile_limit", "verbose", "optimize_ddp"):
        assert getattr(yaten._dynamo.config, name) == getattr(torch._dynamo.config, name)
    for lib in (torch, yaten):
        with pytest.raises(AttributeError, match="torch._dynamo.config.cache_sizelimit does not exist"):
            lib._dynamo.config.cache_sizelimit = 3
        with pytest.raises(AttributeError, match="torch._dynamo.config.nope does not exist"):
            lib._dynamo.config.nope  # noqa: B018
    old = yaten._dynamo.config.cache_size_limit
    yaten._dynamo.config.cache_size_limit = 64
    assert yaten._dynamo.config.cache_size_limit == 64
    yaten._dynamo.config.cache_size_limit = old
    assert yaten._dynamo.list_backends() == torch._dynamo.list_backends()
    assert set(yaten._dynamo.list_backends(exclude_tags=())) <= set(
        torch._dynamo.list_backends(exclude_tags=())
    )
    assert yaten._dynamo.reset() is None and yaten._dynamo.is_compiling() is False

    def f(x):
        return x

    assert yaten._dynamo.disable(f) is f and yaten._dynamo.disable(recursive=False)(f) is f
    t = yaten.ones(2, 3)
    yaten._dynamo.mark_dynamic(t, [0, -1])
    assert t._dynamo_dynamic_indices == {0, 1}
    with pytest.raises(IndexError, match="Dimension out of range"):
        yaten._dynamo.mark_dynamic(t, 2)


def test_compiler_namespace():
    for name in ("is_compiling", "is_dynamo_compiling", "is_exporting"):
        assert getattr(yaten.compiler, name)() is getattr(torch.compiler, name)() is False
    assert yaten.compiler.get_default_backend() == torch.compiler.get_default_backend()
    assert yaten.compiler.compile is yaten.compile
    yaten.compiler.set_stance("force_eager")
    assert yaten.compiler.disable(abs) is abs
