"""Every op on torch's CPU autocast lists that yaten has, against torch under ``autocast("cpu")``: the
output dtypes (lowered, float32 or promoted), shapes and values, from the op table's samples given as
float32 and as bfloat16 inputs, for bfloat16 and float16 regions."""

import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
import torch

import yaten
from tests.tolerances import assert_close

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ops"))
from op_samples import EXPLICIT, SPEC
from test_ops import _as_dtype, _call

_AUTOCAST_CPU = {fn.name: dict(fn.autocast)["cpu"] for fn in SPEC.functions if "cpu" in dict(fn.autocast)}


def test_the_spec_marks_torchs_cpu_list():
    """Each spec op torch's AutocastCPU kernel registry names carries ``autocast: {cpu: ...}``, and no
    other op does."""
    registered = {
        n.removeprefix("aten::") for n in torch._C._dispatch_get_registrations_for_dispatch_key("AutocastCPU")
    }
    spec_names = {fn.name for fn in SPEC.functions}
    in_spec = {n for n in registered if n in spec_names}
    assert set(_AUTOCAST_CPU) == in_spec


def _cases():
    cases = []
    for fn in SPEC.functions:
        if fn.name not in _AUTOCAST_CPU:
            continue
        for i, s in enumerate(EXPLICIT.get(fn.name, [])[:2]):
            for inputs in ("float32", "bfloat16"):
                for region in ("bfloat16", "float16"):
                    cases.append(
                        pytest.param(fn, s, inputs, region, id=f"{fn.name}-{i}-{inputs}-in-{region}")
                    )
    return cases


def _run(lib, fn, sample, region):
    with lib.autocast("cpu", dtype=getattr(lib, region)):
        return _call(lib, fn, sample)[0]


def _compare(got, want, what="output"):
    if isinstance(want, torch.Tensor):
        assert str(want.dtype) == f"torch.{got.dtype.name}", f"{what}: dtype {got.dtype} vs {want.dtype}"
        assert tuple(got.shape) == tuple(want.shape), what
        if want.dtype.is_floating_point or want.dtype.is_complex:
            # one rounding to bfloat16 either side, of sums accumulated in another order: two ulps
            assert_close(got, want.to(torch.float32 if want.dtype in (torch.bfloat16, torch.float16) else want.dtype),
                         what, rtol=2e-2, atol=2e-2)  # fmt: skip
        else:
            assert_close(got, want, what)
    elif isinstance(want, (tuple, list)):
        assert len(got) == len(want), what
        for i, (g, w) in enumerate(zip(got, want)):
            _compare(g, w, f"{what}[{i}]")


@pytest.mark.parametrize("fn, sample, inputs, region", _cases())
def test_autocast_matches_torch(fn, sample, inputs, region):
    sample = _as_dtype(sample, ml_dtypes.bfloat16 if inputs == "bfloat16" else np.float32)
    try:
        want = _run(torch, fn, sample, region)
    except (RuntimeError, TypeError, ValueError, NotImplementedError, IndexError) as e:
        with pytest.raises(type(e)):
            _run(yaten, fn, sample, region)
        return
    got = _run(yaten, fn, sample, region)
    _compare(got, want)
