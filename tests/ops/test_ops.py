"""Every op of the spec against torch: forward values/dtypes/shapes, gradients, error types.

The samples come from ``op_samples`` (derived from each schema for pointwise ops), so adding a
YAML entry adds its tests; ``test_every_op_has_samples`` fails for an op nobody gave samples.
"""

import ml_dtypes
import numpy as np
import pytest
import torch
from op_samples import (
    BAD,
    EXPLICIT,
    NO_COMPLEX_AUTOGRAD_IN_TORCH,
    NOT_SAMPLED,
    SPEC,
    TORCH_NAME,
    differentiable,
    function_of,
    functional_ops,
    pointwise_samples,
)
from op_samples_linalg import fix_gauge

import yaten
from tests.tolerances import assert_close

# bfloat16 (ml_dtypes'): forward values only, computed in float32 and rounded once as torch's. Complex:
# every pointwise op, so an op that refuses complex raises torch's error; complex128 is gradchecked.
POINTWISE_DTYPES = (
    np.float32,
    np.float64,
    np.int64,
    np.int32,
    ml_dtypes.bfloat16,
    np.complex64,
    np.complex128,
)
_BF16 = np.dtype(ml_dtypes.bfloat16)


def _cases():
    cases = []
    for fn in functional_ops():
        if fn.name in NOT_SAMPLED:
            continue
        if fn.pointwise is not None:
            for dt in POINTWISE_DTYPES:
                for s in pointwise_samples(fn, dt):
                    cases.append(pytest.param(fn, s, id=f"{fn.name}-{np.dtype(dt).name}-{s.label}"))
        else:
            for i, s in enumerate(EXPLICIT.get(fn.name, [])):
                for dt in (np.float64, np.float32):
                    cases.append(
                        pytest.param(fn, _as_dtype(s, dt), id=f"{fn.name}-{i}-{np.dtype(dt).name}-{s.label}")
                    )
    return cases


def _as_dtype(sample, dt):
    def conv(v):
        if isinstance(v, np.ndarray) and v.dtype.kind == "f":
            return v.astype(dt, order="K")
        if isinstance(v, np.ndarray) and v.dtype.kind == "c":  # complex samples: complex64 with float32
            return v.astype(np.result_type(dt, np.complex64), order="K")
        if isinstance(v, list):
            return [conv(x) for x in v]
        return v

    return type(sample)(
        tuple(conv(a) for a in sample.args), sample.kwargs, sample.label, sample.method, sample.grad
    )


def _convert(v, lib, requires_grad=False):
    if isinstance(v, np.ndarray) and v.dtype == _BF16:  # neither library takes NumPy bfloat16 arrays
        return lib.from_numpy(v.astype(np.float32)).to(lib.bfloat16)
    if isinstance(v, np.ndarray):
        t = lib.from_numpy(v.copy(order="K"))
        if requires_grad and v.dtype.kind in "fc":
            t.requires_grad_()
        return t
    if isinstance(v, list):
        return [_convert(x, lib, requires_grad) for x in v]
    if isinstance(v, str) and v in ("float32", "float64", "int64"):
        return getattr(lib, v)
    return v


def _resolve(lib, path):
    obj = lib
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _call(lib, fn, sample, requires_grad=False):
    result, args = _invoke(lib, fn, sample, requires_grad)
    return fix_gauge(fn.name, result), args


def _invoke(lib, fn, sample, requires_grad=False):
    name = fn.schema.name.name
    args = [_convert(a, lib, requires_grad) for a in sample.args]
    kwargs = {k: _convert(v, lib) for k, v in sample.kwargs.items()}
    if sample.method or "function" not in fn.variants:
        return getattr(args[0], name)(*args[1:], **kwargs), args
    if lib is not torch or fn.python_module is not None:
        return function_of(lib, fn)(*args, **kwargs), args
    return _torch_function(fn.name, name)(*args, **kwargs), args


def _torch_function(overload: str, name: str):
    """torch's callable for an op: listed in TORCH_NAME, or found in torch, torch.nn.functional,
    torch.special (so that a new op's tests need no table entry when torch has it there)."""
    if overload in TORCH_NAME:
        return _resolve(torch, TORCH_NAME[overload])
    for space in (torch, torch.nn.functional, torch.special):
        if hasattr(space, name):
            return getattr(space, name)
    return _resolve(torch, name)  # raises torch's AttributeError


def _assert_same(y, t, what="output"):
    if isinstance(t, torch.Tensor):
        assert isinstance(y, yaten.Tensor), f"{what}: expected a Tensor, got {type(y).__name__}"
        assert str(t.dtype) == f"torch.{y.dtype.name}", f"{what}: dtype {y.dtype} vs {t.dtype}"
        assert tuple(y.shape) == tuple(t.shape), f"{what}: shape {tuple(y.shape)} vs {tuple(t.shape)}"
        assert_close(y, t, what)
    elif isinstance(t, (tuple, list)):
        assert len(y) == len(t), f"{what}: {len(y)} outputs vs {len(t)}"
        for i, (a, b) in enumerate(zip(y, t)):
            _assert_same(a, b, f"{what}[{i}]")
    else:
        assert y == t, f"{what}: {y!r} vs {t!r}"


CASES = _cases()


@pytest.mark.parametrize("fn, sample", CASES)
def test_forward_matches_torch(fn, sample):
    try:
        expected, _ = _call(torch, fn, sample)
    except Exception as e:
        with pytest.raises(type(e)):
            _call(yaten, fn, sample)
        return
    got, _ = _call(yaten, fn, sample)
    _assert_same(got, expected)


def _float64(sample):
    return _as_dtype(sample, np.float64)


def _flatten(args):
    for a in args:
        if isinstance(a, list):
            yield from a
        else:
            yield a


def _has_float_tensor(sample) -> bool:
    return any(isinstance(a, np.ndarray) and a.dtype.kind in "fc" for a in _flatten(sample.args))


def _grad_cases():
    out = []
    for p in CASES:
        fn, sample = p.values
        if not (differentiable(fn.name) and sample.grad and _has_float_tensor(sample)):
            continue
        complex_ = fn.pointwise is not None and fn.complex and fn.name not in NO_COMPLEX_AUTOGRAD_IN_TORCH
        if "float64" in p.id or (complex_ and "complex128" in p.id):
            out.append(p)
    return out


def _outputs(result):
    if isinstance(result, (tuple, list)):
        return [r for r in result if isinstance(r, (yaten.Tensor, torch.Tensor)) and r.requires_grad]
    return [result] if result.requires_grad else []


@pytest.mark.parametrize("fn, sample", _grad_cases())
def test_gradients_match_torch(fn, sample):
    t_out, t_args = _call(torch, fn, sample, requires_grad=True)
    y_out, y_args = _call(yaten, fn, sample, requires_grad=True)
    t_outs, y_outs = _outputs(t_out), _outputs(y_out)
    assert len(t_outs) == len(y_outs)
    if not t_outs:
        return
    rng = np.random.default_rng(1)
    # A complex output is weighed by its real coordinates (a real loss, as backward needs).
    t_outs = [torch.view_as_real(o.resolve_conj()) if o.is_complex() else o for o in t_outs]
    y_outs = [yaten.view_as_real(o) if o.is_complex() else o for o in y_outs]
    weights = [rng.standard_normal(tuple(o.shape)) for o in t_outs]
    sum(((o * torch.from_numpy(w)).sum() for o, w in zip(t_outs, weights)), torch.zeros(())).backward()
    total = None
    for o, w in zip(y_outs, weights):
        term = (o * yaten.from_numpy(w)).sum()
        total = term if total is None else total + term
    total.backward()
    flat_t = [a for a in _flatten(t_args) if isinstance(a, torch.Tensor) and a.requires_grad]
    flat_y = [a for a in _flatten(y_args) if isinstance(a, yaten.Tensor) and a.requires_grad]
    for i, (ty, yy) in enumerate(zip(flat_t, flat_y)):
        if ty.grad is None:
            assert yy.grad is None or not yy.grad.numpy().any(), f"input {i}: torch has no grad"
            continue
        assert yy.grad is not None, f"input {i}: yaten computed no gradient"
        _assert_same(yy.grad, ty.grad, f"grad of input {i}")


def _checked_function(fn, sample):
    """``(func, inputs)`` for gradcheck: func takes the sample's float tensors (requiring grad) positionally."""
    args = [_convert(a, yaten, requires_grad=True) for a in sample.args]
    kwargs = {k: _convert(v, yaten) for k, v in sample.kwargs.items()}
    name = fn.schema.name.name
    flat = [a for a in _flatten(args) if isinstance(a, yaten.Tensor) and a.requires_grad]

    def func(*tensors):
        it = iter(tensors)
        rebuilt = [[next(it) if isinstance(x, yaten.Tensor) and x.requires_grad else x for x in a]
                   if isinstance(a, list) else (next(it) if isinstance(a, yaten.Tensor) and a.requires_grad else a)
                   for a in args]  # fmt: skip
        if sample.method or "function" not in fn.variants:
            return getattr(rebuilt[0], name)(*rebuilt[1:], **kwargs)
        return function_of(yaten, fn)(*rebuilt, **kwargs)

    return func, tuple(flat)


@pytest.mark.parametrize("fn, sample", [p for p in _grad_cases() if "empty" not in p.id])
def test_gradcheck(fn, sample):
    func, inputs = _checked_function(fn, sample)
    assert yaten.autograd.gradcheck(func, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)


def _gradgrad_cases():
    """The gradcheck cases but the empty samples: every differentiable op of the table differentiates
    twice (in PyTorch too)."""
    return [p for p in _grad_cases() if "empty" not in p.id]


@pytest.mark.parametrize("fn, sample", _gradgrad_cases())
def test_gradgradcheck(fn, sample):
    func, inputs = _checked_function(fn, sample)
    # Not vacuous: the first backward, with create_graph, gives gradients for gradgradcheck to check.
    result = func(*inputs)
    outs = [o for o in (result if isinstance(result, (tuple, list)) else [result]) if o.requires_grad]
    grads = yaten.autograd.grad(
        outs, inputs, [yaten.ones_like(o) for o in outs], create_graph=True, allow_unused=True
    )
    assert any(g is not None for g in grads), "no gradient reached the inputs"
    yaten.manual_seed(0)  # the random grad_outputs
    assert yaten.autograd.gradgradcheck(func, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)


def test_every_op_has_samples():
    missing = [fn.name for fn in functional_ops()
               if fn.pointwise is None and not EXPLICIT.get(fn.name) and fn.name not in NOT_SAMPLED]  # fmt: skip
    assert not missing, f"add samples for these ops to tests/ops/op_samples.py: {missing}"


@pytest.mark.parametrize(
    "fn, sample",
    [pytest.param(fn, s, id=f"{fn.name}-{s.label}") for fn in functional_ops() for s in BAD.get(fn.name, [])],
)
def test_bad_inputs_raise_what_torch_raises(fn, sample):
    with pytest.raises(Exception) as expected:
        _call(torch, fn, sample)
    with pytest.raises(expected.type):
        _call(yaten, fn, sample)


def test_every_bad_input_names_a_spec_op():
    names = {fn.name for fn in functional_ops()}
    assert set(BAD) <= names, f"BAD lists ops the spec lacks: {set(BAD) - names}"


def _variants(kind):
    """(variant, functional) pairs of the spec's in-place or out= overloads that have samples."""
    by_name = {fn.name: fn for fn in functional_ops()}
    out = []
    for fn in SPEC.functions:
        if fn.schema.kind() != kind:
            continue
        base = fn.schema.name.name.rstrip("_") if kind == "inplace" else fn.schema.name.name
        args = [str(a) for a in fn.schema.arguments.positional + fn.schema.arguments.kwarg_only]
        for cand in by_name.values():
            cargs = [str(a) for a in cand.schema.arguments.positional + cand.schema.arguments.kwarg_only]
            same = cargs == [a.replace("Tensor(a!) self", "Tensor self") for a in args]
            if cand.schema.name.name == base and same:
                out.append((fn, cand))
                break
    return out


def _variant_cases(kind):
    cases = []
    for fn, functional in _variants(kind):
        if functional.pointwise is not None:  # an integer-only op (bitwise_not) is sampled on int64
            samples = pointwise_samples(
                functional, np.int64 if functional.dtypes == "integral" else np.float32
            )
        else:
            samples = [_as_dtype(s, np.float32) for s in EXPLICIT.get(functional.name, [])]
        for s in samples:
            cases.append(pytest.param(fn, functional, s, id=f"{fn.name}-{s.label}"))
    return cases


@pytest.mark.parametrize("fn, functional, sample", _variant_cases("inplace"))
def test_inplace_variant_matches_torch(fn, functional, sample):
    name = fn.schema.name.name
    results = []
    for lib in (torch, yaten):
        args = [_convert(a, lib) for a in sample.args]
        kwargs = {k: _convert(v, lib) for k, v in sample.kwargs.items()}
        try:
            returned = getattr(args[0], name)(*args[1:], **kwargs)
        except Exception as e:  # the types are compared below
            results.append(type(e))
            continue
        assert returned is args[0], "an in-place op returns self"
        results.append(args[0])
    if isinstance(results[0], type):
        assert results[1] is results[0] or issubclass(results[1], results[0]), results
        return
    assert not isinstance(results[1], type), f"yaten raised {results[1]}, torch did not"
    _assert_same(results[1], results[0])
    assert results[1]._version == 1


@pytest.mark.parametrize("fn, functional, sample", _variant_cases("out"))
def test_out_variant_matches_torch(fn, functional, sample):
    expected, _ = _call(torch, functional, sample)
    args = [_convert(a, yaten) for a in sample.args]
    kwargs = {k: _convert(v, yaten) for k, v in sample.kwargs.items()}
    out = yaten.empty(tuple(expected.shape), dtype=getattr(yaten, str(expected.dtype).split(".")[1]))
    returned = function_of(yaten, functional)(*args, **kwargs, out=out)
    assert returned is out
    _assert_same(out, expected)


def test_out_variant_rejects_a_narrower_dtype():
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        yaten.add(yaten.ones(2), yaten.ones(2), out=yaten.zeros(2, dtype=yaten.int64))


@pytest.mark.parametrize(
    "fn, functional, sample",
    [
        p
        for p in _variant_cases("inplace")
        if differentiable(p.values[1].name)
        and p.values[2].label == "contiguous"
        and sum(isinstance(a, np.ndarray) for a in p.values[2].args) > 1
    ],
)
def test_inplace_gradient_reads_self_from_before_the_write(fn, functional, sample):
    """self does not require grad, another operand does: its gradient needs self's old value."""
    name = fn.schema.name.name
    grads = []
    for lib in (torch, yaten):
        args = [_convert(a.astype(np.float64), lib) if isinstance(a, np.ndarray) else a for a in sample.args]
        for a in args[1:]:
            if isinstance(a, (torch.Tensor, yaten.Tensor)):
                a.requires_grad_()
        kwargs = {k: _convert(v, lib) for k, v in sample.kwargs.items()}
        getattr(args[0], name)(*args[1:], **kwargs).sum().backward()
        grads.append([a.grad for a in args[1:] if isinstance(a, (torch.Tensor, yaten.Tensor))])
    for t, y in zip(*grads):
        _assert_same(y, t, "gradient of the other operand")
