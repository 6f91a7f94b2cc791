"""nn.Module and nn.Parameter side by side with PyTorch: registration, traversal, state_dict,
conversion, repr, errors and hooks."""

import copy
import pickle
import warnings
from collections import OrderedDict

import pytest
import torch

import yaten
from tests.nn._module_parity import affine_class, net_class, same
from tests.runtime.parity import name

# --- Parameter ----------------------------------------------------------------------------------------


def test_parameter_repr_and_flags():
    same(lambda m: repr(m.nn.Parameter(m.ones(2))))
    same(lambda m: repr(m.nn.Parameter(m.ones(2, dtype=m.int64), requires_grad=False)))
    same(lambda m: repr(m.nn.Parameter()))
    same(lambda m: m.nn.Parameter(m.ones(2, dtype=m.int64)))  # RuntimeError: int can't require grad
    same(lambda m: [isinstance(m.nn.Parameter(m.ones(1)), m.Tensor), isinstance(m.ones(1), m.nn.Parameter)])


def test_parameter_shares_data_and_version_counter():
    def case(m):
        t = m.ones(3)
        p = m.nn.Parameter(t)
        t.add_(1)
        return p.data_ptr() == t.data_ptr(), p._version, p.tolist(), p.is_leaf, p.grad_fn is None

    assert same(case) == ("tuple", [True, 1, ("list", [2.0, 2.0, 2.0]), True, True])


def test_parameter_of_a_non_leaf_is_a_leaf():
    def case(m):
        x = m.ones(2, requires_grad=True)
        p = m.nn.Parameter(x * 2)
        return p.is_leaf, p.requires_grad, p.grad_fn is None

    assert same(case) == ("tuple", [True, True, True])


def test_ops_on_parameter_return_tensors():
    def case(m):
        p = m.nn.Parameter(m.ones(2, 2))
        return [type(r).__name__ for r in (p + 1, p.detach(), p[0], p.clone(), p.t())]

    assert same(case) == ("list", ["Tensor"] * 5)


def test_parameter_deepcopy_and_pickle():
    def case(m):
        p = m.nn.Parameter(m.tensor([1.0, 2.0]), requires_grad=False)
        d = copy.deepcopy(p)
        s = pickle.loads(pickle.dumps(p))
        q = m.nn.Parameter(m.ones(1))
        q.grad = m.ones(1)
        return type(d).__name__, d.requires_grad, d.data_ptr() != p.data_ptr(), s, copy.deepcopy(q).grad

    assert same(case)[1][0] == "Parameter"


def test_buffer_class_registers_a_buffer():
    def case(m):
        mod = m.nn.Module()
        mod.a = m.nn.Buffer(m.ones(1))
        mod.b = m.nn.Buffer(m.zeros(1), persistent=False)
        b = m.nn.Buffer(m.ones(1))
        return (
            type(b).__name__,
            isinstance(b, m.nn.Buffer),
            list(mod.state_dict()),
            [n for n, _ in mod.named_buffers()],
        )

    assert same(case) == ("tuple", ["Tensor", True, ("list", ["a"]), ("list", ["a", "b"])])


# --- registration and attributes --------------------------------------------------------------------


def test_named_members_nested():
    def case(m):
        net = net_class(m)()
        return (
            [n for n, _ in net.named_parameters()],
            [n for n, _ in net.named_parameters(prefix="net", recurse=False)],
            [n for n, _ in net.named_buffers(prefix="x")],
            [n for n, _ in net.named_children()],
            [n for n, _ in net.named_modules()],
            len(list(net.parameters())),
            len(list(net.buffers(recurse=False))),
            [type(c).__name__ for c in net.children()],
            [type(c).__name__ for c in net.modules()],
        )

    got = same(case)
    assert got[1][0] == ("list", ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"])


def test_shared_parameters_and_modules_deduplicated():
    def case(m):
        Affine = affine_class(m)
        net = m.nn.Module()
        net.a = Affine()
        net.b = net.a
        net.c = Affine()
        net.c.weight = net.a.weight
        return (
            [n for n, _ in net.named_parameters()],
            [n for n, _ in net.named_parameters(remove_duplicate=False)],
            [n for n, _ in net.named_modules()],
            [n for n, _ in net.named_modules(remove_duplicate=False)],
            [n for n, _ in net.named_children()],
        )

    got = same(case)
    assert got[1][0] == ("list", ["a.weight", "a.bias", "c.bias"])


def test_assignment_moves_between_tables():
    def case(m):
        mod = m.nn.Module()
        mod.x = m.nn.Parameter(m.ones(1))
        mod.register_buffer("y", m.ones(1))
        out = [sorted(mod._parameters), sorted(mod._buffers)]
        mod.x = None  # stays a (None) parameter
        out.append(sorted(mod._parameters))
        mod.y = m.zeros(2)  # a tensor assigned to a buffer name replaces the buffer
        out.append(mod.y.tolist())
        mod.y = m.nn.Module()  # a module replaces the buffer
        out.append([sorted(mod._buffers), sorted(mod._modules)])
        mod.y = m.nn.Parameter(m.ones(1))
        out.append([sorted(mod._modules), sorted(mod._parameters)])
        mod.plain = 3
        out.append([mod.plain, "plain" in mod.__dict__])
        del mod.y
        del mod.plain
        out.append([sorted(mod._parameters), hasattr(mod, "plain")])
        return out

    same(case)


@pytest.mark.parametrize(
    "action",
    [
        lambda m, mod: setattr(mod, "w", m.ones(2)),  # tensor as a parameter
        lambda m, mod: setattr(mod, "sub", 3),  # int as a child module
        lambda m, mod: setattr(mod, "buf", "x"),  # str as a buffer
        lambda m, mod: mod.register_buffer("a.b", m.ones(1)),
        lambda m, mod: mod.register_buffer("", m.ones(1)),
        lambda m, mod: mod.register_buffer("w", m.ones(1)),
        lambda m, mod: mod.register_buffer("q", [1]),
        lambda m, mod: mod.register_buffer(1, m.ones(1)),
        lambda m, mod: mod.register_parameter("a.b", None),
        lambda m, mod: mod.register_parameter("", None),
        lambda m, mod: mod.register_parameter("sub", None),
        lambda m, mod: mod.register_parameter("q", m.ones(1)),
        lambda m, mod: mod.register_parameter(2, None),
        lambda m, mod: mod.add_module("q", m.ones(1)),
        lambda m, mod: mod.add_module("a.b", m.nn.Module()),
        lambda m, mod: mod.add_module("", m.nn.Module()),
        lambda m, mod: mod.add_module("w", m.nn.Module()),
        lambda m, mod: mod.add_module(3, m.nn.Module()),
        lambda m, mod: mod.missing,
        lambda m, mod: delattr(mod, "missing"),
        lambda m, mod: mod.forward(1),
        lambda m, mod: mod.train(1),
    ],
)
def test_registration_errors(action):
    def case(m):
        mod = m.nn.Module()
        mod.w = m.nn.Parameter(m.ones(1))
        mod.sub = m.nn.Module()
        mod.register_buffer("buf", m.ones(1))
        return action(m, mod)

    got = same(case)
    assert isinstance(got, tuple) and isinstance(got[0], type) and issubclass(got[0], Exception)


def test_non_leaf_parameter_rejected():
    def case(m):
        mod = m.nn.Module()
        p = m.nn.Parameter(m.ones(1))
        mod.register_parameter("w", p * 1)  # a plain tensor: TypeError
        return None

    assert same(case)[0] is TypeError


def test_assignment_before_init():
    def make(m, what):
        class Early(m.nn.Module):
            def __init__(self):
                what(self)
                super().__init__()

        return Early()

    same(lambda m: make(m, lambda s: setattr(s, "w", m.nn.Parameter(m.ones(1)))))
    same(lambda m: make(m, lambda s: setattr(s, "c", m.nn.Module())))
    same(lambda m: make(m, lambda s: s.register_buffer("b", m.ones(1))))
    same(lambda m: make(m, lambda s: s.register_parameter("b", None)))


def test_init_arguments_rejected():
    same(lambda m: m.nn.Module(3))
    same(lambda m: m.nn.Module(x=3))


def test_get_submodule_parameter_buffer():
    def case(m):
        net = net_class(m)()
        out = [type(net.get_submodule("fc1")).__name__, net.get_submodule("") is net]
        out.append(net.get_parameter("fc2.bias").shape)
        out.append(net.get_buffer("steps").tolist())
        for fn, target in ((net.get_submodule, "fc3"), (net.get_submodule, "fc1.weight"),
                           (net.get_parameter, "fc1.nope"), (net.get_parameter, "steps"),
                           (net.get_buffer, "fc1.weight"), (net.get_buffer, "zz")):  # fmt: skip
            try:
                fn(target)
            except AttributeError as e:
                out.append(str(e))
        net.set_submodule("fc1", m.nn.Module())
        out.append(type(net.fc1).__name__)
        try:
            net.set_submodule("extra", m.nn.Module(), strict=True)
        except AttributeError as e:
            out.append(str(e))
        return out

    assert len(same(case)[1]) == 12


def test_dir_lists_members():
    def case(m):
        net = net_class(m)()
        d = dir(net)
        return [k in d for k in ("fc1", "steps", "cache", "state_dict", "training")]

    assert same(case) == ("list", [True] * 5)


def test_forward_not_implemented():
    same(lambda m: m.nn.Module()(m.ones(1)))


# --- train / eval / grads -------------------------------------------------------------------------------


def test_train_eval_requires_grad_apply():
    def case(m):
        net = net_class(m)()
        out = [net.training, net.eval() is net, net.training, net.fc1.training]
        net.train()
        out.append(net.fc2.training)
        net.requires_grad_(False)
        out.append([p.requires_grad for p in net.parameters()])
        seen = []
        net.apply(lambda mod: seen.append(type(mod).__name__))
        out.append(seen)
        return out

    same(case)


def test_zero_grad():
    def case(m):
        net = net_class(m)()
        net(m.ones(1, 3)).sum().backward()
        grads = [p.grad for p in net.parameters()]
        net.zero_grad(set_to_none=False)
        out = [[g.abs().sum().item() for g in grads], [p.grad is g for p, g in zip(net.parameters(), grads)]]
        net.zero_grad()
        out.append([p.grad for p in net.parameters()])
        return out

    same(case)


def test_gradients_match():
    def case(m):
        net = net_class(m)()
        x = m.tensor([[1.0, -2.0, 0.5], [0.0, 1.0, 2.0]], requires_grad=True)
        y = net(x)
        y.pow(2).sum().backward()
        return [y, x.grad] + [p.grad for p in net.parameters()]

    got = same(case)
    assert got[1][1][:3] == ("Tensor", "yaten.float32", (2, 3))  # x.grad


# --- conversion ------------------------------------------------------------------------------------------


def test_to_keeps_parameter_objects():
    def case(m):
        net = net_class(m)()
        net(m.ones(1, 3)).sum().backward()
        w, g = net.fc1.weight, net.fc1.weight.grad
        out = [net.to(m.float64) is net, net.fc1.weight is w, w.dtype, w.grad.dtype, net.fc1.weight.grad is g]
        out += [net.steps.dtype, net.cache.dtype, w.requires_grad, w.is_leaf]
        net.float()
        out += [w.dtype, net.cache.dtype]
        net.half()
        out.append(w.dtype)
        net.double()
        out.append(w.dtype)
        net.to("cpu", m.float32)
        out.append(w.dtype)
        net.to(m.zeros(1, dtype=m.float64))
        out.append(w.dtype)
        net.to(device="cpu", dtype=m.float32, non_blocking=True)
        out.append(w.dtype)
        net.cpu()
        net.type(m.float64)
        out += [w.dtype, net.steps.dtype]
        return out

    same(case)


def test_to_empty():
    def case(m):
        net = net_class(m)()
        w = net.fc1.weight
        out = net.to_empty(device="cpu")
        return out is net, net.fc1.weight is w, w.shape, w.requires_grad, w.is_leaf, net.steps.shape

    same(case)


def test_to_rejects_integer_dtype():
    got = same(lambda m: m.nn.Module().to(m.int64))
    assert got == (
        TypeError,
        "nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=yaten.int64",
    )


def test_to_keeps_autograd_working():
    def case(m):
        Affine = affine_class(m)
        a = Affine().double()
        x = m.ones(1, 3, dtype=m.float64)
        a(x).sum().backward()
        return a.weight.grad, a.bias.grad

    same(case)


# --- state_dict ----------------------------------------------------------------------------------------------


def test_state_dict_contents():
    def case(m):
        net = net_class(m)()
        sd = net.state_dict()
        kv = net.state_dict(keep_vars=True)
        return (
            type(sd).__name__,
            list(sd.items()),
            [type(v).__name__ for v in kv.values()],
            kv["fc1.weight"] is net.fc1.weight,
            sd["fc1.weight"].data_ptr() == net.fc1.weight.data_ptr(),
            dict(sd._metadata),
            list(net.state_dict(prefix="p.")),
        )

    got = same(case)
    assert got[1][2] == ("list", ["Tensor", "Parameter", "Parameter", "Parameter", "Parameter"])


def test_state_dict_hooks():
    def case(m):
        net = net_class(m)()
        calls = []
        net.fc1.register_state_dict_pre_hook(
            lambda mod, prefix, keep_vars: calls.append(("pre", prefix, keep_vars))
        )

        def post(mod, sd, prefix, meta):
            calls.append(("post", prefix, sorted(meta)))
            sd[prefix + "extra"] = m.ones(1)

        net.fc2.register_state_dict_post_hook(post)
        h = net._register_state_dict_hook(lambda mod, sd, prefix, meta: OrderedDict(only=m.zeros(1)))
        first = list(net.state_dict())
        h.remove()
        second = list(net.state_dict())
        net.register_state_dict_post_hook(lambda *a: 1)
        try:
            net.state_dict()
        except RuntimeError as e:
            calls.append(str(e))
        return first, second, calls

    same(case)


def test_load_state_dict_roundtrip_copies_in_place():
    def case(m):
        a, b = net_class(m)(), net_class(m)()
        with m.no_grad():
            for p in a.parameters():
                p.mul_(-3)
        a.steps.fill_(5)
        w = b.fc1.weight
        v = w._version
        res = b.load_state_dict(a.state_dict())
        return repr(res), b.fc1.weight is w, w._version > v, list(b.state_dict().values()), w.requires_grad

    same(case)


@pytest.mark.parametrize(
    "edit",
    [
        lambda m, sd: sd.pop("fc1.bias"),
        lambda m, sd: sd.update({"fc3.weight": m.ones(1), "zz": m.ones(1)}),
        lambda m, sd: sd.update({"fc1.weight": m.ones(5, 5)}),
        lambda m, sd: sd.update({"fc2.bias": 3}),
        lambda m, sd: (sd.pop("steps"), sd.update({"fc1.weight": m.ones(1), "x": m.ones(1)})),
        lambda m, sd: sd.update({"steps": m.tensor([7])}),  # a 1-element checkpoint for a 0-d buffer
        lambda m, sd: sd.update({"cache": m.ones(2)}),  # a non-persistent buffer is unexpected
    ],
)
@pytest.mark.parametrize("strict", [True, False])
def test_load_state_dict_errors(edit, strict):
    def case(m):
        net = net_class(m)()
        sd = net.state_dict()
        sd = OrderedDict((k, v.clone()) for k, v in sd.items())
        edit(m, sd)
        res = net.load_state_dict(sd, strict=strict)
        return res.missing_keys, res.unexpected_keys, repr(res), net.steps

    same(case)


def test_load_state_dict_error_text():
    def case(m):
        a = affine_class(m)(2, 2)
        return a.load_state_dict({"weight": m.ones(2, 3), "bias": m.ones(2)})

    got = same(case)
    assert got == (
        RuntimeError,
        "Error(s) in loading state_dict for Affine:\n\tsize mismatch for weight: copying a param with shape "
        "yaten.Size([2, 3]) from checkpoint, the shape in current model is yaten.Size([2, 2]).",
    )
    same(lambda m: affine_class(m)().load_state_dict([1]))


def test_load_state_dict_assign():
    def case(m):
        a = affine_class(m)()
        a.bias.requires_grad_(False)
        new_w = m.ones(2, 3)
        w = a.weight
        a.load_state_dict({"weight": new_w, "bias": m.nn.Parameter(m.ones(2))}, assign=True)
        return (
            a.weight is w, type(a.weight).__name__, a.weight.data_ptr() == new_w.data_ptr(),
            a.bias.requires_grad, a.weight.requires_grad,
        )  # fmt: skip

    assert same(case)[1][0] is False


def test_load_state_dict_hooks():
    def case(m):
        net = net_class(m)()
        calls = []

        def pre(mod, sd, prefix, meta, strict, missing, unexpected, errors):
            calls.append(("pre", type(mod).__name__, prefix, sorted(sd), strict))

        def post(mod, keys):
            calls.append(("post", type(mod).__name__, list(keys.missing_keys)))
            keys.unexpected_keys.clear()

        net.fc2.register_load_state_dict_pre_hook(pre)
        net.register_load_state_dict_post_hook(post)
        sd = net.state_dict()
        sd["junk"] = m.ones(1)
        calls.append(repr(net.load_state_dict(sd)))
        net.register_load_state_dict_post_hook(lambda mod, keys: 1)
        try:
            net.load_state_dict(net.state_dict())
        except AssertionError as e:
            calls.append(str(e))
        return calls

    same(case)


def test_extra_state():
    def case(m):
        class WithExtra(m.nn.Module):
            def __init__(self):
                super().__init__()
                self.k = 1

            def get_extra_state(self):
                return {"k": self.k}

            def set_extra_state(self, state):
                self.k = state["k"]

        a, b = WithExtra(), WithExtra()
        a.k = 7
        sd = a.state_dict()
        b.load_state_dict(sd)
        out = [list(sd), b.k]
        try:
            b.load_state_dict({})
        except RuntimeError as e:
            out.append(str(e))
        return out

    same(case)


def test_state_dict_pickles_and_module_deepcopies():
    def case(m):
        net = net_class(m)()
        sd = pickle.loads(pickle.dumps(net.state_dict()))
        c = copy.deepcopy(net)
        return (
            list(sd.items()),
            c.fc1.weight is net.fc1.weight,
            c.fc1.weight.data_ptr() != net.fc1.weight.data_ptr(),
            list(c.state_dict().values()),
            [type(p).__name__ for p in c.parameters()],
        )

    got = same(case)
    assert got[1][1:3] == [False, True]


def test_module_pickles():
    def case(m):
        # Containers are importable classes, so the whole module pickles (a local class would not).
        net = m.nn.Sequential(m.nn.ParameterList([m.ones(2)]), m.nn.ModuleDict({"a": m.nn.Module()}))
        net[1]["a"].register_buffer("b", m.arange(3.0))
        net[1]["a"].register_buffer("tmp", m.ones(1), persistent=False)
        net.eval()
        p = pickle.loads(pickle.dumps(net))
        return (
            repr(p), list(p.state_dict().items()), [type(q).__name__ for q in p.parameters()],
            p.training, sorted(p[1]["a"]._non_persistent_buffers_set),
        )  # fmt: skip

    got = same(case)
    assert got[1][2] == ("list", ["Parameter"])


# --- repr ----------------------------------------------------------------------------------------------------


def test_repr_nested():
    def case(m):
        class Lines(m.nn.Module):
            def extra_repr(self):
                return "a=1\nb=2"

        net = net_class(m)()
        net.lines = Lines()
        net.none = None
        return repr(net), repr(Lines()), repr(m.nn.Module()), net._get_name()

    got = same(case)
    assert got[1][0].startswith("Net(\n  (fc1): Affine(in_features=3, out_features=4)")


# --- forward hooks ---------------------------------------------------------------------------------------------


def _recorder(m, calls):
    Affine = affine_class(m)
    a = Affine()
    a.register_forward_pre_hook(lambda mod, args: calls.append("pre1"))
    a.register_forward_pre_hook(lambda mod, args: calls.append("pre0"), prepend=True)
    a.register_forward_hook(lambda mod, args, out: calls.append("post1"))
    a.register_forward_hook(lambda mod, args, out: calls.append("post0"), prepend=True)
    return a


def test_forward_hook_order_and_global_hooks():
    def case(m):
        calls = []
        a = _recorder(m, calls)
        mm = m.nn.modules.module
        h1 = mm.register_module_forward_pre_hook(lambda mod, args: calls.append("gpre"))
        h2 = mm.register_module_forward_hook(lambda mod, args, out: calls.append("gpost"))
        try:
            a(m.ones(1, 3))
        finally:
            h1.remove()
            h2.remove()
        a(m.ones(1, 3))
        return calls

    assert same(case) == (
        "list",
        ["gpre", "pre0", "pre1", "gpost", "post0", "post1", "pre0", "pre1", "post0", "post1"],
    )


def test_forward_hooks_replace_input_and_output():
    def case(m):
        a = affine_class(m)()
        x = m.ones(1, 3)
        h = a.register_forward_pre_hook(lambda mod, args: args[0] * 2)  # a non-tuple is wrapped
        out = [a(x)]
        h.remove()
        h = a.register_forward_pre_hook(lambda mod, args, kwargs: ((args[0] + 1,), kwargs), with_kwargs=True)
        out.append(a(x))
        h.remove()
        a.register_forward_hook(lambda mod, args, output: output * 0 + args[0].sum())
        a.register_forward_hook(lambda mod, args, kwargs, output: output + len(kwargs), with_kwargs=True)
        out.append(a(x))
        return out

    same(case)


def test_forward_pre_hook_with_kwargs_bad_return():
    def case(m):
        a = affine_class(m)()
        a.register_forward_pre_hook(lambda mod, args, kwargs: 5, with_kwargs=True)
        return a(m.ones(1, 3))

    assert same(case)[0] is RuntimeError


def test_always_call_hook_runs_when_forward_raises():
    def case(m):
        calls = []

        class Boom(m.nn.Module):
            def forward(self, x):
                raise ValueError("boom")

        b = Boom()
        b.register_forward_hook(lambda mod, args, out: calls.append(("always", out)), always_call=True)
        b.register_forward_hook(lambda mod, args, out: calls.append("normal"))
        try:
            b(m.ones(1))
        except ValueError as e:
            calls.append(str(e))
        return calls

    assert same(case) == ("list", [("tuple", ["always", None]), "boom"])


def test_hook_handles_remove():
    def case(m):
        calls = []
        a = affine_class(m)()
        with a.register_forward_hook(lambda *args: calls.append(1)):
            a(m.ones(1, 3))
        a(m.ones(1, 3))
        h = a.register_forward_pre_hook(lambda *args: calls.append(2))
        h.remove()
        h.remove()
        a(m.ones(1, 3))
        return calls, len(a._forward_hooks), len(a._forward_pre_hooks)

    assert same(case) == ("tuple", [("list", [1]), 0, 0])


def test_registration_hooks():
    def case(m):
        calls = []
        mm = m.nn.modules.module
        hs = [
            mm.register_module_parameter_registration_hook(lambda mod, n, p: calls.append(("p", n))),
            mm.register_module_buffer_registration_hook(lambda mod, n, b: calls.append(("b", n)) or b * 2),
            mm.register_module_module_registration_hook(lambda mod, n, s: calls.append(("m", n))),
        ]
        try:
            mod = m.nn.Module()
            mod.w = m.nn.Parameter(m.ones(1))
            mod.register_buffer("buf", m.ones(1))
            mod.sub = m.nn.Module()
            mod.add_module("sub2", None)
        finally:
            for h in hs:
                h.remove()
        mod.w2 = m.nn.Parameter(m.ones(1))
        return calls, mod.buf

    same(case)


# --- backward hooks --------------------------------------------------------------------------------------------


class _Log:
    """Records what backward hooks see, as comparable data."""

    def __init__(self):
        self.calls = []

    def full(self, tag, ret=None):
        def hook(mod, grad_input, grad_output):
            self.calls.append((tag, type(mod).__name__, grad_input, grad_output))
            return ret(grad_input) if ret else None

        return hook

    def pre(self, tag, ret=None):
        def hook(mod, grad_output):
            self.calls.append((tag, grad_output))
            return ret(grad_output) if ret else None

        return hook


def _two_in_two_out(m):
    class Mix(m.nn.Module):
        def forward(self, x, k, y):
            return x * y * k, x + y

    return Mix()


def test_full_backward_hooks_see_input_and_output_grads():
    def case(m):
        log = _Log()
        mod = _two_in_two_out(m)
        mod.register_full_backward_pre_hook(log.pre("pre"))
        mod.register_full_backward_hook(log.full("full"))
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = m.tensor([3.0, 4.0], requires_grad=True)
        a, b = mod(x, 2.0, y)
        (a.sum() + (b * b).sum()).backward()
        return log.calls, x.grad, y.grad

    got = same(case)
    assert [c[1][0] for c in got[1][0][1]] == ["pre", "full"]  # each fired exactly once


def test_full_backward_hook_replaces_grad_input_and_pre_hook_grad_output():
    def case(m):
        log = _Log()
        a = affine_class(m)()
        a.register_full_backward_pre_hook(log.pre("pre", lambda go: (go[0] * 10,)))
        a.register_full_backward_hook(log.full("full", lambda gi: (gi[0] + 1,)))
        a.register_full_backward_hook(log.full("first"), prepend=True)
        x = m.ones(1, 3, requires_grad=True)
        a(x).sum().backward()
        return log.calls, x.grad, a.weight.grad

    same(case)


def test_full_backward_hook_wrong_length():
    def case(m):
        a = affine_class(m)()
        a.register_full_backward_hook(lambda mod, gi, go: (gi[0], gi[0]))
        a(m.ones(1, 3, requires_grad=True)).sum().backward()

    assert same(case)[0] is RuntimeError

    def pre_case(m):
        a = affine_class(m)()
        a.register_full_backward_pre_hook(lambda mod, go: ())
        a(m.ones(1, 3, requires_grad=True)).sum().backward()

    assert same(pre_case)[0] is RuntimeError


def test_full_backward_hook_when_no_input_requires_grad():
    def case(m):
        log = _Log()
        a = affine_class(m)()
        a.register_full_backward_hook(log.full("full"))
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            a(m.ones(1, 3)).sum().backward()
        return log.calls, [name(str(x.message))[:40] for x in w], a.bias.grad

    got = same(case)
    assert got[1][0][1][0][1][2] == ("tuple", [None])


def test_global_backward_hooks_and_mixing_error():
    def case(m):
        log = _Log()
        mm = m.nn.modules.module
        hs = [
            mm.register_module_full_backward_hook(log.full("global")),
            mm.register_module_full_backward_pre_hook(log.pre("gpre")),
        ]
        try:
            a = affine_class(m)()
            a.register_full_backward_hook(log.full("local"))
            x = m.ones(1, 3, requires_grad=True)
            a(x).sum().backward()
            try:
                a.register_backward_hook(lambda *args: None)
            except RuntimeError as e:
                log.calls.append(str(e))
            try:
                mm.register_module_backward_hook(lambda *args: None)
            except RuntimeError as e:
                log.calls.append(str(e))
        finally:
            for h in hs:
                h.remove()
        return log.calls

    same(case)


def test_legacy_backward_hook():
    def case(m):
        log = _Log()
        a = affine_class(m)()
        a.register_backward_hook(log.full("legacy"))
        try:
            a.register_full_backward_hook(lambda *args: None)
        except RuntimeError as e:
            log.calls.append(str(e))
        x = m.ones(1, 3, requires_grad=True)
        a(x).sum().backward()
        return [c[:2] if isinstance(c, tuple) else c for c in log.calls]

    same(case)


def test_backward_hooks_removed_and_no_grad():
    def case(m):
        log = _Log()
        a = affine_class(m)()
        h = a.register_full_backward_hook(log.full("full"))
        with m.no_grad():
            y = a(m.ones(1, 3, requires_grad=True))
        h.remove()
        a(m.ones(1, 3, requires_grad=True)).sum().backward()
        return log.calls, y.requires_grad

    assert same(case) == ("tuple", [("list", []), False])


def test_module_call_without_hooks_is_forward():
    a = affine_class(yaten)()
    x = yaten.ones(1, 3)
    assert a(x).tolist() == a.forward(x).tolist()
    assert a.__class__.__call__ is yaten.nn.Module.__call__


def test_state_dict_values_detached_in_yaten():
    net = net_class(yaten)()
    sd = net.state_dict()
    assert not sd["fc1.weight"].requires_grad
    assert not isinstance(sd["fc1.weight"], yaten.nn.Parameter)
    assert name(torch.float32) == "yaten.float32"


def test_full_backward_hook_identity_module():
    def case(m):
        class Id(m.nn.Module):
            def forward(self, x):
                return x

        log = _Log()
        mod = Id()
        mod.register_full_backward_hook(log.full("full"))
        mod.register_full_backward_pre_hook(log.pre("pre"))
        x = m.ones(2, requires_grad=True)
        y = mod(x)
        (y * 3).sum().backward()
        return log.calls, x.grad, y.grad_fn.name()

    assert same(case)[1][2] == "BackwardHookFunctionBackward"


def test_full_backward_hook_module_called_twice():
    def case(m):
        a = affine_class(m)()
        log = _Log()
        a.register_full_backward_hook(log.full("full"))
        x = m.ones(1, 3, requires_grad=True)
        y = a(a(m.ones(1, 3)) @ m.ones(2, 3) + x)
        y.sum().backward()
        return log.calls, x.grad

    same(case)


def test_full_backward_hook_non_tensor_args_and_outputs():
    def case(m):
        class W(m.nn.Module):
            def forward(self, x, n):
                return x * 2, n, x * 3

        log = _Log()
        w = W()
        w.register_full_backward_hook(log.full("full"))
        x = m.ones(2, requires_grad=True)
        o = w(x, 5)
        (o[0].sum() + o[2].sum() * 2).backward()
        return log.calls, x.grad, o[1]

    same(case)


def test_full_backward_hook_unused_input_and_kwargs():
    def case(m):
        class U(m.nn.Module):
            def forward(self, x, y, *, s):
                return x * s

        log = _Log()
        u = U()
        u.register_full_backward_hook(log.full("full"))
        x, y, s = (
            m.ones(1, requires_grad=True),
            m.ones(1, requires_grad=True),
            m.full((1,), 3.0, requires_grad=True),
        )
        u(x, y, s=s).sum().backward()
        return log.calls, x.grad, y.grad, s.grad

    same(case)


def test_full_backward_hook_double_backward():
    def case(m):
        class Cube(m.nn.Module):
            def forward(self, x):
                return x * x * x

        log = _Log()
        c = Cube()
        c.register_full_backward_hook(log.full("full"))
        x = m.tensor([2.0], requires_grad=True)
        (g,) = m.autograd.grad(c(x).sum(), x, create_graph=True)
        g.sum().backward()
        return log.calls, g, x.grad

    same(case)


def test_zero_grad_keeps_a_non_leaf_grad_object():
    def case(m):
        mod = m.nn.Module()
        mod.w = m.nn.Parameter(m.ones(1))
        y = m.ones(1, requires_grad=True) * 2
        mod.w.grad = y
        mod.zero_grad(set_to_none=False)
        return mod.w.grad, mod.w.grad is y, y.grad_fn is None

    assert same(case) == ("tuple", [("Tensor", "yaten.float32", (1,), [0.0], False), True, True])


def test_global_forward_hook_kwargs_and_always_call():
    def case(m):
        calls = []
        mm = m.nn.modules.module

        class Boom(m.nn.Module):
            def forward(self, x, *, k=0):
                if k < 0:
                    raise ValueError("negative")
                return x + k

        hs = [
            mm.register_module_forward_hook(
                lambda mod, a, kw, out: calls.append(("kw", kw)), with_kwargs=True
            ),
            mm.register_module_forward_hook(
                lambda mod, a, out: calls.append(("always", out)), always_call=True
            ),
        ]
        b = Boom()
        try:
            b(m.ones(1), k=2)
            try:
                b(m.ones(1), k=-1)
            except ValueError as e:
                calls.append(str(e))
        finally:
            for h in hs:
                h.remove()
        b(m.ones(1))
        return calls

    assert len(same(case)[1]) == 4


def test_state_dict_positional_arguments():
    def case(m):
        a = affine_class(m)()
        dest = OrderedDict()
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            out = a.state_dict(dest, "pre.", True)
        return out is dest, list(out), [x.category.__name__ for x in w], type(out["pre.weight"]).__name__

    assert same(case) == (
        "tuple",
        [True, ("list", ["pre.weight", "pre.bias"]), ("list", ["FutureWarning"]), "Parameter"],
    )


def test_register_buffer_override_without_persistent():
    def case(m):
        class Custom(m.nn.Module):
            def register_buffer(self, name, tensor):
                super().register_buffer(name, tensor * 2)

        c = Custom()
        c.b = m.nn.Buffer(m.ones(1))
        out = [c.b, list(c.state_dict())]
        try:
            c.n = m.nn.Buffer(m.ones(1), persistent=False)
        except RuntimeError as e:
            out.append(str(e))
        return out

    same(case)
