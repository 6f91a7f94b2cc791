"""The op table on the CUDA device: every op of the op table (tests/ops/op_samples.py) runs its samples
(float32) on ``cuda`` and must give the CPU's outputs and, where it is differentiable, the CPU's
gradients (under NUMBA_ENABLE_CUDASIM=1 without a GPU). That is every op with a ``CUDA:`` kernel in
spec/native_functions.yaml and every composite, which must run on cuda through ops that have one.
Pointwise ops have their own test (test_cuda_ops.py).
"""

import re
import sys
from pathlib import Path

import numpy as np
import pytest
from compare import assert_same

import yaten

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ops"))
from op_samples import EXPLICIT, NO_CUDA_KERNEL, NOT_SAMPLED, differentiable, function_of, functional_ops
from op_samples_linalg import CPU_ONLY

pytestmark = pytest.mark.skipif(not yaten.cuda.is_available(), reason="needs a GPU or NUMBA_ENABLE_CUDASIM=1")


CASES = [
    pytest.param(fn, sample, id=f"{fn.name}-{i}-{sample.label}")
    for fn in functional_ops()
    if fn.pointwise is None and fn.name not in NOT_SAMPLED
    for i, sample in enumerate(EXPLICIT.get(fn.name, []))
]


def _leaf(v, device, grad):
    if isinstance(v, np.ndarray):
        single = {"f": np.float32, "c": np.complex64}.get(v.dtype.kind, v.dtype)
        t = yaten.from_numpy(v.astype(single).copy(order="K")).to(device)
        return t.requires_grad_() if grad and (t.dtype.is_floating_point or t.dtype.is_complex) else t
    if isinstance(v, list):
        return [_leaf(x, device, grad) for x in v]
    if isinstance(v, str) and v in ("float32", "float64", "int64"):
        return getattr(yaten, v)
    return v


def _run(fn, sample, device, grad):
    args = [_leaf(a, device, grad) for a in sample.args]
    kwargs = {k: _leaf(v, device, False) for k, v in sample.kwargs.items()}
    if any(a.name == "device" for a in fn.schema.arguments.kwarg_only):  # a factory: made on the device
        kwargs["device"] = device
    name = fn.schema.name.name
    if sample.method or "function" not in fn.variants:
        out = getattr(args[0], name)(*args[1:], **kwargs)
    else:
        out = function_of(yaten, fn)(*args, **kwargs)
    return out, args


def _tensors(x):
    if isinstance(x, yaten.Tensor):
        return [x]
    if isinstance(x, (tuple, list)):
        return [t for v in x for t in _tensors(v)]
    return []


def _real_coordinates(t):
    return yaten.view_as_real(t) if t.is_complex() else t


def _same(got, want):
    for g, w in zip(_tensors(got), _tensors(want), strict=True):
        assert_same(g, w)


@pytest.mark.parametrize("fn, sample", CASES)
def test_cuda_op_matches_cpu(fn, sample):
    grad = sample.grad and differentiable(fn.name)
    try:
        want, cpu_args = _run(fn, sample, "cpu", grad)
    except (RuntimeError, NotImplementedError, TypeError, IndexError, ValueError) as e:
        with pytest.raises(type(e)):
            _run(fn, sample, "cuda", grad)
        return
    try:
        got, cuda_args = _run(fn, sample, "cuda", grad)
    except NotImplementedError as e:  # only a LAPACK op (no cuSOLVER here) or CTC may lack its cuda kernel
        assert re.match(
            rf"Could not run '({'|'.join(CPU_ONLY + NO_CUDA_KERNEL)})' with arguments from the 'CUDA' backend",
            str(e),
        )
        return
    _same(got, want)
    outputs = [(g, w) for g, w in zip(_tensors(got), _tensors(want)) if w.requires_grad]
    if not outputs:
        return
    # A complex output is summed by its real coordinates (a real loss; cuda sums no complex numbers).
    sum(_real_coordinates(w).sum() for _, w in outputs).backward()
    sum(_real_coordinates(g).sum() for g, _ in outputs).backward()
    for c, g in zip(_tensors(cpu_args), _tensors(cuda_args)):
        if c.requires_grad and c.grad is not None:
            _same(g.grad, c.grad)
