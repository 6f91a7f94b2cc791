"""yaten.jit against torch.jit: the decorators, ``script``/``trace`` (eager, same results), the
refinement ``isinstance``, ``fork``/``wait`` and the archive functions' errors."""

# ruff: noqa: UP006, UP045 - TorchScript programs spell their types typing.List / typing.Optional

import copy
import pickle
import typing
import warnings

import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_close


def _linear_pair():
    t = torch.nn.Linear(3, 2)
    y = yaten.nn.Linear(3, 2)
    y.load_state_dict({k: yaten.from_numpy(v.detach().numpy().copy()) for k, v in t.state_dict().items()})
    return t, y


def test_script_module_behaves_as_torchs_scripted_module():
    t, y = _linear_pair()
    ts, ys = torch.jit.script(t), yaten.jit.script(y)
    x = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    assert_close(ys(yaten.from_numpy(x)), ts(torch.from_numpy(x)))
    assert list(ys.state_dict()) == list(ts.state_dict())
    assert [n for n, _ in ys.named_parameters()] == [n for n, _ in ts.named_parameters()]
    assert isinstance(ys, yaten.jit.ScriptModule) and isinstance(ys, yaten.nn.Linear)
    assert isinstance(ts, torch.jit.ScriptModule)
    assert ys.weight is y.weight  # the same parameters, as torch's scripted module shares them


def test_scripted_module_is_its_own_object_as_torchs():
    def tree(lib):
        m = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.Dropout(0.5))
        return m, lib.jit.script(m)

    (tm, ts), (ym, ys) = tree(torch), tree(yaten)
    ts.eval()
    ys.eval()
    assert (ym.training, ym[1].training) == (tm.training, tm[1].training) == (True, True)
    assert ys.training is ts.training is False and ys[1].training is False
    assert ys[0].weight is ym[0].weight and ts[0].weight is tm[0].weight
    with pytest.raises(RuntimeError) as want:
        pickle.dumps(ts)
    with pytest.raises(RuntimeError) as got:
        pickle.dumps(ys)
    assert str(got.value) == str(want.value)
    clone = copy.deepcopy(ys)
    assert isinstance(clone, yaten.jit.ScriptModule) and clone[0].weight is not ym[0].weight
    assert_close(clone[0].weight, ym[0].weight)
    with pytest.raises(NotImplementedError, match="cannot write TorchScript archives"):
        ys.save("m.pt")


def test_script_function_and_trace_give_torchs_results():
    def f(x):
        return (x * 2).relu().sum(0)

    x = np.array([[-1.0, 2.0], [3.0, -4.0]], np.float32)
    assert_close(yaten.jit.script(f)(yaten.from_numpy(x)), torch.jit.script(f)(torch.from_numpy(x)))
    traced_y = yaten.jit.trace(f, yaten.from_numpy(x))
    traced_t = torch.jit.trace(f, torch.from_numpy(x))
    other = np.ones((3, 2), np.float32)
    assert_close(traced_y(yaten.from_numpy(other)), traced_t(torch.from_numpy(other)))


def test_trace_runs_the_example_inputs_under_is_tracing():
    seen = {}

    def g(x, y):
        seen[yaten.__name__] = yaten.jit.is_tracing()
        return x + y

    traced = yaten.jit.trace(g, (yaten.ones(2), yaten.ones(2)))
    assert isinstance(traced, yaten.jit.ScriptFunction) and traced.__wrapped__ is g
    assert seen == {"yaten": True} and yaten.jit.is_tracing() is False
    with pytest.raises(TypeError) as want:
        torch.jit.trace(lambda x: x.sum(), (torch.ones(2), torch.ones(3)))
    with pytest.raises(TypeError) as got:
        yaten.jit.trace(lambda x: x.sum(), (yaten.ones(2), yaten.ones(3)))
    assert str(got.value) == str(want.value)
    m = yaten.nn.Linear(2, 1)
    traced_m = yaten.jit.trace_module(m, {"forward": yaten.ones(1, 2)})
    assert isinstance(traced_m, yaten.jit.ScriptModule) and traced_m.weight is m.weight
    assert yaten.jit.trace(g, example_kwarg_inputs={"x": yaten.ones(1), "y": yaten.ones(1)})(1, 2) == 3


def test_decorators_mark_like_torchs():
    def a(x):
        return x

    def b(x):
        return x

    for lib in (torch, yaten):
        assert lib.jit.ignore(a) is a
    assert yaten.jit.ignore(a)._torchscript_modifier == torch.jit.ignore(b)._torchscript_modifier
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        dropped = yaten.jit.ignore(drop=True)(a)
    with warnings.catch_warnings(record=True) as want:
        warnings.simplefilter("always")
        torch.jit.ignore(drop=True)(b)
    assert [str(w.message) for w in got] == [str(w.message) for w in want]
    assert [w.category for w in got] == [w.category for w in want] == [FutureWarning]
    assert dropped._torchscript_modifier == b._torchscript_modifier
    for name in ("unused", "export"):
        assert (
            getattr(yaten.jit, name)(a)._torchscript_modifier
            == getattr(torch.jit, name)(b)._torchscript_modifier
        )
    assert yaten.jit.is_scripting() is torch.jit.is_scripting() is False


def test_final_annotations_and_attribute():
    assert yaten.jit.Final is torch.jit.Final

    class M(yaten.nn.Module):
        size: yaten.jit.Final[int]

        def __init__(self):
            super().__init__()
            self.size = 3

        def forward(self, x):
            return x * self.size

    assert yaten.jit.script(M())(yaten.ones(1)).tolist() == [3.0]
    assert repr(yaten.jit.Attribute(3, int)) == repr(torch.jit.Attribute(3, int))
    assert yaten.jit.annotate(typing.List[int], []) == torch.jit.annotate(typing.List[int], []) == []


@pytest.mark.parametrize(
    "obj, target",
    [
        ([1, 2], typing.List[int]),
        ([1, "a"], typing.List[int]),
        ({"a": 1}, typing.Dict[str, int]),
        ({"a": "b"}, typing.Dict[str, int]),
        ((1, "a"), typing.Tuple[int, str]),
        ((1, 2), typing.Tuple[int, str]),
        (None, typing.Optional[int]),
        (3, typing.Optional[int]),
        ("x", typing.Optional[int]),
        (3.0, float),
    ],
)
def test_jit_isinstance_matches_torch(obj, target):
    assert yaten.jit.isinstance(obj, target) == torch.jit.isinstance(obj, target)


def test_fork_wait_run_now():
    fut = yaten.jit.fork(lambda x, k=1: x + k, 2, k=3)
    assert (
        fut.done()
        and yaten.jit.wait(fut) == torch.jit.wait(torch.jit.fork(lambda x, k=1: x + k, 2, k=3)) == 5
    )

    def boom():
        raise ValueError("x")

    with pytest.raises(ValueError):
        yaten.jit.fork(boom)  # raised at fork, as torch's eager fork
    assert fut.then(lambda f: f.value() * 2).wait() == 10


def test_ScriptModule_subclass_and_freeze():
    class Twice(yaten.jit.ScriptModule):
        @yaten.jit.script_method
        def forward(self, x):
            return 2 * x

    m = Twice()
    assert isinstance(m, yaten.nn.Module) and m(yaten.ones(1)).tolist() == [2.0]
    with pytest.raises(RuntimeError) as want:
        torch.jit.freeze(torch.jit.script(torch.nn.Linear(2, 2)))
    with pytest.raises(RuntimeError) as got:
        yaten.jit.freeze(yaten.nn.Linear(2, 2))
    assert str(got.value) == str(want.value)
    assert yaten.jit.optimize_for_inference(yaten.nn.Linear(2, 2)).training is False


def test_fuser_and_fusion_strategy_checks():
    with (
        pytest.raises(Exception, match=r"unrecognized fuser option \(name: bogus\)"),
        yaten.jit.fuser("bogus"),
    ):
        pass
    old = yaten.jit.set_fusion_strategy([("STATIC", 3)])
    assert old == [("STATIC", 2), ("DYNAMIC", 10)]
    assert yaten.jit.set_fusion_strategy(old) == [("STATIC", 3)]


def test_save_and_load_say_what_to_do(tmp_path):
    with pytest.raises(NotImplementedError, match="cannot write TorchScript archives.*state_dict"):
        yaten.jit.save(yaten.jit.script(yaten.nn.Linear(1, 1)), tmp_path / "m.pt")
    missing = str(tmp_path / "missing.pt")
    with pytest.raises(ValueError) as want:
        torch.jit.load(missing)
    with pytest.raises(ValueError) as got:
        yaten.jit.load(missing)
    assert str(got.value) == str(want.value)
    path = tmp_path / "scripted.pt"
    torch.jit.script(torch.nn.Linear(1, 1)).save(str(path))
    with pytest.raises(NotImplementedError, match="cannot run TorchScript archives"):
        yaten.jit.load(str(path))


def test_tracer_warning_is_a_warning():
    assert issubclass(yaten.jit.TracerWarning, Warning)
    with warnings.catch_warnings():
        yaten.jit.TracerWarning.ignore_lib_warnings()


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.jit.script(lib.nn.ReLU()),
        lambda lib: lib.jit.trace(lib.nn.ReLU(), lib.ones(1)),
        lambda lib: lib.jit.wait(lib.jit.fork(abs, -1)),
        lambda lib: lib.jit.freeze(lib.jit.script(lib.nn.ReLU().eval())),
    ],
    ids=["script", "trace", "fork_wait", "freeze"],
)
def test_deprecation_warnings_match_torch(call):
    messages = []
    for lib in (torch, yaten):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call(lib)
        messages.append(sorted({str(w.message) for w in caught if w.category is DeprecationWarning}))
    assert messages[0] == messages[1] and messages[0]
