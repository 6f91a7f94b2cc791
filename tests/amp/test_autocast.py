"""autocast regions against torch: state functions, nesting, enabled=False, decorators, threads, the
weight cache, backward dtypes, custom_fwd/custom_bwd, deprecated forms and argument errors."""

import threading
import warnings

import numpy as np
import pytest
import torch

import yaten
from tests.runtime.parity import same
from tests.tolerances import assert_close
from yaten import _autocast


def _pair(lib, *shape, seed=0, requires_grad=False):
    a = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return lib.from_numpy(a).requires_grad_(requires_grad)


def _dtypes(lib):
    """Output dtypes of a mix of listed and unlisted ops, in nested regions."""
    x, w = _pair(lib, 3, 4), _pair(lib, 5, 4, seed=1)
    out = []
    with lib.autocast("cpu"):
        h = lib.nn.functional.linear(x, w)
        out += [
            h.dtype,
            lib.relu(h).dtype,
            (h + 1).dtype,
            lib.nn.functional.mse_loss(h, lib.zeros(3, 5)).dtype,
        ]
        out += [
            lib.cat([h, x @ w.t()]).dtype,
            lib.cat([h, h.float()]).dtype,
            h.sum().dtype,
            h.softmax(-1).dtype,
        ]
        out += [lib.is_autocast_enabled("cpu"), lib.get_autocast_dtype("cpu")]
        with lib.autocast("cpu", enabled=False):
            out += [(x @ w.t()).dtype, lib.is_autocast_enabled("cpu")]
            with lib.autocast("cpu", dtype=lib.float16):
                out += [(x @ w.t()).dtype, lib.get_autocast_dtype("cpu")]
        out += [(x @ w.t()).dtype, lib.get_autocast_dtype("cpu"), (x.double() @ w.t().double()).dtype]
    out += [(x @ w.t()).dtype, lib.is_autocast_enabled("cpu"), lib.is_autocast_enabled()]
    return [str(d).rpartition(".")[2] for d in out]


def test_region_dtypes_match_torch():
    assert _dtypes(yaten) == _dtypes(torch)


def test_decorator_and_exception_restore_state():
    for lib in (torch, yaten):

        @lib.autocast("cpu")
        def product(a):
            return a @ a

        assert product(lib.ones(2, 2)).dtype == lib.bfloat16
        assert not lib.is_autocast_enabled("cpu")
        with pytest.raises(KeyError), lib.autocast("cpu"):
            raise KeyError("boom")
        assert not lib.is_autocast_enabled("cpu")
        assert lib.autocast_increment_nesting() == 1 and lib.autocast_decrement_nesting() == 0


def test_state_is_per_thread():
    seen = []
    with yaten.autocast("cpu"):
        t = threading.Thread(
            target=lambda: seen.append(
                (yaten.is_autocast_enabled("cpu"), (yaten.ones(2, 2) @ yaten.ones(2, 2)).dtype)
            )
        )
        t.start()
        t.join()
        here = (yaten.ones(2, 2) @ yaten.ones(2, 2)).dtype
    assert seen == [(False, yaten.float32)] and here == yaten.bfloat16


def test_weight_casts_are_cached_inside_a_region():
    w = yaten.nn.Parameter(yaten.ones(3, 2))
    x = yaten.ones(4, 2)
    with yaten.autocast("cpu"):
        a = yaten.nn.functional.linear(x, w)
        b = yaten.nn.functional.linear(x, w)
        assert len(_autocast.STATE.cache) == 1  # one cast of w, shared by both products
        assert (
            a.grad_fn.next_functions[1][0].next_functions[0][0]
            is b.grad_fn.next_functions[1][0].next_functions[0][0]
        )
        with yaten.autocast("cpu", cache_enabled=False):
            yaten.nn.functional.linear(x, yaten.nn.Parameter(yaten.ones(3, 2)))
        assert len(_autocast.STATE.cache) == 1
        yaten.nn.functional.linear(x, w.detach())  # not a leaf that requires grad: not cached
        assert len(_autocast.STATE.cache) == 1
    assert not _autocast.STATE.cache
    with yaten.autocast("cpu"):
        with yaten.no_grad():  # a cast without history is not cached
            yaten.nn.functional.linear(x, w)
        assert yaten.nn.functional.linear(x, w).requires_grad
    assert not _autocast.STATE.cache  # the outermost region clears it


def _train_step_grads(lib):
    w = _pair(lib, 5, 4, seed=1, requires_grad=True)
    b = _pair(lib, 5, seed=2, requires_grad=True)
    x = _pair(lib, 3, 4)
    with lib.autocast("cpu"):
        h = lib.nn.functional.linear(x, w, b)
        loss = lib.nn.functional.cross_entropy(h, lib.tensor([0, 1, 4]))
    names = []
    node = loss.grad_fn
    while node is not None:
        names.append(type(node).__name__)
        node = next((n for n, _ in node.next_functions if n is not None), None)
    loss.backward()
    return h.dtype, loss.dtype, w.grad, b.grad, names


def test_backward_runs_in_the_forward_dtypes():
    ty, tl, tw, tb, tnames = _train_step_grads(torch)
    yy, yl, yw, yb, ynames = _train_step_grads(yaten)
    assert (str(yy), str(yl)) == ("yaten.bfloat16", "yaten.float32") and (str(ty), str(tl)) == (
        "torch.bfloat16",
        "torch.float32",
    )
    assert yw.dtype == yaten.float32 and yb.dtype == yaten.float32
    assert "ToCopyBackward0" in ynames and "ToCopyBackward0" in tnames
    assert_close(yw, tw, "weight grad", rtol=2e-2, atol=2e-2)  # the product ran in bfloat16 on both sides
    assert_close(yb, tb, "bias grad", rtol=2e-2, atol=2e-2)


def _custom(lib):
    class Scale(lib.autograd.Function):
        @staticmethod
        @lib.amp.custom_fwd(device_type="cpu", cast_inputs=lib.float32)
        def forward(ctx, x, w):
            ctx.save_for_backward(x, w)
            return x @ w, lib.is_autocast_enabled("cpu")

        @staticmethod
        @lib.amp.custom_bwd(device_type="cpu")
        def backward(ctx, g, _):
            x, w = ctx.saved_tensors
            return g @ w.t(), x.t() @ g

    class Plain(lib.autograd.Function):
        @staticmethod
        @lib.amp.custom_fwd(device_type="cpu")
        def forward(ctx, x):
            return x @ x, lib.is_autocast_enabled("cpu")

        @staticmethod
        @lib.amp.custom_bwd(device_type="cpu")
        def backward(ctx, g, _):
            return g, lib.is_autocast_enabled("cpu")

    x = _pair(lib, 2, 2, requires_grad=True)
    w = _pair(lib, 2, 2, seed=1, requires_grad=True)
    with lib.autocast("cpu"):
        y, inside = Scale.apply(x.bfloat16(), w)
        z, plain_inside = Plain.apply(x)
    y.float().sum().backward()
    return str(y.dtype).rpartition(".")[2], inside, str(z.dtype).rpartition(".")[2], plain_inside, x.grad


def test_custom_fwd_and_bwd_match_torch():
    *want, tgrad = _custom(torch)
    *got, ygrad = _custom(yaten)
    assert got == want == ["float32", False, "bfloat16", True]
    assert_close(ygrad, tgrad, rtol=2e-2, atol=2e-2)


def _warnings(lib):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lib.cpu.amp.autocast()
        lib.cuda.amp.autocast(enabled=False)
        lib.cuda.amp.custom_bwd(lambda ctx, g: g)
        lib.cuda.amp.custom_fwd(cast_inputs=lib.float32)
        lib.is_autocast_cpu_enabled()
        lib.get_autocast_cpu_dtype()
        lib.get_autocast_gpu_dtype()
        lib.autocast("cpu", dtype=lib.float32)
    return [(w.category.__name__, str(w.message).split(" (Triggered internally")[0]) for w in caught]


def test_deprecated_forms_and_unsupported_dtypes_warn_as_torchs():
    assert _warnings(yaten) == _warnings(torch)


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.autocast("foo"),
        lambda lib: lib.autocast(1),
        lambda lib: lib.is_autocast_enabled(1),
        lambda lib: lib.get_autocast_dtype("foo"),
        lambda lib: lib.set_autocast_enabled("cpu"),
        lambda lib: lib.autocast("cpu")(3),
        lambda lib: lib.amp.is_autocast_available("foo"),
        lambda lib: lib.amp.custom_fwd(device_type=1),
    ],
    ids=[
        "device",
        "device type",
        "is_enabled arg",
        "get_dtype device",
        "set_enabled arg",
        "decorate",
        "available",
        "custom_fwd",
    ],
)
def test_errors_match_torch(call):
    result = same(call)
    assert isinstance(result[0], type) and issubclass(result[0], Exception), result


def test_state_functions_match_torch():
    for lib in (torch, yaten):
        assert [lib.amp.is_autocast_available(d) for d in ("cpu", "cuda", "xpu", "meta")] == [
            True,
            True,
            True,
            False,
        ]
        assert (lib.get_autocast_dtype("cpu"), lib.get_autocast_dtype("cuda")) == (lib.bfloat16, lib.float16)
        lib.set_autocast_dtype("cpu", lib.float16)
        lib.set_autocast_enabled("cpu", True)
        assert (lib.ones(2, 2) @ lib.ones(2, 2)).dtype == lib.float16
        lib.set_autocast_enabled("cpu", False)
        lib.set_autocast_dtype("cpu", lib.bfloat16)
        lib.set_autocast_cache_enabled(False)
        assert not lib.is_autocast_cache_enabled()
        lib.set_autocast_cache_enabled(True)
        lib.clear_autocast_cache()


def _legacy_state_calls(lib):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = [
            lib.is_autocast_xla_enabled(),
            lib.get_autocast_ipu_dtype(),
            lib.set_autocast_ipu_enabled(True),
            lib.is_autocast_ipu_enabled(),
            lib.set_autocast_ipu_enabled(False),
            lib.set_autocast_xla_dtype(lib.float16),
            lib.get_autocast_xla_dtype(),
            lib.set_autocast_xla_dtype(lib.bfloat16),
            lib.set_autocast_cpu_enabled(True),
            lib.is_autocast_cpu_enabled(),
            lib.set_autocast_cpu_enabled(False),
            lib.set_autocast_gpu_dtype(lib.bfloat16),
            lib.get_autocast_dtype("cuda"),
            lib.set_autocast_cpu_dtype(lib.float16),
            lib.get_autocast_dtype("cpu"),
        ]
        lib.set_autocast_gpu_dtype(lib.float16)
        lib.set_autocast_cpu_dtype(lib.bfloat16)
    return results, [(w.category.__name__, str(w.message).split(" (Triggered internally")[0]) for w in caught]


def test_deprecated_per_device_state_functions_match_torch():
    assert same(_legacy_state_calls)[1][1]  # the warnings are there, the same in both
