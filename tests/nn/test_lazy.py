"""Lazy modules and UninitializedParameter/UninitializedBuffer side by side with torch: repr before and
after the first forward, the class they become, inferred sizes, outputs and gradients with torch's
weights copied across, init bounds, state_dict behaviour and errors."""

import copy
import math
import pickle

import numpy as np
import pytest
import torch

import yaten
from tests.nn._module_parity import errors_alike, pair
from tests.tolerances import assert_matches

# (class name, constructor args, first input shape)
LAZY = [
    ("LazyLinear", (4,), (3, 5)),
    ("LazyConv1d", (4, 3), (2, 3, 7)),
    ("LazyConv2d", (4, 3), (2, 3, 5, 5)),
    ("LazyConv3d", (2, 2), (1, 3, 3, 3, 3)),
    ("LazyConvTranspose1d", (2, 3), (2, 3, 5)),
    ("LazyConvTranspose2d", (2, 3), (1, 3, 4, 4)),
    ("LazyConvTranspose3d", (2, 2), (1, 3, 2, 2, 2)),
    ("LazyBatchNorm1d", (), (4, 3)),
    ("LazyBatchNorm2d", (), (2, 3, 2, 2)),
    ("LazyBatchNorm3d", (), (2, 3, 2, 2, 2)),
    ("LazyInstanceNorm1d", (), (2, 3, 5)),
    ("LazyInstanceNorm2d", (), (2, 3, 3, 3)),
    ("LazyInstanceNorm3d", (), (2, 3, 2, 2, 2)),
]


def _to_yaten(sd):
    return {k: yaten.from_numpy(v.detach().numpy().copy()) for k, v in sd.items()}


@pytest.mark.parametrize("name, args, shape", LAZY)
def test_lazy_module_becomes_the_eager_class_and_matches_torch(name, args, shape):
    y, t = getattr(yaten.nn, name)(*args).double(), getattr(torch.nn, name)(*args).double()
    assert repr(y) == repr(t)
    assert list(y.state_dict()) == list(t.state_dict())
    assert [repr(v) for v in y.state_dict().values()] == [repr(v) for v in t.state_dict().values()]
    assert y.has_uninitialized_params() and t.has_uninitialized_params()
    xy, xt = pair(*shape)
    with torch.no_grad():
        t(xt)  # the dry runs materialize both; then yaten's takes torch's values
    with yaten.no_grad():
        y(xy)
    y.load_state_dict(_to_yaten(t.state_dict()))
    xy.requires_grad_(), xt.requires_grad_()
    out_y, out_t = y(xy), t(xt)
    assert type(y).__name__ == type(t).__name__ == getattr(torch.nn, name).cls_to_become.__name__
    assert type(y) is getattr(yaten.nn, type(t).__name__)
    assert repr(y) == repr(t)
    assert_matches(out_y, out_t)
    g = np.random.default_rng(1).standard_normal(tuple(out_t.shape))
    out_y.backward(yaten.from_numpy(g.copy()))
    out_t.backward(torch.from_numpy(g))
    assert_matches(xy.grad, xt.grad)
    for (ky, py), (kt, pt) in zip(y.named_parameters(), t.named_parameters()):
        assert ky == kt and type(py) is yaten.nn.Parameter
        assert_matches(py.grad, pt.grad)
    assert not y._forward_pre_hooks and not y._load_state_dict_pre_hooks


@pytest.mark.parametrize("name, args, shape", LAZY)
def test_the_first_forward_infers_the_sizes_as_torch(name, args, shape):
    y, t = getattr(yaten.nn, name)(*args), getattr(torch.nn, name)(*args)
    xy, xt = pair(*shape)
    y(xy.float()), t(xt.float())
    assert repr(y) == repr(t)
    assert {k: tuple(v.shape) for k, v in y.state_dict().items()} == {
        k: tuple(v.shape) for k, v in t.state_dict().items()
    }
    assert all(v.dtype == yaten.float32 for v in y.parameters())


@pytest.mark.parametrize("name", ["LazyLinear", "LazyConv2d"])
def test_materialized_weights_follow_the_eager_init_bounds(name):
    yaten.manual_seed(0)
    m = yaten.nn.LazyLinear(200) if name == "LazyLinear" else yaten.nn.LazyConv2d(64, 3)
    m(yaten.ones(2, 50) if name == "LazyLinear" else yaten.ones(1, 6, 4, 4))
    fan_in = m.weight[0].numel()
    bound = 1 / math.sqrt(fan_in)  # kaiming_uniform_(a=sqrt(5)) and the bias share it
    w = m.weight.detach().numpy()
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.9 * bound
    assert abs(w.std() - bound / math.sqrt(3)) < 0.05 * bound
    assert np.abs(m.bias.detach().numpy()).max() <= bound


def test_lazy_batch_norm_initializes_ones_zeros_and_running_stats():
    y = yaten.nn.LazyBatchNorm2d()
    t = torch.nn.LazyBatchNorm2d()
    xy, xt = pair(4, 3, 2, 2)
    assert_matches(y(xy.float()), t(xt.float()))
    for (k, vy), (_, vt) in zip(y.state_dict().items(), t.state_dict().items()):
        assert_matches(vy, vt), k


def test_dtype_and_device_conversions_before_the_forward_are_kept():
    y = yaten.nn.LazyBatchNorm1d().double()
    t = torch.nn.LazyBatchNorm1d().double()
    assert type(y.running_mean).__name__ == type(t.running_mean).__name__ == "UninitializedBuffer"
    assert type(y.weight).__name__ == type(t.weight).__name__ == "UninitializedParameter"
    assert str(y.running_mean.dtype).split(".")[1] == str(t.running_mean.dtype).split(".")[1] == "float64"
    y(yaten.ones(2, 3, dtype=yaten.float64))
    assert all(v.dtype == yaten.float64 for k, v in y.state_dict().items() if k != "num_batches_tracked")
    lin = yaten.nn.LazyLinear(2, dtype=yaten.float64).cpu()
    lin(yaten.ones(1, 3, dtype=yaten.float64))
    assert lin.weight.dtype == yaten.float64


def test_loading_an_initialized_state_dict_materializes_and_later_forward_keeps_it():
    y, t = yaten.nn.LazyLinear(3), torch.nn.LazyLinear(3)
    source = torch.nn.Linear(4, 3)
    y.load_state_dict(_to_yaten(source.state_dict()))
    t.load_state_dict(source.state_dict())
    assert repr(y) == repr(t) and type(y).__name__ == "LazyLinear"
    assert tuple(y.weight.shape) == tuple(t.weight.shape) == (3, 4)
    xy, xt = pair(2, 4)
    assert_matches(y(xy.float()), t(xt.float()))
    assert_matches(y.weight, source.weight)  # the forward did not re-initialize it
    assert repr(y) == repr(t)


def test_a_lazy_state_dict_loads_into_a_lazy_module_and_not_into_an_initialized_one():
    y = yaten.nn.LazyLinear(3)
    assert repr(y.load_state_dict(yaten.nn.LazyLinear(3).state_dict())) == "<All keys matched successfully>"
    assert y.has_uninitialized_params()
    errors_alike(
        lambda: yaten.nn.Linear(2, 3).load_state_dict(yaten.nn.LazyLinear(3).state_dict()),
        lambda: torch.nn.Linear(2, 3).load_state_dict(torch.nn.LazyLinear(3).state_dict()),
    )


def test_using_an_uninitialized_parameter_raises_torchs_errors():
    py, pt = yaten.nn.UninitializedParameter(), torch.nn.UninitializedParameter()
    for use in (lambda p: p + 1, lambda p: p.sum(), lambda p: p.clone()):
        with pytest.raises(ValueError) as expected:
            use(pt)
        with pytest.raises(ValueError) as got:
            use(py)
        head, tail = str(expected.value).split(" in <", 1)
        assert str(got.value).startswith(head + " in <")
        assert str(got.value).endswith(tail.split(">", 1)[1])
    for use in (lambda p: p.shape, lambda p: p.share_memory_()):
        errors_alike(lambda use=use: use(py), lambda use=use: use(pt))
    for lib, p in ((yaten, py), (torch, pt)):  # ops and init refuse it before reading its shape
        with pytest.raises(ValueError, match="^Attempted to use an uninitialized parameter in <"):
            lib.nn.functional.linear(lib.ones(2, 2), p)
        with pytest.raises(ValueError, match="^Attempted to use an uninitialized parameter in <"):
            lib.nn.init.normal_(p)
    assert py.ndim == pt.ndim == 1 and py.is_leaf and pt.is_leaf  # attributes pass, as torch's
    # What torch allows: dtype, device, size, data, the conversions, repr.
    assert repr(py) == repr(pt) == "<UninitializedParameter>"
    assert tuple(py.size()) == tuple(pt.size()) == (0,)
    assert py.requires_grad and py.is_floating_point() and py.data.numel() == 0
    assert type(py.double()) is yaten.Tensor and py.double().dtype == yaten.float64


def test_materialize_turns_the_object_into_its_eager_class():
    p = yaten.nn.UninitializedParameter(requires_grad=False, dtype=yaten.float64)
    p.materialize((2, 3))
    assert type(p) is yaten.nn.Parameter and tuple(p.shape) == (2, 3)
    assert p.dtype == yaten.float64 and not p.requires_grad
    b = yaten.nn.UninitializedBuffer(persistent=False)
    assert isinstance(b, yaten.nn.Buffer) and not b.persistent
    b.materialize(4, dtype=yaten.float64)
    assert type(b) is yaten.Tensor and tuple(b.shape) == (4,) and b.dtype == yaten.float64


def test_deepcopy_and_pickle_keep_a_lazy_module_lazy():
    m = yaten.nn.LazyLinear(2)
    for clone in (copy.deepcopy(m), pickle.loads(pickle.dumps(m))):
        assert type(clone.weight) is yaten.nn.UninitializedParameter and clone.has_uninitialized_params()
        clone(yaten.ones(1, 5))
        assert repr(clone) == "Linear(in_features=5, out_features=2, bias=True)"
    assert m.has_uninitialized_params()


def test_lazy_errors_match_torch():
    errors_alike(
        lambda: yaten.nn.LazyConv2d(4, 3)(yaten.ones(3, 3)),
        lambda: torch.nn.LazyConv2d(4, 3)(torch.ones(3, 3)),
    )
    errors_alike(
        lambda: yaten.nn.LazyConv2d(4, 3, groups=2)(yaten.ones(1, 3, 5, 5)),
        lambda: torch.nn.LazyConv2d(4, 3, groups=2)(torch.ones(1, 3, 5, 5)),
    )
    errors_alike(
        lambda: yaten.nn.LazyBatchNorm2d()(yaten.ones(2, 3)),
        lambda: torch.nn.LazyBatchNorm2d()(torch.ones(2, 3)),
    )
    with pytest.raises(NotImplementedError, match="initialize_parameters is not implemented for Lazy"):

        class Lazy(yaten.nn.modules.lazy.LazyModuleMixin, yaten.nn.Module):
            def forward(self, x):
                return x

        Lazy()(yaten.ones(1))


def test_an_optimizer_steps_the_materialized_parameters():
    net = yaten.nn.Sequential(yaten.nn.LazyLinear(4), yaten.nn.ReLU(), yaten.nn.LazyLinear(1))
    net(yaten.ones(2, 3))
    opt = yaten.optim.SGD(net.parameters(), lr=0.1)
    before = net[0].weight.detach().clone()
    net(yaten.ones(2, 3)).sum().backward()
    opt.step()
    assert not yaten.equal(before, net[0].weight.detach())


def test_a_lazy_module_pickled_by_torch_loads_and_initializes_in_yaten(tmp_path):
    # Its forward pre-hook and load-hook handles travel in torch's RemovableHandle form.
    torch.save(torch.nn.Sequential(torch.nn.LazyLinear(3), torch.nn.LazyBatchNorm1d()), tmp_path / "lazy.pt")
    m = yaten.load(tmp_path / "lazy.pt", weights_only=False)
    assert type(m[0].weight) is yaten.nn.UninitializedParameter and m[0].has_uninitialized_params()
    m(yaten.ones(4, 5))
    assert (
        repr(m[0]) == "Linear(in_features=5, out_features=3, bias=True)"
        and type(m[1]) is yaten.nn.BatchNorm1d
    )
    assert not m[0]._forward_pre_hooks and not m[0]._load_state_dict_pre_hooks
